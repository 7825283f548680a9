// model.headInputs(tokens, { out }): an earlier result whose arrays this call writes into (no new
// memory: docs/performance.md, "Where a fresh result goes"). Read once (snapshot.js), then every
// array checked before the first is written, so a refused call changes none.
import { Snapshot, isPlainObject } from './snapshot.js';
import { checkOptions, describe, floatArrayType } from './validate.js';

/** The matrices of one head's entry in headInputs()' result. */
export const HEAD_INPUT_MATRICES = ['q', 'k', 'v', 'relKeys', 'relValues'];

/**
 * options.out read once: for each entry, each matrix's data as a view the results are written
 * through (`view`) beside the caller's array (`original`, which the result holds); null without it.
 */
export function readHeadInputsOut(where, options) {
  const { out } = checkOptions(where, 'options', options, { out: undefined });
  if (out === undefined) return null;
  if (!Array.isArray(out)) {
    throw new TypeError(
      `${where}: options.out must be an earlier result of headInputs() (an Array), got ${describe(out)}`,
    );
  }
  const snapshot = new Snapshot(where);
  const entries = snapshot.list('options.out', out, (entry, index) =>
    snapshot.fields(entry, (name, matrix) => {
      if (!HEAD_INPUT_MATRICES.includes(name) || matrix === null || typeof matrix !== 'object') return matrix;
      const original = matrix.data;
      return { view: snapshot.destination(`options.out[${index}].${name}.data`, original), original };
    }),
  );
  snapshot.seal();
  return entries;
}

/**
 * Each of `count` entries holds, for each matrix, an array of the model's type (ArrayType) with
 * sizes[name].rows × sizes[name].cols numbers: else a TypeError or RangeError naming it.
 */
export function checkHeadInputsOut(where, out, { count, sizes, ArrayType }) {
  if (out.length !== count) {
    throw new RangeError(
      `${where}: options.out must be an earlier result of headInputs() on this model (${count} heads), got ${out.length} entries`,
    );
  }
  out.forEach((entry, index) => {
    for (const name of HEAD_INPUT_MATRICES) {
      // An entry that is not a plain object was not read (snapshot.js): it holds no views.
      const data = isPlainObject(entry) ? entry[name]?.view : undefined;
      const at = `options.out[${index}].${name}.data`;
      if (floatArrayType(data) !== ArrayType) {
        throw new TypeError(`${where}: ${at} must be a ${ArrayType.name} like this model's, got ${describe(data)}`);
      }
      const { rows, cols } = sizes[name];
      if (data.length !== rows * cols) {
        throw new RangeError(
          `${where}: ${at} must hold ${rows * cols} numbers (${rows} × ${cols}) for this sequence, got ${data.length}`,
        );
      }
    }
  });
}
