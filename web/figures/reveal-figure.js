// A story step's reveal, drawn (web/page/story.js; loaded when a step first runs): small
// matrices side by side (before and after, or two tables), on one colour scale per group, with
// the cells the reveal names outlined; optionally a few shares as bars against a dashed
// reference, or small labelled tables of vectors (the outputs); and a caption. Every number is
// the step's own (`figure`, computed once with the API for the reveal's text), never computed
// again here. One heatmap implementation: web/render/heatmap.js, as the panels use.
import { extentOf, makeScale } from '../render/colormaps.js';
import { axisLabelStep, drawHeatmap, heatmapLayout, LABEL_FONT } from '../render/heatmap.js';
import { pixelRatio } from '../render/canvas-size.js';
import { drawShareBars } from '../render/share-bars.js';
import { drawVectorBlocks } from '../render/vector-blocks.js';
import { formatSignificant } from '../render/number-text.js';
import { plainMath } from '../render/math-text.js';
import { setMathText } from './math-dom.js';
import { onSchemeChange } from './scheme-change.js';
import { themeColours } from './theme-colours.js';

const GAP = 10; // CSS px between two maps
// CSS px: maps narrower than this side by side (two in a 320 px phone's reveal: 120 px, cells of
// 12 px and squeezed colour-bar labels) are drawn fewer a row, one under another if need be; at
// 360 px two stand side by side (140 px each).
const MIN_MAP_WIDTH = 130;

/** How many of `asked` maps a row fit `width` at MIN_MAP_WIDTH each (at least one). */
const columnsThatFit = (width, asked) => {
  let columns = asked;
  while (columns > 1 && (width - GAP * (columns - 1)) / columns < MIN_MAP_WIDTH) columns -= 1;
  return columns;
};
/** Type at 0.92 of the panels' size: labels 12 px, the note and colour-bar numbers at least 11 px. */
export const REVEAL_FONT_SCALE = 0.92;
const LABEL_SPACE = 26; // CSS px at least for the word labels of a small map
const LABEL_SHARE = 0.25; // of a map's width at most for them (longer words end in “…”)

/**
 * A small map's label room: its widest word in the maps' type, within LABEL_SPACE … LABEL_SHARE of
 * its width, and no wider than keeps its cells large enough for words (axisLabelStep): the largest
 * such room from LABEL_SPACE up (words that still do not fit end in “…”); LABEL_SPACE where even
 * that leaves the cells too small for words (they label indices).
 */
function labelSpaceFor(labels, mapWidth, family, ratio) {
  const g = new OffscreenCanvas(1, 1).getContext('2d');
  g.font = `${LABEL_FONT * REVEAL_FONT_SCALE}px ${family}`;
  const widest = Math.max(0, ...labels.map((label) => g.measureText(label).width));
  const wide = Math.max(LABEL_SPACE, Math.min(Math.ceil(widest) + 4, Math.floor(mapWidth * LABEL_SHARE)));
  // The cells as the map will draw them at that room (whole device pixels each) and its rule.
  const wordCells = (labelSpace) =>
    axisLabelStep(
      heatmapLayout(
        { n: labels.length, width: mapWidth, maxSide: mapWidth, fontScale: REVEAL_FONT_SCALE, labelSpace },
        ratio,
      ),
    ).tokens;
  for (let room = wide; room > LABEL_SPACE; room -= 1) if (wordCells(room)) return room;
  return LABEL_SPACE;
}

/**
 * The colour scale of each group of maps: weights from 0 to the group's largest weight (over the
 * cells shown), signed values over ±(the group's largest |value|), so a colour is one number in
 * every map of the group.
 */
function groupScales(maps, n, causal) {
  const scales = new Map();
  for (const map of maps) {
    const group = map.group ?? map.kind;
    const extent = extentOf(map.values, n, causal && map.kind === 'weights');
    const seen = scales.get(group) ?? { kind: map.kind, min: Infinity, max: -Infinity };
    scales.set(group, { kind: map.kind, min: Math.min(seen.min, extent.min), max: Math.max(seen.max, extent.max) });
  }
  const made = new Map();
  for (const [group, { kind, min, max }] of scales) {
    const scale =
      kind === 'weights'
        ? makeScale('sequential', { min, max }, [0, max])
        : makeScale('diverging', { min, max }, undefined);
    scale.label =
      kind === 'weights'
        ? `weight, 0 to ${formatSignificant(max, 2)}`
        : `blue < 0 < red, ±${formatSignificant(scale.max, 2)}`;
    made.set(group, scale);
  }
  return made;
}

export class RevealFigure {
  #root;
  #figure = null;
  #parts = null;

  /** Draws into `root` (hidden until shown) and redraws on a new size or theme. */
  constructor(root) {
    this.#root = root;
    const redraw = () => this.draw();
    new ResizeObserver(redraw).observe(root);
    onSchemeChange(root, redraw);
  }

