// attention()'s arguments, checked before any WASM runs (by the instance and by the worker
// pool, which splits the call): the matrices, the options and each output's shape.
import { checkBoolean, checkMatrix, checkOptions, checkShape, floatArrayType } from './validate.js';
import { checkReusableResult, outputShapes, resolveAttentionOptions } from './attention-options.js';

/**
 * Returns { q, k, relKeys, v, relValues, causal, n (keys), dK, dV, tableRows, queryRows,
 * queryOffset, shapes (output name → [rows, cols]), out, legacyOutput }.
 */
export function checkAttentionArgs(where, inputs, options) {
  const given = checkOptions(where, 'inputs', inputs, { v: undefined, relValues: undefined, causal: false }, [
    'q',
    'k',
    'relKeys',
  ]);
  const q = checkMatrix(where, 'q', given.q);
  const dK = q.cols;
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
  checkShape(where, 'relKeys', relKeys, { cols: { value: dK, what: 'q.cols' } });
  if (relKeys.rows % 2 !== 1) {
    throw new RangeError(
      `${where}: relKeys.rows must be odd (2k + 1 rows for clipping distance k), got ${relKeys.rows}`,
    );
  }
  const tableRows = relKeys.rows;
  const v = given.v === undefined ? null : checkMatrix(where, 'v', given.v, q);
  if (v) checkShape(where, 'v', v, { rows: { value: n, what: chosen.queryOffset === null ? 'q.rows' : 'k.rows' } });
  let relValues = null;
  if (given.relValues !== undefined) {
    if (!v) throw new TypeError(`${where}: relValues needs v (the values whose output it adds to)`);
    relValues = checkMatrix(where, 'relValues', given.relValues, q);
    checkShape(where, 'relValues', relValues, {
      rows: { value: tableRows, what: 'relKeys.rows' },
      cols: { value: v.cols, what: 'v.cols' },
    });
  }
  const causal = checkBoolean(where, 'causal', given.causal);
  const dV = v ? v.cols : 0;
  const shapes = outputShapes(chosen.outputs, q.rows, n, dV);
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
    tableRows,
    queryRows: q.rows,
    queryOffset,
    shapes,
    out: chosen.out,
    legacyOutput,
  };
}
