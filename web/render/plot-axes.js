// The axes every plot draws: the y grid with its tick labels (drawYTicks), the x ticks with their
// grid lines or marks and labels (drawXTicks), a legend of series (drawLegend), the turned y label
// (fillTurnedText), for the line chart (line-chart.js and its axes) and the scatter plot.
// And the axes through zero of the line chart (the line plot's) and of the scatter plot: a y range that always includes 0 (padded by
// 8 %), x ticks at the integer x (every one while they fit, else a nice subset), the zero line and
// the two labels (the y label in math notation). The sizes are the caller's (AxesStyle); the
// colours come from the canvas's CSS custom properties.
import { fillTextWithin } from './fit-label.js';
import { fillMath, measureMath } from './math-text.js';
import { withMinus } from './number-text.js';
import { formatTick, niceStep, niceTicks } from './ticks.js';

/** The dash patterns a series may take (`dash`; `dashed: true` is DASHES.dashed), in CSS px: drawn, gap, …. */
export const DASHES = Object.freeze({
  solid: Object.freeze([]),
  dashed: Object.freeze([5, 3]),
  dotted: Object.freeze([2, 3]),
});
/** A series' dash pattern: its `dash`, else dashed or solid. */
export const dashOf = (s) => s.dash ?? (s.dashed ? DASHES.dashed : DASHES.solid);

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
  return { px, py, plotW, plotH, yMin, yMax, margin, width, height };
}

/**
 * The y range of fitted axes: from the least to the greatest finite value of `values` (from 0 at
 * most with `fromZero`), padded by 6 % of the span at each end (not below a 0 that `fromZero`
 * put there); one value gets ±0.5 around it, none [0, 1] before the padding.
 */
export function paddedRange(values, { fromZero = false } = {}) {
  let yMin = Infinity;
  let yMax = -Infinity;
  for (const v of values)
    if (Number.isFinite(v)) {
      yMin = Math.min(yMin, v);
      yMax = Math.max(yMax, v);
    }
  if (yMin > yMax) [yMin, yMax] = [0, 1];
  if (fromZero) yMin = Math.min(0, yMin);
  if (yMax === yMin) [yMin, yMax] = [yMin - 0.5, yMax + 0.5];
  const pad = (yMax - yMin) * 0.06;
  return [!fromZero || yMin < 0 ? yMin - pad : yMin, yMax + pad];
}

/** A horizontal line from x = left, plotW wide, at y = `y` px, on the pixel grid, in the current stroke. */
export function rule(g, left, plotW, y) {
  g.beginPath();
  g.moveTo(left, Math.round(y) + 0.5);
  g.lineTo(left + plotW, Math.round(y) + 0.5);
  g.stroke();
}

/** Room at the left for the turned y label (12 px text centred 12–14 px from the edge). */
const Y_LABEL_ROOM = 22;

/**
 * The plot's left edge for y tick labels `gap` px left of the axis (drawYTicks): right of the
 * turned y label and of the widest tick label in the current font, and at least `least` px.
 */
export function plotLeft(g, ticks, { least, gap }) {
  const widest = Math.max(0, ...ticks.map((tick) => g.measureText(formatTick(tick, ticks)).width));
  return Math.max(least, Y_LABEL_ROOM + gap + Math.ceil(widest));
}

/**
 * The y grid: a line across the plot (from `left`, `plotW` wide) at each of `ticks` (y ↦ px by
 * `py`), in `grid`, and its tick label (formatTick, with a true minus sign) `gap` px left of the
 * axis, in `fg`. Leaves the fill in `fg`.
 */
export function drawYTicks(g, { left, plotW, py, ticks, fg, grid, gap }) {
  g.lineWidth = 1;
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  for (const tick of ticks) {
    g.strokeStyle = grid;
    rule(g, left, plotW, py(tick));
    g.fillStyle = fg;
    g.fillText(formatTick(tick, ticks), left - gap, py(tick));
  }
}

/**
 * The legend: each series' line (16 px of its colour, in its `dash` pattern or dashed when it is,
 * its `marker` in the middle when it has one) and its label at its place ([x, y] of legendRows,
 * the label's baseline), the labels in `fg`.
 */
export function drawLegend(g, series, places, { fg, lineWidth, colourOf }) {
  g.textAlign = 'left';
  g.textBaseline = 'alphabetic';
  series.forEach((s, index) => {
    const [x, y] = places[index];
    const colour = colourOf(s, index);
    g.strokeStyle = colour;
    g.lineWidth = lineWidth;
    g.setLineDash(dashOf(s));
    g.beginPath();
    g.moveTo(x, y - 4);
    g.lineTo(x + 16, y - 4);
    g.stroke();
    s.marker?.(g, x + 8, y - 4, colour);
    g.fillStyle = fg;
    g.fillText(s.label, x + 20, y);
  });
  g.setLineDash([]);
}

/**
 * The x ticks: at each of `ticks` (x ↦ px by `px`; with `snap`, at the pixel grid's
 * round(px) + 0.5), a line in `grid`: across the plot from `top` to `bottom` (`lines: 'across'`),
 * or `lines` px down from `bottom` (a number), or none (null); and its label, `label(value,
 * index)` (null: none), centred `gap` px under `bottom` in the current fill, ending at `right`
 * where it would run past it.
 */
export function drawXTicks(
  g,
  { ticks, px, top, bottom, gap, grid, lines = null, snap = false, label, right = Infinity },
) {
  if (lines !== null) g.strokeStyle = grid;
  g.textAlign = 'center';
  g.textBaseline = 'top';
  ticks.forEach((value, index) => {
    const x = snap ? Math.round(px(value)) + 0.5 : px(value);
    if (lines !== null) {
      g.beginPath();
      g.moveTo(x, lines === 'across' ? top : bottom);
      g.lineTo(x, lines === 'across' ? bottom : bottom + lines);
      g.stroke();
    }
    const text = label(value, index);
    if (text === null) return;
    const overhang = right === Infinity ? 0 : x + g.measureText(text).width / 2 - right;
    g.fillText(text, overhang > 0 ? x - overhang : x, bottom + gap);
  });
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
  const { margin, plotW, plotH, width, height } = scales;
  // Under the plot, whole: moved, then condensed, to stay inside the canvas (a 300 px element).
  fillTextWithin(g, xLabel, margin.left + plotW / 2, height - (size + 3), 2, width - 2);
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
  const { margin, plotW, py } = scales;
  const ticks = niceTicks(scales.yMin, scales.yMax, style.ticks);
  drawYTicks(g, { left: margin.left, plotW, py, ticks, fg: style.fg, grid: style.grid, gap: style.gap });
  // x ticks at the integer x: every one while they fit, else a nice subset.
  const { plotH, px } = scales;
  const every = niceStep(Math.max(1, (style.xSpacing * x.length) / plotW));
  const bottom = margin.top + plotH;
  drawXTicks(g, {
    ticks: x.filter((value) => value % every === 0),
    px,
    bottom,
    gap: style.gap,
    label: style.xTickLabel ?? withMinus,
  });
  g.strokeStyle = style.fg; // the zero line
  g.lineWidth = 1;
  rule(g, margin.left, plotW, py(0));
  drawLabels(g, scales, labels, style);
}
