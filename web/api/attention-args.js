// attention()'s arguments, checked before any WASM runs (by the instance and by the worker
// pool, which splits the call): the matrices, the options and each output's shape.
import { checkBoolean, checkMatrix, checkOptions, checkShape, floatArrayType } from './validate.js';
import { checkReusableResult, outputShapes, resolveAttentionOptions } from './attention-options.js';
import { checkAllowed, checkHeads, checkKeyPadding, checkScale } from './attention-masks.js';

const INPUT_DEFAULTS = {
  v: undefined,
  relValues: undefined,
  causal: false,
  scale: undefined,
  heads: undefined,
  keyPadding: undefined,
  allowed: undefined,
};

// A table's width: d (one table shared by every head) or heads · d (one per head).
function checkTableCols(where, name, table, heads, headCols, allName) {
  if (heads === 1) {
    checkShape(where, name, table, { cols: { value: headCols, what: allName } });
    return false;
  }
  if (table.cols !== headCols && table.cols !== heads * headCols) {
    throw new RangeError(
      `${where}: ${name}.cols must equal ${allName} / heads (${headCols}: one table shared by every head) or ${allName} (${heads * headCols}: one table per head, side by side), got ${table.cols}`,
    );
  }
  return table.cols !== headCols;
}

// q, k or v with `heads` heads side by side: its columns a multiple of heads.
function checkHeadColumns(where, name, matrix, heads) {
  if (matrix.cols % heads !== 0) {
    throw new RangeError(
      `${where}: ${name}.cols must be a multiple of heads (${heads} heads side by side), got ${matrix.cols}`,
    );
  }
}

/**
 * Returns { q, k, relKeys, v, relValues, causal, n (keys), dK, dV (all heads' columns),
 * heads, headDK, headDV, perHeadKeyTable, perHeadValueTable, scale (null: 1/√d_k), keyPadding,
 * allowed (Uint8Arrays or null), tableRows, queryRows, queryOffset, shapes (output name →
 * [rows, cols]), out, views, legacyOutput }.
 */
export function checkAttentionArgs(where, inputs, options) {
  const given = checkOptions(where, 'inputs', inputs, INPUT_DEFAULTS, ['q', 'k', 'relKeys']);
  const heads = checkHeads(where, given.heads);
  const q = checkMatrix(where, 'q', given.q);
  checkHeadColumns(where, 'q', q, heads);
  const dK = q.cols;
  const headDK = dK / heads;
  const k = checkMatrix(where, 'k', given.k, q);
  const chosen = resolveAttentionOptions(where, options, given.v !== undefined);
  const queryOffset = chosen.queryOffset ?? 0;
  const n = k.rows;
  if (chosen.queryOffset === null) {
    checkShape(where, 'k', k, { rows: { value: q.rows, what: 'q.rows' }, cols: { value: dK, what: 'q.cols' } });
  } else {
    checkShape(where, 'k', k, { cols: { value: dK, what: 'q.cols' } });
    if (queryOffset + q.rows > n) {
      throw new RangeError(
        `${where}: queryOffset + q.rows must be at most k.rows (the queries stand among the keys), got ${queryOffset} + ${q.rows} > ${n}`,
      );
    }
  }
  const relKeys = checkMatrix(where, 'relKeys', given.relKeys, q);
  const perHeadKeyTable = checkTableCols(where, 'relKeys', relKeys, heads, headDK, 'q.cols');
  if (relKeys.rows % 2 !== 1) {
    throw new RangeError(
      `${where}: relKeys.rows must be odd (2k + 1 rows for clipping distance k), got ${relKeys.rows}`,
    );
  }
  const tableRows = relKeys.rows;
  const v = given.v === undefined ? null : checkMatrix(where, 'v', given.v, q);
  if (v) checkShape(where, 'v', v, { rows: { value: n, what: chosen.queryOffset === null ? 'q.rows' : 'k.rows' } });
  if (v) checkHeadColumns(where, 'v', v, heads);
  const headDV = v ? v.cols / heads : 0;
  let relValues = null;
  let perHeadValueTable = false;
  if (given.relValues !== undefined) {
    if (!v) throw new TypeError(`${where}: relValues needs v (the values whose output it adds to)`);
    relValues = checkMatrix(where, 'relValues', given.relValues, q);
    checkShape(where, 'relValues', relValues, { rows: { value: tableRows, what: 'relKeys.rows' } });
    perHeadValueTable = checkTableCols(where, 'relValues', relValues, heads, headDV, 'v.cols');
  }
  const causal = checkBoolean(where, 'causal', given.causal);
  const scale = checkScale(where, given.scale, floatArrayType(q.data));
  const keyPadding = checkKeyPadding(where, given.keyPadding, n);
  const allowed = checkAllowed(where, given.allowed, q.rows, n);
  const dV = v ? v.cols : 0;
  const shapes = outputShapes(chosen.outputs, q.rows, n, dV, heads);
  const legacyOutput = options === undefined || chosen.out === options || options.outputs === undefined;
  if (chosen.out !== undefined) {
    if (legacyOutput && !v && chosen.out.output !== null && chosen.out.output !== undefined) {
      throw new TypeError(
        `${where}: out has an output (it came from a call with v) but this call has no v; pass the result of a call without v as out`,
      );
    }
    checkReusableResult(where, chosen.out, floatArrayType(q.data), shapes);
  }
  return {
    q,
    k,
    relKeys,
    v,
    relValues,
    causal,
    n,
    dK,
    dV,
    heads,
    headDK,
    headDV,
    perHeadKeyTable,
    perHeadValueTable,
    scale,
    keyPadding,
    allowed,
    tableRows,
    queryRows: q.rows,
    queryOffset,
    shapes,
    out: chosen.out,
    views: chosen.views,
    legacyOutput,
  };
}
