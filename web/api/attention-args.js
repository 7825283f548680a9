// attention()'s arguments, checked before any WASM runs (by the instance and by the worker
// pool, which splits the call): the matrices, the options and each output's shape.
import { checkBoolean, checkMatrix, checkOptions, checkShape, floatArrayType } from './validate.js';
import {
  OUTPUT_NAMES,
  checkReusableResult,
  checkSettableFields,
  outputShapes,
  readSettableFields,
  resolveAttentionOptions,
} from './attention-options.js';
import { checkAllowed, checkHeads, checkKeyPadding, checkScale } from './attention-masks.js';
import { Snapshot, isPlainObject } from './snapshot.js';
import { INPUT_MATRICES, attentionShape } from './attention-regions.js';
import { checkPosition, checkSchemeHeads, checkSchemeTables, needsEvenWidth, sinusoidalInputs } from './schemes.js';

// Each scheme's inputs (besides the required ones) and their defaults.
const SHARED_DEFAULTS = {
  causal: false,
  scale: undefined,
  heads: undefined,
  keyPadding: undefined,
  allowed: undefined,
  position: undefined,
};
const INPUTS = {
  shaw: { required: ['q', 'k', 'relKeys'], defaults: { v: undefined, relValues: undefined, ...SHARED_DEFAULTS } },
  sinusoidal: { required: ['x', 'wQ', 'wK'], defaults: { wV: undefined, ...SHARED_DEFAULTS } },
  other: { required: ['q', 'k'], defaults: { v: undefined, ...SHARED_DEFAULTS } },
};

/** The matrix arguments (INPUT_MATRICES) the position scheme `scheme` takes, required or not. */
export function schemeMatrices(scheme) {
  const { required, defaults } = INPUTS[scheme] ?? INPUTS.other;
  return INPUT_MATRICES.filter((name) => required.includes(name) || name in defaults);
}

// A table's width: d (one table shared by every head) or heads · d (one per head).
function checkTableCols(where, name, table, heads, { value: allCols, what: allName }) {
  const headCols = allCols / heads;
  if (heads === 1) {
    checkShape(where, name, table, { cols: { value: headCols, what: allName } });
    return;
  }
  if (table.cols !== headCols && table.cols !== allCols) {
    throw new RangeError(
      `${where}: ${name}.cols must equal ${allName} / heads (${headCols}: one table shared by every head) or ${allName} (${allCols}: one table per head, side by side), got ${table.cols}`,
    );
  }
}

/**
 * `matrix` (the argument `name`) against its row of the core's shape rules (its contract,
 * relpos/attention_shapes.hpp), with this API's names and messages. `extents` gives each extent
 * the rules name as { value, what } (what: the argument it equals, for the message);
 * extents.heads is the heads.
 */
function checkExtents(where, name, matrix, extents) {
  const shape = attentionShape(name);
  for (const side of ['rows', 'cols']) {
    const extent = shape[side];
    if (extent === 'any') continue;
    if (extent === 'oddRows') {
      if (matrix.rows % 2 !== 1) {
        throw new RangeError(
          `${where}: ${name}.rows must be odd (2k + 1 rows for clipping distance k), got ${matrix.rows}`,
        );
      }
    } else if (extent === 'keyTable' || extent === 'valueTable') {
      checkTableCols(where, name, matrix, extents.heads, extent === 'keyTable' ? extents.keyWidth : extents.valueWidth);
    } else {
      checkShape(where, name, matrix, { [side]: extents[extent] });
    }
  }
  if (shape.headColumns && matrix.cols % extents.heads !== 0) {
    throw new RangeError(
      `${where}: ${name}.cols must be a multiple of heads (${extents.heads} heads side by side), got ${matrix.cols}`,
    );
  }
}

const MATRIX_NAMES = new Set(INPUT_MATRICES);
const READ = new WeakSet();

// `out`, an earlier result: each output's data read once (as a view over the caller's array,
// which the results are written through) beside the array itself, returned as the result's.
function readOut(snapshot, out) {
  return snapshot.fields(out, (name, panel) => {
    if (!OUTPUT_NAMES.includes(name) || panel === null || typeof panel !== 'object') return panel;
    const original = panel.data;
    return { data: snapshot.destination(`out.${name}.data`, original), original };
  });
}

