// The long view computed by blocks of query rows (one block per worker of the page's pool), then
// put together: every panel row depends only on its own query and all keys, so each worker draws
// the inputs (cheap, the same in every worker), runs attention for its rows (queryOffset) into
// arrays it keeps, and turns them into offset space, block means and ranges; only those (n ×
// (2k′ + 1) float32, not n × n float64) leave the worker. Only the work a change needs: a worker
// does not compute its content scores again while n, d_k, the draw and the seed stay (they do not
// depend on k, the table or causal), nor its content weights (which also depend on causal). The
// page computes an n × n row when a tooltip reads it (squareReader), and a whole matrix only for
// an export. Bit for bit the numbers of computeAttentionView + computeOffsetSpace +
// computeOffsetMeans (tests/js/long-view-blocks.test.js).
import { ATTENTION_BLOCK_ROWS } from '../api/limits.js';
import { buffersOf } from '../api/transfer.js';
import { bounds, blockMeans } from '../render/block-means.js';
import { rememberRanges } from './panel-extents.js';
import { offsetExtent, offsetMaskFrom, offsetRowSpan, offsetSpaceRows } from './offset-space.js';
import { PANEL_IDS } from './panels.js';
import { exampleOptions } from './view.js';
import { weightDifference } from './weight-difference.js';

// What the content panels depend on (the long view has no words: positions only).
const scoresKey = (s, block) =>
  JSON.stringify([s.seqLen, s.dK, s.seed, s.draw ?? 'handbook', s.sameQuery ?? false, block.first, block.count]);
const weightsKey = (s, block) => `${scoresKey(s, block)}|${Boolean(s.causal)}`;

/** The keys of a block's content panels: { scores, weights }; equal keys, equal numbers. */
export const contentKeys = (settings, block) => ({
  scores: scoresKey(settings, block),
  weights: weightsKey(settings, block),
});

/**
 * Pixel rows pixelFrom … pixelTo − 1 of a grid of gRows rows over n query rows: those whose
 * rows all lie in first … first + count − 1 (computed where those rows are).
 */
export function pixelRowsOf(n, gRows, first, count) {
  const by = bounds(n, gRows);
  let pixelFrom = 0;
  while (pixelFrom < gRows && by[pixelFrom] < first) pixelFrom += 1;
  let pixelTo = pixelFrom;
  while (pixelTo < gRows && by[pixelTo + 1] <= first + count) pixelTo += 1;
  return { pixelFrom, pixelTo };
}

const needsMeans = (n, cols, grid) => Boolean(grid) && (grid.gRows < n || grid.gCols < cols);

const SQUARES = ['contentScores', 'positionBiases', 'contentWeights', 'combinedWeights'];

/**
 * In a worker: rows block.first … block.first + block.count − 1 of the long view for `settings`
 * (ATTENTION_SETTINGS), in offset space, with `grid` ({ gRows, gCols } or null) for the block
 * means. `cache`: an object this worker keeps between calls: its rows' n × n panels live there
 * (written in place by attention(…, { out })), and the content panels are not computed again
 * while their keys (contentKeys) stay the same. Only offset space leaves the worker (the page
 * computes an n × n row when a tooltip reads it). Returns the block and its buffers (to transfer).
 */
export function computeLongViewBlock(rp, settings, block, { grid = null, cache = {} } = {}) {
  const n = settings.seqLen;
  const { first, count } = block;
  const drawn = rp.example({ ...exampleOptions({ ...settings, seqLen: n }, null), outputs: [] });
  const { q } = drawn.inputs;
  const inputs = {
    ...drawn.inputs,
    q: { rows: count, cols: q.cols, data: q.data.slice(first * q.cols, (first + count) * q.cols) },
  };
  const keys = contentKeys(settings, block);
  // The arrays this worker's rows are written into, kept while the shapes stay.
  const shape = JSON.stringify([n, count, q.cols, drawn.inputs.v.cols]);
  if (cache.shape !== shape) {
    cache.shape = shape;
    cache.keys = {};
    cache.out = rp.allocateAttention(inputs, { queryOffset: first, outputs: SQUARES });
  }
  const keepScores = cache.keys.scores === keys.scores;
  const keepWeights = cache.keys.weights === keys.weights;
  const outputs = [
    ...(keepScores ? [] : ['contentScores']),
    'positionBiases',
    ...(keepWeights ? [] : ['contentWeights']),
    'combinedWeights',
  ];
  cache.keys = {}; // while the arrays are being written
  const result = rp.attention(inputs, { queryOffset: first, outputs, out: cache.out });
  cache.keys = keys;
  const squares = Object.fromEntries(SQUARES.map((name) => [name, result[name].data]));
  const space = offsetSpaceRows(squares, n, settings.maxDistance, first, count);
  const view = { n, causal: settings.causal, offsetSpace: space };
  const extents = {};
  const means = {};
  const pixels = grid && needsMeans(n, space.cols, grid) ? pixelRowsOf(n, grid.gRows, first, count) : null;
  for (const id of PANEL_IDS) {
    const maskFrom = offsetMaskFrom(id, view);
    extents[id] = offsetExtent(space.panels[id], count, space.cols, maskFrom);
    if (pixels && pixels.pixelTo > pixels.pixelFrom) {
      means[id] = blockMeans(
        space.panels[id],
        n,
        space.cols,
        grid.gRows,
        grid.gCols,
        maskFrom,
        offsetRowSpan(n, space.reach),
        { firstRow: first, ...pixels },
      ).grid;
    }
  }
  const out = {
    first,
    count,
    reused: { scores: keepScores, weights: keepWeights }, // for tests: what was not computed again
    offsetSpace: space,
    extents,
    pixels,
    means,
    // The draw itself (small), from the first block only.
    drawn:
      first === 0
        ? {
            params: drawn.params,
            tokens: drawn.tokens,
            weights: drawn.weights,
            inputs: drawn.inputs,
            profile: drawn.profile,
          }
        : null,
  };
  return { block: out, transfer: buffersOf(out) };
}

