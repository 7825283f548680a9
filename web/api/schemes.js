// Position schemes beside Shaw's (issue #15; docs/schemes.md): T5 buckets, ALiBi slopes, RoPE,
// the sinusoidal encoding, and attention() with a `position: { scheme, … }`. Each function takes
// the RelPos instance's host ({ core, arena, call }), validates every argument (validate.js)
// before any WASM runs, lays the data out in the arena and returns copies. The schemes run in
// float64 (one build of their kernels keeps the module small): float32 inputs are widened and
// the results narrowed back, so they keep the inputs' type.
import { MAX_DIMENSION } from './limits.js';
import {
  describe,
  checkBoolean,
  checkBudget,
  checkChoice,
  checkInteger,
  checkMatrix,
  checkNumber,
  checkOptions,
  checkShape,
} from './validate.js';

const F64 = Float64Array.BYTES_PER_ELEMENT;
const I32 = Int32Array.BYTES_PER_ELEMENT;
const matrix = (rows, cols, data) => ({ rows, cols, data });
// The arena holds float64: float32 data is widened on the way in and narrowed on the way out.
const widen = (data) => (data instanceof Float64Array ? data : Float64Array.from(data));
const narrow = (data, ArrayType) => (data instanceof ArrayType ? data : ArrayType.from(data));

/** The schemes attention() knows; 'shaw' (relKeys, relValues) is the default. */
export const POSITION_SCHEMES = Object.freeze(['shaw', 't5', 'alibi', 'rope', 'sinusoidal', 'none']);
/** The most heads alibiSlopes() computes slopes for. */
export const MAX_ALIBI_HEADS = 4096;

export const T5_BUCKET_DEFAULTS = Object.freeze({ numBuckets: 32, maxDistance: 128, bidirectional: true });
export const ROPE_DEFAULTS = Object.freeze({ base: 10000, positions: undefined, layout: 'interleaved' });
export const SINUSOIDAL_DEFAULTS = Object.freeze({ base: 10000 });

// Each scheme's options in attention()'s `position` (besides `scheme`) and their defaults.
const POSITION_DEFAULTS = {
  shaw: {},
  t5: { biases: undefined, ...T5_BUCKET_DEFAULTS },
  alibi: { slope: undefined },
  rope: { base: 10000, layout: 'interleaved' },
  sinusoidal: { base: 10000 },
  none: {},
};
const REQUIRED = { t5: ['biases'], alibi: ['slope'] };
const SCHEME_CODES = { none: 0, t5: 1, alibi: 2, rope: 3, sinusoidal: 4 };
const LAYOUT_CODES = { interleaved: 0, half: 1 };
const PANEL_NAMES = ['contentScores', 'positionBiases', 'combinedScores', 'contentWeights', 'combinedWeights'];

// numBuckets, maxDistance and bidirectional as T5's bucketing needs them (docs/schemes.md §1):
// at least one exact bucket a side, and maxDistance past the exact ones (else log(1) = 0 divides).
function checkT5Params(where, prefix, p) {
  const bidirectional = checkBoolean(where, `${prefix}bidirectional`, p.bidirectional);
  const least = bidirectional ? 4 : 2;
  checkInteger(where, `${prefix}numBuckets`, p.numBuckets, least, MAX_DIMENSION);
  const maxExact = Math.floor((bidirectional ? Math.floor(p.numBuckets / 2) : p.numBuckets) / 2);
  checkInteger(where, `${prefix}maxDistance`, p.maxDistance, maxExact + 1, 2 ** 31 - 1);
  return { numBuckets: p.numBuckets, maxDistance: p.maxDistance, bidirectional };
}

// A list of finite numbers (an Array or a typed array) of a given length, as a new ArrayType.
function checkNumbers(where, name, value, length, ArrayType) {
  const isList = Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
  if (!isList || value instanceof BigInt64Array || value instanceof BigUint64Array) {
    throw new TypeError(`${where}: ${name} must be an array of ${length} numbers, got ${describe(value)}`);
  }
  if (value.length !== length) {
    throw new RangeError(`${where}: ${name} must hold ${length} numbers, got ${value.length}`);
  }
  for (let index = 0; index < length; index += 1) {
    if (typeof value[index] !== 'number') {
      throw new TypeError(`${where}: ${name}[${index}] must be a number, got ${describe(value[index])}`);
    }
    if (!Number.isFinite(value[index])) {
      throw new RangeError(`${where}: ${name}[${index}] is ${value[index]}; every entry must be finite`);
    }
  }
  return ArrayType.from(value);
}

