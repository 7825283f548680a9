// The six matrix panels, the one table of them: what each shows, how it is coloured, and a
// caption that is true for every input (docs/maths.md §6, the teaching truth about diagonals).
// Each `values` reads the panel's n × n matrix from the computed view { result (rp.example),
// offsets (rp.relativeOffsets), difference }; `attention` marks the panels attention() computes
// (the others are derived from them), `drawer` those the page keeps in "More panels", and
// `offsetSpace` how the long view makes its cells (cell: 'key', 'sum' or 'offset') and what its
// picture says (bar, caption). Captions and notes are written in the math notation of
// web/render/math-text.js (q_i, a^K, √d_k).
import { formatFixed, formatSignificant, withMinus } from '../render/number-text.js';
import { matchChoice, unknownChoice } from '../settings/link-values.js';
import { sharedWeightScale, weightTop } from './weight-scale.js';

// Captions are fixed texts (so the layout never moves); what depends on the settings is a
// `note(view)` drawn under the panel's colour bar. `masked(view)` says which cells the causal
// mask hides from the softmax: they are drawn grey and read "masked".
const causalMask = (view) => (view.causal ? (i, j) => j > i : null);
const rowConstantBias = (view) => view.maxDistance === 0 && view.n > 1;
// Under the causal mask a query never sees a later key, so positive offsets are never used.
// Rows written a^K[c], not a^K_c: a subscript under a superscript collides on canvas.
export const DECODER_NOTE = 'A decoder never uses offsets 1…k: only the lower edge is drawn.';
// The two softmax panels: colours from 0 to a top (weight-scale.js): by default one top for both,
// the larger of their largest weights, so that one colour is one weight in both; with
// view.weightScale 'panel' each its own. In the long view, up to its 99th percentile, so the
// label drops the range.
const weightScale = (matrix) => ({
  scale: 'sequential',
  range: (view) => [0, weightTop(view, matrix)],
  barLabel: (scale, view) =>
    `weight, 0 to ${formatSignificant(scale.max)} (${sharedWeightScale(view) ? 'both weight panels’ max' : 'this panel’s max'})`,
  // Where the label above would be condensed: the range alone (the caption says whose maximum).
  barLabelShort: (scale) => `weight, 0 to ${formatSignificant(scale.max)}`,
  barLabelLong: 'weight',
});
// The colour rule as the caption states it; the long view has its own (panel-extents.js).
const weightColours = (view) =>
  view.long
    ? 'Colours: 0 to this panel’s 99th percentile, brighter weights saturate.'
    : sharedWeightScale(view)
      ? 'Colours: one scale for both weight panels, 0 to the largest weight in either, so a colour is the same weight in both.'
      : 'Colours: 0 to this panel’s largest weight (each weight panel its own scale).';

/** Which rows read offset 0 as a negative bias (q_i · a^K[0] < 0): said at once, since the locality bump is there. */
function awayFromBump(view) {
  if (view.table !== 'locality' || view.sameQuery || view.long || !view.result) return '';
  const rows = [];
  for (let i = 0; i < view.n; i += 1) if (view.result.positionBiases.data[i * view.n + i] < 0) rows.push(i);
  if (rows.length === 0) return '';
  const list = rows.length > 5 ? `${rows.slice(0, 5).join(', ')}, …` : rows.join(', ');
  return `Offset 0 is negative in row${rows.length > 1 ? 's' : ''} ${list}: q_i points away from the bump a^K[0] there.`;
}

/**
 * Whether every row's query q_i is one vector without the same-query setting: one word repeated,
 * with stable numbers (a word keeps its vectors wherever it stands). Then panel 2's diagonals are
 * constant with the words' own queries too.
 */
function oneQueryForAll(view) {
  const q = view?.result?.inputs?.q;
  if (!q || view.n < 2 || view.long) return false;
  const words = view.tokens;
  if (!words || words.some((word) => word !== words[0])) return false;
  for (let index = q.cols; index < q.data.length; index += 1)
    if (q.data[index] !== q.data[index % q.cols]) return false;
  return true;
}

/**
 * Whether the matrix panels draw the dashed band edges (where each row's shared run begins, between
 * offsets k − 1 and k: heatmap.js's bandEdgePaths): only when some cell is clipped (0 < k < n − 1).
 */
export const bandEdgesDrawn = (view) => !view || (view.maxDistance > 0 && view.maxDistance < view.n - 1);

/** What the dashed band edges of a bias panel mark (panel 2; Shaw et al.'s column of the schemes). */
export const BAND_EDGES_TEXT =
  'From the dashed lines outward (|j − i| ≥ k) a row reuses one edge embedding, so its values there are equal.';

