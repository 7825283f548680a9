// What the tooltip says of one cell of the page's view: how its combined score comes about
// (content + bias, to the decimals at which they add up as written) and, where a bias and the
// weight's change disagree in sign, why (the softmax renormalises the row: docs/maths.md).
import { addingDecimals, formatFixed, formatSignificant } from '../render/number-text.js';

/** A token for reading out: the word, or its position where the sentence ran out of words. */
export const tokenName = (tokens, i) => tokens[i] || `#${i}`;

/**
 * How cell (i, j) comes about: content + bias = combined score, the three to the same decimals,
 * at which they add up as written (addingDecimals); and its weight without and with the position
 * term (3 significant digits).
 */
export function cellBreakdown(view, i, j, masked) {
  const f = (v) => formatSignificant(v, 3);
  const at = i * view.n + j;
  const { contentScores, positionBiases, combinedScores, contentWeights, combinedWeights } = view.result;
  const [content, bias, combined] = [contentScores, positionBiases, combinedScores].map((m) => m.data[at]);
  const d = addingDecimals(content, bias, combined);
  const lines = [
    [
      'content + bias = combined',
      `${formatFixed(content, d)} ${bias < 0 ? '−' : '+'} ${formatFixed(Math.abs(bias), d)} = ${formatFixed(combined, d)}`,
    ],
    [
      'weight: content only → combined',
      masked ? 'masked (j > i)' : `${f(contentWeights.data[at])} → ${f(combinedWeights.data[at])}`,
    ],
  ];
  const why = masked ? null : weightChangeReason(view, i, j);
  if (why) lines.push(why);
  return lines;
}

/**
 * Why a positive bias can lower a weight (or a negative one raise it): the softmax renormalises
 * the row, so what counts is the bias against the row's other biases. The row's largest (or
 * smallest) bias over the keys it sees, named; null when the weight moved with the bias's sign.
 */
export function weightChangeReason(view, i, j) {
  const { n, result } = view;
  const at = i * n + j;
  const bias = result.positionBiases.data[at];
  const rose = result.combinedWeights.data[at] > result.contentWeights.data[at];
  if ((bias > 0 && rose) || (bias <= 0 && !rose)) return null;
  const last = view.causal ? i : n - 1;
  let extreme = 0;
  for (let l = 1; l <= last; l += 1) {
    const b = result.positionBiases.data[i * n + l];
    if (rose ? b < result.positionBiases.data[i * n + extreme] : b > result.positionBiases.data[i * n + extreme])
      extreme = l;
  }
  const f = (v) => formatSignificant(v, 3);
  const named = `${f(result.positionBiases.data[i * n + extreme])} at key ${extreme} “${tokenName(view.tokens, extreme)}”`;
  return rose
    ? ['why it rose', `the row’s other biases are lower still (the lowest: ${named}); each row’s weights sum to 1`]
    : ['why it fell', `the row’s other keys got larger biases (the largest: ${named}); each row’s weights sum to 1`];
}
