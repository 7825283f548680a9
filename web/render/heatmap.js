// A matrix heatmap on canvas: one ImageData pixel per cell, stretched with smoothing off onto
// a whole number of device pixels per cell (crisp at any devicePixelRatio); row and column
// labels, axis titles, a colour bar with numbers, values printed in the cells while they fit,
// and an outline on highlighted cells. The margins are fixed, so the canvas's height depends
// only on its width: changing the data or the labels never moves the page.
import { fitCanvas } from './canvas-size.js';
import { colourTable, entryFor, luminance } from './colormaps.js';
import { drawColourBar } from './colour-bar.js';

export const MARGIN = { left: 92, top: 78, right: 14, bottom: 54 };
const MIN_LABELLED_CELL = 11;
const MIN_VALUE_CELL = 24;
const LABEL_SPACE = 60;

let cellImage = null;

function truncate(g, text, width) {
  if (g.measureText(text).width <= width) return text;
  let end = text.length;
  while (end > 1 && g.measureText(`${text.slice(0, end)}…`).width > width) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** The canvas height (CSS px) that a heatmap of this width takes. */
export function heatmapHeight(width, maxSide = Infinity) {
  const side = Math.min(maxSide, width - MARGIN.left - MARGIN.right);
  return MARGIN.top + Math.max(side, 40) + MARGIN.bottom;
}

/**
 * Draws `values` (n × n, row-major) into `canvas`.
 * spec: { n, values, scale (colormaps.makeScale), rowLabels, colLabels, xTitle, yTitle,
 *         formatValue, showValues, highlight: { i, j, group(i, j) -> bool } | null,
 *         width, maxSide, colours: { fg, muted, outline, outlineHalo } }
 * Returns the layout in CSS px: { x0, y0, cell, n, width, height }.
 */
export function drawHeatmap(canvas, spec) {
  const { n, values, scale, colours } = spec;
  const ratio = globalThis.devicePixelRatio || 1;
  const height = heatmapHeight(spec.width, spec.maxSide);
  const { context: g, width } = fitCanvas(canvas, spec.width, height);
  g.clearRect(0, 0, width, height);
  const font = getComputedStyle(canvas).fontFamily || 'sans-serif';

  // A whole number of device pixels per cell, the matrix starting on a device pixel.
  const available = Math.min(spec.maxSide ?? Infinity, width - MARGIN.left - MARGIN.right);
  const cellDevice = Math.max(1, Math.floor((available * ratio) / n));
  const cell = cellDevice / ratio;
  const side = cell * n;
  const x0 = Math.round(MARGIN.left * ratio) / ratio;
  const y0 = Math.round(MARGIN.top * ratio) / ratio;

  // The cells: one pixel each, through ImageData.
  const table = colourTable(scale.map);
  const pixels = new Uint8ClampedArray(n * n * 4);
  for (let index = 0; index < n * n; index += 1) {
    const entry = entryFor(scale, values[index]) * 4;
    pixels[index * 4] = table[entry];
    pixels[index * 4 + 1] = table[entry + 1];
    pixels[index * 4 + 2] = table[entry + 2];
    pixels[index * 4 + 3] = 255;
  }
  if (!cellImage || cellImage.width !== n) cellImage = new OffscreenCanvas(n, n);
  cellImage.getContext('2d').putImageData(new ImageData(pixels, n, n), 0, 0);
  g.save();
  g.imageSmoothingEnabled = false;
  g.drawImage(cellImage, x0, y0, side, side);
  g.restore();

  // Values inside the cells while they fit.
  if (spec.showValues && cell >= MIN_VALUE_CELL) {
    const size = Math.max(8, Math.min(13, cell * 0.3));
    g.font = `${size}px ${font}`;
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    for (let i = 0; i < n; i += 1) {
      for (let j = 0; j < n; j += 1) {
        const value = values[i * n + j];
        g.fillStyle = luminance(table, entryFor(scale, value)) > 0.36 ? '#111' : '#fff';
        g.fillText(spec.formatValue(value, cell), x0 + (j + 0.5) * cell, y0 + (i + 0.5) * cell);
      }
    }
  }

  // Labels: tokens while the cells are tall enough, else every few indices.
  g.font = `12px ${font}`;
  g.fillStyle = colours.fg;
  const every = cell >= MIN_LABELLED_CELL ? 1 : Math.ceil(MIN_LABELLED_CELL * 1.6 / cell);
  const label = (labels, index) => (every === 1 ? labels[index] : String(index));
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  for (let i = 0; i < n; i += every) {
    g.fillText(truncate(g, label(spec.rowLabels, i), LABEL_SPACE), x0 - 6, y0 + (i + 0.5) * cell);
  }
  g.textAlign = 'left';
  for (let j = 0; j < n; j += every) {
    g.save();
    g.translate(x0 + (j + 0.5) * cell, y0 - 6);
    g.rotate(-Math.PI / 3);
    g.fillText(truncate(g, label(spec.colLabels, j), LABEL_SPACE), 0, 0);
    g.restore();
  }
  // Axis titles.
  g.fillStyle = colours.muted;
  g.textAlign = 'center';
  g.textBaseline = 'top';
  g.fillText(spec.xTitle, x0 + side / 2, 2);
  g.save();
  g.translate(4, y0 + side / 2);
  g.rotate(-Math.PI / 2);
  g.textBaseline = 'top';
  g.fillText(spec.yTitle, 0, 0);
  g.restore();

  // Highlighted cells: the group (same clipped offset) thin, the cell itself thick.
  if (spec.highlight) {
    const { i: hi, j: hj, group } = spec.highlight;
    const outline = (i, j, lineWidth) => {
      const inset = lineWidth / 2;
      g.lineWidth = lineWidth + 2;
      g.strokeStyle = colours.outlineHalo;
      g.strokeRect(x0 + j * cell + inset, y0 + i * cell + inset, cell - lineWidth, cell - lineWidth);
      g.lineWidth = lineWidth;
      g.strokeStyle = colours.outline;
      g.strokeRect(x0 + j * cell + inset, y0 + i * cell + inset, cell - lineWidth, cell - lineWidth);
    };
    const thin = Math.max(1, Math.min(2, cell / 8));
    for (let i = 0; i < n; i += 1) for (let j = 0; j < n; j += 1) if (group(i, j) && (i !== hi || j !== hj)) outline(i, j, thin);
    outline(hi, hj, Math.max(2, Math.min(3, cell / 5)));
  }

  // The colour bar, as wide as the matrix (at least 160 px).
  const barWidth = Math.max(side, Math.min(160, width - x0 - MARGIN.right));
  drawColourBar(g, { x: x0, y: y0 + side + 26, width: barWidth, height: 10, scale, fg: colours.fg, label: scale.label });
  return { x0, y0, cell, n, width, height };
}
