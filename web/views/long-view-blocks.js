// The long view computed by blocks of query rows (one block per worker of the page's pool), then
// put together: every panel row depends only on its own query and all keys, so each worker draws
// the inputs (cheap, the same in every worker), runs attention for its rows (queryOffset) into
// arrays it keeps, and turns them into offset space, block means and ranges; only those (n ×
// (2k′ + 1) float32, not n × n float64) leave the worker. Only the work a change needs: a worker
// does not compute its content scores again while n, d_k, the draw and the seed stay (they do not
// depend on k, the table or causal), nor its content weights (which also depend on causal). The
// n × n rows (and the output) stay in the workers, as computed: what reads them (the page's probe,
// an export) asks the worker that holds them (readBlockRows), and nothing computes them again. Bit
// for bit the numbers of computeAttentionView + computeOffsetSpace + computeOffsetMeans
// (tests/js/long-view-blocks.test.js).
import { EXAMPLE_DEFAULTS } from '../api/defaults.js';
import { ATTENTION_BLOCK_ROWS } from '../api/limits.js';
import { buffersOf } from '../api/transfer.js';
import { bounds, blockMeans } from '../render/block-means.js';
import { rememberRanges } from './panel-extents.js';
import { offsetExtent, offsetMaskFrom, offsetRowSpan, offsetSpaceRows } from './offset-space.js';
import { ATTENTION_PANEL_IDS, PANEL_IDS } from './panels.js';
import { exampleOptions } from './view.js';
import { weightDifference } from './weight-difference.js';

// What the content panels depend on (the long view has no words: positions only).
const scoresKey = (s, block) =>
  JSON.stringify([
    s.seqLen,
    s.dK,
    s.seed,
    s.draw ?? EXAMPLE_DEFAULTS.draw,
    s.sameQuery ?? EXAMPLE_DEFAULTS.sameQuery,
    block.first,
    block.count,
  ]);
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

// The n × n panels attention() computes in each worker; the rest are derived from them.
const SQUARES = ATTENTION_PANEL_IDS;

/**
 * In a worker: rows block.first … block.first + block.count − 1 of the long view for `settings`
 * (ATTENTION_SETTINGS), in offset space, with `grid` ({ gRows, gCols } or null) for the block
 * means. `cache`: an object this worker keeps between calls: its rows' n × n panels and output
 * live there (written in place by attention(…, { out })) until its next block, and the content
 * panels are not computed again while their keys (contentKeys) stay the same. Only offset space
 * leaves the worker (readBlockRows reads the rest). Returns the block and its buffers (to transfer).
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
    cache.out = rp.allocateAttention(inputs, { queryOffset: first, outputs: [...SQUARES, 'output'] });
  }
  const keepScores = cache.keys.scores === keys.scores;
  const keepWeights = cache.keys.weights === keys.weights;
  // Every panel attention() computes but the content ones kept from the last call.
  const kept = [...(keepScores ? ['contentScores'] : []), ...(keepWeights ? ['contentWeights'] : [])];
  const outputs = [...SQUARES.filter((id) => !kept.includes(id)), 'output'];
  cache.keys = {}; // while the arrays are being written
  cache.request = null;
  const result = rp.attention(inputs, { queryOffset: first, outputs, out: cache.out });
  cache.keys = keys;
  cache.request = { key: JSON.stringify(settings), first, count, n, dV: drawn.inputs.v.cols };
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

/**
 * In a worker: rows from … to − 1 (inside this worker's block) of the long view computed for
 * `settings`, as computeLongViewBlock left them in `cache`: { first: from, rows: to − from, n,
 * contentScores, positionBiases, contentWeights, combinedWeights, difference (each (to − from) ×
 * n), output ((to − from) × d_v) }. Throws if the cache holds another view's rows now (a newer
 * request replaced them) or the rows are not this block's.
 */
export function readBlockRows(cache, settings, from, to) {
  const request = cache.request;
  if (!request || request.key !== JSON.stringify(settings))
    throw new Error('long view: these rows were replaced by a newer view (read them from the view on screen)');
  const { first, count, n, dV } = request;
  if (!(Number.isSafeInteger(from) && Number.isSafeInteger(to) && first <= from && from < to && to <= first + count))
    throw new RangeError(`long view: rows ${from}…${to - 1} are not in this block (${first}…${first + count - 1})`);
  const rows = { first: from, rows: to - from, n };
  const at = (from - first) * n;
  for (const id of SQUARES) rows[id] = cache.out[id].data.slice(at, at + rows.rows * n);
  rows.difference = weightDifference(
    { contentWeights: { data: rows.contentWeights }, combinedWeights: { data: rows.combinedWeights } },
    rows.rows * n,
  );
  rows.output = cache.out.output.data.slice((from - first) * dV, (to - first) * dV);
  return rows;
}

const ROW_BLOCK = ATTENTION_BLOCK_ROWS; // a tooltip's or probe's read: the block of rows holding the row

/**
 * On the page: the long view (computeAttentionView's shape, with offsetSpace and its means) from
 * every block of one request, sorted by first row. Its n × n matrices and output stay where they
 * were computed: `readRows(from, to)` resolves to rows from … to − 1 of them (readBlockRows, from
 * the worker holding them), and the view reads through it: readRows(i), the block of
 * ATTENTION_BLOCK_ROWS rows holding row i (the last few kept), and readAll(), every row (an
 * export). Its offset-space panels are put together when first read (each then remembers its
 * range); `merged`: the panels already put together (mergeOffsetPanels, in a worker). Returns
 * { view, ranges } (the ranges, as panelRanges has them).
 */
export function assembleLongView(readRows, settings, blocks, { grid = null, previous = null, merged = null } = {}) {
  const n = settings.seqLen;
  const k = settings.maxDistance;
  const { drawn } = blocks[0];
  const { reach, cols } = blocks[0].offsetSpace;
  const tokens = Array(n).fill('');
  const kept = new Map(); // first row -> Promise of its block's rows, the most recent last
  const rowsAt = (i) => {
    const first = i - (i % ROW_BLOCK);
    let rows = kept.get(first);
    if (!rows) {
      rows = readRows(first, Math.min(n, first + ROW_BLOCK));
      rows.catch(() => kept.delete(first));
      if (kept.size >= 8) kept.delete(kept.keys().next().value);
      kept.set(first, rows);
    }
    return rows;
  };
  const readAll = async () => {
    const parts = await Promise.all(blocks.map(({ first, count }) => readRows(first, first + count)));
    const dV = drawn.inputs.v.cols;
    const whole = (id, width) => {
      const data = new Float64Array(n * width);
      for (const part of parts) data.set(part[id], part.first * width);
      return { rows: n, cols: width, data };
    };
    return {
      ...Object.fromEntries(SQUARES.map((id) => [id, whole(id, n)])),
      difference: whole('difference', n),
      output: whole('output', dV),
    };
  };
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
    draw: settings.draw ?? EXAMPLE_DEFAULTS.draw,
    table: settings.table ?? EXAMPLE_DEFAULTS.table,
    sameQuery: settings.sameQuery ?? EXAMPLE_DEFAULTS.sameQuery,
    tokens,
    labels: tokens.map((_, i) => String(i)),
    result: { ...drawn, maxDistance: k },
    profile: { offsets: drawn.profile.offsets, profile: drawn.profile.values, maxDistance: k },
    offsets: sameOffsets ? previous.offsets : lazyOffsets(n, k),
    offsetSpace,
    readRows: rowsAt,
    readAll,
  };
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