/**
 * attention()'s arguments read once, before anything is checked (web/api/snapshot.js): { inputs,
 * second, outTarget, settable }, inputs and second (the options) as objects of our
 * own holding primitives, copied lists and fresh views; outTarget the caller's `out` object (a
 * plain object; anything else is left in second, for the checks to refuse) and settable how
 * each field the call sets on it could be set (readSettableFields).
 */
export function readAttentionArgs(where, inputs, options) {
  const snapshot = new Snapshot(where);
  const flags = (name, value) => snapshot.list(name, value);
  const given = snapshot.fields(inputs, (key, value) => {
    if (MATRIX_NAMES.has(key)) return snapshot.matrix(key, value);
    if (key === 'keyPadding') return flags('keyPadding', value);
    if (key === 'allowed') {
      if (!Array.isArray(value)) return snapshot.matrix('allowed', value);
      return snapshot.list('allowed', value, (row, r) => flags(`allowed[${r}]`, row));
    }
    if (key === 'position') {
      return snapshot.fields(value, (name, item) =>
        name === 'biases' || name === 'slope' ? snapshot.list(`position.${name}`, item) : item,
      );
    }
    return value;
  });
  let second = options;
  let outTarget;
  if (options !== null && typeof options === 'object' && !Array.isArray(options)) {
    second = snapshot.fields(options, (key, value) => {
      if (key === 'outputs') return snapshot.list('outputs', value);
      if (key !== 'out' || !isPlainObject(value)) return value;
      outTarget = value;
      return readOut(snapshot, value);
    });
  }
  // Last, after every getter of the arguments has run (one could freeze `out`).
  const settable = outTarget && readSettableFields(outTarget);
  snapshot.seal();
  const read = { inputs: given, second, outTarget, settable };
  READ.add(read);
  return read;
}

/**
 * checkAttentionArgs on arguments readAttentionArgs has read (the instance reads them once to
 * choose the position scheme, then checks them here).
 */
export function checkReadAttentionArgs(where, read) {
  if (!READ.has(read)) throw new TypeError(`${where}: arguments must come from readAttentionArgs`);
  return checkRead(where, read);
}

/**
 * Returns { position (the scheme and its settings), q, k, relKeys (null but for Shaw's), v,
 * relValues, x, wQ, wK, wV (the sinusoidal scheme's, else null), causal, n (keys), dK, dV (all heads' columns),
 * heads, headDK, headDV, perHeadKeyTable, perHeadValueTable, scale (null: 1/√d_k), keyPadding,
 * allowed (Uint8Arrays or null), tableRows, queryRows, queryOffset, shapes (output name →
 * [rows, cols]), out, outTarget, views }. Every argument is read once first (readAttentionArgs),
 * then checked: q, k, … are views of the caller's arrays as they were read; `out` holds each
 * output's view (`data`) and array (`original`); outTarget is the caller's out object, which
 * results are returned in.
 */
export function checkAttentionArgs(where, inputs, options) {
  return checkRead(where, readAttentionArgs(where, inputs, options));
}