/**
 * The long view's sentence on its cells with no key at their offset (j = i + c outside 0…n − 1):
 * the top |c| rows of a column c < 0 and, unless c > 0 is masked, the bottom c rows of c > 0, at
 * most k′ rows (none at k = 0: ''). True for what is drawn (`drawn`: { gRows, cellH (CSS px),
 * masked }, the panel's layout; none: the rows only): how high the blank is, in CSS px: k′ cells
 * where a row is a cell or more; where a pixel is the mean of several queries (gRows < n), which
 * leaves them out, the pixels whose queries have no key at all (none: "under a pixel"). With a
 * leading space.
 */
export function blankText(view, drawn = null) {
  const { n } = view;
  const { reach } = view.offsetSpace;
  if (reach === 0) return '';
  const what = 'no key at that offset (j = i + c outside 0…n − 1)';
  const where = `the top |c| rows of c < 0${drawn?.masked ? '' : ', bottom c of c > 0'}: at most ${reach} row${reach > 1 ? 's' : ''}`;
  if (!drawn) return ` Blank: ${what}, ${where}.`;
  // Pixel p covers queries ⌊p·n/g⌋ … ⌊(p + 1)·n/g⌋ − 1 (render/block-means.js; g = n: one each):
  // blank where none has a key, the first ⌈(k′ + 1)·g/n⌉ − 1 pixels and the last ⌊k′·g/n⌋.
  const { gRows: g, cellH } = drawn;
  const pixels = Math.max(Math.ceil(((reach + 1) * g) / n) - 1, drawn.masked ? 0 : Math.floor((reach * g) / n));
  const high = (pixels * cellH * n) / g; // CSS px
  if (high === 0) return ` No key at that offset (j = i + c outside 0…n − 1) in ${where}, under a pixel here.`;
  return ` Blank: ${what}, ${where}, ${formatSignificant(high, 2)} px here.`;
}

// The long view's panels in offset space (offset-space.js): row i the query, column c the
// clipped offset; each panel's `offsetSpace` says how its cell is made and what it shows.
const HEAD = 'Offset space: row i is the query, column c the clipped offset clip(j − i, ±k).';
// How the long view marks its edge columns (render/heatmap.js): dashed lines down the matrix, or
// ⋮ under it where the columns are too narrow for a line between them.
const EDGE_MARKS = 'marked by dashed lines, or by ⋮ under narrow columns';

// What the edge columns are, for the view on screen: clipped (k < n − 1), k = 0, or nothing
// clipped (k ≥ n − 1: every column is one key).
const edgeCase = (view) =>
  view.maxDistance >= view.n - 1 ? 'none' : view.offsetSpace.reach === 0 ? 'zero' : 'clipped';

