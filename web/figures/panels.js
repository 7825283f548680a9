// The six matrix panels: what each shows, how it is coloured, and a caption that is true for
// every input (docs/maths.md §6, the teaching truth about diagonals). Each `values` reads the panel's n × n matrix from the
// computed view { result (rp.example), offsets (rp.relativeOffsets), difference }.

const fixed = (digits) => (value) => value.toFixed(digits).replace(/^-(0\.0*)$/, '$1').replace('-', '−');

// Captions are fixed texts (so the layout never moves); what depends on the settings is a
// `note(view)` drawn under the panel's colour bar. `masked(view)` says which cells the causal
// mask hides from the softmax: they are drawn grey and read "masked".
const causalMask = (view) => (view.causal ? (i, j) => j > i : null);
const rowConstantBias = (view) => view.maxDistance === 0 && view.n > 1;
// The two softmax panels: weights on a 0-to-1 scale (in the long view, up to their 99th
// percentile, so the label drops the range).
const WEIGHT_SCALE = { scale: 'sequential', fixedRange: [0, 1], barLabel: 'weight, 0 to 1', barLabelLong: 'weight' };

export const PANELS = [
  {
    id: 'contentScores',
    title: 'Content scores',
    scale: 'diverging',
    barLabel: 'score (blue < 0 < red)',
    values: (view) => view.result.contentScores.data,
    caption: () =>
      'qᵢ · kⱼ / √dₖ for query i (row) and key j (column): how well the two vectors match, with no notion of where the tokens stand. Signed: blue below zero, red above.',
    note: (view) => (view.causal ? 'Shown unmasked: the causal mask acts in the softmax.' : ''),
  },
  {
    id: 'positionBiases',
    title: 'Position biases',
    scale: 'diverging',
    bandEdges: true,
    barLabel: 'bias (blue < 0 < red)',
    values: (view) => view.result.positionBiases.data,
    caption: () =>
      'qᵢ · aᴷ[clip(j − i, ±k)] / √dₖ. A diagonal shares one embedding aᴷ, but the query qᵢ changes from row to row, so values along a diagonal differ. Outside the dashed lines (|j − i| > k) every cell reuses an edge embedding.',
    note: (view) => {
      if (rowConstantBias(view)) return 'k = 0: one embedding, so one bias per row.';
      if (view.maxDistance >= view.n - 1) return `k = ${view.maxDistance} ≥ n − 1: no cell is clipped.`;
      return view.causal ? 'Shown unmasked: the causal mask acts in the softmax.' : '';
    },
  },
  {
    id: 'contentWeights',
    title: 'Content-only weights',
    ...WEIGHT_SCALE,
    values: (view) => view.result.contentWeights.data,
    masked: causalMask,
    caption: () =>
      'softmax of each row of the content scores: attention with no position information. Every row sums to 1; under the causal mask, keys after the query (j > i) get weight 0.',
    note: (view) => (view.causal ? 'Grey: keys after the query, masked.' : `Uniform attention: 1/n = ${(1 / view.n).toPrecision(2)} per key.`),
  },
  {
    id: 'combinedWeights',
    title: 'Combined weights',
    ...WEIGHT_SCALE,
    values: (view) => view.result.combinedWeights.data,
    masked: causalMask,
    caption: () =>
      'softmax of content scores + position biases, so each content weight is multiplied by exp(bias) and its row renormalised: a large bias can lift even a weak key, and a bias shared by a whole row changes nothing.',
    note: (view) => (view.causal ? 'Grey: keys after the query, masked.' : ''),
  },
  {
    id: 'difference',
    title: 'What position changes',
    scale: 'diverging',
    barLabel: 'change in weight (blue < 0 < red)',
    values: (view) => view.difference,
    masked: causalMask,
    caption: () =>
      'combined weights minus content-only weights: red where the position term draws attention to a key, blue where it draws attention away. Each row sums to 0.',
    note: (view) => {
      if (rowConstantBias(view)) return 'k = 0: a constant bias per row changes nothing.';
      return view.causal ? 'Grey: keys after the query, masked.' : '';
    },
  },
  {
    id: 'offsets',
    title: 'Clipped offsets',
    scale: 'diverging',
    integer: true,
    bandEdges: true,
    barLabel: 'offset j − i, clipped',
    values: (view) => view.offsets.data,
    range: (view) => Math.max(1, Math.min(view.maxDistance, view.n - 1)),
    caption: () =>
      'clip(j − i, ±k): exactly constant along every diagonal (a Toeplitz matrix). It picks the row of aᴷ and aⱽ for each cell; every cell with |j − i| ≥ k uses an edge row, so beyond the dashed lines all cells share it.',
    note: (view) => (view.maxDistance >= view.n - 1 ? `k = ${view.maxDistance} ≥ n − 1: no cell is clipped.` : ''),
  },
];

export const formatters = {
  cell: (panel) => (panel.integer ? (v) => String(v).replace('-', '−') : fixed(2)),
  readout: (panel) => (panel.integer ? (v) => String(v).replace('-', '−') : fixed(3)),
};

/**
 * A list of panel names ("combinedWeights offsets", commas or spaces; kebab-case allowed) ->
 * { ids: the known ones in the order of `known`, note: what was not understood, or null }.
 */
export function parsePanelList(text, known, label = 'panels') {
  const camel = (name) => name.trim().replace(/-([a-z])/g, (_, c) => c.toUpperCase());
  const asked = String(text).split(/[\s,]+/).filter(Boolean).map(camel);
  const unknown = asked.filter((name) => !known.includes(name));
  const ids = known.filter((name) => asked.includes(name));
  const note = unknown.length || !ids.length ? `${label}: ${unknown.length ? `unknown ${unknown.join(', ')}; ` : ''}choose from ${known.join(', ')}` : null;
  return { ids: ids.length ? ids : known, note };
}
