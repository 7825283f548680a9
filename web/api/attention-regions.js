// attention()'s regions as the core's shape table names them (relpos/attention_shapes.hpp, through
// its contract): each one's field of the core's request and argument of this API, what it is to
// the caller, and the sides of those whose extents are one number or a few, evaluated here.
import { CORE_CONTRACT } from './core-contract.js';

/** The core's rows, in its table's order: { name, region, rows, cols, headColumns, element, role }. */
export const ATTENTION_SHAPES = Object.freeze(CORE_CONTRACT.attentionShapes.map((shape) => Object.freeze(shape)));

const BY_NAME = new Map(ATTENTION_SHAPES.map((shape) => [shape.name, shape]));

/** The row of the argument `name` (q, relKeys, position.biases, keyPadding, …). */
export function attentionShape(name) {
  const shape = BY_NAME.get(name);
  if (!shape) throw new Error(`attention has no region ${JSON.stringify(name)}`);
  return shape;
}

/** The fields of the core's attention request (AttentionRequest): every region, in its order. */
export const ATTENTION_REGIONS = Object.freeze(ATTENTION_SHAPES.map((shape) => shape.region));

/** attention()'s matrix arguments by this API's names: q, k, v, relKeys, relValues, x, wQ, wK, wV. */
export const INPUT_MATRICES = Object.freeze(
  ATTENTION_SHAPES.filter((shape) => shape.role === 'input').map((shape) => shape.name),
);

// The values a side of each extent that is one number or a few may take (the core's fitsExtent),
// from the call's numbers { heads, keys, queries, buckets }. The others (any, 2k + 1, a table's
// width, …) attention-args.js checks with their own messages.
const CHOICES = {
  one: () => [1],
  keys: ({ keys }) => [keys],
  queries: ({ queries }) => [queries],
  buckets: ({ buckets }) => [buckets],
  oneOrHeads: ({ heads }) => [...new Set([1, heads])],
};

/** The extents sideChoices evaluates. */
export const CHOICE_EXTENTS = Object.freeze(Object.keys(CHOICES));

/** The values a side of extent `extent` may take, for the call's `numbers`. */
export function sideChoices(extent, numbers) {
  const choices = CHOICES[extent];
  if (!choices) throw new Error(`the extent ${JSON.stringify(extent)} is not one number or a few`);
  return choices(numbers);
}

/** The argument `name`'s rows and columns the core takes for the call's numbers: { rows, cols }, lists. */
export function regionSides(name, numbers) {
  const { rows, cols } = attentionShape(name);
  return { rows: sideChoices(rows, numbers), cols: sideChoices(cols, numbers) };
}
