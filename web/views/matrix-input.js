// A matrix of the user's own (<relpos-attention>'s `matrix` property): checked and copied into
// the form MatrixFigure draws. Accepts { rows, cols, data }, { data, dims: [rows, cols] }
// (onnxruntime-web's Tensor, given as is) and { data, shape: [rows, cols] }, data any array of
// numbers or typed array, row-major, or { data } alone with data an array of rows (a 2-D array
// as JSON or PyTorch's .tolist() give it); with what to draw it as (kind), a title, a caption and
// labels. A wrong type is a TypeError, a wrong value a RangeError, each naming the field.
import { Snapshot, isPlainObject } from '../api/snapshot.js';
import { describe } from '../api/validate.js';
import { MATRIX_KINDS } from './matrix-panels.js';

/** The most cells a matrix of one's own may have: 2048 × 2048 (see README, Draw your own data). */
export const MAX_MATRIX_CELLS = 2048 * 2048;

const KINDS = Object.keys(MATRIX_KINDS);
const FIELDS = ['data', 'rows', 'cols', 'dims', 'shape', 'kind', 'title', 'caption', 'rowLabels', 'colLabels', 'max'];
// Softmax weights in float32 can exceed 1 by a rounding step.
const WEIGHT_SLACK = 1e-6;

const group = (n) => n.toLocaleString('en-US');

function sidesOf(where, value) {
  const sidesName = ['dims', 'shape'].find((key) => value[key] !== undefined);
  if (!sidesName) {
    for (const side of ['rows', 'cols']) {
      const size = value[side];
      if (typeof size !== 'number')
        throw new TypeError(
          `${where}: matrix.${side} must be a positive integer (or give dims: [rows, cols]), got ${describe(size)}`,
        );
      if (!Number.isInteger(size) || size < 1)
        throw new RangeError(`${where}: matrix.${side} must be a positive integer, got ${size}`);
    }
    return [value.rows, value.cols];
  }
  const sides = value[sidesName];
  if (!Array.isArray(sides) && !ArrayBuffer.isView(sides))
    throw new TypeError(`${where}: matrix.${sidesName} must be [rows, cols], got ${describe(sides)}`);
  const list = Array.from(sides, Number);
  if (list.length !== 2) {
    throw new RangeError(
      `${where}: matrix.${sidesName} must be [rows, cols] (2 dimensions), got [${list.join(', ')}]` +
        (list.length > 2
          ? `; pick one head, e.g. { data: t.data.subarray(h * ${list.at(-2)} * ${list.at(-1)}, (h + 1) * ${list.at(-2)} * ${list.at(-1)}), ${sidesName}: [${list.at(-2)}, ${list.at(-1)}] }`
          : ''),
    );
  }
  list.forEach((size, index) => {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`${where}: matrix.${sidesName}[${index}] must be a positive integer, got ${size}`);
  });
  return list;
}

/**
 * `own` with data given as an array of rows (arrays) flattened row by row, each row read once;
 * its sides are the rows' unless given. Anything else as it is.
 */
function flattenRows(where, own) {
  const { data } = own;
  if (!Array.isArray(data) || !Array.isArray(data[0])) return own;
  const rows = data.map((row, r) => {
    if (!Array.isArray(row))
      throw new TypeError(
        `${where}: matrix.data[${r}] must be a row (an array of numbers), as data[0] is, got ${describe(row)}`,
      );
    return Array.from(row);
  });
  const cols = rows[0].length;
  rows.forEach((row, r) => {
    if (row.length !== cols)
      throw new RangeError(
        `${where}: matrix.data[${r}] has ${row.length} number${row.length === 1 ? '' : 's'}; every row must have as many as the first, ${cols}`,
      );
  });
  const given = ['rows', 'cols', 'dims', 'shape'].some((key) => own[key] !== undefined);
  return { ...own, data: rows.flat(), ...(given ? {} : { rows: rows.length, cols }) };
}

// The numbers as a Float64Array; −Infinity (null in a plain array: JSON's spelling) is a masked cell.
function valuesOf(where, given, count) {
  // Read once: a typed array as a view by its intrinsic length, an Array's length once.
  const data = new Snapshot(where).typedArray('matrix.data', given);
  const plain = Array.isArray(data);
  if (!plain && !(ArrayBuffer.isView(data) && !(data instanceof DataView))) {
    throw new TypeError(`${where}: matrix.data must be an array of numbers or a typed array, got ${describe(data)}`);
  }
  const tag = Object.prototype.toString.call(data);
  if (/Big(Int|Uint)64Array/.test(tag))
    throw new TypeError(
      `${where}: matrix.data must hold numbers, got a ${tag.slice(8, -1)} (convert it with Float64Array.from)`,
    );
  const { length } = data;
  if (length !== count) {
    throw new RangeError(`${where}: matrix.data must hold rows × cols = ${group(count)} numbers, got ${group(length)}`);
  }
  const values = new Float64Array(count);
  if (!plain) {
    // A typed array holds numbers: copy it at once, then only look for NaN and +Infinity.
    values.set(data);
    for (let index = 0; index < count; index += 1) {
      const v = values[index];
      if (v !== v || v === Infinity)
        throw new RangeError(
          `${where}: matrix.data[${index}] is ${v}; every entry must be finite (−Infinity or null: a masked cell)`,
        );
    }
    return values;
  }
  for (let index = 0; index < count; index += 1) {
    let v = data[index];
    if (plain && v === null) v = -Infinity;
    if (typeof v !== 'number')
      throw new TypeError(`${where}: matrix.data[${index}] must be a number, got ${describe(v)}`);
    if (Number.isNaN(v) || v === Infinity)
      throw new RangeError(
        `${where}: matrix.data[${index}] is ${v}; every entry must be finite (−Infinity or null: a masked cell)`,
      );
    values[index] = v;
  }
  return values;
}

