// Axis numbers: "nice" steps (1, 2 or 5 times a power of ten), ticks on them, and their labels
// (written with a minus sign by number-text.js). Every axis, label stride and colour bar takes its
// steps from here.
import { formatFixed } from './number-text.js';

/** The smallest nice step (1, 2 or 5 times a power of ten) that is at least `minimum` (> 0). */
export function niceStep(minimum) {
  const power = 10 ** Math.floor(Math.log10(minimum));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= minimum * (1 - 1e-12));
}

/** About `count` round numbers (multiples of one nice step) covering [min, max]. */
export function niceTicks(min, max, count = 5) {
  if (!(max > min)) return [min];
  const step = niceStep((max - min) / count);
  const ticks = [];
  for (let value = Math.ceil(min / step) * step; value <= max + step * 1e-9; value += step) {
    ticks.push(Math.abs(value) < step * 1e-9 ? 0 : value);
  }
  return ticks;
}

/**
 * A tick label with as many decimals as the ticks need (a true minus, and no "−0"): the step's,
 * and more while a tick would be rounded (ticks thinned to every other one of a finer step, as a
 * narrow colour bar shows them: −0.5 and 0.5 are 1 apart, and are not written −1 and 1).
 */
export function formatTick(value, ticks) {
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : Math.abs(value) || 1;
  let decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const written = (tick) => Math.abs(Number(tick.toFixed(decimals)) - tick) <= step * 1e-9;
  while (decimals < 15 && !ticks.every(written)) decimals += 1;
  return formatFixed(value, decimals);
}
