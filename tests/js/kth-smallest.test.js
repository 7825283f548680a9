// kthSmallestOf (the long view's colour range: a high percentile of the drawn values) against a
// full sort of the same values: a min-heap of the largest near the top, quickselect elsewhere.
import { describe, expect, test } from 'vitest';
import { kthSmallestOf } from '../../web/views/panel-extents.js';
import { seededRandom as generator } from '../../web/api/seeded-random.js'; // mulberry32: a failure replays

const sortedOf = (values, f) => Float64Array.from(values, f ?? ((v) => v)).sort();

describe('kthSmallestOf', () => {
  const random = generator(16);
  const kinds = {
    'signed reals': () => (random() - 0.5) * Math.exp(4 * random()),
    'few distinct values': () => Math.floor(random() * 5) - 2,
    'all equal': () => 0.25,
    'weights (0 … 1)': () => random() ** 3,
  };
  for (const [kind, draw] of Object.entries(kinds)) {
    test(`${kind}: the 99th percentile and random ranks equal the sorted values, with |v| and without`, () => {
      for (const count of [1, 2, 7, 100, 1023, 5000, 40000]) {
        const values = Float64Array.from({ length: count }, draw);
        const before = values.slice();
        for (const f of [null, Math.abs]) {
          const sorted = sortedOf(values, f);
          const ranks = [Math.min(count - 1, Math.floor(0.99 * count)), count - 1, 0, Math.floor(random() * count)];
          for (const k of ranks) expect(kthSmallestOf(values, count, k, f)).toBe(sorted[k]);
        }
        expect(values).toEqual(before); // left as they are
      }
    });
  }

  test('only the first `count` values count', () => {
    const values = Float64Array.from([3, 1, 2, 100, 200]);
    expect(kthSmallestOf(values, 3, 2)).toBe(3);
  });
});