/** rp.t5Buckets(n, options): bucket(j - i) for an n × n grid, as T5 computes it. */
export function t5Buckets(host, n, options) {
  const where = 't5Buckets';
  checkInteger(where, 'n', n, 1, MAX_DIMENSION);
  const params = checkT5Params(where, '', checkOptions(where, 'options', options, T5_BUCKET_DEFAULTS));
  const bytes = n * n * I32;
  checkBudget(where, `n = ${n}`, bytes);
  return host.call(where, [bytes], ([out]) => {
    host.core.t5BucketsInto(n, params, out);
    return matrix(n, n, host.arena.read(out, Int32Array, n * n));
  });
}

/** rp.alibiSlopes(heads): the ALiBi paper's head slopes, its rule for any head count. */
export function alibiSlopes(host, heads) {
  const where = 'alibiSlopes';
  checkInteger(where, 'heads', heads, 1, MAX_ALIBI_HEADS);
  return host.call(where, [heads * F64], ([out]) => {
    host.core.alibiSlopesInto(heads, out);
    return host.arena.read(out, Float64Array, heads);
  });
}

/** rp.sinusoidal(n, d, options): the original absolute encoding, n × d, float64. */
export function sinusoidal(host, n, d, options) {
  const where = 'sinusoidal';
  checkInteger(where, 'n', n, 1, MAX_DIMENSION);
  checkInteger(where, 'd', d, 1, MAX_DIMENSION);
  const p = checkOptions(where, 'options', options, SINUSOIDAL_DEFAULTS);
  checkNumber(where, 'base', p.base, { min: 0, max: 1e300, minInclusive: false });
  checkBudget(where, `n = ${n} with d = ${d}`, n * d * F64);
  return host.call(where, [n * d * F64], ([out]) => {
    host.core.sinusoidalInto(n, d, p.base, out);
    return matrix(n, d, host.arena.read(out, Float64Array, n * d));
  });
}

/** rp.rope(x, options): x (n × d, d even) with each row's pairs rotated by its position. */
export function rope(host, x, options) {
  const where = 'rope';
  checkMatrix(where, 'x', x);
  const p = checkOptions(where, 'options', options, ROPE_DEFAULTS);
  checkNumber(where, 'base', p.base, { min: 0, max: 1e300, minInclusive: false });
  checkChoice(where, 'layout', p.layout, Object.keys(LAYOUT_CODES));
  if (x.cols % 2 !== 0) {
    throw new RangeError(`${where}: x.cols must be even (RoPE rotates pairs of dimensions), got ${x.cols}`);
  }
  const { rows: n, cols: d } = x;
  const positions =
    p.positions === undefined
      ? Float64Array.from({ length: n }, (_, i) => i)
      : checkNumbers(where, 'positions', p.positions, n, Float64Array);
  const ArrayType = x.data.constructor;
  const lengths = [n * d * F64, n * F64, n * d * F64];
  checkBudget(where, `x of ${n} × ${d}`, lengths[0] + lengths[1] + lengths[2]);
  return host.call(where, lengths, ([xAt, positionsAt, outAt]) => {
    host.arena.write(xAt, widen(x.data));
    host.arena.write(positionsAt, positions);
    host.core.ropeIntoFloat64({
      n,
      d,
      base: p.base,
      layout: LAYOUT_CODES[p.layout],
      x: xAt,
      positions: positionsAt,
      out: outAt,
    });
    return matrix(n, d, narrow(host.arena.read(outAt, Float64Array, n * d), ArrayType));
  });
}

// attention()'s `position`: { scheme, …that scheme's options } with the defaults filled in.
function checkPosition(where, position) {
  if (position === null || typeof position !== 'object' || Array.isArray(position)) {
    throw new TypeError(`${where}: position must be an object { scheme, … }, got ${describe(position)}`);
  }
  const scheme = position.scheme === undefined ? 'shaw' : position.scheme;
  checkChoice(where, 'position.scheme', scheme, POSITION_SCHEMES);
  const p = checkOptions(where, 'position', position, { scheme, ...POSITION_DEFAULTS[scheme] }, REQUIRED[scheme]);
  p.scheme = scheme;
  if (scheme === 't5') Object.assign(p, checkT5Params(where, 'position.', p));
  if (scheme === 'alibi') checkNumber(where, 'position.slope', p.slope, { min: 0, max: 1e6 });
  if (scheme === 'rope' || scheme === 'sinusoidal') {
    checkNumber(where, 'position.base', p.base, { min: 0, max: 1e300, minInclusive: false });
  }
  if (scheme === 'rope') checkChoice(where, 'position.layout', p.layout, Object.keys(LAYOUT_CODES));
  return p;
}