  /**
   * Shows a step's figure: { n, tokens, causal, columns (maps a row, default 2),
   * maps: [{ key, title, kind: 'weights' | 'signed', values (n × n), group (maps of one group
   * share a scale; default: its kind), bandEdges (k | null), outlined: [[i, j], …] (each cell
   * boxed, the first one more heavily), region (true: the outlined cells as one region, a line
   * around them, none marked), share }],
   * bars: { bars: [{ label, value }], reference: { label, value }, yLabel } | undefined,
   * vectors: { columns: [[{ title, rows: [{ label, values }] }]] } | undefined, caption }.
   */
  show(figure) {
    this.#figure = figure;
    const doc = this.#root.ownerDocument;
    const row = doc.createElement('div');
    row.className = 'reveal-maps';
    row.dataset.columns = String(Math.min(figure.columns ?? 2, figure.maps.length) || 1); // asked; draw() fits them
    const maps = figure.maps.map((map) => {
      const box = doc.createElement('figure');
      box.className = 'reveal-map';
      box.dataset.key = map.key;
      if (map.share !== undefined) box.dataset.share = String(map.share);
      const title = doc.createElement('figcaption');
      setMathText(title, map.title);
      const canvas = doc.createElement('canvas');
      canvas.setAttribute('role', 'img');
      box.append(title, canvas);
      row.append(box);
      return { map, box, canvas };
    });
    const parts = [row];
    let bars = null;
    if (figure.bars) {
      const box = doc.createElement('div');
      box.className = 'reveal-bars';
      bars = doc.createElement('canvas');
      bars.setAttribute('role', 'img');
      box.append(bars);
      parts.push(box);
    }
    let vectors = null;
    if (figure.vectors) {
      const box = doc.createElement('div');
      box.className = 'reveal-vectors';
      vectors = doc.createElement('canvas');
      vectors.setAttribute('role', 'img');
      box.append(vectors);
      parts.push(box);
    }
    const caption = doc.createElement('p');
    caption.className = 'reveal-caption';
    setMathText(caption, figure.caption);
    parts.push(caption);
    this.#root.replaceChildren(...parts);
    this.#parts = { row, maps, bars, vectors };
    this.#root.hidden = false;
    this.draw();
  }

  /** Draws the maps, bars and vectors at the figure's width, in the theme's colours (nothing while hidden). */
  draw() {
    const figure = this.#figure;
    const width = this.#root.clientWidth;
    if (!figure || !this.#root.isConnected || width === 0) return;
    const { n, tokens, causal } = figure;
    const { maps, bars, vectors, row } = this.#parts;
    const columns = columnsThatFit(width, Number(row.dataset.columns));
    row.style.setProperty('--columns', String(columns));
    const mapWidth = Math.floor((width - GAP * (columns - 1)) / columns);
    const labels = tokens.map((token, i) => token || String(i));
    const labelSpace = maps.length
      ? labelSpaceFor(labels, mapWidth, themeColours(maps[0].canvas).font || 'sans-serif', pixelRatio(maps[0].box))
      : 0;
    const scales = groupScales(figure.maps, n, causal);
    for (const { map, box, canvas } of maps) {
      const scale = scales.get(map.group ?? map.kind);
      const outlined = new Set((map.outlined ?? []).map(([i, j]) => i * n + j));
      const [first] = map.outlined ?? [];
      const group = (i, j) => outlined.has(i * n + j);
      const layout = drawHeatmap(canvas, {
        n,
        values: map.values,
        scale,
        rowLabels: labels,
        colLabels: labels,
        xTitle: 'key j →',
        yTitle: 'query i ↓',
        formatValue: String,
        showValues: false,
        masked: causal && map.kind === 'weights' ? (i, j) => j > i : null,
        bandEdges: map.bandEdges ?? null,
        bandEdgeSides: causal ? 'lower' : 'both',
        note: '',
        highlight: !first
          ? null
          : map.region
            ? { group, region: true } // one line around the cells, every colour whole
            : { i: first[0], j: first[1], group }, // each cell outlined, however small
        width: mapWidth,
        maxSide: mapWidth,
        fontScale: REVEAL_FONT_SCALE,
        labelSpace,
        pixelRatio: pixelRatio(box),
        colours: themeColours(canvas),
      });
      canvas.dataset.layout = JSON.stringify({
        x0: layout.x0,
        y0: layout.y0,
        cell: layout.cell,
        n,
        width: layout.width,
        fontScale: layout.fontScale,
        labelSpace, // the word labels' room (CSS px, labelSpaceFor)
        kind: scale.kind,
        min: scale.min,
        max: scale.max,
        bar: layout.bar, // the colour bar's ends and its ticks as drawn
        bandEdgeLines: layout.bandEdgeLines, // the dashed lines drawn (0: none, whatever bandEdges asked)
      });
      canvas.setAttribute(
        'aria-label',
        `${plainMath(map.title)}: ${n} by ${n} heatmap, ${scale.label}${outlined.size ? `; ${outlined.size} cells outlined` : ''}.`,
      );
    }
    if (bars) {
      const drawn = drawShareBars(bars, { ...figure.bars, format: figure.bars.format ?? String, height: 150 });
      bars.dataset.layout = JSON.stringify(drawn);
      if (figure.shares) bars.dataset.shares = JSON.stringify(figure.shares);
      bars.setAttribute(
        'aria-label',
        `Bars: ${figure.bars.bars.map((b) => `${b.label} ${figure.bars.format(b.value)}`).join(', ')}; ${figure.bars.reference.label} ${figure.bars.format(figure.bars.reference.value)} (dashed line).`,
      );
    }
    if (vectors) {
      const drawn = drawVectorBlocks(vectors, {
        columns: figure.vectors.columns,
        width,
        format: (v) => formatSignificant(v, 2),
        colours: themeColours(vectors),
        shared: true,
        bar: 'output value: blue < 0 < red',
      });
      vectors.dataset.layout = JSON.stringify(drawn.columns);
      vectors.dataset.bar = JSON.stringify(drawn.bar);
      vectors.setAttribute('aria-label', plainMath(figure.vectors.label));
    }
  }
}
