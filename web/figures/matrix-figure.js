// One matrix of the user's own (<relpos-attention>'s `matrix` property), rows × cols, n_q ≠ n_k
// allowed: a panel with its title, a caption true for its kind and numbers (matrix-panels.js),
// the heatmap with square cells (render/heatmap.js's drawHeatmap), hover and arrow keys to read a cell,
// and its PNG file by the matrix panels' one exporter (figure-export.js: at a scale, opaque,
// with title and caption as theirs; no SVG, whose writer draws square n × n panels only). The
// same outside interface as AttentionFigure where the element and the exporter use it: maxSide,
// draw(), tooltip, readout; panels, specs, layouts, canvasOf, exportOptions.
import { makeScale } from '../render/colormaps.js';
import { INDEX_LABEL_SPACE, drawHeatmap, heatmapDrawnGrid } from '../render/heatmap.js';
import { download } from '../files/download.js';
import { themeColours } from './theme-colours.js';
import { CellTip, clearSelection } from './cell-tip.js';
import { wirePanel } from './interaction.js';
import { MATRIX_KINDS, queryCount } from '../views/matrix-panels.js';
import { createPanelFigure } from './panel-figure.js';
import { formatSignificant } from '../render/number-text.js';

const LABEL_SPACE = INDEX_LABEL_SPACE; // the label margin the canvas width is reckoned with
const MARGIN_SIDES = LABEL_SPACE + 30 + Math.round(LABEL_SPACE * 0.35);

// Under the colour bar: how the cells map to pixels.
const noteFor = ({ rows, cols }, gRows, gCols) => {
  if (gRows < rows || gCols < cols)
    return `${rows} × ${cols} cells on ${gRows} × ${gCols} pixels: each pixel shows the mean of the cells it covers.`;
  return rows === cols ? '' : `${queryCount(rows)} × ${cols} keys.`;
};

/** A cell's value as the tooltip and the readout give it. */
export const formatCell = (v) => (v === -Infinity ? 'masked (−∞)' : formatSignificant(v, 3));

export class MatrixFigure {
  constructor({ container, overlay = container }) {
    this.maxSide = 560;
    this.view = null;
    this.selection = null;
    this.layout = null;
    const doc = container.ownerDocument ?? container;
    this.parts = createPanelFigure({ id: 'matrix', title: 'Attention weights' }, null);
    this.heading = this.parts.figure.querySelector('h2');
    container.append(this.parts.figure);
    this.tip = new CellTip(doc, overlay);
    ({ tooltip: this.tooltip, readout: this.readout } = this.tip);
    const { canvas, wrap, png } = this.parts;
    this.exportOptions = {}; // figure-export.js: scale, theme, title, caption, settings
    png.addEventListener('click', () => this.download('png'));
    wirePanel({
      panelId: 'matrix',
      canvas,
      wrap,
      getLayout: () => this.layout,
      getSelection: () => this.selection,
      select: (cell, options) => this.select(cell, options),
    });
  }

  get canvas() {
    return this.parts.canvas;
  }

  get title() {
    return this.view ? (this.view.title ?? MATRIX_KINDS[this.view.kind].title) : '';
  }

  /** Draws a checked matrix (matrix-input.js checkMatrixInput). */
  setView(view) {
    this.view = view;
    if (this.selection && (this.selection.i >= view.rows || this.selection.j >= view.cols)) this.select(null);
    this.heading.textContent = this.title;
    this.parts.wrap.setAttribute('aria-label', `${this.title}: use the arrow keys to read the cells`);
    this.parts.png.setAttribute('aria-label', `Download PNG: ${this.title}`);
    this.draw();
  }

