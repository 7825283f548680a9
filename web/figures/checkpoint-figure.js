// The checkpoint figure (docs/checkpoints.md): a file's position tables as each head's bias
// against offset (symmetric log axis to ±256), encoder and decoder side by side; beside them the
// shapes of the training section's model's and the handbook's profiles; under each part a table of
// each head's softmax mass left / self / right of the bias alone; a caption from the numbers.
import { formatFixed } from '../render/number-text.js';
import { drawLineChart } from '../render/line-chart.js';
import { symlogAxes } from '../render/symlog-axes.js';
import { MASS_WINDOW, checkpointCaption, headMasses, headSeries } from '../views/checkpoint-view.js';

/** Okabe–Ito, distinguishable with colour-blindness; heads past eight are dashed. */
const COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#7f7f7f', '#f0e442'];
const REACH = 256;

export const CHECKPOINT_CSS = `
.relpos-checkpoint { display: grid; gap: 0.8rem; }
.relpos-checkpoint .checkpoint-parts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 380px), 1fr)); gap: 0.8rem; }
.relpos-checkpoint figure { margin: 0; padding: 0.6rem; border: 1px solid var(--relpos-border, #ccc); border-radius: 6px; background: var(--relpos-panel, transparent); min-width: 0; }
.relpos-checkpoint figure[hidden] { display: none; }
.relpos-checkpoint h4 { font-size: 0.95rem; margin: 0 0 0.3rem; }
.relpos-checkpoint canvas { display: block; }
.relpos-checkpoint .checkpoint-wrap { width: 100%; min-width: 0; }
.relpos-checkpoint table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 0.85rem; width: 100%; margin-top: 0.4rem; }
.relpos-checkpoint th, .relpos-checkpoint td { padding: 0.1rem 0.25rem; text-align: right; border-bottom: 1px solid var(--relpos-grid, #ddd); }
.relpos-checkpoint th:first-child, .relpos-checkpoint td:first-child { text-align: left; }
.relpos-checkpoint .mass { display: flex; height: 0.7rem; min-width: 2.5rem; border-radius: 2px; overflow: hidden; }
.relpos-checkpoint .mass span { display: block; height: 100%; }
.relpos-checkpoint .mass .left { background: #0072b2; }
.relpos-checkpoint .mass .self { background: var(--relpos-muted, #888); }
.relpos-checkpoint .mass .right { background: #d55e00; }
.relpos-checkpoint .checkpoint-caption, .relpos-checkpoint .checkpoint-rule { font-size: 0.9rem; margin: 0.3rem 0; }
.relpos-checkpoint .checkpoint-rule { overflow-wrap: anywhere; }
.relpos-checkpoint td:first-child { white-space: nowrap; }
`;

