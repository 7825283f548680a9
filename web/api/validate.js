// Argument checks for the public API. Every call is checked here, before any WASM runs:
// a wrong type is a TypeError, a wrong value or shape a RangeError, and each message starts
// with the function and names the argument, what was expected and what was given.
import { MAX_CALL_BYTES, MAX_DIMENSION, MAX_MAIN_THREAD_WORK, formatBytes } from './limits.js';
import { Snapshot, isPlainObject, isTypedArrayName, typedArrayTag } from './snapshot.js';

/** A short description of a value for messages: `a string ("abc")`, `NaN`, `an Array`, ... */
export function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'bigint') return `a bigint (${value}n)`;
  if (typeof value === 'string') {
    const shown = value.length > 20 ? `${value.slice(0, 20)}…` : value;
    return `a string (${JSON.stringify(shown)})`;
  }
  if (typeof value === 'boolean') return `a boolean (${value})`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (Array.isArray(value)) return 'an Array';
  const name = Object.getPrototypeOf(value)?.constructor?.name;
  // A Proxy of a typed array, or Object.create(Float64Array.prototype), holds no typed array's
  // memory (no [[TypedArrayName]]): named as what it is, not as what it imitates.
  if (isTypedArrayName(name) && typedArrayTag(value) === undefined) {
    return `a Proxy or look-alike of ${article(name)} ${name}, not a typed array`;
  }
  return name && name !== 'Object' ? `${article(name)} ${name}` : 'an object';
}

/** "a" or "an" before a name: an Int32Array, an ArrayBuffer, a Float64Array, a Uint8Array ("you-int"). */
export const article = (word) => (/^(?!u(?:int|ni|s|t))[aeiou]/i.test(word) ? 'an' : 'a');

const FLOAT_ARRAYS = { Float64Array, Float32Array };
const TYPED_ARRAYS = { ...FLOAT_ARRAYS, Int32Array, Uint8Array };

/**
 * This realm's constructor for a typed array from any realm (an iframe, a `vm` context), found
 * by its internal [[TypedArrayName]] rather than `instanceof` or Symbol.toStringTag (which a
 * caller can shadow); null if `value` is not one of `types` (default: Float64Array,
 * Float32Array, Int32Array, Uint8Array).
 */
export function typedArrayType(value, types = TYPED_ARRAYS) {
  const tag = typedArrayTag(value);
  return tag !== undefined && Object.hasOwn(types, tag) ? types[tag] : null;
}

/** The float array type (this realm's Float64Array or Float32Array) of a float array, else null. */
export const floatArrayType = (value) => typedArrayType(value, FLOAT_ARRAYS);

