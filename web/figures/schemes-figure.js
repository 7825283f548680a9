// The position schemes side by side (docs/schemes.md): one column per scheme (its position-bias panel,
// its combined weights and its profile over offsets, with the shift experiment's result), the
// static facts (T5's bucket map, ALiBi's slopes, RoPE's angle per pair) and a table whose every
// cell is a number the view computed (schemes-view.js). Its heatmaps read a cell as the panels do
// (schemes-reading.js, loaded when a pointer or the focus first comes into the figure): hover, tap
// or focus one, the tooltip says it and the cells of its offset j − i are outlined. Built with DOM
// calls only.
import { drawHeatmap } from '../render/heatmap.js';
import { drawLinePlot } from '../render/line-plot.js';
import { drawScatterPlot } from '../render/scatter-plot.js';
import { fitCanvas } from '../render/canvas-size.js';
import { keepCaptionHeights } from './caption-room.js';
import { colourTable, extentOf, makeScale } from '../render/colormaps.js';
import { themeColours } from './theme-colours.js';
import { setMathText } from './math-dom.js';
import { formatSignificant } from '../render/number-text.js';
import { T5_VIEW, ALIBI_HEADS } from '../views/schemes-view.js';
import { ROPE_DEFAULTS } from '../api/defaults.js';

