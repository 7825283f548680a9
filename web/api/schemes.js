// Position schemes beside Shaw's (docs/schemes.md): T5 buckets, ALiBi slopes, RoPE, the
// sinusoidal encoding, and the checks of attention()'s `position: { scheme, … }` (attention()
// itself runs every scheme through one core call, web/api/index.js). Each function takes the
// RelPos instance's host ({ core, arena, callRegions }), validates every argument
// (validate.js) before any WASM runs, lays the data out in the arena as the regions the core
// checks (a refusal is a RangeError) and returns copies. rope() runs in float64:
// float32 inputs are widened and the result narrowed back.
import { ROPE_DEFAULTS, ROPE_LAYOUTS, SINUSOIDAL_DEFAULTS, T5_BUCKET_DEFAULTS } from './defaults.js';
import { CORE_CONTRACT } from './core-contract.js';
import { regionSides } from './attention-regions.js';
import { MAX_DIMENSION, SETTING_RANGES } from './limits.js';
import {
  describe,
  checkBoolean,
  checkBudget,
  checkChoice,
  checkInteger,
  checkMatrix,
  checkNumber,
  checkOptions,
} from './validate.js';
import { Snapshot } from './snapshot.js';
import { throwIfRefused } from './wasm-arena.js';

const F64 = Float64Array.BYTES_PER_ELEMENT;
const I32 = Int32Array.BYTES_PER_ELEMENT;
const matrix = (rows, cols, data) => ({ rows, cols, data });
// The arena holds float64: float32 data is widened on the way in and narrowed on the way out.
const widen = (data) => (data instanceof Float64Array ? data : Float64Array.from(data));
const narrow = (data, ArrayType) => (data instanceof ArrayType ? data : ArrayType.from(data));
// This realm's Float64Array or Float32Array for a checked matrix's data (read by its internal slot).
const floatType = (data) => (data instanceof Float64Array ? Float64Array : Float32Array);

/** Every position scheme, by the names of the core's scheme table, in its order (its contract). */
export const SCHEMES = Object.freeze(CORE_CONTRACT.schemes.map((scheme) => scheme.name));
/** The schemes attention() knows (the table's; not a model's learned table); 'shaw' (relKeys, relValues) is the default. */
export const POSITION_SCHEMES = Object.freeze(
  CORE_CONTRACT.schemes.filter((scheme) => scheme.attention).map((scheme) => scheme.name),
);
/** Whether a scheme needs an even head width (the core's table: RoPE rotates pairs). */
export function needsEvenWidth(scheme) {
  return CORE_CONTRACT.schemes.some((entry) => entry.name === scheme && entry.evenWidth);
}
/** The most heads alibiSlopes() computes slopes for (the core's contract). */
export const MAX_ALIBI_HEADS = CORE_CONTRACT.maxAlibiHeads;

export { ROPE_DEFAULTS, SINUSOIDAL_DEFAULTS, T5_BUCKET_DEFAULTS };

// Each scheme's options in attention()'s `position` (besides `scheme`) and their defaults.
const POSITION_DEFAULTS = {
  shaw: {},
  t5: { biases: undefined, ...T5_BUCKET_DEFAULTS },
  alibi: { slope: undefined },
  rope: { base: ROPE_DEFAULTS.base, layout: ROPE_DEFAULTS.layout },
  sinusoidal: SINUSOIDAL_DEFAULTS,
  none: {},
};
const REQUIRED = { t5: ['biases'], alibi: ['slope'] };
const LAYOUTS = ROPE_LAYOUTS;

// numBuckets, maxDistance and bidirectional by the core's T5 rules (its contract, docs/schemes.md
// §1): at least the fewest buckets a direction needs, and maxDistance past the exact buckets.
function checkT5Params(where, prefix, p) {
  const bidirectional = checkBoolean(where, `${prefix}bidirectional`, p.bidirectional);
  checkInteger(where, `${prefix}numBuckets`, p.numBuckets, t5MinBuckets(bidirectional), MAX_DIMENSION);
  const exact = t5ExactBuckets(p.numBuckets, bidirectional);
  checkInteger(where, `${prefix}maxDistance`, p.maxDistance, exact + 1, 2 ** 31 - 1);
  return { numBuckets: p.numBuckets, maxDistance: p.maxDistance, bidirectional };
}

/** The fewest buckets T5 takes, both ways or one way (the core's rule). */
export function t5MinBuckets(bidirectional) {
  const rules = CORE_CONTRACT.t5;
  return bidirectional ? rules.minBucketsBidirectional : rules.minBucketsOneWay;
}

/** T5's exact buckets a side, which maxDistance must exceed (the core's rule). */
export function t5ExactBuckets(numBuckets, bidirectional) {
  const rules = CORE_CONTRACT.t5;
  return Math.floor(numBuckets / (bidirectional ? rules.exactDivisorBidirectional : rules.exactDivisorOneWay));
}

