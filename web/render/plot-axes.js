// The axes of the line plot and the scatter plot: a y range that always includes 0 (padded by
// 8 %), grid lines at nice y ticks, x ticks at the integer x (every one while they fit, else a
// nice subset), the zero line and the two labels (the y label in math notation). The sizes are
// the caller's (AxesStyle); the colours come from the canvas's CSS custom properties.
import { fillMath, measureMath } from './math-text.js';
import { withMinus } from './number-text.js';
import { formatTick, niceStep, niceTicks } from './ticks.js';

/** The CSS custom property `name` of a computed style, or `fallback`. */
export function cssColour(style, name, fallback) {
  return style.getPropertyValue(name).trim() || fallback;
}

/**
 * The data → CSS pixel mappings of a `width` × `height` plot inside `margin`: x from the first to
 * the last of `x` (ascending), y over every value of the arrays `ys` and 0.
 */
export function plotScales({ width, height, margin, x, ys }) {
  const xMin = x[0];
  const xMax = x[x.length - 1];
  let yMin = Math.min(0, ...ys.map((values) => Math.min(...values)));
  let yMax = Math.max(0, ...ys.map((values) => Math.max(...values)));
  const pad = (yMax - yMin || 1) * 0.08;
  yMin -= pad;
  yMax += pad;
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const px = (value) => margin.left + (xMax === xMin ? plotW / 2 : ((value - xMin) / (xMax - xMin)) * plotW);
  const py = (value) => margin.top + (1 - (value - yMin) / (yMax - yMin)) * plotH;
  return { px, py, plotW, plotH, yMin, yMax, margin, height };
}

/** A horizontal line across the plot at y = `value`, on the pixel grid. */
function rule(g, scales, value) {
  const { margin, plotW, py } = scales;
  g.beginPath();
  g.moveTo(margin.left, Math.round(py(value)) + 0.5);
  g.lineTo(margin.left + plotW, Math.round(py(value)) + 0.5);
  g.stroke();
}

function drawYGrid(g, scales, { fg, grid, ticks, gap }) {
  const yTicks = niceTicks(scales.yMin, scales.yMax, ticks);
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  for (const tick of yTicks) {
    g.strokeStyle = grid;
    g.lineWidth = 1;
    rule(g, scales, tick);
    g.fillStyle = fg;
    g.fillText(formatTick(tick, yTicks), scales.margin.left - gap, scales.py(tick));
  }
}

function drawXTicks(g, scales, x, { gap, xSpacing, xTickLabel = withMinus }) {
  const { margin, plotW, plotH, px } = scales;
  const every = niceStep(Math.max(1, (xSpacing * x.length) / plotW));
  g.textAlign = 'center';
  g.textBaseline = 'top';
  for (const value of x) if (value % every === 0) g.fillText(xTickLabel(value), px(value), margin.top + plotH + gap);
}

// The x label's top stands size + 3 px above the bottom, the y label's centre size + 1 px from the left.
/** A y-axis label: `text` turned a quarter turn anticlockwise, centred at (x, y). */
export function fillTurnedText(g, text, x, y) {
  g.save();
  g.translate(x, y);
  g.rotate(-Math.PI / 2);
  g.textBaseline = 'middle';
  g.fillText(text, 0, 0);
  g.restore();
}

function drawLabels(g, scales, { xLabel, yLabel }, { size, family }) {
  const { margin, plotW, plotH, height } = scales;
  g.fillText(xLabel, margin.left + plotW / 2, height - (size + 3));
  g.save();
  g.translate(size + 1, margin.top + plotH / 2);
  g.rotate(-Math.PI / 2);
  const font = { size, family };
  fillMath(g, yLabel, -measureMath(g, yLabel, font) / 2, -size / 2, font);
  g.restore();
}

/**
 * Draws the axes of `scales` (plotScales) for the integer `x`, labelled { xLabel, yLabel }.
 * AxesStyle: { fg, grid (colours), family, size (font px), ticks (about how many y ticks), gap
 * (px from an axis to its tick labels), xSpacing (px an x tick label needs), xTickLabel (value →
 * text; default the number, with a true minus sign) }. Leaves the font
 * set and the fill in `fg`.
 */
export function drawAxes(g, scales, x, labels, style) {
  g.font = `${style.size}px ${style.family}`;
  drawYGrid(g, scales, style);
  drawXTicks(g, scales, x, style);
  g.strokeStyle = style.fg; // the zero line
  g.lineWidth = 1;
  rule(g, scales, 0);
  drawLabels(g, scales, labels, style);
}