function make(doc, tag, props = {}, children = []) {
  const node = doc.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else if (key === 'className') node.className = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

/** The figure's DOM in `doc`: { root, parts: { encoder, decoder }, compare, caption }. */
export function createCheckpointFigure(doc, idPrefix = 'checkpoint') {
  const part = (id, title) => {
    const heading = make(doc, 'h4', { text: title });
    const wrap = make(doc, 'div', { className: 'checkpoint-wrap' });
    const canvas = make(doc, 'canvas', { role: 'img', 'aria-label': `${title}: each head's bias against offset` });
    wrap.append(canvas);
    const rule = make(doc, 'p', { className: 'checkpoint-rule' });
    const table = make(doc, 'table', { id: `${idPrefix}-${id}-mass` });
    const figure = make(doc, 'figure', { id: `${idPrefix}-${id}` }, [heading, wrap, rule, table]);
    figure.hidden = true;
    return { figure, heading, canvas, rule, table };
  };
  const encoder = part('encoder', 'Encoder: bias against offset j − i');
  const decoder = part('decoder', 'Decoder: bias against offset j − i');
  const compare = part('compare', 'Beside it: the model above and the handbook’s simulation');
  compare.table.remove();
  const caption = make(doc, 'p', { className: 'checkpoint-caption', id: `${idPrefix}-caption`, 'aria-live': 'polite' });
  const root = make(doc, 'div', { className: 'relpos-checkpoint' }, [
    make(doc, 'div', { className: 'checkpoint-parts' }, [encoder.figure, decoder.figure, compare.figure]),
    caption,
  ]);
  return { root, parts: { encoder, decoder }, compare, caption };
}

function massTable(doc, table, masses, window) {
  const rows = masses.map((m, h) => {
    const bar = make(doc, 'div', { className: 'mass', 'aria-hidden': 'true' }, [
      make(doc, 'span', { className: 'left', style: `width:${(m.left * 100).toFixed(1)}%` }),
      make(doc, 'span', { className: 'self', style: `width:${(m.self * 100).toFixed(1)}%` }),
      make(doc, 'span', { className: 'right', style: `width:${(m.right * 100).toFixed(1)}%` }),
    ]);
    return make(doc, 'tr', {}, [
      make(doc, 'td', { text: `head ${h}` }),
      make(doc, 'td', { text: formatFixed(m.left, 2) }),
      make(doc, 'td', { text: formatFixed(m.self, 2) }),
      make(doc, 'td', { text: table.bidirectional ? formatFixed(m.right, 2) : '—' }),
      make(doc, 'td', { text: formatFixed(m.meanDistance, 1) }),
      make(doc, 'td', {}, [bar]),
    ]);
  });
  const range = table.bidirectional ? `−${window}…${window}` : `−${window}…0`;
  return [
    make(doc, 'caption', {
      text: `Softmax of each head's bias alone over offsets ${range}: the share of attention it would put before the query (left), on it (self) and after it (right), and the mean distance.`,
    }),
    make(
      doc,
      'tr',
      {},
      ['head', 'left', 'self', 'right', 'mean distance', ''].map((t) => make(doc, 'th', { text: t })),
    ),
    ...rows,
  ];
}

const scaledToOne = (y) => {
  const m = Math.max(...y.map(Math.abs)) || 1;
  return y.map((v) => v / m);
};

/** A series' points at offsets within ±REACH (and, with `pastOnly`, at offsets ≤ 0). */
function withinReach(s, pastOnly = false) {
  const keep = s.x.map((c) => Math.abs(c) <= REACH && (!pastOnly || c <= 0));
  return { ...s, x: s.x.filter((_, i) => keep[i]), y: s.y.filter((_, i) => keep[i]) };
}

/** Lines against offset on the symmetric log axis to ±REACH, thin and unmarked, 240 px and a legend row tall. */
function drawOffsetPlot(canvas, { series, marks = [], yLabel }) {
  drawLineChart(canvas, {
    series,
    axes: symlogAxes({ reach: REACH, marks }),
    xLabel: 'offset j − i (symmetric log scale)',
    yLabel,
    height: 254,
    lineWidth: 1.8,
    points: false,
  });
}

/**
 * Draws `tables` (checkpointPositions' entries; the first of each part is drawn) into the parts;
 * `beside`: [{ label, x, y }] profiles (the training section's model's, the handbook's) drawn by shape
 * with the file's mean encoder head (null: no such figure, as in <relpos-profile src>), and
 * `besideText`, what the caller says of them (which model, trained how far, on what). Returns the caption's text.
 */
export function drawCheckpointFigure(parts, tables, { beside = null, besideText = '', window = MASS_WINDOW } = {}) {
  const doc = parts.root.ownerDocument;
  const shown = [];
  // Every figure shown or hidden first, so that each canvas is drawn at its final column's width.
  for (const name of ['encoder', 'decoder']) parts.parts[name].figure.hidden = !tables.some((t) => t.part === name);
  parts.compare.figure.hidden = tables.length === 0 || beside === null;
  for (const name of ['encoder', 'decoder']) {
    const p = parts.parts[name];
    const all = tables.filter((t) => t.part === name);
    const table = all[0];
    if (!table) continue;
    shown.push(table);
    const series = Array.from({ length: table.heads }, (_, h) => ({
      label: `head ${h}`,
      ...withinReach(headSeries(table, h), !table.bidirectional),
      colour: COLOURS[h % COLOURS.length],
      dashed: h >= COLOURS.length,
    }));
    const marks = table.maxDistance ? [-table.maxDistance, ...(table.bidirectional ? [table.maxDistance] : [])] : [];
    drawOffsetPlot(p.canvas, {
      series,
      marks,
      yLabel: table.scheme === 't5' ? 'bias added to the score' : 'mean position bias',
    });
    p.heading.textContent = `${name === 'encoder' ? 'Encoder' : 'Decoder'}: bias against offset j − i${
      all.length > 1 ? ` (block ${table.layer}; ${all.length} tables in this part)` : ''
    }`;
    p.rule.textContent = `${table.tensor}: ${table.rule}.`;
    p.table.replaceChildren(...massTable(doc, table, headMasses(table, window), window));
  }
  const encoder = shown.find((t) => t.bidirectional) ?? shown[0];
  parts.compare.figure.hidden = !encoder || beside === null;
  if (encoder && beside !== null) {
    const count = encoder.offsets.length;
    const mean = Array.from(encoder.offsets, (_, o) => {
      let sum = 0;
      for (let h = 0; h < encoder.heads; h += 1) sum += encoder.bias[h * count + o];
      return sum / encoder.heads;
    });
    const series = [
      {
        label: `this file (${encoder.part}, mean of ${encoder.heads} heads)`,
        ...withinReach({ x: Array.from(encoder.offsets), y: scaledToOne(mean) }),
        colour: COLOURS[0],
      },
      ...beside.map((b, i) => ({
        label: b.label,
        ...withinReach({ x: b.x, y: scaledToOne(b.y) }),
        colour: COLOURS[(i + 1) % COLOURS.length],
        dashed: i > 0,
      })),
    ];
    drawOffsetPlot(parts.compare.canvas, { series, yLabel: 'shape (each ÷ its largest |value|)' });
    parts.compare.rule.textContent = `Shapes only: each curve divided by its own largest |value|. ${besideText}`.trim();
  }
  const text = checkpointCaption(shown, window);
  parts.caption.textContent = text;
  return text;
}
