// attention()'s second argument: what to compute (`outputs`), where to write it (`out`) or
// whether to return views of WASM memory (`views`), and where the queries stand among the keys
// (`queryOffset`); and empty results to reuse as `out`.
import { CORE_CONTRACT } from './core-contract.js';
import { checkBoolean, checkInteger, describe, floatArrayType } from './validate.js';
import { isPlainObject } from './snapshot.js';

/** attention()'s outputs in the core's shape table, in the order the core computes them. */
const OUTPUT_SHAPES = CORE_CONTRACT.attentionShapes.filter((shape) => shape.role === 'output');

/** Everything attention() can return: the five panels and the output (which needs v). */
export const OUTPUT_NAMES = Object.freeze(OUTPUT_SHAPES.map((shape) => shape.name));

/** The panels attention() can return: the outputs with a row per query and head. */
export const PANEL_NAMES = Object.freeze(
  OUTPUT_SHAPES.filter((shape) => shape.rows === 'headQueries').map((shape) => shape.name),
);

const OPTION_NAMES = ['outputs', 'out', 'queryOffset', 'views'];

/**
 * The second argument of attention(): an options object { outputs, out, queryOffset, views }.
 * Returns { outputs, out, queryOffset, views } with outputs a list of OUTPUT_NAMES (default: all
 * of them, the output only with v).
 */
export function resolveAttentionOptions(where, second, hasValues) {
  const options = second ?? {};
  if (!isPlainObject(options)) {
    throw new TypeError(`${where}: options must be an object { outputs, out, queryOffset }, got ${describe(second)}`);
  }
  if ('maxDistance' in options) {
    throw new TypeError(
      `${where}: the second argument is options { outputs, out, queryOffset }; pass an earlier result as { out: result }`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) {
      throw new TypeError(`${where}: unknown option ${JSON.stringify(key)}; expected ${OPTION_NAMES.join(', ')}`);
    }
  }
  const outputs = options.outputs === undefined ? defaultOutputs(hasValues) : checkOutputs(where, options.outputs);
  if (outputs.includes('output') && !hasValues) {
    throw new TypeError(`${where}: outputs names 'output', which needs v (the values it weighs)`);
  }
  const queryOffset = options.queryOffset === undefined ? null : options.queryOffset;
  if (queryOffset !== null) checkInteger(where, 'queryOffset', queryOffset, 0, 2 ** 31 - 1);
  const views = options.views === undefined ? false : checkBoolean(where, 'views', options.views);
  if (views && options.out !== undefined) {
    throw new TypeError(`${where}: give views or out, not both (views returns arrays in WASM memory, out your own)`);
  }
  return { outputs, out: options.out, queryOffset, views };
}

const defaultOutputs = (hasValues) => (hasValues ? [...OUTPUT_NAMES] : [...PANEL_NAMES]);

/** outputs: an array of names from OUTPUT_NAMES (repeats are ignored), in the core's order. */
export function checkOutputs(where, outputs) {
  const valid = OUTPUT_NAMES.map((name) => `'${name}'`).join(', ');
  if (!Array.isArray(outputs)) {
    throw new TypeError(`${where}: outputs must be an array of names from ${valid}, got ${describe(outputs)}`);
  }
  outputs.forEach((name, index) => {
    if (!OUTPUT_NAMES.includes(name)) {
      const got = typeof name === 'string' ? JSON.stringify(name) : describe(name);
      throw new RangeError(`${where}: outputs[${index}] must be one of ${valid}, got ${got}`);
    }
  });
  return OUTPUT_NAMES.filter((name) => outputs.includes(name));
}

/**
 * The shape of each requested output: rows × cols. With heads, a panel is one block of queryRows
 * rows per head, head after head (PyTorch's [heads, L, S]); the output is queryRows × dV, dV
 * being every head's columns side by side.
 */
export function outputShapes(outputs, queryRows, keyRows, dV, heads = 1) {
  // The shape table's extents, as the core reads them (attention_shapes.hpp).
  const rows = { queries: queryRows, headQueries: heads * queryRows };
  const cols = { keys: keyRows, valueWidth: dV };
  const shapeOf = new Map(OUTPUT_SHAPES.map((shape) => [shape.name, [rows[shape.rows], cols[shape.cols]]]));
  return Object.fromEntries(outputs.map((name) => [name, shapeOf.get(name)]));
}

/** `out`: an earlier result (or allocateAttention()) whose arrays match this call's outputs. */
export function checkReusableResult(where, out, ArrayType, shapes) {
  if (!isPlainObject(out)) {
    throw new TypeError(`${where}: out must be an earlier result of attention(), got ${describe(out)}`);
  }
  if ('output' in shapes && (out.output === null || out.output === undefined)) {
    throw new TypeError(
      `${where}: out has no output (it came from a call without v) but this call has v; pass the result of a call with v of the same shapes as out`,
    );
  }
  for (const [name, [rows, cols]] of Object.entries(shapes)) {
    const data = out[name]?.data;
    if (floatArrayType(data) !== ArrayType) {
      const what = describe(data);
      throw new TypeError(`${where}: out.${name}.data must be a ${ArrayType.name} like the inputs, got ${what}`);
    }
    if (data.length !== rows * cols) {
      throw new RangeError(
        `${where}: out.${name}.data must hold ${rows * cols} numbers for these inputs, got ${data.length}`,
      );
    }
  }
}

/** The fields attention() sets on `out`: maxDistance, position (a scheme other than Shaw's), the outputs. */
const SET_FIELDS = ['maxDistance', 'position', ...OUTPUT_NAMES];

/**
 * Whether attention() could set each field it may set on `out` (SET_FIELDS) as a plain value,
 * read once with the other arguments: a writable field, or a new one on an extensible object
 * (not a read-only field, a getter or setter, or a frozen, sealed or non-extensible object's).
 */
export function readSettableFields(out) {
  const extensible = Object.isExtensible(out);
  const settable = Object.create(null);
  for (const key of SET_FIELDS) {
    const field = Object.getOwnPropertyDescriptor(out, key);
    settable[key] = field ? field.writable === true : extensible;
  }
  return settable;
}

/**
 * Refuses, before anything is computed or written, an `out` on which the call could not set
 * each of `keys` (readSettableFields): a frozen out, or one with a setter, would otherwise be
 * refused, or run the caller's code, after its arrays were written.
 */
export function checkSettableFields(where, settable, keys) {
  for (const key of keys) {
    if (!settable[key]) {
      throw new TypeError(
        `${where}: out.${key} cannot be set (out is frozen or sealed, or ${key} is read-only or a setter); pass an earlier result the call can write into`,
      );
    }
  }
}

/** A result object of zeros for these shapes, to pass as `out`. */
export function emptyResult(ArrayType, shapes, maxDistance) {
  const result = { maxDistance };
  for (const [name, [rows, cols]] of Object.entries(shapes)) {
    result[name] = { rows, cols, data: new ArrayType(rows * cols) };
  }
  return result;
}