  draw() {
    const { view } = this;
    const { canvas, wrap, caption } = this.parts;
    if (!view || !wrap.isConnected || wrap.clientWidth === 0) return;
    const kind = MATRIX_KINDS[view.kind];
    // Room for the colour bar's label and the note even when the matrix is small (fit, max-height).
    const width = Math.min(wrap.clientWidth, Math.max(420, Math.ceil(this.maxSide + MARGIN_SIDES)));
    const scale = makeScale(kind.scale, view.extent, kind.range ? kind.range(view) : (view.max ?? undefined));
    scale.label = kind.barLabel(view, scale);
    const label = (labels) => (index) => (labels ? labels[index] : String(index));
    const { rows, cols } = view;
    const spec = {
      rows,
      cols,
      values: view.values,
      scale,
      squareCells: true,
      rowLabel: label(view.rowLabels),
      colLabel: label(view.colLabels),
      colValue: (j) => j,
      xTitle: 'key j →',
      yTitle: 'query i ↓',
      highlight: this.selection ? { i: this.selection.i, j: this.selection.j } : null,
      width,
      maxSide: this.maxSide,
      colours: themeColours(canvas),
    };
    // The grid it is drawn with (block means past a pixel per cell); the note says which.
    const grid = heatmapDrawnGrid(canvas, spec);
    this.spec = { ...spec, grid, note: noteFor(view, grid.gRows, grid.gCols) };
    this.layout = drawHeatmap(canvas, this.spec);
    const text = view.caption ?? kind.caption(view, scale);
    this.captionText = text;
    if (caption.textContent !== text) caption.textContent = text;
    const format = (v) => formatSignificant(v, 3);
    canvas.setAttribute(
      'aria-label',
      `${this.title}: ${rows} by ${cols} heatmap, query rows i down, key columns j across; values from ${format(view.extent.min)} to ${format(view.extent.max)}; colour scale ${format(scale.min)} to ${format(scale.max)}${view.masked ? `; ${view.masked} masked cells (grey)` : ''}. ${noteFor(view, this.layout.gRows, this.layout.gCols)}`.trim(),
    );
    canvas.dataset.layout = JSON.stringify({
      x0: this.layout.x0,
      y0: this.layout.y0,
      cellW: this.layout.cellW,
      cellH: this.layout.cellH,
      rows,
      cols,
      gRows: this.layout.gRows,
      gCols: this.layout.gCols,
      min: scale.min,
      max: scale.max,
      map: scale.map,
    });
  }

  /** Selects a cell (or null): outlines it, shows the tooltip and reads it out. */
  select(cell, { anchor, announce } = {}) {
    if (!cell) {
      clearSelection(this);
      return;
    }
    const same = this.selection && this.selection.i === cell.i && this.selection.j === cell.j;
    this.selection = { i: cell.i, j: cell.j };
    if (!same) this.draw();
    const { view } = this;
    const { i, j } = cell;
    const value = formatCell(view.values[i * view.cols + j]);
    const lines = [
      [this.title, value],
      ['(i, j)', `(${i}, ${j})`],
    ];
    if (view.rowLabels || view.colLabels)
      lines.push(['query → key', `${view.rowLabels?.[i] ?? i} → ${view.colLabels?.[j] ?? j}`]);
    this.tip.show(lines, anchor, this.canvas);
    if (announce) this.tip.announce(`${this.title}, row ${i}, column ${j}: ${value}.`);
  }

  // What the exporter reads (figure-export.js), as AttentionFigure gives it for its panels.
  get panels() {
    return this.view ? [{ id: 'matrix', title: this.title, caption: () => this.captionText }] : [];
  }

  get specs() {
    return new Map(this.spec ? [['matrix', this.spec]] : []);
  }

  get layouts() {
    return new Map(this.layout ? [['matrix', this.layout]] : []);
  }

  canvasOf() {
    return this.canvas;
  }

  /** Saves the matrix as a PNG file named after its title, with this.exportOptions. */
  async download(format) {
    const { exportPanel } = await import('./figure-export.js'); // loaded when first used
    const blob = await exportPanel(this, 'matrix', { ...this.exportOptions, format });
    const name =
      this.title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'matrix';
    download(`relpos-${name}.${format}`, blob);
  }
}