/** The n × n clipped offsets, clip(j − i, ±k), computed in JS when first read. */
function lazyOffsets(n, k) {
  let data = null;
  return {
    rows: n,
    cols: n,
    get data() {
      if (!data) {
        data = new Int32Array(n * n);
        for (let i = 0; i < n; i += 1)
          for (let j = 0; j < n; j += 1) data[i * n + j] = Math.min(k, Math.max(-k, j - i));
      }
      return data;
    },
  };
}

const ROW_BLOCK = ATTENTION_BLOCK_ROWS; // rows computed on their own from here: bit for bit the same

/**
 * The n × n panels of a long view, computed on this thread (`rp`) from the view's inputs when
 * read: row(panelId, i) computes the block of 32 rows holding i (microseconds to a few ms; the
 * last few are kept), whole(panelId) every row, output() the output (an export).
 */
export function squareReader(rp, inputs, n) {
  const blocks = new Map(); // first row -> result, the most recent last
  let whole = null;
  let output = null;
  const withDifference = (result, rows) => ({
    ...result,
    difference: { rows, cols: n, data: weightDifference(result, rows * n) },
  });
  const run = (first, rows) => {
    const { q } = inputs;
    const part = { rows, cols: q.cols, data: q.data.slice(first * q.cols, (first + rows) * q.cols) };
    return withDifference(rp.attention({ ...inputs, q: part }, { queryOffset: first, outputs: SQUARES }), rows);
  };
  return {
    row(panelId, i) {
      if (whole) return whole[panelId].data.subarray(i * n, (i + 1) * n);
      const first = i - (i % ROW_BLOCK);
      let result = blocks.get(first);
      if (!result) {
        result = run(first, Math.min(ROW_BLOCK, n - first));
        if (blocks.size >= 8) blocks.delete(blocks.keys().next().value);
        blocks.set(first, result);
      }
      return result[panelId].data.subarray((i - first) * n, (i - first + 1) * n);
    },
    whole(panelId) {
      whole ??= run(0, n);
      blocks.clear();
      return whole[panelId].data;
    },
    /** The output z (n × d_v), which no panel draws: computed when read (an export). */
    output() {
      output ??= rp.attention(inputs, { outputs: ['output'] }).output.data;
      return output;
    },
  };
}

/**
 * On the page: the long view (computeAttentionView's shape, with offsetSpace and its means) from
 * every block of one request, sorted by first row. Its n × n matrices are computed on this
 * thread by `rp` when read (squareReader), its offset-space panels when first read (each then
 * remembers its range); `merged`: the panels already put together (mergeOffsetPanels, in a
 * worker). Returns { view, ranges } (the ranges, as panelRanges has them).
 */