/** An integer number in [min, max]. */
export function checkInteger(where, name, value, min, max) {
  if (typeof value !== 'number') {
    throw new TypeError(`${where}: ${name} must be an integer from ${min} to ${max}, got ${describe(value)}`);
  }
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${where}: ${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/** A finite number with min < value < max (or <= where inclusive). */
export function checkNumber(where, name, value, { min, max, minInclusive = true, maxInclusive = true }) {
  const range = `${minInclusive ? '≥' : '>'} ${min} and ${maxInclusive ? '≤' : '<'} ${max}`;
  if (typeof value !== 'number') {
    throw new TypeError(`${where}: ${name} must be a number ${range}, got ${describe(value)}`);
  }
  const aboveMin = minInclusive ? value >= min : value > min;
  const belowMax = maxInclusive ? value <= max : value < max;
  if (!Number.isFinite(value) || !aboveMin || !belowMax) {
    throw new RangeError(`${where}: ${name} must be a finite number ${range}, got ${value}`);
  }
  return value;
}

export function checkBoolean(where, name, value) {
  if (typeof value !== 'boolean') {
    throw new TypeError(`${where}: ${name} must be true or false, got ${describe(value)}`);
  }
  return value;
}

/** One of a few strings. */
export function checkChoice(where, name, value, choices) {
  const list = choices.map((c) => `'${c}'`).join(', ');
  if (typeof value !== 'string')
    throw new TypeError(`${where}: ${name} must be one of ${list}, got ${describe(value)}`);
  if (!choices.includes(value))
    throw new RangeError(`${where}: ${name} must be one of ${list}, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * An options object (undefined means {}), a plain object (isPlainObject: a Map's entries or a
 * class's getters are not its fields), with every key known: a misspelt option is an error, not
 * silently ignored. Returns the options with the defaults filled in.
 */
export function checkOptions(where, name, value, defaults, required = []) {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || typedArrayTag(value) !== undefined) {
    if (value !== undefined) throw new TypeError(`${where}: ${name} must be an object, got ${describe(value)}`);
  } else if (!isPlainObject(value)) {
    throw new TypeError(`${where}: ${name} must be a plain object { … }, got ${describe(value)}`);
  }
  // Each field read once (a getter runs once, a Proxy is asked once), into an object of our own.
  const given = value === undefined ? {} : new Snapshot(where).fields(value);
  const known = new Set([...required, ...Object.keys(defaults)]);
  for (const key of Object.keys(given)) {
    if (!known.has(key)) {
      throw new TypeError(`${where}: unknown option ${JSON.stringify(key)}; expected ${[...known].join(', ')}`);
    }
  }
  for (const key of required) {
    if (given[key] === undefined) {
      throw new TypeError(`${where}: ${name}.${key} is required`);
    }
  }
  const filled = { ...defaults };
  for (const key of Object.keys(given)) {
    if (given[key] !== undefined) filled[key] = given[key];
  }
  return filled;
}

/**
 * The numbers of `list` (an Array, as JSON.parse gives one, or a typed array) as a new ArrayType,
 * each entry read once. An entry that is not a number is not converted (ArrayType.from would make
 * null 0, "2" 2 and true 1; JSON.stringify writes NaN and ±Infinity as null): `refuse(index,
 * what)` throws, `what` describing the entry: 'null (as JSON writes NaN and ±Infinity)',
 * 'a string ("x")'.
 */
export function numberArray(list, ArrayType, refuse) {
  const { length } = list;
  const numbers = new ArrayType(length);
  for (let index = 0; index < length; index += 1) {
    const value = list[index];
    if (typeof value !== 'number')
      refuse(index, value === null ? 'null (as JSON writes NaN and ±Infinity)' : describe(value));
    numbers[index] = value;
  }
  return numbers;
}

/**
 * A float64 number that a float32 model or array would store as ±Infinity (beyond ±3.4e38):
 * a RangeError naming the entry.
 */
export function checkFloat32Range(where, name, data) {
  for (let index = 0; index < data.length; index += 1) {
    if (!Number.isFinite(Math.fround(data[index]))) {
      throw new RangeError(
        `${where}: ${name}[${index}] is ${data[index]}, beyond float32's range (±3.4028234663852886e38); a float32 model would store it as ±Infinity`,
      );
    }
  }
}

/**
 * A matrix { rows, cols, data } (or { data, dims: [rows, cols] }, { data, shape: [rows, cols] }):
 * positive integer sides, data a Float64Array or Float32Array of rows * cols finite numbers.
 * `like` (a checked matrix) demands the same array type. Returns it as { rows, cols, data }.
 */