export const PANELS = [
  {
    id: 'contentScores',
    attention: true,
    title: 'Content scores',
    scale: 'diverging',
    barLabel: 'score (blue < 0 < red)',
    values: (view) => view.result.contentScores.data,
    caption: (view) =>
      view?.sameQuery
        ? 'q_i · k_j / √d_k for query i (row) and key j (column): how well the two vectors match, with no notion of where the tokens stand. With the same query in every row, every row is the same, so each column is constant. Signed: blue below zero, red above.'
        : 'q_i · k_j / √d_k for query i (row) and key j (column): how well the two vectors match, with no notion of where the tokens stand. Signed: blue below zero, red above.',
    note: (view) => (view.causal ? 'Shown unmasked: the causal mask acts in the softmax.' : ''),
    offsetSpace: {
      cell: 'key',
      bar: 'score of key j = i + c',
      caption: (view, drawn = null) =>
        `${HEAD} Cell (i, c) is qᵢ · kⱼ / √dₖ for the key j = i + c${
          {
            clipped: `; in the edge columns c = ±k (${EDGE_MARKS}) the key at exactly |j − i| = k (the nearest of the clipped keys)`,
            zero: ' = i (k = 0: the one column stands for every key; the score shown is the query’s own key’s)',
            none: ' (k ≥ n − 1: nothing is clipped, each column is one key)',
          }[edgeCase(view)]
        }.${blankText(view, drawn)}`,
    },
  },
  {
    id: 'positionBiases',
    attention: true,
    title: 'Position biases',
    scale: 'diverging',
    bandEdges: true,
    barLabel: 'bias (blue < 0 < red)',
    values: (view) => view.result.positionBiases.data,
    caption: (view, { controls = true } = {}) => {
      if (view?.n === 1)
        return 'q_i · a^K[clip(j − i, ±k)] / √d_k. With one token there is one cell, offset 0: q_0 reads a^K[0]. With more tokens each diagonal reads one row of a^K.';
      const edges = bandEdgesDrawn(view) ? ` ${BAND_EDGES_TEXT}` : '';
      if (view?.sameQuery)
        return `q_i · a^K[clip(j − i, ±k)] / √d_k with the same query in every row: a diagonal shares one embedding a^K and one query, so it is constant (a Toeplitz matrix), one point of the profile per diagonal.${edges}`;
      if (oneQueryForAll(view))
        return `q_i · a^K[clip(j − i, ±k)] / √d_k. Every token here is the same word, so every row has the same query q_i: a diagonal shares one embedding a^K and one query, so it is constant (a Toeplitz matrix). Different words give different queries, and diagonals that differ.${edges}`;
      const tick = controls ? ' (tick it to see)' : '';
      return `q_i · a^K[clip(j − i, ±k)] / √d_k. A diagonal shares one embedding a^K, but the query q_i changes from row to row, so values along a diagonal differ: a diagonal is constant only with the same query in every row${tick}.${edges}`;
    },
    note: (view) => {
      if (rowConstantBias(view)) return 'k = 0: one embedding, so one bias per row.';
      if (view.maxDistance >= view.n - 1) return `k = ${view.maxDistance} ≥ n − 1: no cell is clipped.`;
      return view.causal ? `Unmasked (the mask acts in the softmax). ${DECODER_NOTE}` : awayFromBump(view);
    },
    offsetSpace: {
      cell: 'key',
      bar: 'bias qᵢ · aᴷ[c] / √dₖ',
      caption: (view, drawn = null) =>
        `${HEAD} Cell (i, c) is qᵢ · aᴷ[c] / √dₖ, exactly the bias of every key at clipped offset c${
          {
            clipped: `: in an edge column (c = ±k, ${EDGE_MARKS}) the one bias that all keys with |j − i| ≥ k share`,
            zero: ' (k = 0: one bias per row, shared by every key)',
            none: ' (k ≥ n − 1: nothing is clipped, one key per cell)',
          }[edgeCase(view)]
        }.${blankText(view, drawn)}`,
    },
  },
  {
    id: 'contentWeights',
    attention: true,
    title: 'Content-only weights',
    ...weightScale('contentWeights'),
    values: (view) => view.result.contentWeights.data,
    masked: causalMask,
    caption: (view, { controls = true } = {}) => {
      const mask = view?.causal
        ? '; the causal mask is on: keys after the query (j > i) get weight 0'
        : controls
          ? '; the causal mask is off, so every key gets some weight (with it on, keys after the query, j > i, get 0)'
          : '';
      return `softmax of each row of the content scores: attention with no position information. Every row sums to 1${mask}. ${weightColours(view)}`;
    },
    note: (view) =>
      view.causal
        ? 'Grey: keys after the query, masked.'
        : `For reference, uniform attention would give 1/n = ${formatSignificant(1 / view.n, 2)} per key.`,
    offsetSpace: {
      cell: 'sum',
      bar: 'total weight at offset c',
      caption: (view, drawn = null) =>
        `${HEAD} Cell (i, c) is the total content-only weight (softmax of the content scores, no positions) of the keys whose clipped offset is c${
          {
            clipped: ': the one key j = i + c for |c| < k, every key with j − i ≥ k (or ≤ −k) in the edge columns',
            zero: ' (k = 0: all keys, so 1)',
            none: ' (k ≥ n − 1: nothing is clipped, the one key j = i + c)',
          }[edgeCase(view)]
        }. These totals are what the value term multiplies by aⱽ[c]; each row sums to 1.${blankText(view, drawn)}`,
    },
  },
  {
    id: 'combinedWeights',
    attention: true,
    title: 'Combined weights',
    ...weightScale('combinedWeights'),
    values: (view) => view.result.combinedWeights.data,
    masked: causalMask,
    caption: (view) =>
      `softmax of content scores + position biases: each content weight times exp(bias), then renormalised per row, so a large bias can lift a weak key, a positive bias still lowers a weight when the row’s other keys get larger ones, and a row-wide bias changes nothing. ${weightColours(view)}`,
    note: (view) => {
      if (rowConstantBias(view))
        return `k = 0: one bias per row, which the softmax cancels: panel 3’s weights.${view.causal ? ' Grey: masked.' : ''}`;
      return view.causal ? 'Grey: keys after the query, masked.' : '';
    },
    offsetSpace: {
      cell: 'sum',
      bar: 'total weight at offset c',
      caption: (view, drawn = null) =>
        `${HEAD} Cell (i, c) is the total combined weight (softmax of content scores + position biases) of the keys whose clipped offset is c${
          {
            clipped: ': one key for |c| < k, all clipped keys in the edge columns c = ±k',
            zero: ' (k = 0: all keys, so 1)',
            none: ' (k ≥ n − 1: nothing is clipped, one key)',
          }[edgeCase(view)]
        }. Each row sums to 1.${blankText(view, drawn)}`,
    },
  },
  {
    id: 'difference',
    drawer: true,
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
    offsetSpace: {
      cell: 'sum',
      bar: 'change in total weight at c',
      caption: (view, drawn = null) =>
        `${HEAD} Cell (i, c) is the combined total minus the content-only total of the keys at clipped offset c: red where position moves query i’s attention to offset c, blue where it moves it away. Each row sums to 0.${blankText(view, drawn)}`,
    },
  },
  {
    id: 'offsets',
    drawer: true,
    title: 'Clipped offsets',
    scale: 'diverging',
    integer: true,
    bandEdges: true,
    barLabel: 'offset j − i, clipped',
    values: (view) => view.offsets.data,
    range: (view) => Math.max(1, Math.min(view.maxDistance, view.n - 1)),
    caption: (view) =>
      `clip(j − i, ±k): exactly constant along every diagonal (a Toeplitz matrix). It picks the row of a^K and a^V for each cell.${
        bandEdgesDrawn(view)
          ? ' The dashed lines mark where the shared runs begin: every cell with |j − i| ≥ k uses an edge row (the |j − i| = k diagonal already does), so from each line outward every cell uses that line’s edge row.'
          : ''
      }`,
    note: (view) => {
      if (view.maxDistance >= view.n - 1) return `k = ${view.maxDistance} ≥ n − 1: no cell is clipped.`;
      return view.causal && view.maxDistance > 0 ? DECODER_NOTE : '';
    },
    offsetSpace: {
      cell: 'offset',
      bar: 'clipped offset c',
      caption: (view, drawn = null) =>
        `${HEAD} Cell (i, c) is c itself, the row of aᴷ and aⱽ its keys use${
          {
            clipped: `; an edge column c = ±k (${EDGE_MARKS}) stands for every key with |j − i| ≥ k`,
            zero: ' (k = 0: one row for every key)',
            none: ' (k ≥ n − 1: nothing is clipped)',
          }[edgeCase(view)]
        }.${blankText(view, drawn)}`,
    },
  },
];