export function assembleLongView(rp, settings, blocks, { grid = null, previous = null, merged = null } = {}) {
  const n = settings.seqLen;
  const k = settings.maxDistance;
  const { drawn } = blocks[0];
  const { reach, cols } = blocks[0].offsetSpace;
  const tokens = Array(n).fill('');
  const reader = squareReader(rp, { ...drawn.inputs, causal: settings.causal }, n);
  const lazy = (name) => ({
    rows: n,
    cols: n,
    get data() {
      return reader.whole(name);
    },
  });
  const sameOffsets = previous?.offsetSpace && previous.n === n && previous.maxDistance === k;
  // Each panel put together from the blocks when first read (when drawn: the panels off screen
  // wait), with its range remembered then (rememberRanges).
  const extents = Object.fromEntries(PANEL_IDS.map((id) => [id, extentOf(blocks, id)]));
  const panels = {};
  for (const id of PANEL_IDS) {
    if (id === 'offsets' && sameOffsets) {
      panels[id] = previous.offsetSpace.panels.offsets; // unchanged: not drawn again
      continue;
    }
    let whole = null;
    Object.defineProperty(panels, id, {
      enumerable: true,
      get: () => {
        if (whole) return whole;
        if (merged) whole = merged[id];
        else if (blocks.length === 1) whole = blocks[0].offsetSpace.panels[id];
        else {
          whole = new Float32Array(n * cols);
          for (const block of blocks) whole.set(block.offsetSpace.panels[id], block.first * cols);
        }
        rememberRanges(view, [[id, extents[id], undefined]]);
        return whole;
      },
    });
  }
  const offsetSpace = { reach, cols, panels };
  const view = {
    n,
    long: true,
    maxDistance: k,
    causal: settings.causal,
    draw: settings.draw ?? 'handbook',
    table: settings.table ?? 'random',
    sameQuery: settings.sameQuery ?? false,
    tokens,
    labels: tokens.map((_, i) => String(i)),
    result: {
      ...drawn,
      maxDistance: k,
      ...Object.fromEntries(SQUARES.map((name) => [name, lazy(name)])),
      output: {
        rows: n,
        cols: drawn.inputs.v.cols,
        get data() {
          return reader.output();
        },
      },
    },
    profile: { offsets: drawn.profile.offsets, profile: drawn.profile.values, maxDistance: k },
    offsets: sameOffsets ? previous.offsets : lazyOffsets(n, k),
    offsetSpace,
    squareRow: (panelId, i) => reader.row(panelId, i),
  };
  Object.defineProperty(view, 'difference', { get: () => reader.whole('difference'), enumerable: true });
  if (grid) offsetSpace.means = mergeMeans(view, blocks, grid);
  const ranges = PANEL_IDS.map((id) => [id, extents[id], undefined]);
  return { view, ranges };
}

/**
 * The blocks' offset-space panels put together: { id: Float32Array(n · cols) } (a worker does
 * this for wide views, whose panels are tens of MB: a copy that long on the page's main thread
 * would hold up input).
 */
export function mergeOffsetPanels(n, cols, parts) {
  const merged = {};
  for (const id of PANEL_IDS) {
    merged[id] = new Float32Array(n * cols);
    for (const { first, panels } of parts) merged[id].set(panels[id], first * cols);
  }
  return merged;
}

/** A panel's range over every block: the least min, the greatest max. */
function extentOf(blocks, id) {
  let min = Infinity;
  let max = -Infinity;
  for (const block of blocks) {
    min = Math.min(min, block.extents[id].min);
    max = Math.max(max, block.extents[id].max);
  }
  return { min, max };
}

// The blocks' means, and the pixel rows that straddle two blocks computed here from those rows
// of the blocks' panels: as computeOffsetMeans would have them.
function mergeMeans(view, blocks, { gRows, gCols }) {
  const { n } = view;
  const { reach, cols } = view.offsetSpace;
  const means = {};
  if (needsMeans(n, cols, { gRows, gCols })) {
    const by = bounds(n, gRows);
    for (const id of PANEL_IDS) {
      const grid = new Float64Array(gRows * gCols);
      const done = new Uint8Array(gRows);
      for (const block of blocks) {
        if (!block.means[id]) continue;
        grid.set(block.means[id], block.pixels.pixelFrom * gCols);
        done.fill(1, block.pixels.pixelFrom, block.pixels.pixelTo);
      }
      for (let p = 0; p < gRows; p += 1) {
        if (done[p]) continue;
        const rows = rowsOf(blocks, id, by[p], by[p + 1], cols);
        const part = { firstRow: by[p], pixelFrom: p, pixelTo: p + 1 };
        const row = blockMeans(rows, n, cols, gRows, gCols, offsetMaskFrom(id, view), offsetRowSpan(n, reach), part);
        grid.set(row.grid, p * gCols);
      }
      means[id] = { gRows, gCols, grid };
    }
  }
  return { gRows, gCols, panels: means };
}

/** Rows from … to − 1 of an offset-space panel, from the blocks that hold them. */
function rowsOf(blocks, id, from, to, cols) {
  const rows = new Float32Array((to - from) * cols);
  for (const { first, count, offsetSpace } of blocks) {
    const lo = Math.max(from, first);
    const hi = Math.min(to, first + count);
    if (hi > lo)
      rows.set(offsetSpace.panels[id].subarray((lo - first) * cols, (hi - first) * cols), (lo - from) * cols);
  }
  return rows;
}