const el = (doc, tag, className, text) => {
  const node = doc.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

// A titled canvas: heading, caption (math notation), canvas in a wrapper.
function canvasBlock(doc, title, kind) {
  const block = el(doc, 'div', 'schemes-block');
  const heading = el(doc, 'h4', '', title);
  const caption = el(doc, 'p', 'schemes-caption');
  const wrap = el(doc, 'div', 'schemes-canvas-wrap');
  const canvas = el(doc, 'canvas');
  canvas.setAttribute('role', 'img');
  canvas.dataset.panel = kind;
  wrap.append(canvas);
  block.append(heading, wrap, caption);
  return { block, caption, canvas };
}

/** The view's DOM inside `container`: columns, facts and the table (filled by drawSchemesFigure). */
export function createSchemesFigure(container) {
  const doc = container.ownerDocument;
  const columns = el(doc, 'div', 'schemes-columns');
  const facts = el(doc, 'div', 'schemes-facts');
  const bucketMap = canvasBlock(doc, 'T5’s bucket map', 'buckets');
  const slopes = canvasBlock(doc, 'ALiBi’s slope per head', 'slopes');
  const angles = canvasBlock(doc, 'RoPE’s angle per pair', 'angles');
  facts.append(bucketMap.block, slopes.block, angles.block);
  const options = el(doc, 'div', 'schemes-options');
  const sharedLabel = el(doc, 'label', 'schemes-shared');
  const shared = el(doc, 'input');
  shared.type = 'checkbox';
  shared.id = 'schemes-shared-scale';
  // Off at first: the schemes' biases differ in size by an order of magnitude, so on one scale
  // all but the largest would be near white; each column's caption says its own range.
  shared.checked = false;
  sharedLabel.append(
    shared,
    ' One colour scale for every column’s position biases (off: each its own, as its caption says)',
  );
  options.append(sharedLabel);
  const table = el(doc, 'table', 'schemes-table');
  const caption = el(doc, 'caption', '', 'What each scheme does, as computed above');
  const head = el(doc, 'thead');
  const headRow = el(doc, 'tr');
  for (const text of ['scheme', ...FACT_COLUMNS])
    headRow.append(Object.assign(el(doc, 'th', '', text), { scope: 'col' }));
  head.append(headRow);
  const body = el(doc, 'tbody');
  table.append(caption, head, body);
  // Where it is wider than its room (larger text) it scrolls sideways: focusable, so that the
  // keyboard can scroll it too. On a phone each scheme is a block of its own (style.css), each fact
  // under its column's name.
  const tableWrap = el(doc, 'div', 'schemes-table-wrap');
  tableWrap.tabIndex = 0;
  tableWrap.setAttribute('role', 'region');
  tableWrap.setAttribute('aria-label', 'What each scheme does');
  tableWrap.append(table);
  container.replaceChildren(options, columns, tableWrap, facts);
  const parts = {
    doc,
    columns,
    facts,
    bucketMap,
    slopes,
    angles,
    body,
    shared,
    cache: new Map(),
    view: null,
    maps: new Map(), // canvas -> { spec, layout, title }: each heatmap as last drawn
    mapCanvases: [], // every heatmap's canvas, read by schemes-reading.js
    selection: null, // { canvas, i, j }: the cell read
    tip: null, // schemes-reading.js's tooltip, once loaded
    wire: null, // makes a map made later readable, once schemes-reading.js is loaded
  };
  readable(parts, bucketMap.canvas);
  // Reading a cell loads with the first pointer or focus in the figure, which it then handles.
  const load = (event) => {
    container.removeEventListener('pointerover', load);
    container.removeEventListener('focusin', load);
    import('./schemes-reading.js').then((m) => m.wireSchemesReading(parts, container, drawMap, event));
  };
  container.addEventListener('pointerover', load);
  container.addEventListener('focusin', load);
  shared.addEventListener('change', () => parts.view && drawSchemesFigure(parts, parts.view));
  return parts;
}

/** A heatmap of the figure: its wrapper takes the focus, from which the arrow keys read its cells. */
function readable(parts, canvas) {
  const wrap = canvas.parentElement;
  wrap.classList.add('relpos-canvas-wrap'); // the panels' focus ring
  wrap.tabIndex = 0;
  wrap.setAttribute('role', 'application');
  wrap.setAttribute('aria-roledescription', 'heatmap');
  parts.mapCanvases.push(canvas);
  parts.wire?.(canvas);
}

/** Draws a heatmap of the figure from its spec, the selected cell's offset outlined when it is in it. */
function drawMap(parts, canvas) {
  const { spec } = parts.maps.get(canvas);
  const { i, j } = parts.selection?.canvas === canvas ? parts.selection : {};
  const highlight =
    i === undefined
      ? null
      : {
          i,
          j,
          group: (a, b) => b - a === j - i,
          rowRange: (a) => (a + j - i >= 0 && a + j - i < spec.n ? [a + j - i, a + j - i] : null),
        };
  const { x0, y0, cell } = (parts.maps.get(canvas).layout = drawHeatmap(canvas, { ...spec, highlight }));
  canvas.dataset.layout = JSON.stringify({ x0, y0, cell });
}

const fmt = (value) => formatSignificant(value, 2);

// A column's DOM, made once per scheme and kept (so a redraw does not rebuild it).
function columnParts(parts, id) {
  if (parts.cache.has(id)) return parts.cache.get(id);
  const { doc } = parts;
  const article = el(doc, 'article', 'schemes-column');
  article.dataset.scheme = id;
  article.id = `schemes-column-${id}`;
  const title = el(doc, 'h3');
  const source = el(doc, 'p', 'schemes-source');
  const what = el(doc, 'p', 'schemes-what');
  const bias = canvasBlock(doc, 'Position biases', 'bias');
  const weights = canvasBlock(doc, 'Combined weights', 'weights');
  const profile = canvasBlock(doc, 'Profile over offsets', 'profile');
  const shift = el(doc, 'p', 'schemes-shift');
  shift.dataset.shift = id;
  const shiftBlock = el(doc, 'div', 'schemes-block schemes-shift-block');
  const shiftTitle = el(doc, 'h4', '', 'The shift experiment');
  const shiftCaption = el(doc, 'p', 'schemes-caption');
  const shiftRow = el(doc, 'div', 'schemes-shift-row');
  const shiftCanvases = {};
  for (const [kind, label] of [
    ['before', 'before'],
    ['after', 'after'],
    ['difference', 'after − before'],
  ]) {
    const cell = el(doc, 'div', 'schemes-shift-cell');
    const canvas = el(doc, 'canvas');
    canvas.setAttribute('role', 'img');
    canvas.dataset.panel = `shift-${kind}`;
    cell.append(el(doc, 'span', 'schemes-shift-label', label), canvas);
    shiftRow.append(cell);
    shiftCanvases[kind] = canvas;
  }
  shiftBlock.append(shiftTitle, shiftCaption, shiftRow, shift);
  const error = el(doc, 'p', 'schemes-error');
  article.append(title, source, what, error, bias.block, weights.block, profile.block, shiftBlock);
  const column = {
    article,
    title,
    source,
    what,
    bias,
    weights,
    profile,
    shift,
    shiftBlock,
    shiftCaption,
    shiftCanvases,
    error,
  };
  readable(parts, bias.canvas);
  readable(parts, weights.canvas);
  parts.cache.set(id, column);
  return column;
}

// One heatmap of the figure, drawn and kept with its spec and title (what schemes-reading.js reads).
function heatmap(parts, canvas, view, values, { scale, note, masked, bandEdges, integer, colours, width, title }) {
  const spec = {
    n: view.n,
    values,
    scale,
    rowLabels: view.labels,
    colLabels: view.labels,
    xTitle: 'key j →',
    yTitle: 'query i ↓',
    formatValue: integer ? (v) => String(v) : (v) => formatSignificant(v, 2),
    showValues: view.n <= 6,
    masked,
    bandEdges,
    bandEdgeSides: view.causal ? 'lower' : 'both',
    note,
    width,
    maxSide: 300,
    colours,
  };
  parts.maps.set(canvas, { spec, layout: null, title });
  canvas.parentElement.setAttribute('aria-label', `${title}: use the arrow keys to read the cells`);
  drawMap(parts, canvas);
}

function drawColumn(parts, column, view, entry, colours, sharedExtent) {
  const width = column.bias.canvas.parentElement.clientWidth || 280; // the column's content box (its article has padding)
  const causalMask = view.causal ? (i, j) => j > i : null;
  const bias = entry.result.positionBiases.data;
  const extent = extentOf(bias, view.n);
  const largest = Math.max(Math.abs(extent.min), Math.abs(extent.max));
  heatmap(parts, column.bias.canvas, view, bias, {
    scale: makeScale('diverging', sharedExtent ?? extent, null, { label: 'bias (blue < 0 < red)' }),
    title: `${entry.name}: position bias`,
    note: `largest |bias| ${fmt(largest)}`,
    masked: null,
    bandEdges: entry.bandEdges ? view.maxDistance : null,
    colours,
    width,
  });
  setMathText(
    column.bias.caption,
    `${entry.biasCaption} ${sharedExtent ? `Colours: one scale for every column, ± ${fmt(Math.max(Math.abs(sharedExtent.min), Math.abs(sharedExtent.max)))}.` : 'Colours: ± this panel’s largest |value|.'}`,
  );
  column.bias.canvas.setAttribute(
    'aria-label',
    `${entry.name}: position biases, ${view.n} by ${view.n}, from ${fmt(extent.min)} to ${fmt(extent.max)}.`,
  );
  const weights = entry.result.combinedWeights.data;
  heatmap(parts, column.weights.canvas, view, weights, {
    scale: makeScale('sequential', { min: 0, max: 1 }, [0, 1], { label: 'weight, 0 to 1' }),
    title: `${entry.name}: combined weight`,
    note: view.causal ? 'Grey: keys after the query, masked.' : '',
    masked: causalMask,
    bandEdges: null,
    colours,
    width,
  });
  setMathText(column.weights.caption, 'softmax over each row of content scores + position biases. Colours: 0 to 1.');
  column.weights.canvas.setAttribute(
    'aria-label',
    `${entry.name}: combined weights, ${view.n} by ${view.n}; each row sums to 1.`,
  );
  const { profile } = entry;
  const oneValue = profile.spread <= 1e-12;
  const fixed = entry.fixedContent;
  drawScatterPlot(column.profile.canvas, {
    points: { x: profile.offsets, y: profile.values },
    line: fixed ? { x: fixed.lineX, y: fixed.lineY } : { x: profile.lineX, y: profile.lineY },
    xLabel: 'offset j − i',
    yLabel: 'bias',
    height: 190,
    note: oneValue ? 'one value per offset' : `cells at one offset differ by up to ${fmt(profile.spread)}`,
  });
  setMathText(
    column.profile.caption,
    fixed
      ? `Dots: every cell’s bias at its offset; each query and key has its own content, so the dots of one offset differ. Line: the same with one query vector and one key vector at every position; then every cell of a diagonal has the same bias (they differ by ${fmt(fixed.spread)}). RoPE’s bias depends on the content and on j − i, never on the absolute position.`
      : 'Every cell’s bias at its offset (dots; line: their mean). Where the dots of each offset coincide, the bias is a function of j − i alone.',
  );
  column.profile.canvas.setAttribute(
    'aria-label',
    `${entry.name}: bias of every cell against its offset; ${oneValue ? 'one value per offset' : `spread up to ${fmt(profile.spread)} per offset`}${fixed ? `; with fixed content, spread ${fmt(fixed.spread)}` : ''}.`,
  );
  drawShift(column, view, entry, colours, width);
  const moved = entry.shiftDifference;
  column.shift.textContent = `Shift: with ${view.shift} filler token${view.shift === 1 ? '' : 's'} in front, the original tokens’ scores ${moved === 0 ? 'do not change at all' : `change by at most ${fmt(moved)}`}.`;
}

// A small n × n matrix without labels or colour bar (the shift experiment's three), masked cells grey.
function drawMiniMatrix(canvas, view, values, scale, colours, side) {
  const { context: g } = fitCanvas(canvas, side, side);
  const table = colourTable(scale.map);
  const cell = side / view.n;
  g.clearRect(0, 0, side, side);
  for (let i = 0; i < view.n; i += 1) {
    for (let j = 0; j < view.n; j += 1) {
      if (view.causal && j > i) {
        g.fillStyle = colours.masked || '#bbb';
      } else {
        const e = scale.entry(values[i * view.n + j]) * 4;
        g.fillStyle = `rgb(${table[e]}, ${table[e + 1]}, ${table[e + 2]})`;
      }
      g.fillRect(j * cell, i * cell, Math.ceil(cell), Math.ceil(cell));
    }
  }
  g.strokeStyle = colours.muted || '#888';
  g.strokeRect(0.5, 0.5, side - 1, side - 1);
}

// The shift experiment drawn: the original tokens' combined scores before and after m filler
// tokens in front (one scale for both), and after − before (its own diverging scale).
function drawShift(column, view, entry, colours, width) {
  const { before, after, difference, worst } = entry.shifted;
  // Three side by side in the column's content box (20 px of padding, two 6 px gaps).
  const each = Math.max(48, Math.min(140, Math.floor((width - 20 - 12) / 3) - 1));
  for (const canvas of Object.values(column.shiftCanvases)) canvas.parentElement.style.width = `${each}px`;
  const both = extentOf(Float64Array.from([...before, ...after]), view.n);
  const small = (canvas, values, scale) => drawMiniMatrix(canvas, view, values, scale, colours, each);
  const scores = makeScale('diverging', both, null, { label: 'score' });
  small(column.shiftCanvases.before, before, scores);
  small(column.shiftCanvases.after, after, scores);
  // Rounding alone: a scale of ±1e-12 would paint noise, so the difference keeps at least ±0.01.
  const m = Math.max(worst, 0.01);
  small(column.shiftCanvases.difference, difference, makeScale('diverging', { min: -m, max: m }, null, { label: 'Δ' }));
  setMathText(
    column.shiftCaption,
    `The original tokens’ combined scores (query i ↓, key j →) before and after ${view.shift} filler token${view.shift === 1 ? '' : 's'} in front, on one scale, and their difference (± ${fmt(m)}; white: unchanged).`,
  );
  for (const [kind, canvas] of Object.entries(column.shiftCanvases))
    canvas.setAttribute('aria-label', `${entry.name}: shift experiment, ${kind}, ${view.n} by ${view.n}.`);
}

function drawFacts(parts, view, colours) {
  const { buckets, slopes, ropeAngles } = view.facts;
  const width = parts.bucketMap.block.clientWidth || 280;
  const values = buckets.data;
  heatmap(parts, parts.bucketMap.canvas, view, values, {
    scale: makeScale('sequential', extentOf(values, view.n), null, { integer: true, label: 'bucket' }),
    title: 'T5 bucket',
    note: '',
    masked: null,
    bandEdges: null,
    integer: true,
    colours,
    width,
  });
  const half = T5_VIEW.numBuckets / 2;
  setMathText(
    parts.bucketMap.caption,
    `bucket(j − i) with ${T5_VIEW.numBuckets} buckets up to distance ${T5_VIEW.maxDistance}: 0…${half - 1} for keys at or before the query, ${half}…${T5_VIEW.numBuckets - 1} after; exact below ${half / 2}, log-spaced beyond. Constant along every diagonal.`,
  );
  parts.bucketMap.canvas.setAttribute('aria-label', `T5 bucket of every cell, ${view.n} by ${view.n}.`);

  drawLinePlot(parts.slopes.canvas, {
    x: Int32Array.from(slopes, (_, h) => h + 1),
    y: slopes,
    xLabel: 'head h',
    yLabel: 'slope m_h',
    height: 200,
    highlight: 0,
  });
  setMathText(
    parts.slopes.caption,
    `m_h = 2^{−8h/${ALIBI_HEADS}} for ${ALIBI_HEADS} heads: ${Array.from(slopes, (m) => fmt(m)).join(', ')}. The columns use head 1 (m = ${fmt(view.facts.slope)}, the dark point).`,
  );
  parts.slopes.canvas.setAttribute(
    'aria-label',
    `ALiBi slopes of ${slopes.length} heads, from ${fmt(slopes[0])} down to ${fmt(slopes[slopes.length - 1])}.`,
  );

  if (ropeAngles.length === 0) {
    // The same place on the page, with the reason: no pairs to rotate.
    const canvas = parts.angles.canvas;
    const { context: g, width: w } = fitCanvas(canvas, canvas.parentElement.clientWidth, 200);
    g.clearRect(0, 0, w, 200);
    g.fillStyle = colours.fg;
    g.font = `13px ${colours.font || 'sans-serif'}`;
    g.textAlign = 'center';
    g.fillText(`d_k = ${view.dK} is odd: no pairs to rotate`, w / 2, 100);
    setMathText(
      parts.angles.caption,
      `RoPE rotates pairs of dimensions; pick an even d_k to see θ_t = ${ROPE_DEFAULTS.base}^{−2t/d} (d = d_k).`,
    );
    canvas.setAttribute('aria-label', `No RoPE angles: d_k = ${view.dK} is odd.`);
  } else {
    drawLinePlot(parts.angles.canvas, {
      x: Int32Array.from(ropeAngles, (_, t) => t),
      y: ropeAngles,
      xLabel: 'pair t',
      yLabel: 'θ_t (radians per position)',
      height: 200,
    });
    setMathText(
      parts.angles.caption,
      `θ_t = ${ROPE_DEFAULTS.base}^{−2t/d} with d = d_k, read back from the core (e_a rotated at position 1), pairs ${view.ropeLayout === 'half' ? '(t, t + d_k/2) as GPT-NeoX and LLaMA' : '(2t, 2t + 1) as RoFormer'}.`,
    );
    parts.angles.canvas.setAttribute(
      'aria-label',
      `RoPE angle per position of each of ${ropeAngles.length} pairs: ${ropeAngles.map((a) => fmt(a)).join(', ')}.`,
    );
  }
}

// The summary table's columns after the scheme's name: what each row says of its scheme.
const FACT_COLUMNS = [
  'depends on the query?',
  'translation-invariant?',
  'learned position parameters',
  'extrapolates? (what it does past these offsets)',
];

function tableRow(doc, view, entry) {
  const row = el(doc, 'tr');
  row.dataset.scheme = entry.id;
  const header = Object.assign(el(doc, 'th', '', entry.name), { scope: 'row' });
  if (entry.error) {
    const cell = Object.assign(el(doc, 'td'), { colSpan: 4 });
    setMathText(cell, entry.error);
    row.append(header, cell);
    return row;
  }
  // One cell with other queries, said alone (the profile's spread, which compares cells of one
  // offset, is its own chart's): Sinusoidal's queries come from the token vectors x, redrawn.
  const redrawn = entry.queries === 'x' ? 'every token vector x_i' : 'every query q_i';
  const query =
    entry.queryDependence > 1e-9
      ? `yes: with ${redrawn} redrawn at random, a cell’s bias moves by up to ${fmt(entry.queryDependence)}`
      : 'no: other queries leave the bias unchanged';
  const invariant =
    entry.shiftDifference <= 1e-12
      ? `yes: max |Δ score| ${fmt(entry.shiftDifference)} after the shift`
      : `no: max |Δ score| ${fmt(entry.shiftDifference)} after the shift`;
  const cells = [query, invariant, entry.learned, entry.beyond].map((text, index) => {
    const cell = el(doc, 'td');
    const fact = el(doc, 'span', 'schemes-fact');
    setMathText(fact, text);
    // The column's name above the fact where the table stands as one block per scheme (a phone);
    // hidden from screen readers, which name the column themselves.
    const label = el(doc, 'span', 'schemes-fact-name', FACT_COLUMNS[index]);
    label.setAttribute('aria-hidden', 'true');
    cell.append(label, fact);
    return cell;
  });
  cells[0].dataset.fact = 'query';
  cells[1].dataset.fact = 'shift';
  row.append(header, ...cells);
  return row;
}

/** One extent over every column's position biases (the shared colour scale), symmetric about 0. */
function sharedBiasExtent(view) {
  let m = 0;
  for (const entry of view.columns) {
    if (entry.error) continue;
    const e = extentOf(entry.result.positionBiases.data, view.n);
    m = Math.max(m, Math.abs(e.min), Math.abs(e.max));
  }
  return { min: -m, max: m };
}

/** Draws `view` (computeSchemesView) into the parts. */
export function drawSchemesFigure(parts, view) {
  parts.view = view;
  // A new view: the cell read may be gone; the next hover or key reads one of the new.
  parts.selection = null;
  parts.tip?.hide();
  const colours = themeColours(parts.columns);
  const sharedExtent = parts.shared.checked ? sharedBiasExtent(view) : null;
  const shown = view.columns.map((entry) => {
    const column = columnParts(parts, entry.id);
    column.title.textContent = entry.name;
    column.source.textContent = entry.source;
    setMathText(column.what, entry.what);
    return column;
  });
  parts.columns.replaceChildren(...shown.map((column) => column.article));
  parts.columns.dataset.count = String(shown.length);
  view.columns.forEach((entry, index) => {
    const column = shown[index];
    setMathText(column.error, entry.error ?? '');
    // An error keeps the column's place (the blocks stay, invisible): the page does not move.
    for (const block of [column.bias, column.weights, column.profile]) {
      block.block.style.visibility = entry.error ? 'hidden' : '';
    }
    column.shiftBlock.style.visibility = entry.error ? 'hidden' : '';
    if (!entry.error) drawColumn(parts, column, view, entry, colours, sharedExtent);
  });
  drawFacts(parts, view, colours);
  parts.body.replaceChildren(...view.columns.map((entry) => tableRow(parts.doc, view, entry)));
  // Each column's sentences keep their room at its width (caption-room.js): k dragged to 0 or to
  // n − 1 drops a sentence of Shaw's caption, and moved what is below by 44 px.
  keepCaptionHeights(
    shown.flatMap((column) =>
      [
        column.what,
        column.bias.caption,
        column.weights.caption,
        column.profile.caption,
        column.shiftCaption,
        column.shift,
      ].map((caption) => ({ caption, room: String(column.article.clientWidth) })),
    ),
  );
}
