// Lines of y against an integer offset on a symmetric log axis: x ↦ sign(x)·log₂(1 + |x|), so
// offsets 0, ±1, ±2 … stay apart while ±256 still fits, and T5's log-spaced buckets show as
// steps of growing width. Ticks at 0 and ±2ⁿ; dashed marks at chosen offsets (a table's reach);
// a legend above. Colours from the canvas's CSS custom properties (--relpos-fg, --relpos-grid).
import { fitCanvas, pixelRatio } from './canvas-size.js';
import { cssColour, drawLegend, drawXTicks, drawYTicks, fillTurnedText } from './plot-axes.js';
import { withMinus } from './number-text.js';
import { niceTicks } from './ticks.js';
import { legendRows } from './legend-rows.js';

const MARGIN = { top: 10, right: 14, bottom: 40, left: 52 };

/** The symmetric log of an offset: sign(x)·log₂(1 + |x|). */
export const symlog = (x) => Math.sign(x) * Math.log2(1 + Math.abs(x));

/** 0 and the powers of two up to `reach`, both signs, ascending. */
export function symlogTicks(reach) {
  const ticks = [0];
  for (let p = 1; p <= reach; p *= 2) ticks.push(p, -p);
  return ticks.sort((a, b) => a - b);
}

/**
 * series: [{ label, x: offsets (ascending), y, colour, dashed? }]; reach: the axis runs −reach…reach;
 * marks: offsets to draw a dashed vertical line at. Returns { yMin, yMax } as drawn.
 */
export function drawSymlogPlot(canvas, { series, reach, marks = [], xLabel, yLabel, height = 240 }) {
  const style = getComputedStyle(canvas);
  const fg = cssColour(style, '--relpos-fg', '#222');
  const grid = cssColour(style, '--relpos-grid', '#ddd');
  const font = `12px ${style.fontFamily || 'sans-serif'}`;
  const cssWidth = Math.max(220, canvas.parentElement.clientWidth);
  const measure = canvas.getContext('2d');
  measure.font = font;
  // Legend rows: the canvas grows by each extra row.
  const { places, ly } = legendRows(
    measure,
    series.map((s) => s.label),
    MARGIN.left,
    cssWidth,
  );
  const top = MARGIN.top + ly + 6;
  const fullHeight = height + ly;
  const { context: g, width } = fitCanvas(canvas, cssWidth, fullHeight, pixelRatio(canvas.parentElement));
  g.clearRect(0, 0, width, fullHeight);
  g.font = font;
  let yMin = Infinity;
  let yMax = -Infinity;
  for (const s of series)
    for (const v of s.y) {
      if (v < yMin) yMin = v;
      if (v > yMax) yMax = v;
    }
  if (!Number.isFinite(yMin)) [yMin, yMax] = [-1, 1];
  if (yMax === yMin) [yMin, yMax] = [yMin - 1, yMax + 1];
  const pad = (yMax - yMin) * 0.06;
  const ticksY = niceTicks(yMin - pad, yMax + pad, 5);
  const lo = Math.min(yMin - pad, ticksY[0]);
  const hi = Math.max(yMax + pad, ticksY.at(-1));
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = fullHeight - top - MARGIN.bottom;
  const span = symlog(reach);
  const px = (x) => MARGIN.left + ((symlog(x) + span) / (2 * span)) * plotW;
  const py = (y) => top + (1 - (y - lo) / (hi - lo)) * plotH;
  // Grid, ticks and labels.
  drawYTicks(g, { left: MARGIN.left, plotW, py, ticks: ticksY, fg, grid, gap: 6 });
  const ticksX = symlogTicks(reach);
  const room = plotW / ticksX.length;
  // Where the ticks are crowded, the odd powers of two go unlabelled (but the two ends).
  const label = (t, i) => {
    const everyOther = room < 26 && Math.abs(t) > 1 && Math.log2(Math.abs(t)) % 2 === 1;
    return !everyOther || i === 0 || i === ticksX.length - 1 ? withMinus(String(t)) : null;
  };
  drawXTicks(g, { ticks: ticksX, px, top, bottom: top + plotH, gap: 5, grid, lines: 'across', snap: true, label });
  g.strokeStyle = fg;
  g.beginPath();
  g.moveTo(MARGIN.left, Math.round(py(0)) + 0.5);
  g.lineTo(MARGIN.left + plotW, Math.round(py(0)) + 0.5);
  g.stroke();
  g.setLineDash([3, 3]);
  for (const m of marks) {
    if (Math.abs(m) > reach) continue;
    g.beginPath();
    g.moveTo(Math.round(px(m)) + 0.5, top);
    g.lineTo(Math.round(px(m)) + 0.5, top + plotH);
    g.stroke();
  }
  g.setLineDash([]);
  g.textBaseline = 'bottom';
  g.fillText(xLabel, MARGIN.left + plotW / 2, fullHeight - 2);
  fillTurnedText(g, yLabel, 14, top + plotH / 2);
  // The series, then the legend.
  g.lineWidth = 1.8;
  g.lineJoin = 'round';
  for (const s of series) {
    g.strokeStyle = s.colour;
    g.setLineDash(s.dashed ? [5, 3] : []);
    g.beginPath();
    let started = false;
    for (let i = 0; i < s.x.length; i += 1) {
      if (Math.abs(s.x[i]) > reach || !Number.isFinite(s.y[i])) continue;
      if (started) g.lineTo(px(s.x[i]), py(s.y[i]));
      else g.moveTo(px(s.x[i]), py(s.y[i]));
      started = true;
    }
    g.stroke();
  }
  drawLegend(g, series, places, { fg, lineWidth: 1.8, colourOf: (s) => s.colour });
  return { yMin: lo, yMax: hi };
}