// A list of finite numbers (an Array or a typed array) of a given length, as a new ArrayType
// (read once: a list copied, a typed array viewed by its intrinsic length).
function checkNumbers(where, name, given, length, ArrayType, what = length) {
  const snapshot = new Snapshot(where);
  const value = snapshot.list(name, given);
  snapshot.seal();
  const isList = Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
  if (!isList || value instanceof BigInt64Array || value instanceof BigUint64Array) {
    throw new TypeError(`${where}: ${name} must be an array of ${what} numbers, got ${describe(value)}`);
  }
  if (value.length !== length) {
    throw new RangeError(`${where}: ${name} must hold ${what} numbers, got ${value.length}`);
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
  checkBudget(where, `n = ${n}`, n * n * I32);
  return host.callRegions(where, [[n, n, Int32Array]], ([out]) => {
    throwIfRefused(where, host.core.t5BucketsInto(params, out));
    return matrix(n, n, host.arena.readRegion(out, Int32Array));
  });
}

/** rp.alibiSlopes(heads): the ALiBi paper's head slopes, its rule for any head count. */
export function alibiSlopes(host, heads) {
  const where = 'alibiSlopes';
  checkInteger(where, 'heads', heads, 1, MAX_ALIBI_HEADS);
  return host.callRegions(where, [[1, heads, Float64Array]], ([out]) => {
    throwIfRefused(where, host.core.alibiSlopesInto(out));
    return host.arena.readRegion(out, Float64Array);
  });
}

/** rp.sinusoidal(n, d, options): the original absolute encoding, n × d, float64. */
export function sinusoidal(host, n, d, options) {
  const where = 'sinusoidal';
  checkInteger(where, 'n', n, 1, MAX_DIMENSION);
  checkInteger(where, 'd', d, 1, MAX_DIMENSION);
  const p = checkOptions(where, 'options', options, SINUSOIDAL_DEFAULTS);
  checkNumber(where, 'base', p.base, SETTING_RANGES.base);
  checkBudget(where, `n = ${n} with d = ${d}`, n * d * F64);
  return host.callRegions(where, [[n, d, Float64Array]], ([out]) => {
    throwIfRefused(where, host.core.sinusoidalInto({ base: p.base }, out));
    return matrix(n, d, host.arena.readRegion(out, Float64Array));
  });
}

/** rp.rope(x, options): x (n × d, d even) with each row's pairs rotated by its position. */
export function rope(host, given, options) {
  const where = 'rope';
  // Every argument read once (x, then the options and their positions), then checked: a getter
  // of the options cannot change x after x was checked.
  const snapshot = new Snapshot(where);
  const xRead = snapshot.matrix('x', given);
  const optionsRead = snapshot.fields(options, (key, value) =>
    key === 'positions' ? snapshot.list('positions', value) : value,
  );
  snapshot.seal();
  const x = checkMatrix(where, 'x', xRead);
  const p = checkOptions(where, 'options', optionsRead, ROPE_DEFAULTS);
  checkNumber(where, 'base', p.base, SETTING_RANGES.base);
  checkChoice(where, 'layout', p.layout, LAYOUTS);
  if (needsEvenWidth('rope') && x.cols % 2 !== 0) {
    throw new RangeError(`${where}: x.cols must be even (RoPE rotates pairs of dimensions), got ${x.cols}`);
  }
  const { rows: n, cols: d } = x;
  const positions =
    p.positions === undefined
      ? Float64Array.from({ length: n }, (_, i) => i)
      : checkNumbers(where, 'positions', p.positions, n, Float64Array);
  const ArrayType = floatType(x.data);
  checkBudget(where, `x of ${n} × ${d}`, (2 * n * d + n) * F64);
  const shapes = [
    [n, d, Float64Array],
    [1, n, Float64Array],
    [n, d, Float64Array],
  ];
  return host.callRegions(where, shapes, ([xAt, positionsAt, out]) => {
    host.arena.write(xAt.address, widen(x.data));
    host.arena.write(positionsAt.address, positions);
    const params = { base: p.base, layout: layoutCode(host.core, p.layout) };
    throwIfRefused(where, host.core.ropeIntoFloat64({ params, x: xAt, positions: positionsAt, out }));
    return matrix(n, d, narrow(host.arena.readRegion(out, Float64Array), ArrayType));
  });
}

/** attention()'s `position`: { scheme, …that scheme's options } with the defaults filled in. */
export function checkPosition(where, position) {
  if (position === null || typeof position !== 'object' || Array.isArray(position)) {
    throw new TypeError(`${where}: position must be an object { scheme, … }, got ${describe(position)}`);
  }
  const scheme = position.scheme === undefined ? 'shaw' : position.scheme;
  checkChoice(where, 'position.scheme', scheme, POSITION_SCHEMES);
  const p = checkOptions(where, 'position', position, { scheme, ...POSITION_DEFAULTS[scheme] }, REQUIRED[scheme]);
  p.scheme = scheme;
  if (scheme === 't5') Object.assign(p, checkT5Params(where, 'position.', p));
  if (scheme === 'rope' || scheme === 'sinusoidal') {
    checkNumber(where, 'position.base', p.base, SETTING_RANGES.base);
  }
  if (scheme === 'rope') checkChoice(where, 'position.layout', p.layout, LAYOUTS);
  return p;
}

/** Refuses the inputs another scheme reads: Shaw's tables, or the sinusoidal scheme's x and weights. */
export function checkSchemeTables(where, scheme, given) {
  if (scheme !== 'shaw') {
    for (const name of ['relKeys', 'relValues']) {
      if (given[name] !== undefined) {
        throw new TypeError(`${where}: ${name} is Shaw's table; position.scheme '${scheme}' does not read it`);
      }
    }
  }
  const names = scheme === 'sinusoidal' ? ['q', 'k', 'v'] : ['x', 'wQ', 'wK', 'wV'];
  for (const name of names) {
    if (given[name] === undefined) continue;
    throw new TypeError(
      scheme === 'sinusoidal'
        ? `${where}: position.scheme 'sinusoidal' adds the encoding to x before the projections: give x, wQ, wK (and wV), not ${name}`
        : `${where}: ${name} is read by position.scheme 'sinusoidal' only, not '${scheme}'`,
    );
  }
}

/**
 * The sinusoidal scheme's x (n × d), wQ, wK (d × d_k) and wV (d × d_v), checked by the core's
 * shape rules (`checkExtents`, attention-args.js's, for `heads` heads); `shapes` are the queries,
 * keys and values they make (n × d_k, n × d_k, n × d_v), for attention()'s checks.
 */
export function sinusoidalInputs(where, given, heads, checkExtents) {
  const x = checkMatrix(where, 'x', given.x);
  const n = x.rows;
  const extents = {
    heads,
    keys: { value: n, what: 'x.rows' },
    modelWidth: { value: x.cols, what: 'x.cols' },
  };
  checkExtents(where, 'x', x, extents);
  const wQ = checkMatrix(where, 'wQ', given.wQ, x);
  checkExtents(where, 'wQ', wQ, extents);
  extents.projectedWidth = { value: wQ.cols, what: 'wQ.cols' };
  const wK = checkMatrix(where, 'wK', given.wK, x);
  checkExtents(where, 'wK', wK, extents);
  let wV = null;
  if (given.wV !== undefined) {
    wV = checkMatrix(where, 'wV', given.wV, x);
    checkExtents(where, 'wV', wV, extents);
  }
  const stand = (cols) => ({ rows: n, cols, data: x.data.subarray(0, 0) });
  return {
    shapes: { q: stand(wQ.cols), k: stand(wQ.cols), v: wV ? stand(wV.cols) : undefined },
    matrices: { x, wQ, wK, wV },
  };
}

/**
 * T5's biases (numBuckets, or heads × numBuckets: one row per head) and ALiBi's slope (a number,
 * or one per head) for `heads` heads; sets position.biasRows and position.slopes (Float64Array).
 */
export function checkSchemeHeads(where, position, heads) {
  if (position.scheme === 't5') {
    // Its rows and columns are the core's (attention-regions.js): 1 or heads rows of numBuckets.
    const sides = regionSides('position.biases', { heads, buckets: position.numBuckets });
    const [cols] = sides.cols;
    const length = position.biases?.length;
    const rows = sides.rows.find((count) => count * cols === length) ?? sides.rows[0];
    const lengths = sides.rows.map((count) => count * cols);
    const what = lengths.length > 1 ? `${lengths.join(' or ')} (one row per head)` : lengths[0];
    position.biases = checkNumbers(where, 'position.biases', position.biases, rows * cols, Float64Array, what);
    position.biasRows = rows;
  }
  if (position.scheme === 'alibi') {
    if (typeof position.slope === 'number') {
      checkNumber(where, 'position.slope', position.slope, SETTING_RANGES.slope);
      position.slopes = Float64Array.of(position.slope);
    } else {
      position.slopes = checkNumbers(where, 'position.slope', position.slope, heads, Float64Array);
      position.slopes.forEach((slope, h) => checkNumber(where, `position.slope[${h}]`, slope, SETTING_RANGES.slope));
      position.slope = Float64Array.from(position.slopes);
    }
  }
}

/** The resolved position settings a result reports (arrays copied, so the caller's stay theirs). */
export function describePosition(position) {
  const { biases, ...rest } = position;
  delete rest.biasRows; // the core's layout of biases and slopes, not a setting
  delete rest.slopes;
  if (ArrayBuffer.isView(rest.slope)) rest.slope = Float64Array.from(rest.slope);
  return biases === undefined ? rest : { ...rest, biases: Float64Array.from(biases) };
}

/** The core's code for a scheme and a RoPE layout (its registered enums). */
export function schemeCode(core, scheme) {
  return core.PositionScheme[scheme];
}
export function layoutCode(core, layout) {
  return core.RopeLayout[layout ?? ROPE_DEFAULTS.layout];
}
