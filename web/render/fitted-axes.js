// The line chart's fitted axes (line-chart.js): the y axis fitted to the data or fixed, x ticks at
// round numbers, at the integers or where given, the labels in plain text. The training section's
// loss curves and profiles, the languages' profiles, the losses against length.
import { fillTextWithin } from './fit-label.js';
import { drawXTicks, drawYTicks, fillTurnedText, paddedRange, plotLeft } from './plot-axes.js';
import { formatTick, niceTicks } from './ticks.js';

const MARGIN = { right: 12, bottom: 40, left: 52 };
/** Between a y tick label and the axis. */
const TICK_GAP = 6;

/** Every integer from min to max, or every second one beyond 12. */
function integerTicks(min, max) {
  const step = max - min > 12 ? 2 : 1;
  const out = [];
  for (let v = Math.ceil(min); v <= max; v += step) out.push(v);
  return out;
}

/**
 * Fitted axes: the y range over every y, low and high of the series (paddedRange: padded by 6 %,
 * from 0 with `yFromZero`), or `yRange` ([low, high]: what lies outside is cut at the plot's edge); x ticks at
 * `xTicks` (values), at the integers (`xInteger`, the points then marked) or at round numbers
 * (with one x value in all the series, one tick at it);
 * x on a logarithmic scale with `xLog` (equal ratios, as 16, 32, 64, 128, equally far apart; x > 0).
 * The chart at least 200 px wide; `right` px left free right of the plot (the line chart's end labels).
 */
export function fittedAxes({
  yFromZero = false,
  xInteger = false,
  xTicks: given = null,
  yRange = null,
  xLog = false,
} = {}) {
  return {
    minWidth: 200,
    clip: Boolean(yRange),
    draw(g, theme, shown, { width, height, legendBottom, xLabel, yLabel, right = 0 }) {
      const top = (legendBottom ?? 14) + 10;
      const plotH = height - top - MARGIN.bottom;
      const xs = shown.flatMap((s) => s.x);
      const xMin = xs.length ? Math.min(...xs) : 0;
      let xMax = xs.length ? Math.max(...xs) : 1;
      // One x (a single reading, at step 0): the plot spans one unit from it, its one tick at it,
      // not ticks at fractions of it (0.2, 0.4, … of a step).
      const oneX = xs.length > 0 && xMax === xMin;
      if (xMax === xMin) xMax = xMin + 1;
      const ys = shown.flatMap((s) => [...s.y, ...(s.low ?? []), ...(s.high ?? [])]);
      const [yMin, yMax] = yRange ?? paddedRange(ys, { fromZero: yFromZero });
      const yTicks = niceTicks(yMin, yMax, 4);
      const left = plotLeft(g, yTicks, { least: MARGIN.left, gap: TICK_GAP });
      const plotW = width - left - MARGIN.right - right;
      const scale = xLog ? Math.log : (v) => v;
      const px = (v) => left + ((scale(v) - scale(xMin)) / (scale(xMax) - scale(xMin))) * plotW;
      const py = (v) => top + (1 - (v - yMin) / (yMax - yMin)) * plotH;
      drawYTicks(g, { left, plotW, py, ticks: yTicks, fg: theme.fg, grid: theme.grid, gap: TICK_GAP });
      const xTicks = given ?? (oneX ? [xMin] : xInteger ? integerTicks(xMin, xMax) : niceTicks(xMin, xMax, 5));
      // Marks 4 px long under the plot; a label that would run past the canvas's right edge ends at it.
      const label = (v) => formatTick(v, xTicks);
      drawXTicks(g, {
        ticks: xTicks,
        px,
        bottom: top + plotH,
        gap: 6,
        grid: theme.grid,
        lines: 4,
        label,
        right: width,
      });
      fillTextWithin(g, xLabel, left + plotW / 2, top + plotH + 22, 2, width - 2);
      fillTurnedText(g, yLabel, 12, top + plotH / 2);
      return { px, py, left, top, plotW, plotH, xMin, xMax, yMin, yMax, integer: xInteger };
    },
  };
}
