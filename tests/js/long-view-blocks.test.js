// The long view by blocks of query rows (views/long-view-blocks.js, what each worker of the
// page's pool computes) put together equals the single worker's view bit for bit: every
// offset-space panel, the block means, the ranges, the n × n rows and the output read from the
// workers that computed them (no instance on the page); at block edges, causal, k = 0 and k ≥ n;
// and a change of k, the table or causal that reuses the kept content panels gives the numbers of
// a full recompute. Real WASM instances, one per "worker".
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { ATTENTION_BLOCK_ROWS } from '../../web/api/limits.js';
import { splitRows } from '../../web/api/worker-pool.js';
import { panelRanges } from '../../web/views/panel-extents.js';
import {
  assembleLongView,
  computeLongViewBlock,
  pixelRowsOf,
  readBlockRows,
} from '../../web/views/long-view-blocks.js';
import { computeOffsetMeans, offsetValue } from '../../web/views/offset-space.js';
import { ATTENTION_PANEL_IDS, PANEL_IDS } from '../../web/views/panels.js';
import { computeAttentionView } from '../../web/views/view.js';
import { ATTENTION_SETTINGS, defaultState } from '../../web/settings/settings.js';

let single; // the single worker's instance
let workers; // one instance per worker of the pool

beforeAll(async () => {
  single = await createRelPos();
  workers = await Promise.all([1, 2, 3].map(() => createRelPos()));
});

const settingsFor = (changes) => {
  const state = { ...defaultState(), long: true, ...changes };
  return Object.fromEntries(ATTENTION_SETTINGS.map((name) => [name, state[name]]));
};

/** The single worker's view (the view worker's attentionView task): the reference. */
function singleView(settings, grid) {
  const view = computeAttentionView(single, settings, { positionsOnly: true });
  if (grid) view.offsetSpace.means = computeOffsetMeans(view, grid);
  return { view, ranges: panelRanges(view) };
}

/**
 * The pool's view: each block in its own instance, sent through a structured clone; its rows
 * read from the instance that computed them (what the longViewRows task answers), as the page does.
 */
function pooledView(settings, parts, grid, caches, previous = null) {
  const split = splitRows(settings.seqLen, parts);
  const blocks = split.map((block, index) =>
    structuredClone(computeLongViewBlock(workers[index], settings, block, { grid, cache: caches[index] }).block),
  );
  const readRows = async (from, to) => {
    const index = split.findIndex(({ first, count }) => from >= first && from < first + count);
    return structuredClone(readBlockRows(caches[index], structuredClone(settings), from, to));
  };
  return { blocks, ...assembleLongView(readRows, settings, blocks, { grid, previous }) };
}

// Object.is: NaN equals NaN, and 0 differs from −0.
function expectSame(got, want, what) {
  expect(got.length, what).toBe(want.length);
  for (let index = 0; index < want.length; index += 1) {
    if (!Object.is(got[index], want[index]))
      expect(`${what}[${index}] = ${got[index]}`).toBe(`${what}[${index}] = ${want[index]}`);
  }
}

async function expectSameView(got, want, gotRanges, wantRanges) {
  const { n } = want.view;
  for (const id of PANEL_IDS) expectSame(got.offsetSpace.panels[id], want.view.offsetSpace.panels[id], id);
  if (want.view.offsetSpace.means) {
    expect(Object.keys(got.offsetSpace.means.panels)).toEqual(Object.keys(want.view.offsetSpace.means.panels));
    for (const [id, means] of Object.entries(want.view.offsetSpace.means.panels))
      expectSame(got.offsetSpace.means.panels[id].grid, means.grid, `means ${id}`);
  }
  expect(gotRanges).toEqual(wantRanges);
  // Cells at and around the blocks' edges, first and last: in float64 from the rows read from
  // the workers, and as drawn (what a tooltip shows) without them.
  const reach = want.view.offsetSpace.reach;
  for (const i of [0, 1, 31, 32, 33, 63, 64, Math.floor(n / 2), n - 2, n - 1].filter((r) => r >= 0 && r < n)) {
    const rows = await got.readRows(i);
    for (const c of [-reach, -reach + 1, -1, 0, 1, reach - 1, reach]) {
      if (Math.abs(c) > reach) continue;
      for (const id of PANEL_IDS) {
        const exact = offsetValue(want.view, id, i, c);
        expect(Object.is(offsetValue(got, id, i, c, rows), exact), `${id} (${i}, ${c})`).toBe(true);
        expect(Object.is(offsetValue(got, id, i, c), Math.fround(exact)), `drawn ${id} (${i}, ${c})`).toBe(true);
      }
    }
  }
  // The view holds no n × n matrix and no output of its own: they are read (an export).
  for (const id of [...ATTENTION_PANEL_IDS, 'output']) expect(got.result[id], id).toBeUndefined();
  expect(got.difference).toBeUndefined();
  const all = await got.readAll();
  for (const id of ATTENTION_PANEL_IDS) expectSame(all[id].data, want.view.result[id].data, id);
  expectSame(all.difference.data, want.view.difference, 'difference');
  expectSame(got.offsets.data, want.view.offsets.data, 'offsets');
  expectSame(all.output.data, want.view.result.output.data, 'output');
  expectSame(got.profile.profile, want.view.profile.profile, 'profile');
}