// checkAttentionArgs on what readAttentionArgs read.
function checkRead(where, read) {
  const { inputs, second: options } = read;
  const scheme = inputs?.position === undefined ? { scheme: 'shaw' } : checkPosition(where, inputs.position);
  const { required, defaults } = INPUTS[scheme.scheme] ?? INPUTS.other;
  if (inputs !== null && typeof inputs === 'object') checkSchemeTables(where, scheme.scheme, inputs);
  const given = checkOptions(where, 'inputs', inputs, defaults, required);
  const heads = checkHeads(where, given.heads);
  // The sinusoidal scheme's queries, keys and values are x's projections: their shapes stand in.
  const projected = scheme.scheme === 'sinusoidal' ? sinusoidalInputs(where, given, heads, checkExtents) : null;
  const matrixOf = (name, like) => (projected ? projected.shapes[name] : checkMatrix(where, name, given[name], like));
  const q = matrixOf('q');
  const extents = { heads, queries: { value: q.rows, what: 'q.rows' }, keyWidth: { value: q.cols, what: 'q.cols' } };
  checkExtents(where, 'q', q, extents);
  const dK = q.cols;
  const headDK = dK / heads;
  const k = matrixOf('k', q);
  const chosen = resolveAttentionOptions(where, options, (projected ? projected.shapes.v : given.v) !== undefined);
  if (projected && chosen.queryOffset !== null) {
    throw new TypeError(
      `${where}: queryOffset needs q; position.scheme 'sinusoidal' takes its queries from every row of x`,
    );
  }
  const queryOffset = chosen.queryOffset ?? 0;
  const n = k.rows;
  // Without queryOffset the queries are all the keys: k has q's rows.
  if (chosen.queryOffset === null) checkShape(where, 'k', k, { rows: { value: q.rows, what: 'q.rows' } });
  extents.keys = { value: n, what: chosen.queryOffset === null ? 'q.rows' : 'k.rows' };
  checkExtents(where, 'k', k, extents);
  if (queryOffset + q.rows > n) {
    throw new RangeError(
      `${where}: queryOffset + q.rows must be at most k.rows (the queries stand among the keys), got ${queryOffset} + ${q.rows} > ${n}`,
    );
  }
  const shaw = scheme.scheme === 'shaw';
  const relKeys = shaw ? checkMatrix(where, 'relKeys', given.relKeys, q) : null;
  if (shaw) checkExtents(where, 'relKeys', relKeys, extents);
  const perHeadKeyTable = shaw && relKeys.cols !== headDK;
  const tableRows = shaw ? relKeys.rows : 0;
  extents.tableRows = { value: tableRows, what: 'relKeys.rows' };
  const v = (projected ? projected.shapes.v : given.v) === undefined ? null : matrixOf('v', q);
  if (v) checkExtents(where, 'v', v, extents);
  const headDV = v ? v.cols / heads : 0;
  extents.valueWidth = { value: v ? v.cols : 0, what: 'v.cols' };
  let relValues = null;
  let perHeadValueTable = false;
  if (given.relValues !== undefined) {
    if (!v) throw new TypeError(`${where}: relValues needs v (the values whose output it adds to)`);
    relValues = checkMatrix(where, 'relValues', given.relValues, q);
    checkExtents(where, 'relValues', relValues, extents);
    perHeadValueTable = relValues.cols !== headDV;
  }
  const causal = checkBoolean(where, 'causal', given.causal);
  const scale = checkScale(where, given.scale, floatArrayType(q.data));
  const keyPadding = checkKeyPadding(where, given.keyPadding, n);
  const allowed = checkAllowed(where, given.allowed, q.rows, n);
  const dV = v ? v.cols : 0;
  const shapes = outputShapes(chosen.outputs, q.rows, n, dV, heads);
  if (chosen.out !== undefined) {
    if (options?.outputs === undefined && !v && chosen.out.output !== null && chosen.out.output !== undefined) {
      throw new TypeError(
        `${where}: out has an output (it came from a call with v) but this call has no v; pass the result of a call without v as out`,
      );
    }
    checkReusableResult(where, chosen.out, floatArrayType(q.data), shapes);
    const setFields = ['maxDistance', ...(scheme.scheme === 'shaw' ? [] : ['position']), ...Object.keys(shapes)];
    checkSettableFields(where, read.settable, setFields);
  }
  if (needsEvenWidth(scheme.scheme) && headDK % 2 !== 0) {
    throw new RangeError(
      `${where}: q.cols${heads > 1 ? ' / heads' : ''} must be even for position.scheme '${scheme.scheme}' (it rotates pairs), got ${headDK}`,
    );
  }
  checkSchemeHeads(where, scheme, heads);
  return {
    position: scheme,
    ...(projected ? projected.matrices : { x: null, wQ: null, wK: null, wV: null }),
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
    outTarget: read.outTarget,
    views: chosen.views,
  };
}
