// The y range and the left edge shared by the fitted and the symmetric-log axes (plot-axes.js).
import { describe, expect, test } from 'vitest';
import { paddedRange, plotLeft } from '../../web/render/plot-axes.js';

describe('paddedRange', () => {
  test('from the least to the greatest finite value, 6 % of the span more at each end', () => {
    const [low, high] = paddedRange([3, 1, Number.NaN, 2, Infinity]);
    expect(low).toBeCloseTo(1 - 0.12, 12);
    expect(high).toBeCloseTo(3 + 0.12, 12);
  });
  test('from zero: 0 is the bottom while nothing is below it, padded like any end once something is', () => {
    expect(paddedRange([1, 3], { fromZero: true })).toEqual([0, 3 + 3 * 0.06]);
    const [low, high] = paddedRange([-1, 3], { fromZero: true });
    expect(low).toBeCloseTo(-1 - 0.24, 12);
    expect(high).toBeCloseTo(3 + 0.24, 12);
  });
  test('one value: ±0.5 around it; none: 0 to 1, each padded', () => {
    expect(paddedRange([2, 2])).toEqual([1.5 - 0.06, 2.5 + 0.06]);
    expect(paddedRange([Number.NaN])).toEqual([-0.06, 1.06]);
  });
});

describe('plotLeft', () => {
  // A context whose text is 7 px a character.
  const g = { measureText: (text) => ({ width: 7 * [...text].length }) };
  test('right of the turned label and of the widest tick label, the gap between', () => {
    // "−0.005" is 6 characters: 22 px for the turned label + 6 + 42.
    expect(plotLeft(g, [-0.005, 0, 0.005], { least: 52, gap: 6 })).toBe(70);
  });
  test('at least the least margin', () => {
    expect(plotLeft(g, [0, 1, 2], { least: 52, gap: 6 })).toBe(52);
  });
});
