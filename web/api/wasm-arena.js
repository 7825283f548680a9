// One block of WASM memory that a RelPos instance lays its calls out in: inputs are copied in,
// the core writes results next to them, results are copied out. The block is reused from call
// to call (grown when a call needs more, released after an unusually large one), so a steady
// stream of calls allocates nothing.

import { typedArrayType } from './validate.js';

const lengthOf = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), 'length').get;

const ALIGNMENT = 16;
/** A block larger than this is freed after the call that needed it. */
const KEEP_BYTES = 64 * 2 ** 20;

const align = (bytes) => Math.ceil(bytes / ALIGNMENT) * ALIGNMENT;

/**
 * A region as every binding takes it (cpp/bindings/buffers.hpp, MatrixBuffer): rows × cols
 * elements of ArrayType at `address`, and the bytes reserved there. The core checks it against
 * the shape the call implies before it reads or writes anything.
 */
export const regionAt = (address, rows, cols, ArrayType) => ({
  address,
  rows,
  cols,
  bytes: rows * cols * ArrayType.BYTES_PER_ELEMENT,
});

/** The core's refusal of a call's regions (an empty string: none) as a RangeError. */
export function throwIfRefused(where, refusal) {
  if (refusal) throw new RangeError(`${where}: the core refused the call: ${refusal}`);
}

export class WasmArena {
  constructor(core) {
    this.core = core;
    this.address = 0;
    this.capacity = 0;
  }

  /**
   * Reserves one region per entry of `lengths` (bytes) and returns their addresses. Earlier
   * addresses are invalid afterwards. Throws a RangeError when WASM memory cannot grow enough.
   */
  reserve(where, lengths) {
    const total = lengths.reduce((sum, bytes) => sum + align(bytes), 0);
    if (total > this.capacity) {
      this.release();
      const address = this.core._malloc(total);
      if (!address) {
        throw new RangeError(`${where}: could not allocate ${total} bytes of WebAssembly memory`);
      }
      this.address = address;
      this.capacity = total;
    }
    let next = this.address;
    return lengths.map((bytes) => {
      const address = next;
      next += align(bytes);
      return address;
    });
  }

  /** Frees the block if it is larger than what is worth keeping. */
  trim() {
    if (this.capacity > KEEP_BYTES) this.release();
  }

  release() {
    if (this.address) this.core._free(this.address);
    this.address = 0;
    this.capacity = 0;
  }

  /**
   * Copies a typed array (of any realm; its intrinsic length) into WASM memory at `address`,
   * which must lie, with all of the array, inside the reserved block: anything else is an Error,
   * never a write outside it.
   */
  write(address, array) {
    const ArrayType = typedArrayType(array);
    if (!ArrayType) throw new TypeError('WasmArena.write: not a Float64, Float32, Int32 or Uint8 array');
    const bytes = lengthOf.call(array) * ArrayType.BYTES_PER_ELEMENT;
    if (address < this.address || address + bytes > this.address + this.capacity) {
      throw new RangeError(
        `WasmArena.write: ${bytes} bytes at ${address} fall outside the reserved block (${this.capacity} bytes at ${this.address})`,
      );
    }
    this.heapFor(ArrayType).set(array, address / ArrayType.BYTES_PER_ELEMENT);
  }

  /**
   * A copy (owned by the caller) of `length` elements of type `ArrayType` at `address`; written
   * into `target` (an array of that type and length) when one is given, which saves allocating.
   * The one way results leave WASM memory: a new array is one ArrayBuffer.prototype.slice of the
   * memory's buffer (one bulk copy in the engine; the fastest form measured in Chromium and Node,
   * docs/performance.md), a target one set() of a view.
   */
  read(address, ArrayType, length, target = null) {
    const bytes = length * ArrayType.BYTES_PER_ELEMENT;
    if (!target) return new ArrayType(this.core.HEAPU8.buffer.slice(address, address + bytes));
    target.set(new ArrayType(this.core.HEAPU8.buffer, address, length));
    return target;
  }

  /** A copy of a region's elements (regionAt, or one the core describes). */
  readRegion(region, ArrayType, target = null) {
    return this.read(region.address, ArrayType, region.rows * region.cols, target);
  }

  /**
   * A view (not a copy) of `length` elements of type `ArrayType` at `address`: valid until the
   * memory's views are detached (RelPos does that before its next call, docs/memory-views.md).
   */
  view(address, ArrayType, length) {
    return new ArrayType(this.core.HEAPU8.buffer, address, length);
  }

  // The heap views are re-read on every use: memory growth replaces them.
  heapFor(ArrayType) {
    if (ArrayType === Float64Array) return this.core.HEAPF64;
    if (ArrayType === Float32Array) return this.core.HEAPF32;
    if (ArrayType === Int32Array) return this.core.HEAP32;
    if (ArrayType === Uint8Array) return this.core.HEAPU8;
    throw new TypeError(`no WASM heap view for ${ArrayType.name}`);
  }
}
