// A figure view of numbers the user computed (<relpos-attention>'s `result` property): the five
// n × n matrices of an attention() result, drawn instead of the seeded example. The captions
// state the maths of attention(), true for any of its results; labels are the positions, or the
// words of the element's `tokens` attribute when it has one.
import { PANEL_NAMES } from '../api/attention-options.js';
import { MAX_TOKENS, tokenLabels } from '../settings/settings.js';
import { weightDifference } from './weight-difference.js';

const kind = (value) =>
  value === null ? 'null' : Array.isArray(value) ? 'an Array' : typeof value === 'object' ? 'an object' : typeof value;

/** Checks that `result` is an attention() result this figure can draw; returns its n. */
export function checkResult(where, result) {
  if (result === null || typeof result !== 'object') {
    throw new TypeError(`${where}: result must be a result of attention(), got ${kind(result)}`);
  }
  const n = result.combinedWeights?.rows;
  if (!Number.isInteger(n) || n < 1 || n > MAX_TOKENS) {
    throw new RangeError(
      `${where}: result.combinedWeights must be n × n with n from 1 to ${MAX_TOKENS} (larger: relpos-wasm/render's heatmap), got ${n}`,
    );
  }
  for (const name of PANEL_NAMES) {
    const matrix = result[name];
    const tag = Object.prototype.toString.call(matrix?.data);
    if (
      !matrix ||
      matrix.rows !== n ||
      matrix.cols !== n ||
      !/Float(32|64)Array/.test(tag) ||
      matrix.data.length !== n * n
    ) {
      throw new TypeError(
        `${where}: result.${name} must be an n × n matrix (n = ${n}) of a Float64Array or Float32Array, as attention() returns`,
      );
    }
  }
  if (!Number.isInteger(result.maxDistance) || result.maxDistance < 0) {
    throw new TypeError(
      `${where}: result.maxDistance must be the clipping distance k (an integer ≥ 0), got ${result.maxDistance}`,
    );
  }
  return n;
}

/** The view AttentionFigure draws, for a checked result; `tokens` the attribute's text or null. */
export function viewFromResult(rp, result, { tokens = null, causal = false, previous = null } = {}) {
  const n = result.combinedWeights.rows;
  const words = tokens === null ? Array(n).fill('') : tokenLabels(tokens, n);
  const difference = weightDifference(result, n * n);
  const k = result.maxDistance;
  const reuse = previous && previous.n === n && previous.maxDistance === k;
  return {
    n,
    long: false,
    given: true,
    maxDistance: k,
    causal,
    sameQuery: false,
    tokens: words,
    labels: words.map((word, i) => (word ? `${i} ${word}` : String(i))),
    result,
    difference,
    offsets: reuse ? previous.offsets : rp.relativeOffsets(n, k),
  };
}
