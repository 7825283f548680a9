// The long view's offset space (web/views/offset-space.js) against an independent derivation
// from the API's n × n matrices: every key j of row i put in the bucket of its clipped offset
// clip(j − i, −k, k), for several n, k (0, 1, small, n − 2, n − 1, ≥ n) and the causal mask.
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from '../../web/api/index.js';
import { computeAttentionView } from '../../web/views/view.js';
import { ATTENTION_PANEL_IDS, PANELS as PANEL_TABLE, PANEL_IDS as PANELS } from '../../web/views/panels.js';
import { computeOffsetSpace, keysOf, offsetReach, offsetValue } from '../../web/views/offset-space.js';

let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

/** Row i's buckets: clipped offset -> the keys j with clip(j − i, ±k) = c, in order. */
function buckets(i, n, k) {
  const found = new Map();
  for (let j = 0; j < n; j += 1) {
    const c = Math.min(k, Math.max(-k, j - i)) + 0; // +0, not −0
    if (!found.has(c)) found.set(c, []);
    found.get(c).push(j);
  }
  return found;
}

/** The expected cell from the n × n matrices (undefined: no key). */
function expected(ex, panel, i, c, keys) {
  if (!keys) return undefined;
  const n = ex.params.seqLen;
  const at = (m, j) => m.data[i * n + j];
  const sum = (m) => keys.reduce((s, j) => s + at(m, j), 0);
  switch (panel) {
    case 'contentScores': {
      // The key j = i + c; in an edge column (clipped keys), the one at exactly |j − i| = k.
      const j = i + c;
      return keys.includes(j) ? at(ex.contentScores, j) : NaN; // NaN: a mismatch
    }
    case 'positionBiases': {
      const values = keys.map((j) => at(ex.positionBiases, j));
      return new Set(values).size === 1 ? values[0] : NaN; // every key of the cell has the same bias, bit for bit
    }
    case 'contentWeights':
      return sum(ex.contentWeights);
    case 'combinedWeights':
      return sum(ex.combinedWeights);
    case 'difference':
      return sum(ex.combinedWeights) - sum(ex.contentWeights);
    case 'offsets':
      return c;
    default:
      throw new Error(panel);
  }
}

describe('the panel table', () => {
  test("attention() computes the panels marked attention, by its outputs' names; each panel says how its offset-space cell is made, and what it shows", () => {
    const ex = rp.example({ seed: 7, seqLen: 9, dModel: 8, dK: 4, maxDistance: 2 });
    expect(ATTENTION_PANEL_IDS.length).toBeGreaterThan(0);
    for (const id of PANELS) expect(ex[id] !== undefined, id).toBe(ATTENTION_PANEL_IDS.includes(id));
    const view = computeAttentionView(
      rp,
      { seqLen: 9, dK: 4, maxDistance: 2, seed: 7, tokens: '' },
      { positionsOnly: true },
    );
    const { cols, panels } = view.offsetSpace;
    for (const panel of PANEL_TABLE) {
      const { cell, bar, caption } = panel.offsetSpace;
      expect(['key', 'sum', 'offset'], panel.id).toContain(cell);
      expect(bar.length, panel.id).toBeGreaterThan(0);
      expect(caption(view), panel.id).toMatch(/^Offset space: /);
      // A panel whose cells total its keys keeps each row's total: 1 for weights, 0 for their difference.
      if (cell !== 'sum') continue;
      const total = Array.from(panels[panel.id].subarray(4 * cols, 5 * cols)).reduce((sum, v) => sum + (v || 0), 0);
      expect(Math.abs(total - (panel.id === 'difference' ? 0 : 1)), panel.id).toBeLessThan(1e-5);
    }
  });
});

