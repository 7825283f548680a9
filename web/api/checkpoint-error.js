// What the API says of checkpoint files without their reader (checkpoint-file.js, loaded on
// first use): the error a bad file gets, the largest header read and the dtypes converted.

/** The largest header read: the safetensors reference implementation's limit (100 MB). */
export const MAX_CHECKPOINT_HEADER_BYTES = 100_000_000;

/** Each safetensors dtype this reader converts: bytes per element and the array it reads into. */
export const CHECKPOINT_DTYPES = Object.freeze({
  F64: { size: 8, ArrayType: Float64Array },
  F32: { size: 4, ArrayType: Float32Array },
  F16: { size: 2, ArrayType: Float32Array },
  BF16: { size: 2, ArrayType: Float32Array },
  I64: { size: 8, ArrayType: BigInt64Array },
  I32: { size: 4, ArrayType: Int32Array },
  I16: { size: 2, ArrayType: Int16Array },
  I8: { size: 1, ArrayType: Int8Array },
  U64: { size: 8, ArrayType: BigUint64Array },
  U32: { size: 4, ArrayType: Uint32Array },
  U16: { size: 2, ArrayType: Uint16Array },
  U8: { size: 1, ArrayType: Uint8Array },
  BOOL: { size: 1, ArrayType: Uint8Array },
});

/** The error a bad file gets: its name, then what is wrong. */
export class CheckpointError extends Error {
  constructor(file, what) {
    super(`${file}: ${what}`);
    this.name = 'CheckpointError';
    this.file = file;
  }
}
