// The block means every heatmap with more cells than pixels draws (web/render/block-means.js),
// against means taken here cell by cell: the square causal case (a page's panel), a row span
// with no-key cells outside it (the long view's offset space), and masked-only and no-key-only
// blocks.
import { describe, expect, test } from 'vitest';
import { MASKED, blockMeans } from '../../web/render/block-means.js';
import { seededRandom } from '../../web/api/seeded-random.js';

// Mean of the cells pixel (py, px) covers, cell by cell: numbers left of maskFrom(i) count, a
// block with masked cells only is MASKED, with no numbers and no masked cells NaN.
function naive(values, rows, cols, gRows, gCols, maskFrom) {
  const edge = (p, count, size) => Math.floor((p * count) / size);
  const out = [];
  for (let py = 0; py < gRows; py += 1)
    for (let px = 0; px < gCols; px += 1) {
      let sum = 0;
      let count = 0;
      let masked = 0;
      for (let i = edge(py, rows, gRows); i < edge(py + 1, rows, gRows); i += 1)
        for (let j = edge(px, cols, gCols); j < edge(px + 1, cols, gCols); j += 1) {
          const v = values[i * cols + j];
          if (Number.isNaN(v)) continue;
          if (maskFrom && j >= maskFrom(i)) masked += 1;
          else {
            sum += v;
            count += 1;
          }
        }
      out.push(count ? sum / count : masked ? MASKED : NaN);
    }
  return out;
}

const close = (got, want) => {
  expect(got.length).toBe(want.length);
  want.forEach((w, p) => {
    if (Number.isFinite(w)) expect(got[p]).toBeCloseTo(w, 12);
    else expect(Object.is(got[p], w), `pixel ${p}: ${got[p]} for ${w}`).toBe(true);
  });
};

describe('blockMeans', () => {
  const random = seededRandom(5);
  test('square, causal (j > i masked), every cell a number: the means of the cells j ≤ i', () => {
    for (const [n, size] of [
      [37, 10],
      [64, 64],
      [100, 33],
    ]) {
      const values = Float32Array.from({ length: n * n }, () => random() * 2 - 1);
      const span = [0, n];
      const { grid } = blockMeans(
        values,
        n,
        n,
        size,
        size,
        (i) => i + 1,
        () => span,
      );
      close(
        grid,
        naive(values, n, n, size, size, (i) => i + 1),
      );
      expect(grid[size - 1]).toBe(MASKED); // the top-right pixel: keys after every query it covers
      close(grid, [...blockMeans(values, n, n, size, size, (i) => i + 1, null).grid]);
    }
  });

  test('a row span with no-key cells (NaN) outside it, a mask inside it or before it, more pixels than cells', () => {
    const rows = 23;
    const cols = 17;
    const spans = Array.from({ length: rows }, (_, i) => [Math.max(0, 8 - i), Math.min(cols, 25 - i)]);
    const values = new Float64Array(rows * cols).fill(NaN);
    spans.forEach(([lo, hi], i) => {
      for (let j = lo; j < hi; j += 1) values[i * cols + j] = random();
    });
    const seen = [];
    // Masks inside the span, and before its start (every number of the row masked).
    for (const maskFrom of [(i) => 9 + (i % 5), (i) => (i % 3) * 4])
      for (const [gRows, gCols] of [
        [5, 4],
        [23, 17],
        [7, 20],
        [3, 1],
      ]) {
        const want = naive(values, rows, cols, gRows, gCols, maskFrom);
        close(blockMeans(values, rows, cols, gRows, gCols, maskFrom, (i) => spans[i]).grid, want);
        close(blockMeans(values, rows, cols, gRows, gCols, maskFrom, null).grid, want);
        seen.push(...want);
      }
    expect(seen.some((w) => w === MASKED) && seen.some(Number.isNaN)).toBe(true); // both kinds of empty block
  });
});
