// The line chart's symmetric-log axes (line-chart.js): x ↦ sign(x)·log₂(1 + |x|) from −reach to
// reach, so offsets 0, ±1, ±2 … stay apart while ±256 still fits, and T5's log-spaced buckets show
// as steps of growing width; ticks at 0 and ±2ⁿ, dashed marks at chosen offsets (a table's reach);
// the y axis fitted to the data, with its zero line. The checkpoint figure's plots.
import { fillTextWithin } from './fit-label.js';
import { drawXTicks, drawYTicks, fillTurnedText, paddedRange, plotLeft, rule } from './plot-axes.js';
import { withMinus } from './number-text.js';
import { niceTicks } from './ticks.js';

const MARGIN = { right: 14, bottom: 40, left: 52 };

/** The symmetric log of an offset: sign(x)·log₂(1 + |x|). */
export const symlog = (x) => Math.sign(x) * Math.log2(1 + Math.abs(x));

/** 0 and the powers of two up to `reach`, both signs, ascending. */
export function symlogTicks(reach) {
  const ticks = [0];
  for (let p = 1; p <= reach; p *= 2) ticks.push(p, -p);
  return ticks.sort((a, b) => a - b);
}

/**
 * Symmetric-log axes for drawLineChart: x from −reach to reach (what lies outside is cut at the
 * plot's edge), a dashed vertical line at each of `marks` within it; y over every finite y, padded
 * by 6 % (paddedRange, as the fitted axes) and out to its round ticks. The chart at least 220 px wide.
 */
export function symlogAxes({ reach, marks = [] }) {
  return {
    minWidth: 220,
    clip: true,
    draw(g, theme, shown, { width, height, legendBottom, xLabel, yLabel }) {
      const { fg, grid } = theme;
      const top = (legendBottom ?? 14) + 16;
      const [yMin, yMax] = paddedRange(shown.flatMap((s) => s.y));
      const ticksY = niceTicks(yMin, yMax, 5);
      const lo = Math.min(yMin, ticksY[0]);
      const hi = Math.max(yMax, ticksY.at(-1));
      const left = plotLeft(g, ticksY, { least: MARGIN.left, gap: 6 });
      const plotW = width - left - MARGIN.right;
      const plotH = height - top - MARGIN.bottom;
      const span = symlog(reach);
      const px = (x) => left + ((symlog(x) + span) / (2 * span)) * plotW;
      const py = (y) => top + (1 - (y - lo) / (hi - lo)) * plotH;
      drawYTicks(g, { left, plotW, py, ticks: ticksY, fg, grid, gap: 6 });
      const ticksX = symlogTicks(reach);
      const room = plotW / ticksX.length;
      // Where the ticks are crowded, the odd powers of two go unlabelled (but the two ends).
      const label = (t, i) => {
        const everyOther = room < 26 && Math.abs(t) > 1 && Math.log2(Math.abs(t)) % 2 === 1;
        return !everyOther || i === 0 || i === ticksX.length - 1 ? withMinus(String(t)) : null;
      };
      const bottom = top + plotH;
      drawXTicks(g, { ticks: ticksX, px, top, bottom, gap: 5, grid, lines: 'across', snap: true, label });
      g.strokeStyle = fg; // the zero line
      rule(g, left, plotW, py(0));
      g.setLineDash([3, 3]); // the marks
      const ticks = marks.filter((m) => Math.abs(m) <= reach);
      drawXTicks(g, { ticks, px, top, bottom, grid: fg, lines: 'across', snap: true, label: () => null });
      g.setLineDash([]);
      g.textBaseline = 'bottom';
      fillTextWithin(g, xLabel, left + plotW / 2, height - 2, 2, width - 2);
      fillTurnedText(g, yLabel, 14, top + plotH / 2);
      return { px, py, left, top, plotW, plotH, xMin: -reach, xMax: reach, yMin: lo, yMax: hi, integer: false };
    },
  };
}
