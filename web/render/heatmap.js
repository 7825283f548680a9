// A matrix heatmap on canvas: one ImageData pixel per cell, stretched with smoothing off onto
// a whole number of device pixels per cell (crisp at any devicePixelRatio); row and column
// labels, axis titles, a colour bar with numbers, values printed in the cells while they are
// legible, masked cells in grey, dashed clipping-band edges, the highlighted cells, and a note.
// The margins are fixed, so the canvas's height depends only on its width: changing the data
// or the labels never moves the page.
import { fitCanvas } from './canvas-size.js';
import { colourTable, entryFor, luminance, parseColour } from './colormaps.js';
import { drawColourBar } from './colour-bar.js';

export const MARGIN = { left: 92, top: 80, right: 14, bottom: 76 };
const LABEL_FONT = 13;
const MIN_LABELLED_CELL = 13;
const MIN_VALUE_FONT = 11;
const LABEL_SPACE = 62;
const NICE_STEPS = [1, 2, 5, 10, 20, 50, 100];

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

// An n × n image, one pixel per cell, from a per-cell RGBA function; drawn stretched.
function drawCellImage(g, n, fill, x0, y0, side) {
  const pixels = new Uint8ClampedArray(n * n * 4);
  for (let index = 0; index < n * n; index += 1) fill(index, pixels, index * 4);
  if (!cellImage || cellImage.width !== n) cellImage = new OffscreenCanvas(n, n);
  const context = cellImage.getContext('2d');
  context.clearRect(0, 0, n, n);
  context.putImageData(new ImageData(pixels, n, n), 0, 0);
  g.save();
  g.imageSmoothingEnabled = false;
  g.drawImage(cellImage, x0, y0, side, side);
  g.restore();
}

// The staircase between offsets k and k + 1 (and its mirror between -k and -k - 1).
function drawBandEdges(g, n, k, x0, y0, cell, colours) {
  const upper = [];
  for (let i = 0; i + k + 1 <= n; i += 1) {
    upper.push([k + 1 + i, i], [k + 1 + i, i + 1]);
  }
  const paths = [upper, upper.map(([x, y]) => [y, x])];
  for (const [width, colour, dash] of [[3, colours.outlineHalo, []], [1.5, colours.fg, [5, 4]]]) {
    g.lineWidth = width;
    g.strokeStyle = colour;
    g.setLineDash(dash);
    for (const path of paths) {
      g.beginPath();
      path.forEach(([x, y], index) => {
        const px = x0 + Math.min(x, n) * cell;
        const py = y0 + Math.min(y, n) * cell;
        if (index === 0) g.moveTo(px, py);
        else g.lineTo(px, py);
      });
      g.stroke();
    }
  }
  g.setLineDash([]);
}

/**
 * Draws `values` (n × n, row-major) into `canvas`.
 * spec: { n, values, scale (colormaps.makeScale), rowLabels, colLabels, xTitle, yTitle,
 *         formatValue, masked(i, j) | null, bandEdges: k | null, note,
 *         highlight: { i, j, group(i, j) -> bool } | null, width, maxSide,
 *         colours: { fg, muted, outline, outlineHalo, panel, masked } }
 * Returns the layout in CSS px: { x0, y0, cell, n, width, height }.
 */
