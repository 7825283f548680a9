// Arguments read once (docs/api-boundary.md). Every entry point first copies what it was given
// into a snapshot: numbers, strings and booleans as primitives; each object's fields by one read
// each; lists copied element by element; typed arrays as fresh views of this realm over the same
// memory, found by the intrinsic %TypedArray%.prototype getters (never an own `length`, a
// subclass's getter or a Proxy's trap). Only the snapshot is checked, and only the snapshot is
// copied into WebAssembly memory, so a getter, a Proxy or a shadowed property cannot make what
// reaches the core differ from what was checked.

const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
const getterOf = (object, key) => Object.getOwnPropertyDescriptor(object, key).get;
const tagOf = getterOf(TypedArrayPrototype, Symbol.toStringTag);
const lengthOf = getterOf(TypedArrayPrototype, 'length');
const byteOffsetOf = getterOf(TypedArrayPrototype, 'byteOffset');
const bufferOf = getterOf(TypedArrayPrototype, 'buffer');
const arrayBufferBytes = getterOf(ArrayBuffer.prototype, 'byteLength');

/** This realm's constructor of each kind of typed array, by its [[TypedArrayName]]. */
const TYPED_ARRAY_TYPES = Object.freeze(
  Object.fromEntries(
    [
      'Int8Array',
      'Uint8Array',
      'Uint8ClampedArray',
      'Int16Array',
      'Uint16Array',
      'Int32Array',
      'Uint32Array',
      'Float16Array',
      'Float32Array',
      'Float64Array',
      'BigInt64Array',
      'BigUint64Array',
    ]
      .filter((name) => typeof globalThis[name] === 'function')
      .map((name) => [name, globalThis[name]]),
  ),
);

/**
 * Whether `value` is a plain object, from any realm: its prototype null or an Object.prototype (an
 * object literal, JSON.parse's, Object.create(null), a Proxy of one). A Map, a Date, an Array, a
 * typed array or a class's instance is not: their own enumerable fields are not what they hold.
 */
export function isPlainObject(value) {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

/** Whether `name` is the name of a kind of typed array ('Float64Array', …). */
export const isTypedArrayName = (name) => Object.hasOwn(TYPED_ARRAY_TYPES, name);

/** The longest list (an Array of flags, names, numbers or tokens) any argument may be. */
export const MAX_LIST_LENGTH = 2 ** 24;

/**
 * The kind of a typed array from any realm ('Float64Array', …), read from its internal slot;
 * undefined for anything else (a Proxy, a DataView, a look-alike), without running its code.
 */
export const typedArrayTag = (value) => tagOf.call(value);

const isSharedBuffer = (buffer) => {
  try {
    arrayBufferBytes.call(buffer);
    return false;
  } catch {
    return true;
  }
};

const isDetached = (buffer) => {
  if (isSharedBuffer(buffer)) return false;
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
};

/**
 * The values read by one call, and the views it made: `seal()` (after everything is read, before
 * anything is checked) refuses a view whose memory a later getter detached or shrank.
 */
export class Snapshot {
  #views = [];

  constructor(where) {
    this.where = where;
  }

  /**
   * A typed array as a fresh view of this realm over the same memory (its intrinsic buffer,
   * byteOffset and length), or `value` itself when it is not a typed array. A view over a
   * SharedArrayBuffer is copied (another thread could change it between the check and the
   * copy). A detached buffer is a TypeError naming the argument.
   */
  typedArray(name, value) {
    return this.#view(name, value, true);
  }

  /**
   * A destination the call writes its results into (`out`): typedArray() without the copy of a
   * SharedArrayBuffer's view, so the results reach the caller's shared memory (nothing is read
   * from it, so another thread's writes cannot change what was checked).
   */
  destination(name, value) {
    return this.#view(name, value, false);
  }

  #view(name, value, copyShared) {
    const tag = tagOf.call(value);
    if (tag === undefined) return value;
    const ArrayType = TYPED_ARRAY_TYPES[tag];
    const buffer = bufferOf.call(value);
    const length = lengthOf.call(value);
    if (length === 0 && isDetached(buffer)) {
      throw new TypeError(
        `${this.where}: ${name} is a view of a detached ArrayBuffer (transferred to a worker, or by transfer()); it holds no numbers`,
      );
    }
    const view = new ArrayType(buffer, byteOffsetOf.call(value), length);
    if (copyShared && isSharedBuffer(buffer)) {
      const copy = new ArrayType(length);
      copy.set(view);
      return copy;
    }
    this.#views.push({ name, view, length });
    return view;
  }

  /**
   * An Array (or a Proxy of one) copied element by element, each read once (holes read as
   * undefined) and passed through `each`; a typed array as typedArray(); anything else as it is.
   */
  list(name, value, each = (item) => item, max = MAX_LIST_LENGTH) {
    if (tagOf.call(value) !== undefined) return this.typedArray(name, value);
    if (!Array.isArray(value)) return value;
    const { length } = value;
    if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) {
      throw new TypeError(`${this.where}: ${name} is an Array whose length is not a count (${String(length)})`);
    }
    if (length > max) {
      throw new RangeError(`${this.where}: ${name} must hold at most ${max} entries, got ${length}`);
    }
    const copy = new Array(length);
    for (let index = 0; index < length; index += 1) copy[index] = each(value[index], index);
    return copy;
  }

  /**
   * A plain object's own enumerable fields (isPlainObject), each read once, into an object with no
   * prototype (so a "__proto__" or "constructor" key is a field like any other); `each(key, value)`
   * snapshots a field's value. Anything else (null, an Array, a typed array, a Map) is returned as
   * it is, for the caller's check to refuse.
   */
  fields(value, each = (key, item) => item) {
    if (!isPlainObject(value)) return value;
    const copy = Object.create(null);
    for (const key of Object.keys(value)) copy[key] = each(key, value[key]);
    return copy;
  }

  /**
   * A matrix-like object: rows, cols, dims, shape and data, each read once (from the object or
   * its prototype: an onnxruntime Tensor's getters), sides copied, data as typedArray(); fields
   * that read undefined are left out. Anything not an object is returned as it is.
   */
  matrix(name, value) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || tagOf.call(value) !== undefined) {
      return value;
    }
    const copy = Object.create(null);
    for (const key of ['rows', 'cols', 'dims', 'shape', 'data']) {
      const field = value[key];
      if (field === undefined) continue;
      if (key === 'data') copy.data = this.list(`${name}.data`, field);
      else if (key === 'dims' || key === 'shape') copy[key] = this.list(`${name}.${key}`, field, undefined, 64);
      else copy[key] = field;
    }
    return copy;
  }

  /** Refuses a view whose memory was detached or resized after it was read. */
  seal() {
    for (const { name, view, length } of this.#views) {
      if (lengthOf.call(view) !== length) {
        throw new TypeError(
          `${this.where}: ${name} lost its memory while the arguments were being read (its ArrayBuffer was detached or resized by a getter or Proxy); nothing was computed`,
        );
      }
    }
    return this;
  }
}