describe('the long view by blocks of rows', () => {
  test("the pool splits at the core's block of rows (its contract's, tests/js/contract.test.js)", () => {
    for (const { first } of splitRows(1000, 3)) expect(first % ATTENTION_BLOCK_ROWS).toBe(0);
  });

  test.each([
    // n, k, causal, workers, grid (block means) or null
    [33, 2, false, 2, null],
    [65, 0, true, 3, null],
    [97, 200, true, 3, null],
    [400, 20, true, 2, { gRows: 300, gCols: 41 }],
    [500, 499, false, 3, { gRows: 333, gCols: 420 }],
    [1000, 16, false, 3, { gRows: 560, gCols: 33 }],
  ])(
    'n = %i, k = %i, causal %s, %i workers: bit for bit the single worker’s view',
    async (n, k, causal, parts, grid) => {
      const settings = settingsFor({ seqLen: n, maxDistance: k, causal, seed: 9 });
      const caches = workers.map(() => ({}));
      const got = pooledView(settings, parts, grid, caches);
      const want = singleView(settings, grid);
      await expectSameView(got.view, want, got.ranges, want.ranges);
    },
  );

  test('pixel rows straddling two blocks are left to the page, the others computed where their rows are', () => {
    // 1000 rows on 560 pixel rows; blocks at 0, 352, 672 (multiples of 32).
    const parts = splitRows(1000, 3);
    const shares = parts.map(({ first, count }) => pixelRowsOf(1000, 560, first, count));
    expect(shares[0].pixelFrom).toBe(0);
    expect(shares.at(-1).pixelTo).toBe(560);
    const left = 560 - shares.reduce((sum, s) => sum + s.pixelTo - s.pixelFrom, 0);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(left).toBeLessThanOrEqual(parts.length - 1);
  });

  test('a change of k, the table or causal reuses the kept content panels, with the numbers of a full recompute', async () => {
    const grid = { gRows: 400, gCols: 33 };
    const caches = workers.map(() => ({}));
    const steps = [
      [{ seed: 4 }, { scores: false, weights: false }],
      [
        { seed: 4, maxDistance: 12 },
        { scores: true, weights: true },
      ], // k
      [
        { seed: 4, maxDistance: 12, table: 'random' },
        { scores: true, weights: true },
      ], // the table
      [
        { seed: 4, maxDistance: 12, table: 'random', causal: true },
        { scores: true, weights: false },
      ], // causal
      [
        { seed: 4, maxDistance: 30, table: 'random', causal: true },
        { scores: true, weights: true },
      ],
      [
        { seed: 5, maxDistance: 30, table: 'random', causal: true },
        { scores: false, weights: false },
      ], // the seed
    ];
    let previous = null;
    for (const [changes, reused] of steps) {
      const settings = settingsFor({ seqLen: 700, maxDistance: 16, ...changes });
      const got = pooledView(settings, 3, grid, caches, previous);
      for (const block of got.blocks) expect(block.reused, JSON.stringify(changes)).toEqual(reused);
      const want = singleView(settings, grid);
      await expectSameView(got.view, want, got.ranges, want.ranges);
      // The offsets panel depends on n and k only: kept (not drawn again) while they stay.
      if (previous && previous.maxDistance === settings.maxDistance)
        expect(got.view.offsetSpace.panels.offsets).toBe(previous.offsetSpace.panels.offsets);
      previous = got.view;
    }
  });

  test('rows are read from the worker only while it holds that view: after its next block, a clear error', async () => {
    const caches = workers.map(() => ({}));
    const first = pooledView(settingsFor({ seqLen: 100, maxDistance: 4, seed: 1 }), 2, null, caches);
    await expect(first.view.readRows(99)).resolves.toMatchObject({ first: 96, rows: 4 });
    pooledView(settingsFor({ seqLen: 100, maxDistance: 4, seed: 2 }), 2, null, caches);
    await expect(first.view.readRows(40)).rejects.toThrow(/replaced by a newer view/);
    expect(() => readBlockRows(caches[0], settingsFor({ seqLen: 100, maxDistance: 4, seed: 2 }), 60, 70)).toThrow(
      RangeError,
    );
  });
});

describe('example({ outputs })', () => {
  test('[] draws the inputs only, the same as a full call draws; a list computes those panels, bit for bit', () => {
    const options = { seqLen: 70, maxDistance: 5, draw: 'stable', seed: 3, causal: true };
    const full = single.example(options);
    const drawOnly = single.example({ ...options, outputs: [] });
    for (const name of ['q', 'k', 'v', 'relKeys', 'relValues'])
      expectSame(drawOnly.inputs[name].data, full.inputs[name].data, name);
    expect(drawOnly.combinedWeights).toBeUndefined();
    expect(drawOnly.params).toEqual(full.params);
    const two = single.example({ ...options, outputs: ['output', 'contentScores'] });
    expect(Object.keys(two).filter((key) => key.startsWith('content') || key.startsWith('combined'))).toEqual([
      'contentScores',
    ]);
    expectSame(two.contentScores.data, full.contentScores.data, 'contentScores');
    expectSame(two.output.data, full.output.data, 'output');
  });

  test('bad outputs: errors that name the argument', () => {
    expect(() => single.example({ outputs: 'output' })).toThrow(TypeError);
    expect(() => single.example({ outputs: 'output' })).toThrow(/example: outputs must be an array/);
    expect(() => single.example({ outputs: ['weights'] })).toThrow(RangeError);
    expect(() => single.example({ outputs: ['weights'] })).toThrow(/example: outputs\[0\] must be one of/);
  });
});
