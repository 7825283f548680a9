// What the comparison of languages reads from a trained model besides TrainSession.analyse()
// (docs/corpus.md, "Other languages"; docs/verdicts.md, "Word order"): each head's left and right
// attention mass with its bootstrap interval over the held-out windows, and the adposition claims
// (prepositions look forward to their noun, postpositions back), by the rule of pos-verdicts.js.
// Pure: no DOM; runs in Node (scripts/train-reference.mjs).
import { seededRandom } from '../api/seeded-random.js';
import { POS_NAMES } from './corpus-format.js';
import { RULE, claimTally, headVerdicts, quantileOfSorted } from './pos-verdicts.js';
import { layerAttention } from './train-session.js';
import { ADPOSITION_CLAIMS } from './adposition-claims.js';

export { ADPOSITION_CLAIMS };

/**
 * The 95 % percentile-bootstrap interval (RULE's resamples and seed) of the mean left and right
 * mass over the windows: [leftLow, leftHigh, rightLow, rightHigh], from per-window sums
 * (left[w], right[w]) over queries[w] queries.
 */
export function sideIntervals(left, right, queries, rule = RULE) {
  const random = seededRandom(rule.seed);
  const lefts = [];
  const rights = [];
  const windows = queries.length;
  for (let b = 0; b < rule.resamples; b += 1) {
    let l = 0;
    let r = 0;
    let q = 0;
    for (let w = 0; w < windows; w += 1) {
      const pick = Math.floor(random() * windows);
      l += left[pick];
      r += right[pick];
      q += queries[pick];
    }
    lefts.push(l / q);
    rights.push(r / q);
  }
  const tail = (1 - rule.level) / 2;
  const interval = (values) => {
    values.sort((a, b) => a - b);
    return [quantileOfSorted(values, tail), quantileOfSorted(values, 1 - tail)];
  };
  return [...interval(lefts), ...interval(rights)];
}

/**
 * For every head of `session`'s model (heads[l·H + h]), on its held-out analysis windows:
 * { sides: sideIntervals(…), adpositions: headVerdicts for ADPOSITION_CLAIMS }.
 */
export function wordOrderReadings(session) {
  const { layers, heads: H, causal } = session.model.config;
  const posNames = session.corpus?.header?.posNames ?? POS_NAMES;
  const acc = Array.from({ length: layers * H }, () => ({ left: [], right: [], queries: [], tallies: [] }));
  const scratch = new Map();
  for (const window of session.analysisWindows) {
    const n = window.tokens.length;
    layerAttention(session.rp, session.model.headInputs(window.tokens), H, scratch).forEach(({ weights }, index) => {
      let left = 0;
      let right = 0;
      for (let i = 0; i < n; i += 1) {
        for (let j = 0; j < n; j += 1) {
          if (j < i) left += weights[i * n + j];
          else if (j > i) right += weights[i * n + j];
        }
      }
      const a = acc[index];
      a.left.push(left);
      a.right.push(right);
      a.queries.push(n);
      if (window.pos)
        a.tallies.push(claimTally(window.pos, weights, n, { causal, posNames, claims: ADPOSITION_CLAIMS }));
    });
  }
  return acc.map((a) => ({
    sides: sideIntervals(a.left, a.right, a.queries),
    adpositions: a.tallies.length ? headVerdicts(a.tallies, { causal, claims: ADPOSITION_CLAIMS }) : null,
  }));
}
