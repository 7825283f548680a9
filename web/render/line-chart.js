// The line chart: several series over shared axes (the training section's loss curves, profiles
// per head or per part of speech, losses against length), each a line with an optional band and
// dashes, a legend above. Colours from the theme's CSS custom properties (--relpos-fg,
// --relpos-grid) and SERIES_COLOURS.
import { fitCanvas } from './canvas-size.js';
import { cssColour, drawLegend, drawXTicks, drawYTicks, fillTurnedText } from './plot-axes.js';
import { formatTick, niceTicks } from './ticks.js';
import { legendRows } from './legend-rows.js';

/** Series colours (Okabe–Ito: distinguishable with colour-blindness). */
export const SERIES_COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#f0e442'];

const MARGIN = { top: 10, right: 12, bottom: 40, left: 52 };
/** Room at the left for the turned y label (12 px text centred 12 px from the edge), and between a y tick label and the axis. */
const Y_LABEL_ROOM = 22;
const TICK_GAP = 6;

function themed(canvas) {
  const style = getComputedStyle(canvas);
  return {
    fg: cssColour(style, '--relpos-fg', '#222'),
    grid: cssColour(style, '--relpos-grid', '#ddd'),
    font: `12px ${style.fontFamily || 'sans-serif'}`,
  };
}

/**
 * Series [{ label, x: number[], y: number[], colour?, dashed?, low?, high? }] over shared axes; a
 * legend above the plot; `low`/`high` (as long as x) fill a band under the line in its colour.
 * `yRange` ([low, high]) fixes the y axis instead of fitting it to the data: what lies outside is
 * cut at the plot's edge; `legend: false` leaves the legend out (a second view of the same series);
 * `xTicks` (values) puts the x ticks there instead of at round numbers (the lengths measured).
 * Returns the drawn ranges (for tests and captions).
 */
export function drawLineChart(
  canvas,
  {
    series,
    xLabel,
    yLabel,
    height = 220,
    yFromZero = false,
    xInteger = false,
    xTicks: given,
    yRange = null,
    legend = true,
  },
) {
  const t = themed(canvas);
  const cssWidth = Math.max(200, canvas.parentElement.clientWidth);
  // Legend: coloured labels in rows (wrapping); the canvas grows by the extra rows.
  const measure = canvas.getContext('2d');
  measure.font = t.font;
  const { places, ly } = legend
    ? legendRows(
        measure,
        series.map((s) => s.label),
        MARGIN.left,
        cssWidth,
      )
    : { places: [], ly: 14 };
  height += ly - 14;
  const { context: g, width } = fitCanvas(canvas, cssWidth, height);
  g.clearRect(0, 0, width, height);
  g.font = t.font;
  const shown = series.filter((s) => s.x.length > 0);
  const colourOf = (s, index) => s.colour ?? SERIES_COLOURS[index % SERIES_COLOURS.length];
  if (legend) drawLegend(g, series, places, { fg: t.fg, lineWidth: 2, colourOf });
  const top = ly + 10;
  const plotH = height - top - MARGIN.bottom;
  const xs = shown.flatMap((s) => s.x);
  const ys = shown.flatMap((s) => [...s.y, ...(s.low ?? []), ...(s.high ?? [])]).filter(Number.isFinite);
  const xMin = xs.length ? Math.min(...xs) : 0;
  let xMax = xs.length ? Math.max(...xs) : 1;
  if (xMax === xMin) xMax = xMin + 1;
  let yMin = ys.length ? Math.min(...ys) : 0;
  let yMax = ys.length ? Math.max(...ys) : 1;
  if (yFromZero) yMin = Math.min(0, yMin);
  if (yMax === yMin) {
    yMax += 0.5;
    yMin -= 0.5;
  }
  const pad = (yMax - yMin) * 0.06;
  yMax += pad;
  if (!yFromZero || yMin < 0) yMin -= pad;
  if (yRange) [yMin, yMax] = yRange;
  const yTicks = niceTicks(yMin, yMax, 4);
  const yTickTexts = yTicks.map((v) => formatTick(v, yTicks));
  // The plot starts right of the widest y tick label (6 px from the axis) and the turned y label.
  const left = Math.max(
    MARGIN.left,
    Y_LABEL_ROOM + TICK_GAP + Math.ceil(Math.max(0, ...yTickTexts.map((s) => g.measureText(s).width))),
  );
  const plotW = width - left - MARGIN.right;
  const px = (v) => left + ((v - xMin) / (xMax - xMin)) * plotW;
  const py = (v) => top + (1 - (v - yMin) / (yMax - yMin)) * plotH;
  drawYTicks(g, { left, plotW, py, ticks: yTicks, fg: t.fg, grid: t.grid, gap: TICK_GAP });
  const xTicks = given ?? (xInteger ? integerTicks(xMin, xMax) : niceTicks(xMin, xMax, 5));
  // Marks 4 px long under the plot; a label that would run past the canvas's right edge ends at it.
  const label = (v) => formatTick(v, xTicks);
  drawXTicks(g, { ticks: xTicks, px, bottom: top + plotH, gap: 6, grid: t.grid, lines: 4, label, right: width });
  g.fillText(xLabel, left + plotW / 2, top + plotH + 22);
  fillTurnedText(g, yLabel, 12, top + plotH / 2);
  g.save();
  // Lines and bands stay inside the plot (a fixed yRange cuts what lies outside it).
  g.beginPath();
  g.rect(left - 3, top - 3, plotW + 6, plotH + 6);
  g.clip();
  g.save();
  g.globalAlpha = 0.16;
  for (const [index, s] of series.entries()) {
    if (!s.x.length || !s.low || !s.high) continue;
    g.fillStyle = colourOf(s, index);
    g.beginPath();
    s.x.forEach((x, i) => (i ? g.lineTo(px(x), py(s.high[i])) : g.moveTo(px(x), py(s.high[i]))));
    for (let i = s.x.length - 1; i >= 0; i -= 1) g.lineTo(px(s.x[i]), py(s.low[i]));
    g.closePath();
    g.fill();
  }
  g.restore();
  for (const [index, s] of series.entries()) {
    if (!s.x.length) continue;
    g.strokeStyle = colourOf(s, index);
    g.lineWidth = 2;
    g.setLineDash(s.dashed ? [5, 3] : []);
    g.beginPath();
    s.x.forEach((x, i) => (i ? g.lineTo(px(x), py(s.y[i])) : g.moveTo(px(x), py(s.y[i]))));
    g.stroke();
    if (xInteger || s.x.length < 40) {
      g.fillStyle = g.strokeStyle;
      s.x.forEach((x, i) => g.fillRect(px(x) - 2, py(s.y[i]) - 2, 4, 4));
    }
  }
  g.restore();
  g.setLineDash([]);
  return { xMin, xMax, yMin, yMax };
}

/** Every integer from min to max, or every second one beyond 12. */
function integerTicks(min, max) {
  const step = max - min > 12 ? 2 : 1;
  const out = [];
  for (let v = Math.ceil(min); v <= max; v += step) out.push(v);
  return out;
}
