// One rule for bytes (docs/api-boundary.md): every entry point that takes a file's bytes
// (checkpoints, model files, corpora, wasmBinary) accepts a Node Buffer, any Uint8Array (a view
// at any offset into a larger buffer, from any realm), an ArrayBuffer, a Blob or a File, and
// copies exactly the bytes it was given, once, into an ArrayBuffer of its own: a Buffer from
// Node's shared pool or a view at an offset never lets a reader see its neighbours' bytes, and a
// caller who changes the array afterwards changes nothing already read.
import { checkInteger, describe } from './validate.js';
import { typedArrayTag } from './snapshot.js';

const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
const getterOf = (object, key) => Object.getOwnPropertyDescriptor(object, key).get;
const bufferOf = getterOf(TypedArrayPrototype, 'buffer');
const byteOffsetOf = getterOf(TypedArrayPrototype, 'byteOffset');
const byteLengthOfView = getterOf(TypedArrayPrototype, 'byteLength');
const arrayBufferBytes = getterOf(ArrayBuffer.prototype, 'byteLength');
const arrayBufferSlice = ArrayBuffer.prototype.slice;

const isArrayBuffer = (value) => {
  try {
    arrayBufferBytes.call(value);
    return true;
  } catch {
    return false;
  }
};

/** The byte length of bytes in memory (a Uint8Array or an ArrayBuffer), by the intrinsic getters. */
export const byteLengthOf = (value) =>
  typedArrayTag(value) === 'Uint8Array' ? byteLengthOfView.call(value) : arrayBufferBytes.call(value);

/** Whether `value` is a Blob (a File is one), read only through Blob's own methods. */
export const isBlob = (value) => typeof Blob !== 'undefined' && value instanceof Blob;

/**
 * A Blob's size, read once: a whole number of bytes (a subclass's or a look-alike's `size` may say
 * otherwise: NaN, -1, a string), else a TypeError or RangeError naming `name`.
 */
export const blobSize = (where, name, blob) =>
  checkInteger(where, `${name}.size`, blob.size, 0, Number.MAX_SAFE_INTEGER);

/** Whether `value` is bytes in memory: a Uint8Array (a Buffer is one) or an ArrayBuffer. */
export const isBytesInMemory = (value) => typedArrayTag(value) === 'Uint8Array' || isArrayBuffer(value);

const kinds = 'a Uint8Array (a Node Buffer is one), an ArrayBuffer, a Blob or a File';

/**
 * The bytes of `value` (a Uint8Array or Buffer, at any offset, or an ArrayBuffer) copied into a
 * fresh ArrayBuffer of exactly their length; read by the intrinsic buffer, byteOffset and
 * byteLength, so an own `length` or a subclass cannot change what is copied. A Blob is a
 * TypeError here (it is read asynchronously: readOwnBytes); anything else a TypeError naming
 * `name`. A detached buffer is a TypeError too.
 */
export function ownBytes(where, name, value) {
  if (typedArrayTag(value) === 'Uint8Array') {
    const buffer = bufferOf.call(value);
    const offset = byteOffsetOf.call(value);
    const length = byteLengthOfView.call(value);
    if (length === 0 && isArrayBuffer(buffer) && isDetachedBuffer(buffer))
      throw new TypeError(`${where}: ${name} is a view of a detached ArrayBuffer; it holds no bytes`);
    const copy = new Uint8Array(length);
    copy.set(new Uint8Array(buffer, offset, length));
    return copy;
  }
  if (isArrayBuffer(value)) {
    if (isDetachedBuffer(value)) throw new TypeError(`${where}: ${name} is a detached ArrayBuffer; it holds no bytes`);
    return new Uint8Array(arrayBufferSlice.call(value, 0));
  }
  if (isBlob(value)) {
    throw new TypeError(
      `${where}: ${name} is a Blob; this call reads bytes in memory (await blob.arrayBuffer() first)`,
    );
  }
  throw new TypeError(`${where}: ${name} must be ${kinds}, got ${describe(value)}`);
}

/** ownBytes(), and a Blob or File read whole: a Promise of a Uint8Array of their own. */
export async function readOwnBytes(where, name, value) {
  if (isBlob(value)) return new Uint8Array(await value.arrayBuffer());
  return ownBytes(where, name, value);
}

function isDetachedBuffer(buffer) {
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/** What ownBytes takes, for messages. */
export const BYTES_KINDS = kinds;