export function drawHeatmap(canvas, spec) {
  const { n, values, scale, colours, masked } = spec;
  const ratio = globalThis.devicePixelRatio || 1;
  const height = heatmapHeight(spec.width, spec.maxSide);
  const { context: g, width } = fitCanvas(canvas, spec.width, height);
  g.clearRect(0, 0, width, height);
  const font = getComputedStyle(canvas).fontFamily || 'sans-serif';

  // A whole number of device pixels per cell; the matrix centred, starting on a device pixel.
  const available = Math.min(spec.maxSide ?? Infinity, width - MARGIN.left - MARGIN.right);
  const cellDevice = Math.max(1, Math.floor((available * ratio) / n));
  const cell = cellDevice / ratio;
  const side = cell * n;
  const x0 = Math.round((MARGIN.left + (available - side) / 2) * ratio) / ratio;
  const y0 = Math.round(MARGIN.top * ratio) / ratio;

  // The cells, through ImageData.
  const table = colourTable(scale.map);
  const maskedRgb = parseColour(colours.masked);
  drawCellImage(g, n, (index, pixels, at) => {
    if (masked && masked(Math.floor(index / n), index % n)) {
      pixels.set([...maskedRgb, 255], at);
      return;
    }
    const entry = entryFor(scale, values[index]) * 4;
    pixels.set(table.subarray(entry, entry + 3), at);
    pixels[at + 3] = 255;
  }, x0, y0, side);

  // Values inside the cells while they are legible.
  const valueFont = Math.min(13, cell * 0.3);
  if (spec.showValues && valueFont >= MIN_VALUE_FONT) {
    g.font = `${valueFont}px ${font}`;
    const texts = Array.from(values, (value) => spec.formatValue(value));
    const widest = Math.max(...texts.map((text) => g.measureText(text).width));
    if (widest <= cell - 4) {
      g.textAlign = 'center';
      g.textBaseline = 'middle';
      for (let index = 0; index < n * n; index += 1) {
        const i = Math.floor(index / n);
        const j = index % n;
        if (masked && masked(i, j)) continue;
        g.fillStyle = luminance(table, entryFor(scale, values[index])) > 0.36 ? '#111' : '#fff';
        g.fillText(texts[index], x0 + (j + 0.5) * cell, y0 + (i + 0.5) * cell);
      }
    }
  }

  if (spec.bandEdges !== null && spec.bandEdges !== undefined && spec.bandEdges < n - 1) {
    drawBandEdges(g, n, spec.bandEdges, x0, y0, cell, colours);
  }

  // Labels: tokens while the cells are tall enough, else every few (round) indices.
  g.font = `${LABEL_FONT}px ${font}`;
  g.fillStyle = colours.fg;
  const every = NICE_STEPS.find((step) => step * cell >= MIN_LABELLED_CELL * 1.8) ?? n;
  const labelOf = (labels, index) => (cell >= MIN_LABELLED_CELL ? labels[index] : String(index));
  const labelled = (index) => (cell >= MIN_LABELLED_CELL ? true : index % every === 0);
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  for (let i = 0; i < n; i += 1) {
    if (labelled(i)) g.fillText(truncate(g, labelOf(spec.rowLabels, i), LABEL_SPACE), x0 - 6, y0 + (i + 0.5) * cell);
  }
  g.textAlign = 'left';
  for (let j = 0; j < n; j += 1) {
    if (!labelled(j)) continue;
    g.save();
    g.translate(x0 + (j + 0.5) * cell, y0 - 6);
    g.rotate(-Math.PI / 3);
    g.fillText(truncate(g, labelOf(spec.colLabels, j), LABEL_SPACE), 0, 0);
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

  // Highlighted cells: outlines while the cells are large, else everything else dimmed.
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
    if (cell >= 12) {
      const thin = Math.max(1, Math.min(2, cell / 8));
      for (let i = 0; i < n; i += 1) for (let j = 0; j < n; j += 1) if (group(i, j) && (i !== hi || j !== hj)) outline(i, j, thin);
    } else {
      const dim = [...parseColour(colours.panel), 170];
      drawCellImage(g, n, (index, pixels, at) => {
        if (!group(Math.floor(index / n), index % n)) pixels.set(dim, at);
      }, x0, y0, side);
    }
    outline(hi, hj, Math.max(2, Math.min(3, cell / 4)));
  }

  // The colour bar, as wide as the matrix (at least 160 px), and the note under it.
  const barWidth = Math.max(side, Math.min(160, width - x0 - MARGIN.right));
  const barY = y0 + side + 26;
  drawColourBar(g, { x: x0, y: barY, width: barWidth, height: 10, scale, fg: colours.fg, label: scale.label });
  if (spec.note) {
    g.font = `italic 12px ${font}`;
    g.fillStyle = colours.muted;
    g.textAlign = 'left';
    g.textBaseline = 'top';
    g.fillText(truncate(g, spec.note, width - 8), 4, barY + 30);
  }
  return { x0, y0, cell, n, width, height };
}
