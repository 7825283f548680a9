// The kinds of matrix a user can draw with <relpos-attention>'s `matrix` property: each takes
// its colour scale and colour-bar label from the page's panel of that kind (panels.js), and has
// a caption that states only what holds for any matrix of the kind, plus facts checked on the
// numbers drawn (do the rows sum to 1? are cells masked?). view: { rows, cols, values, kind,
// max, extent, masked } from matrix-input.js.
import { formatSignificant } from '../render/number-text.js';
import { PANELS } from './panels.js';

const panel = (id) => PANELS.find((p) => p.id === id);
const f = (v) => formatSignificant(v, 3);

/** Row sums' smallest and largest, over the unmasked cells. */
export function rowSumRange({ rows, cols, values }) {
  let low = Infinity;
  let high = -Infinity;
  for (let i = 0; i < rows; i += 1) {
    let sum = 0;
    for (let index = i * cols; index < (i + 1) * cols; index += 1)
      if (values[index] !== -Infinity) sum += values[index];
    low = Math.min(low, sum);
    high = Math.max(high, sum);
  }
  return { low, high };
}

const AXES = 'Row i is a query, column j a key';
/** "1 query", "3 queries". */
export const queryCount = (rows) => (rows === 1 ? '1 query' : `${rows} queries`);
const shape = (view) => (view.rows === view.cols ? '' : ` (${queryCount(view.rows)}, ${view.cols} keys)`);
const maskedText = (view) => (view.masked ? ' Grey: masked cells (−∞), which a softmax gives weight 0.' : '');
// A matrix's rows sum to `target` (to float32 precision), said only when true.
const rowsSum = (view, target) => {
  const { low, high } = rowSumRange(view);
  return Math.abs(low - target) < 1e-4 && Math.abs(high - target) < 1e-4
    ? ` Every row sums to ${target}.`
    : ` Row sums run from ${f(low)} to ${f(high)}.`;
};
const signedColours = (view, scale) =>
  ` Signed: blue below 0, red above, white at 0; colours from ${f(scale.min)} to ${f(scale.max)} (${view.max === null ? 'this panel’s largest |value|' : 'as given'})${scale.beyond.low || scale.beyond.high ? ', beyond that they saturate' : ''}.`;

export const MATRIX_KINDS = {
  weights: {
    title: 'Attention weights',
    scale: panel('combinedWeights').scale,
    range: (view) => [0, view.max ?? (view.extent.max > 0 ? view.extent.max : 1)],
    barLabel: (view, scale) =>
      view.max === null ? panel('combinedWeights').barLabel(scale) : `weight, 0 to ${f(scale.max)} (as given)`,
    caption: (view, scale) =>
      `${AXES}${shape(view)}: how much query i takes from key j.${rowsSum(view, 1)} Colours: 0 to ${view.max === null ? 'this panel’s largest weight' : `${f(scale.max)}, as given`}${scale.beyond.high ? '; larger weights saturate' : ''}.`,
  },
  scores: {
    title: 'Attention scores',
    scale: panel('contentScores').scale,
    barLabel: () => panel('contentScores').barLabel,
    caption: (view, scale) =>
      `Scores before the softmax. ${AXES}${shape(view)}.${signedColours(view, scale)}${maskedText(view)}`,
  },
  biases: {
    title: 'Biases',
    scale: panel('positionBiases').scale,
    barLabel: () => panel('positionBiases').barLabel,
    caption: (view, scale) =>
      `A bias added to the scores before the softmax (a position term, for instance). ${AXES}${shape(view)}.${signedColours(view, scale)}${maskedText(view)}`,
  },
  difference: {
    title: 'Difference of weights',
    scale: panel('difference').scale,
    barLabel: () => panel('difference').barLabel,
    caption: (view, scale) =>
      `One weight matrix minus another: red where the first gives key j more weight, blue where less. ${AXES}${shape(view)}.${rowsSum(view, 0)}${signedColours(view, scale)}${maskedText(view)}`,
  },
};
