// The locality step's reveal, drawn (web/page/story.js; loaded when the step first runs): the
// combined weights with the same query in every row, for the locality table and for a random
// one, side by side on one colour scale, the band |j − i| ≤ 1 between dashed lines; and under
// them the share of each row's weight inside that band as bars (with the words' own queries too)
// against uniform attention's share, a dashed line. Every number is the step's own
// (`contrast`, computed once with the API for the reveal's text), never computed again here.
import { extentOf, makeScale } from '../render/colormaps.js';
import { drawHeatmap } from '../render/heatmap.js';
import { pixelRatio } from '../render/canvas-size.js';
import { drawShareBars } from '../render/share-bars.js';
import { sharePercent } from '../views/near-share.js';
import { setMathText } from './math-dom.js';
import { themeColours } from './theme-colours.js';

const TABLE_NAME = { locality: 'locality table', random: 'random table' };
const GAP = 10; // CSS px between the two maps
const FONT_SCALE = 0.75;
const LABEL_SPACE = 24; // CSS px for the word labels of a small map (longer words end in “…”)

/** The band edges heatmap.js draws between offsets k − 1 and k: here k = 2, the edge of |j − i| ≤ 1. */
const NEAR_EDGE = 2;

/** What the caption says about the dashed lines, true for n (drawn only from n = 4, heatmap.js). */
function bandText(n) {
  if (n <= 2) return `With ${n} word${n === 1 ? '' : 's'} every key is within one position: every share is 100 %.`;
  if (n === 3) return 'Only the two corner cells, (0, 2) and (2, 0), are farther than one position.';
  return 'Between the dashed lines: the keys within one position of the query, |j − i| ≤ 1.';
}

export class LocalityContrast {
  #root;
  #maps;
  #bars;
  #caption;
  #contrast = null;

  /** Builds the figure into `root` (hidden until shown) and redraws it on a new size or theme. */
  constructor(root) {
    this.#root = root;
    const doc = root.ownerDocument;
    const row = doc.createElement('div');
    row.className = 'contrast-maps';
    this.#maps = ['locality', 'random'].map((table) => {
      const figure = doc.createElement('figure');
      figure.className = 'contrast-map';
      figure.dataset.table = table;
      const title = doc.createElement('figcaption');
      const canvas = doc.createElement('canvas');
      canvas.setAttribute('role', 'img');
      figure.append(title, canvas);
      row.append(figure);
      return { table, figure, title, canvas };
    });
    const barsBox = doc.createElement('div');
    barsBox.className = 'contrast-bars';
    this.#bars = doc.createElement('canvas');
    this.#bars.setAttribute('role', 'img');
    barsBox.append(this.#bars);
    this.#caption = doc.createElement('p');
    this.#caption.className = 'contrast-caption';
    root.append(row, barsBox, this.#caption);
    const redraw = () => this.draw();
    new ResizeObserver(redraw).observe(root);
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', redraw);
  }

  /** Shows the step's contrast: { n, tokens, causal, maps: [{ table, weights, share }] ×2, own, uniform }. */
  show(contrast) {
    this.#contrast = contrast;
    this.#root.hidden = false;
    const { n, maps, own, uniform } = contrast;
    maps.forEach(({ table, share }, index) => {
      const { title, figure } = this.#maps[index];
      figure.dataset.table = table;
      figure.dataset.share = String(share);
      title.textContent = `${TABLE_NAME[table]}: ${sharePercent(share)} within one position`;
    });
    const [locality, random] = maps;
    this.#bars.dataset.shares = JSON.stringify({ locality: locality.share, random: random.share, own, uniform });
    setMathText(
      this.#caption,
      `Combined weights (panel 4) with the same query in every row, the two tables on one colour scale. ${bandText(n)} ` +
        `Bars: the share of each row’s weight within one position, averaged over the rows: ${sharePercent(locality.share)} with the locality table, ${sharePercent(random.share)} with a random one, ` +
        `${sharePercent(own)} with the locality table and the words’ own queries; the dashed line is uniform attention’s ${sharePercent(uniform)}.`,
    );
    this.draw();
  }

  /** Draws the maps and the bars at the figure's width, in the theme's colours (nothing while hidden). */
  draw() {
    const contrast = this.#contrast;
    const width = this.#root.clientWidth;
    if (!contrast || !this.#root.isConnected || width === 0) return;
    const { n, tokens, causal, maps, own, uniform } = contrast;
    const masked = causal ? (i, j) => j > i : null;
    // One colour top for both maps, the larger largest weight: a colour is one weight in both.
    const extents = maps.map(({ weights }) => extentOf(weights, n, causal));
    const top = Math.max(...extents.map((e) => e.max));
    const mapWidth = Math.floor((width - GAP) / 2);
    const labels = tokens.map((token, i) => token || String(i));
    maps.forEach(({ table, weights, share }, index) => {
      const { canvas, figure } = this.#maps[index];
      const scale = makeScale('sequential', extents[index], [0, top]);
      scale.label = `weight, 0 to ${top.toPrecision(2)}`;
      const layout = drawHeatmap(canvas, {
        n,
        values: weights,
        scale,
        rowLabels: labels,
        colLabels: labels,
        xTitle: 'key j →',
        yTitle: 'query i ↓',
        formatValue: String,
        showValues: false,
        masked,
        bandEdges: NEAR_EDGE,
        bandEdgeSides: causal ? 'lower' : 'both',
        note: '',
        highlight: null,
        width: mapWidth,
        maxSide: mapWidth,
        fontScale: FONT_SCALE,
        labelSpace: LABEL_SPACE,
        pixelRatio: pixelRatio(figure),
        colours: themeColours(canvas),
      });
      canvas.dataset.layout = JSON.stringify({ x0: layout.x0, y0: layout.y0, cell: layout.cell, n, max: top });
      canvas.setAttribute(
        'aria-label',
        `Combined weights with the ${TABLE_NAME[table]}, same query in every row: ${n} by ${n} heatmap, colours 0 to ${top.toPrecision(2)}; ${sharePercent(share)} of the weight within one position of the query.`,
      );
    });
    const drawn = drawShareBars(this.#bars, {
      bars: [
        { label: 'locality', value: maps[0].share },
        { label: 'random', value: maps[1].share },
        { label: 'own queries', value: own },
      ],
      reference: { label: 'uniform', value: uniform },
      format: sharePercent,
      yLabel: '% within ±1',
      height: 150,
    });
    this.#bars.dataset.layout = JSON.stringify(drawn);
    this.#bars.setAttribute(
      'aria-label',
      `Bars: weight within one position of the query: locality table ${sharePercent(maps[0].share)}, random table ${sharePercent(maps[1].share)}, locality table with the words’ own queries ${sharePercent(own)}; uniform attention ${sharePercent(uniform)} (dashed line).`,
    );
  }
}