export function checkMatrix(where, name, value, like) {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) {
    throw new TypeError(`${where}: ${name} must be a matrix { rows, cols, data }, got ${describe(value)}`);
  }
  const sidesName =
    value.rows === undefined && value.cols === undefined && ['dims', 'shape'].find((key) => key in value);
  if (sidesName) {
    // { data, dims } (onnxruntime-web's Tensor) or { data, shape } (tfjs, numpy-like): [rows, cols].
    const sides = value[sidesName];
    if (!Array.isArray(sides) && !ArrayBuffer.isView(sides)) {
      throw new TypeError(`${where}: ${name}.${sidesName} must be [rows, cols], got ${describe(sides)}`);
    }
    if (sides.length !== 2) {
      throw new RangeError(`${where}: ${name}.${sidesName} must be [rows, cols] (2 dimensions), got ${sides.length}`);
    }
    checkInteger(where, `${name}.${sidesName}[0]`, sides[0], 1, MAX_DIMENSION);
    checkInteger(where, `${name}.${sidesName}[1]`, sides[1], 1, MAX_DIMENSION);
    return checkMatrix(where, name, { rows: sides[0], cols: sides[1], data: value.data }, like);
  }
  checkInteger(where, `${name}.rows`, value.rows, 1, MAX_DIMENSION);
  checkInteger(where, `${name}.cols`, value.cols, 1, MAX_DIMENSION);
  const { data } = value;
  const arrayType = floatArrayType(data);
  if (!arrayType) {
    throw new TypeError(`${where}: ${name}.data must be a Float64Array or Float32Array, got ${describe(data)}`);
  }
  const likeType = like && floatArrayType(like.data);
  if (likeType && arrayType !== likeType) {
    throw new TypeError(`${where}: ${name}.data must be a ${likeType.name} like the queries, got ${describe(data)}`);
  }
  if (data.length !== value.rows * value.cols) {
    throw new RangeError(
      `${where}: ${name}.data must hold rows × cols = ${value.rows} × ${value.cols} = ${value.rows * value.cols} numbers, got ${data.length}`,
    );
  }
  for (let index = 0; index < data.length; index += 1) {
    if (!Number.isFinite(data[index])) {
      throw new RangeError(`${where}: ${name}.data[${index}] is ${data[index]}; every entry must be finite`);
    }
  }
  return value;
}

/**
 * A matrix argument read once (web/api/snapshot.js): its fields, sides and data copied or viewed
 * afresh, for checkMatrix. Used where a call takes one matrix; attention() reads all of its
 * arguments at once (attention-args.js).
 */
export function readMatrix(where, name, value) {
  const snapshot = new Snapshot(where);
  const matrix = snapshot.matrix(name, value);
  snapshot.seal();
  return matrix;
}

/** rows and cols of a matrix against what they must be. */
export function checkShape(where, name, matrix, expected) {
  for (const side of ['rows', 'cols']) {
    const want = expected[side];
    if (want !== undefined && matrix[side] !== want.value) {
      throw new RangeError(`${where}: ${name}.${side} must equal ${want.what} (${want.value}), got ${matrix[side]}`);
    }
  }
}

/** True on a page's main thread (a window with a document), where a long call freezes the page. */
export const onPageMainThread = () => typeof window === 'object' && typeof document === 'object' && window !== null;

/**
 * Refuses, on a page's main thread, a call that would take more than MAX_MAIN_THREAD_WORK
 * multiply-adds (about a second or two): such a call belongs in relpos-wasm/worker, or in blocks
 * of query rows (queryOffset). Workers and Node take any size the memory budget allows.
 */
export function checkWork(where, what, work) {
  if (work > MAX_MAIN_THREAD_WORK && onPageMainThread()) {
    throw new RangeError(
      `${where}: ${what} needs about ${work.toPrecision(2)} multiply-adds, more than the ${MAX_MAIN_THREAD_WORK.toPrecision(2)} a call may take on a page's main thread (about a second; it would freeze the page); run it in relpos-wasm/worker (createRelPosWorker), or in blocks of query rows with queryOffset`,
    );
  }
}

/** Refuses, before any allocation, a call that would need more than MAX_CALL_BYTES. */
export function checkBudget(where, what, bytes) {
  if (bytes > MAX_CALL_BYTES) {
    throw new RangeError(
      `${where}: ${what} needs ${formatBytes(bytes)} of memory; the limit is ${formatBytes(MAX_CALL_BYTES)} per call`,
    );
  }
}