/** The scheme attention(inputs) asks for: 'shaw' without a `position` (or without inputs). */
export function positionScheme(where, inputs) {
  if (inputs === null || typeof inputs !== 'object' || inputs.position === undefined) return 'shaw';
  return checkPosition(where, inputs.position).scheme;
}

/**
 * attention()'s second argument for a scheme other than Shaw's: an earlier result to write
 * into, or { out }. `outputs` and `queryOffset` (web/api/attention-options.js) are Shaw's only.
 */
export function schemeOut(where, scheme, options) {
  if (options === undefined || options === null || typeof options !== 'object') return options;
  if ('contentScores' in options || 'maxDistance' in options) return options; // a result
  for (const name of ['outputs', 'queryOffset', 'views']) {
    if (options[name] !== undefined) {
      throw new TypeError(
        `${where}: ${name} works with Shaw's position terms only; position.scheme '${scheme}' computes every panel`,
      );
    }
  }
  return options.out;
}

/** Shaw's inputs without `position`, so that the Shaw path runs exactly as before. */
export function withoutPosition(inputs) {
  if (inputs === null || typeof inputs !== 'object' || inputs.position === undefined) return inputs;
  const rest = { ...inputs };
  delete rest.position;
  return rest;
}

// `out` for a scheme's attention(): an earlier result with arrays of this call's shapes and type.
function checkReusable(where, out, ArrayType, n, dV) {
  if (out === null || typeof out !== 'object') {
    throw new TypeError(`${where}: out must be an earlier result of attention(), got ${describe(out)}`);
  }
  for (const [name, length] of [...PANEL_NAMES.map((panel) => [panel, n * n]), ['output', n * dV]]) {
    if (name === 'output' && dV === 0 && out.output === null) continue;
    const data = out[name]?.data;
    if (!(data instanceof ArrayType)) {
      throw new TypeError(
        `${where}: out.${name}.data must be a ${ArrayType.name} like the inputs, got ${describe(data)}`,
      );
    }
    if (data.length !== length) {
      throw new RangeError(
        `${where}: out.${name}.data must hold ${length} numbers for these inputs, got ${data.length}`,
      );
    }
  }
}