function labelsOf(where, name, labels, count) {
  if (labels === undefined || labels === null) return null;
  if (!Array.isArray(labels))
    throw new TypeError(`${where}: matrix.${name} must be an array of ${count} strings, got ${describe(labels)}`);
  if (labels.length !== count)
    throw new RangeError(
      `${where}: matrix.${name} must have ${count} entries (one per ${name === 'rowLabels' ? 'row' : 'column'}), got ${labels.length}`,
    );
  return labels.map((label, index) => {
    if (typeof label !== 'string' && typeof label !== 'number')
      throw new TypeError(`${where}: matrix.${name}[${index}] must be a string, got ${describe(label)}`);
    return String(label);
  });
}

function textOf(where, name, text) {
  if (text === undefined || text === null) return null;
  if (typeof text !== 'string') throw new TypeError(`${where}: matrix.${name} must be a string, got ${describe(text)}`);
  return text;
}

/**
 * Checks a matrix of one's own and returns it as MatrixFigure draws it: { rows, cols, values
 * (a Float64Array copy; −Infinity masked), kind, title, caption, rowLabels, colLabels, max }.
 * kind defaults to 'weights' when every value lies in [0, 1], else 'scores'.
 */
export function checkMatrixInput(where, value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) {
    throw new TypeError(
      `${where}: matrix must be { data, rows, cols } or { data, dims: [rows, cols] } (with kind, title, rowLabels, colLabels), got ${describe(value)}`,
    );
  }
  // A plain object is the user's own spelling: a misspelt field is an error. Anything else (an
  // onnxruntime Tensor) has fields of its own; only data and dims/shape are read from it.
  if (isPlainObject(value)) {
    for (const key of Object.keys(value))
      if (!FIELDS.includes(key))
        throw new TypeError(`${where}: matrix has no field ${JSON.stringify(key)}; expected ${FIELDS.join(', ')}`);
  }
  // Each field read once (a getter runs once), into a copy of our own.
  const own = flattenRows(
    where,
    isPlainObject(value)
      ? { ...value }
      : { data: value.data, dims: value.dims, shape: value.shape, rows: value.rows, cols: value.cols },
  );
  const [rows, cols] = sidesOf(where, own);
  if (rows * cols > MAX_MATRIX_CELLS) {
    throw new RangeError(
      `${where}: matrix must have at most ${group(MAX_MATRIX_CELLS)} cells (2048 × 2048), got ${group(rows)} × ${group(cols)} = ${group(rows * cols)}; draw a part of it, or relpos-wasm/render's heatmap on a canvas of your own`,
    );
  }
  const values = valuesOf(where, own.data, rows * cols);
  let low = Infinity;
  let high = -Infinity;
  let masked = 0;
  for (let index = 0; index < values.length; index += 1) {
    const v = values[index];
    if (v === -Infinity) masked += 1;
    else {
      if (v < low) low = v;
      if (v > high) high = v;
    }
  }
  if (own.kind !== undefined && typeof own.kind !== 'string')
    throw new TypeError(
      `${where}: matrix.kind must be one of ${KINDS.map((k) => `'${k}'`).join(', ')}, got ${describe(own.kind)}`,
    );
  if (own.kind !== undefined && !KINDS.includes(own.kind))
    throw new RangeError(
      `${where}: matrix.kind must be one of ${KINDS.map((k) => `'${k}'`).join(', ')}, got ${JSON.stringify(own.kind)}`,
    );
  const kind = own.kind ?? (masked === 0 && low >= 0 && high <= 1 + WEIGHT_SLACK ? 'weights' : 'scores');
  if (kind === 'weights' && (masked > 0 || low < -WEIGHT_SLACK || high > 1 + WEIGHT_SLACK)) {
    const index = values.findIndex((v) => !(v >= -WEIGHT_SLACK && v <= 1 + WEIGHT_SLACK));
    throw new RangeError(
      `${where}: matrix.data[${index}] is ${values[index]}; kind 'weights' takes values from 0 to 1 (signed or masked values: kind 'scores' or 'biases')`,
    );
  }
  const { max } = own;
  if (max !== undefined && max !== null) {
    if (typeof max !== 'number')
      throw new TypeError(`${where}: matrix.max must be a positive number, got ${describe(max)}`);
    if (!(max > 0) || !Number.isFinite(max))
      throw new RangeError(`${where}: matrix.max must be a positive finite number, got ${max}`);
  }
  return {
    rows,
    cols,
    values,
    kind,
    title: textOf(where, 'title', own.title),
    caption: textOf(where, 'caption', own.caption),
    rowLabels: labelsOf(where, 'rowLabels', own.rowLabels, rows),
    colLabels: labelsOf(where, 'colLabels', own.colLabels, cols),
    max: max ?? null,
    extent: { min: low > high ? 0 : low, max: low > high ? 0 : high },
    masked,
  };
}
