// The page's six matrix panels: what each shows, how it is coloured, and a caption that is true
// for every input (SPEC §1 "teaching truth"). Each `values` reads the panel's n × n matrix from
// the computed view { result (rp.example), offsets (rp.relativeOffsets), difference }.

const fixed = (digits) => (value) => value.toFixed(digits).replace(/^-(0\.0*)$/, '$1').replace('-', '−');

export const PANELS = [
  {
    id: 'contentScores',
    title: 'Content scores',
    scale: 'diverging',
    barLabel: 'score (blue < 0 < red)',
    values: (view) => view.result.contentScores.data,
    caption: () =>
      'q_i · k_j / √d_k for query i (row) and key j (column): how well the two tokens’ vectors match, with no notion of where they stand. Signed, so the colours are symmetric around zero.',
  },
  {
    id: 'positionBiases',
    title: 'Position biases',
    scale: 'diverging',
    barLabel: 'bias (blue < 0 < red)',
    values: (view) => view.result.positionBiases.data,
    caption: ({ maxDistance: k }) =>
      `q_i · aᴷ[clip(j − i, −${k}, ${k})] / √d_k. Every cell of a diagonal uses the same embedding aᴷ, but the query q_i changes from row to row, so values along a diagonal differ; beyond distance ${k} every cell reuses the edge embedding.`,
  },
  {
    id: 'contentWeights',
    title: 'Content-only weights',
    scale: 'sequential',
    fixedRange: [0, 1],
    barLabel: 'weight, 0 to 1',
    values: (view) => view.result.contentWeights.data,
    caption: ({ causal }) =>
      `softmax of each row of the content scores: attention without any position information. Every row sums to 1${causal ? '; with the causal mask, keys after the query (j > i) get weight 0' : ''}.`,
  },
  {
    id: 'combinedWeights',
    title: 'Combined weights',
    scale: 'sequential',
    fixedRange: [0, 1],
    barLabel: 'weight, 0 to 1',
    values: (view) => view.result.combinedWeights.data,
    caption: () =>
      'softmax of content scores + position biases. The softmax mixes the two: a bias moves a lot of weight only where the content score is already competitive in its row.',
  },
  {
    id: 'difference',
    title: 'What position changes',
    scale: 'diverging',
    barLabel: 'change in weight (blue < 0 < red)',
    values: (view) => view.difference,
    caption: () =>
      'combined weights minus content-only weights: red where the position term draws attention to a key, blue where it draws attention away. Each row sums to 0.',
  },
  {
    id: 'offsets',
    title: 'Clipped offsets',
    scale: 'diverging',
    integer: true,
    barLabel: 'offset j − i, clipped',
    values: (view) => view.offsets.data,
    caption: ({ maxDistance: k }) =>
      `clip(j − i, −${k}, ${k}): exactly constant along every diagonal (a Toeplitz matrix). It picks the row of aᴷ and aⱽ for each cell; all cells more than ${k} apart share the edge rows, which is what clipping means.`,
  },
];

export const formatters = {
  cell: (panel) => (panel.integer ? (v) => String(v).replace('-', '−') : fixed(2)),
  readout: (panel) => (panel.integer ? (v) => String(v).replace('-', '−') : fixed(3)),
};