/** attention(inputs) for position.scheme 't5', 'alibi', 'rope', 'sinusoidal' or 'none'. */
export function schemeAttention(host, inputs, out) {
  const where = 'attention';
  const position = checkPosition(where, inputs.position);
  const { scheme } = position;
  const sinusoidalScheme = scheme === 'sinusoidal';
  for (const name of ['relKeys', 'relValues']) {
    if (inputs[name] !== undefined) {
      throw new TypeError(`${where}: ${name} is Shaw's table; position.scheme '${scheme}' does not read it`);
    }
  }
  for (const name of ['scale', 'heads', 'keyPadding', 'allowed']) {
    if (inputs[name] !== undefined) {
      throw new TypeError(`${where}: ${name} works with Shaw's position terms only, not position.scheme '${scheme}'`);
    }
  }
  if (sinusoidalScheme) {
    for (const name of ['q', 'k', 'v']) {
      if (inputs[name] !== undefined) {
        throw new TypeError(
          `${where}: position.scheme 'sinusoidal' adds the encoding to x before the projections: give x, wQ, wK (and wV), not ${name}`,
        );
      }
    }
  }
  const given = sinusoidalScheme
    ? checkOptions(where, 'inputs', inputs, { wV: undefined, causal: false, position: undefined }, ['x', 'wQ', 'wK'])
    : checkOptions(where, 'inputs', inputs, { v: undefined, causal: false, position: undefined }, ['q', 'k']);
  const causal = checkBoolean(where, 'causal', given.causal);
  let n;
  let dK;
  let dV = 0;
  let dModel = 0;
  let first;
  const arrays = {};
  if (sinusoidalScheme) {
    const x = checkMatrix(where, 'x', given.x);
    first = x;
    ({ rows: n, cols: dModel } = x);
    const wQ = checkMatrix(where, 'wQ', given.wQ, x);
    checkShape(where, 'wQ', wQ, { rows: { value: dModel, what: 'x.cols' } });
    dK = wQ.cols;
    const wK = checkMatrix(where, 'wK', given.wK, x);
    checkShape(where, 'wK', wK, { rows: { value: dModel, what: 'x.cols' }, cols: { value: dK, what: 'wQ.cols' } });
    Object.assign(arrays, { x: x.data, queryWeights: wQ.data, keyWeights: wK.data });
    if (given.wV !== undefined) {
      const wV = checkMatrix(where, 'wV', given.wV, x);
      checkShape(where, 'wV', wV, { rows: { value: dModel, what: 'x.cols' } });
      dV = wV.cols;
      arrays.valueWeights = wV.data;
    }
  } else {
    const q = checkMatrix(where, 'q', given.q);
    first = q;
    ({ rows: n, cols: dK } = q);
    const k = checkMatrix(where, 'k', given.k, q);
    checkShape(where, 'k', k, { rows: { value: n, what: 'q.rows' }, cols: { value: dK, what: 'q.cols' } });
    Object.assign(arrays, { queries: q.data, keys: k.data });
    if (given.v !== undefined) {
      const v = checkMatrix(where, 'v', given.v, q);
      checkShape(where, 'v', v, { rows: { value: n, what: 'q.rows' } });
      dV = v.cols;
      arrays.values = v.data;
    }
  }
  const ArrayType = first.data.constructor;
  if (scheme === 'rope' && dK % 2 !== 0) {
    throw new RangeError(`${where}: q.cols must be even for position.scheme 'rope' (it rotates pairs), got ${dK}`);
  }
  if (scheme === 't5') {
    arrays.bucketBiases = checkNumbers(where, 'position.biases', position.biases, position.numBuckets, ArrayType);
  }
  if (out !== undefined) checkReusable(where, out, ArrayType, n, dV);

  const size = F64;
  const lengths = {
    queries: sinusoidalScheme ? 0 : n * dK,
    keys: sinusoidalScheme ? 0 : n * dK,
    values: sinusoidalScheme ? 0 : n * dV,
    x: n * dModel,
    queryWeights: dModel * dK,
    keyWeights: dModel * dK,
    valueWeights: dModel * dV,
    bucketBiases: scheme === 't5' ? position.numBuckets : 0,
    ...Object.fromEntries(PANEL_NAMES.map((name) => [name, n * n])),
    output: n * dV,
  };
  const names = Object.keys(lengths);
  // Scratch in the core: rotated or projected queries, keys and values, x + PE, one row of biases.
  const scratch = 4 * n * Math.max(dK, dV, dModel) + 2 * n;
  checkBudget(where, `n = ${n}`, (Object.values(lengths).reduce((a, b) => a + b) + scratch) * size);
  return host.call(
    where,
    names.map((name) => lengths[name] * size),
    (addresses) => {
      const at = Object.fromEntries(names.map((name, index) => [name, addresses[index]]));
      for (const [name, data] of Object.entries(arrays)) host.arena.write(at[name], widen(data));
      host.core.schemeAttentionIntoFloat64(
        {
          scheme: SCHEME_CODES[scheme],
          n,
          dModel,
          dK,
          dV,
          causal,
          t5: {
            numBuckets: position.numBuckets ?? 32,
            maxDistance: position.maxDistance ?? 128,
            bidirectional: position.bidirectional ?? true,
          },
          slope: position.slope ?? 0,
          base: position.base ?? 10000,
          layout: LAYOUT_CODES[position.layout ?? 'interleaved'],
        },
        at,
      );
      const read = (name, rows, cols) =>
        matrix(
          rows,
          cols,
          out
            ? host.arena.read(at[name], Float64Array, rows * cols, out[name].data)
            : narrow(host.arena.read(at[name], Float64Array, rows * cols), ArrayType),
        );
      const result = out ?? {};
      result.maxDistance = null;
      result.position = describePosition(position);
      for (const name of PANEL_NAMES) result[name] = read(name, n, n);
      result.output = dV ? read('output', n, dV) : null;
      return result;
    },
  );
}

// The resolved position settings a result reports (biases copied, so the caller's stay theirs).
function describePosition(position) {
  const { biases, ...rest } = position;
  return biases === undefined ? rest : { ...rest, biases: Float64Array.from(biases) };
}