describe('offset space', () => {
  const CASES = [
    [1, 0, false],
    [5, 0, true],
    [9, 1, false],
    [40, 3, true],
    [70, 16, false],
    [70, 16, true],
    [65, 63, false],
    [66, 64, true],
    [50, 49, false],
    [50, 48, true],
    [30, 45, false],
    [30, 45, true],
    [129, 128, false],
  ];
  for (const [n, k, causal] of CASES) {
    test(`n = ${n}, k = ${k}${causal ? ', causal' : ''}: every cell from the n × n matrices`, () => {
      const settings = { seqLen: n, dK: 4, maxDistance: k, seed: 7, causal, tokens: '' };
      const view = computeAttentionView(rp, settings, { positionsOnly: true });
      const ex = rp.example({ seed: 7, seqLen: n, dModel: 8, dK: 4, maxDistance: k, causal });
      const reach = offsetReach(n, k);
      expect(reach).toBe(Math.min(k, n - 1));
      const { cols, panels } = view.offsetSpace;
      expect(view.offsetSpace.reach).toBe(reach);
      expect(cols).toBe(2 * reach + 1);
      for (const panel of PANELS) expect(panels[panel].length).toBe(n * cols);
      const wrong = []; // every mismatch, reported at once (an expect per cell is slow)
      const check = (ok, what) => ok || wrong.length > 20 || wrong.push(what);
      for (let i = 0; i < n; i += 1) {
        const found = buckets(i, n, k);
        for (const c of found.keys()) check(Math.abs(c) <= reach, `bucket ${c} beyond ±k′ in row ${i}`);
        let contentRow = 0;
        let combinedRow = 0;
        for (let c = 0 - reach; c <= reach; c += 1) {
          const keys = found.get(c);
          const range = keysOf(i, c, n, k);
          check(
            JSON.stringify(range ? [range[0], range[1]] : null) ===
              JSON.stringify(keys ? [keys[0], keys.at(-1)] : null),
            `keys of (${i}, ${c})`,
          );
          for (const panel of PANELS) {
            const want = expected(ex, panel, i, c, keys);
            const drawn = panels[panel][i * cols + c + reach];
            const exact = offsetValue(view, panel, i, c);
            if (want === undefined)
              check(
                Number.isNaN(drawn) && Number.isNaN(exact),
                `${panel} (${i}, ${c}): no key, got ${drawn}, ${exact}`,
              );
            else
              check(
                Object.is(exact, want) && Object.is(drawn, Math.fround(want)),
                `${panel} (${i}, ${c}): want ${want}, got ${exact} / ${drawn}`,
              );
          }
          if (keys) {
            contentRow += offsetValue(view, 'contentWeights', i, c);
            combinedRow += offsetValue(view, 'combinedWeights', i, c);
            if (causal && c > 0) check(offsetValue(view, 'combinedWeights', i, c) === 0, `causal (${i}, ${c}) not 0`);
          }
        }
        check(
          Math.abs(contentRow - 1) < 1e-12 && Math.abs(combinedRow - 1) < 1e-12,
          `row ${i} sums ${contentRow}, ${combinedRow}`,
        );
      }
      expect(wrong).toEqual([]);
    });
  }

  test('n = 2048, k = 2047 (4095 columns): 200 MB of float32 (its time is in npm run bench:page)', () => {
    const view = computeAttentionView(
      rp,
      { seqLen: 2048, dK: 4, maxDistance: 2047, seed: 1, causal: false, tokens: '' },
      { positionsOnly: false },
    );
    const space = computeOffsetSpace(view);
    const bytes = Object.values(space.panels).reduce((s, a) => s + a.byteLength, 0);
    expect(space.cols).toBe(4095);
    expect(bytes).toBe(6 * 2048 * 4095 * 4);
    // Row 0 has its keys at c = 0…2047, row 2047 at c = −2047…0.
    expect(space.panels.offsets[0]).toBeNaN();
    expect(space.panels.offsets[2047]).toBe(0);
    expect(space.panels.offsets[4094]).toBe(2047);
    expect(space.panels.offsets[2047 * 4095]).toBe(-2047);
    expect(space.panels.offsets[2047 * 4095 + 2047]).toBe(0);
    expect(space.panels.offsets[2047 * 4095 + 2048]).toBeNaN();
  });
});
