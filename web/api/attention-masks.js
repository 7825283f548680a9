// attention()'s masks, scale and heads (docs/maths.md §3, §4, §9), checked before any WASM runs.
// The masks are named so that `true` cannot be misread (PyTorch's two mask arguments use
// opposite meanings): keyPadding true = a padding key that no query attends to; allowed true =
// this query may attend to this key. Both end up as bytes (1 = true), as the core reads them; their
// shapes are the core's (its shape table, attention-regions.js): keyPadding 1 × n, allowed n_q × n.
import { regionSides } from './attention-regions.js';
import { MAX_DIMENSION } from './limits.js';
import { checkInteger, describe, typedArrayType } from './validate.js';

const PADDING_MEANING = 'one flag per key, true or 1 = a padding key that no query attends to';
const ALLOWED_MEANING = 'true or 1 = this query may attend to this key';

// Flags from a Uint8Array (0 or 1 each; of any realm) or an array of booleans, as a Uint8Array
// (the caller's own array when it is one already).
function checkFlags(where, name, value, meaning) {
  if (typedArrayType(value, { Uint8Array }) === Uint8Array) {
    for (let index = 0; index < value.length; index += 1) {
      if (value[index] > 1) {
        throw new RangeError(`${where}: ${name}[${index}] must be 0 or 1 (${meaning}), got ${value[index]}`);
      }
    }
    return value;
  }
  if (!Array.isArray(value)) {
    throw new TypeError(
      `${where}: ${name} must be a Uint8Array or an array of booleans (${meaning}), got ${describe(value)}`,
    );
  }
  const flags = new Uint8Array(value.length);
  value.forEach((flag, index) => {
    if (typeof flag !== 'boolean') {
      throw new TypeError(`${where}: ${name}[${index}] must be true or false (${meaning}), got ${describe(flag)}`);
    }
    flags[index] = flag ? 1 : 0;
  });
  return flags;
}

/** keyPadding: keys flags (Uint8Array or boolean[]), as a Uint8Array; null when not given. */
export function checkKeyPadding(where, value, keys) {
  if (value === undefined) return null;
  const flags = checkFlags(where, 'keyPadding', value, PADDING_MEANING);
  const { rows, cols } = regionSides('keyPadding', { keys });
  const length = rows[0] * cols[0];
  if (flags.length !== length) {
    throw new RangeError(
      `${where}: keyPadding must hold k.rows = ${length} flags (${PADDING_MEANING}), got ${flags.length}`,
    );
  }
  return flags;
}

/**
 * allowed: a q.rows × k.rows boolean matrix, { rows, cols, data } with data a Uint8Array or an
 * array of booleans, or an array of q.rows arrays of k.rows booleans; as a Uint8Array, row by
 * row (null when not given).
 */
export function checkAllowed(where, value, queries, keys) {
  if (value === undefined) return null;
  const sides = regionSides('allowed', { queries, keys });
  const [rows, cols] = [sides.rows[0], sides.cols[0]];
  const shape = `q.rows × k.rows = ${rows} × ${cols}`;
  if (Array.isArray(value)) {
    if (value.length !== rows) {
      throw new RangeError(`${where}: allowed must hold q.rows = ${rows} rows (one per query), got ${value.length}`);
    }
    const flags = new Uint8Array(rows * cols);
    value.forEach((row, r) => {
      const rowFlags = checkFlags(where, `allowed[${r}]`, row, ALLOWED_MEANING);
      if (rowFlags.length !== cols) {
        throw new RangeError(
          `${where}: allowed[${r}] must hold k.rows = ${cols} flags (one per key), got ${rowFlags.length}`,
        );
      }
      flags.set(rowFlags, r * cols);
    });
    return flags;
  }
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) {
    throw new TypeError(
      `${where}: allowed must be a boolean matrix { rows, cols, data } or an array of rows (${ALLOWED_MEANING}), got ${describe(value)}`,
    );
  }
  checkInteger(where, 'allowed.rows', value.rows, 1, MAX_DIMENSION);
  checkInteger(where, 'allowed.cols', value.cols, 1, MAX_DIMENSION);
  if (value.rows !== rows || value.cols !== cols) {
    throw new RangeError(`${where}: allowed must be ${shape}, got ${value.rows} × ${value.cols}`);
  }
  const flags = checkFlags(where, 'allowed.data', value.data, ALLOWED_MEANING);
  if (flags.length !== rows * cols) {
    throw new RangeError(`${where}: allowed.data must hold ${shape} = ${rows * cols} flags, got ${flags.length}`);
  }
  return flags;
}

/**
 * scale: the score scale (default, undefined here: 1/√d_k), a positive number that stays finite
 * and positive in the inputs' precision (float32: from about 1.2e-38 to 3.4e38).
 */
export function checkScale(where, value, ArrayType) {
  if (value === undefined) return null;
  const what = 'a finite number > 0 (the score scale; default 1/√d_k)';
  if (typeof value !== 'number') throw new TypeError(`${where}: scale must be ${what}, got ${describe(value)}`);
  const stored = ArrayType === Float32Array ? Math.fround(value) : value;
  const smallest = ArrayType === Float32Array ? 2 ** -126 : 2 ** -1022;
  if (!Number.isFinite(stored) || !(stored >= smallest)) {
    const precision = ArrayType === Float32Array ? ' in float32' : '';
    throw new RangeError(`${where}: scale must be ${what}${precision}, got ${value}`);
  }
  return value;
}

/** heads: how many heads lie side by side in the columns of q, k and v (default 1). */
export function checkHeads(where, value) {
  if (value === undefined) return 1;
  return checkInteger(where, 'heads', value, 1, MAX_DIMENSION);
}