/** The panels' ids, in the order they are drawn: the one list of them. */
export const PANEL_IDS = Object.freeze(PANELS.map((panel) => panel.id));
/** The panels attention() computes, by its outputs' names (the rest are derived from them). */
export const ATTENTION_PANEL_IDS = Object.freeze(PANELS.filter((panel) => panel.attention).map((panel) => panel.id));
/** The panels the page keeps in its "More panels" drawer. */
export const DRAWER_PANEL_IDS = Object.freeze(PANELS.filter((panel) => panel.drawer).map((panel) => panel.id));
const PANEL_BY_ID = new Map(PANELS.map((panel) => [panel.id, panel]));
/** The panel of an id (PANEL_IDS). */
export const panelById = (id) => PANEL_BY_ID.get(id);

export const formatters = {
  cell: (panel) => (panel.integer ? withMinus : (v) => formatFixed(v, 2)),
  readout: (panel) => (panel.integer ? withMinus : (v) => formatSignificant(v, 3)),
};

/**
 * A list of panel names ("combinedWeights offsets", commas or spaces; kebab-case allowed; any
 * case) -> { ids: the known ones in the order of `known` (all of them when none is), note: what was
 * not understood (and, when nothing was, that all are used), or null }.
 * `spell` writes an id in the note as the reader writes it (kebab-case for an attribute).
 */
export function parsePanelList(text, known, label = 'panels', spell = (id) => id) {
  const camel = (word) => word.toLowerCase().replace(/-([a-z])/g, (_, c) => c.toUpperCase());
  const idOf = (word) => matchChoice(camel(word), known);
  const words = String(text)
    .split(/[\s,]+/)
    .filter(Boolean);
  const asked = words.map(idOf);
  const unknown = words.filter((word) => idOf(word) === null);
  const ids = known.filter((name) => asked.includes(name));
  const note =
    unknown.length || !ids.length
      ? unknownChoice(label, unknown.join(', '), known.map(spell), ids.length ? null : 'all')
      : null;
  return { ids: ids.length ? ids : known, note };
}
