// What the API says of checkpoint position tables without the code that reads them
// (checkpoint-positions.js, loaded on first use): the saved model's format name, the offsets
// read, and where a head's bias puts the softmax mass.

/** The `format` of a model the training section saves (JSON, or model.json inside a .npz). */
export const SAVED_MODEL_FORMAT = 'relpos-train-model';
/** checkpointPositions' offsets when none are given: −256 … 256. */
export const CHECKPOINT_OFFSET_REACH = 256;
/** The farthest offset checkpointPositions reads a table at. */
export const MAX_CHECKPOINT_OFFSET = 2048;

/**
 * Where one head's bias alone puts the softmax mass over offsets −window…window (keys after the
 * query left out when the table is the past only): { left, self, right, meanDistance }.
 */
export function biasMass(entry, head, window) {
  const { offsets, bias, bidirectional } = entry;
  const count = offsets.length;
  let max = -Infinity;
  const inside = [];
  for (let o = 0; o < count; o += 1) {
    const c = offsets[o];
    if (Math.abs(c) > window || (!bidirectional && c > 0)) continue;
    inside.push(o);
    max = Math.max(max, bias[head * count + o]);
  }
  let left = 0;
  let self = 0;
  let right = 0;
  let distance = 0;
  let sum = 0;
  for (const o of inside) {
    const e = Math.exp(bias[head * count + o] - max);
    sum += e;
    const c = offsets[o];
    if (c < 0) left += e;
    else if (c > 0) right += e;
    else self += e;
    distance += e * Math.abs(c);
  }
  return { left: left / sum, self: self / sum, right: right / sum, meanDistance: distance / sum };
}
