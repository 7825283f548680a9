// The position schemes side by side (docs/schemes.md): from the page's settings to
// the numbers the comparison view draws, all through the JS API. Every scheme reads the same
// tokens and weights (the stable draw, so that a word keeps its vectors wherever it stands).
import { exampleOptions } from './view.js';
import { BAND_EDGES_TEXT, DECODER_NOTE, bandEdgesDrawn } from './panels.js';
import { POSITION_SCHEMES, ROPE_DEFAULTS, T5_BUCKET_DEFAULTS, needsEvenWidth } from '../api/schemes.js';
import { MAX_SEED } from '../api/limits.js';
import { CONTROLS, tokenLabels } from '../settings/settings.js';

/** The schemes in the order the view offers them: attention()'s, in the core's order. */
export const SCHEME_IDS = POSITION_SCHEMES;
/** Sinusoidal among them: the one absolute scheme, the contrast to the relative ones. */
export const DEFAULT_SCHEMES = Object.freeze(CONTROLS.schemes.default.split(','));
/** How many columns the comparison draws at most. */
export const MAX_SCHEMES = 5;
/** ALiBi: the view uses head 1 of this many heads (slope 2^(−8/H)). */
export const ALIBI_HEADS = 8;
/** T5's bucketing as the core's defaults hold it, those of the T5 paper's code (web/api/core-defaults.js). */
export const T5_VIEW = T5_BUCKET_DEFAULTS;
/** What the T5 column draws, said on the page: not a trained table (t5StandInBiases). */
export const T5_STAND_IN_TEXT =
  'Drawn here: a stand-in, not a trained table: 2·exp(−d²/8) for each bucket, d its nearest distance.';
const FILLER = (index) => `pad${index + 1}`;

// One scheme's attention() on the example's queries, keys and values (or on others of the same
// shapes), with the position its entry builds from the view's parameters.
const onInputs =
  (position) =>
  (rp, ex, params, replace = {}) => {
    const { q, k, v, causal } = { ...ex.inputs, ...replace };
    return rp.attention({ q, k, v, causal, position: position(params) });
  };

/**
 * The page's one table of the position schemes, by the core's names: what the comparison view
 * and "Longer than trained" say and run for each. attention()'s schemes (the comparison's
 * columns) fill every field; the model's learned absolute table (training only) its name and
 * `pastTrained`.
 * - name, source, what: the column's title, its paper and how it computes;
 * - bias: the bias panel's caption; bandEdges: the panel draws the dashed band edges, from which
 *   outward |j − i| ≥ k (computeSchemesView's biasCaption then says so, when they are drawn);
 * - run(rp, ex, params, replace): its attention() on the example (replace: other inputs);
 * - queries: the input that carries the queries (null: the bias reads none);
 * - contentProfile: its profile also drawn with one query and one key vector at every position;
 * - learned(ex, params): its learned parameters, said; beyond(rp, ex, params): past the offsets shown;
 * - pastTrained: what it reads past the trained length L of "Longer than trained", said (note), and
 *   whether training used every value it reads there (seen; null: it reads no position); or a
 *   function of the run's settings c (L, maxDistance k, numBuckets, t5LastBucketFrom) that gives them.
 */
export const SCHEME_INFO = {
  shaw: {
    name: 'Shaw et al.',
    source: 'Shaw, Uszkoreit & Vaswani 2018',
    what: 'q_i · a^K[clip(j − i, ±k)]/√d_k: a learned vector per clipped offset, read by each query.',
    bias: 'q_i · a^K[clip(j − i, ±k)]/√d_k.',
    bandEdges: true,
    run: (rp, ex, params, replace = {}) => rp.attention({ ...ex.inputs, ...replace }),
    learned: (ex) =>
      `${ex.inputs.relKeys.data.length + ex.inputs.relValues.data.length}, shared by all heads (a^K and a^V rows)`,
    beyond: (rp, ex) => {
      const k = ex.params.maxDistance;
      return k ? `offsets beyond ±${k} reuse the edge rows a^K[±${k}]` : 'k = 0: every offset uses the one row a^K[0]';
    },
    pastTrained: ({ L, maxDistance }) => ({
      seen: maxDistance < L,
      note: `offsets clipped at ±${maxDistance}`,
    }),
  },
  t5: {
    name: 'T5 buckets',
    source: 'Raffel et al. 2020 (T5)',
    what: `b[bucket(j − i)]: one learned number per bucket; exact buckets near 0, log-spaced to ${T5_VIEW.maxDistance}. ${T5_STAND_IN_TEXT}`,
    bias: 'b[bucket(j − i)], the same for every query.',
    run: onInputs(({ biases }) => ({ scheme: 't5', biases, ...T5_VIEW })),
    learned: (ex, { biases }) => `${biases.length} per head (one per bucket)`,
    beyond: (rp) => {
      const reach = 2 * T5_VIEW.maxDistance;
      const row = rp.t5Buckets(reach, T5_VIEW).data; // offsets 0…reach − 1 (keys after the query)
      const last = row.indexOf(T5_VIEW.numBuckets - 1);
      return `offsets from ${last} on share the last bucket (${T5_VIEW.numBuckets} buckets, max distance ${T5_VIEW.maxDistance}): one bias for every longer distance`;
    },
    pastTrained: ({ L, numBuckets, t5LastBucketFrom }) => ({
      seen: t5LastBucketFrom < L,
      note: `${numBuckets} one-way buckets, the last from distance ${t5LastBucketFrom} on`,
    }),
  },
  alibi: {
    name: 'ALiBi',
    source: 'Press, Smith & Lewis 2022',
    what: '−m · |j − i|: a fixed linear penalty, one slope m per head.',
    bias: '−m · |j − i|, the same for every query.',
    run: onInputs(({ slope }) => ({ scheme: 'alibi', slope })),
    learned: () => 'none (the slopes are fixed)',
    beyond: (rp, ex, { slope }) => `keeps falling by m = ${slope} per position at any length`,
    pastTrained: { seen: true, note: 'a fixed penalty' },
  },
  rope: {
    name: 'RoPE',
    source: 'Su et al. 2021 (RoFormer)',
    what: 'q_i and k_j rotated by their positions; the bias is rope scores minus content scores.',
    bias: 'rope scores minus content scores.',
    run: onInputs(({ ropeLayout }) => ({ scheme: 'rope', layout: ropeLayout })),
    contentProfile: true,
    learned: () => 'none',
    beyond: () => 'new rotation angles at unseen positions; the score still depends only on j − i',
    pastTrained: { seen: false, note: 'rotations for longer distances' },
  },
  sinusoidal: {
    name: 'Sinusoidal',
    source: 'Vaswani et al. 2017',
    what: 'sin/cos of the absolute position added to x before W_Q, W_K: combined minus content.',
    bias: 'scores of (x + PE) minus scores of x.',
    run: (rp, ex, params, replace = {}) =>
      rp.attention({
        ...ex.weights,
        ...(replace.x ? { x: replace.x } : {}),
        causal: { ...ex.inputs, ...replace }.causal,
        position: { scheme: 'sinusoidal' },
      }),
    queries: 'x',
    learned: () => 'none',
    beyond: () => 'unseen absolute positions get new vectors; scores change with where the text starts',
    pastTrained: { seen: false, note: 'later positions' },
  },
  absolute: {
    name: 'Learned absolute',
    pastTrained: { seen: false, note: 'rows of later positions, never trained' },
  },
  none: {
    name: 'None',
    source: '—',
    what: 'No position at all: a bag of words.',
    bias: 'zero everywhere.',
    run: onInputs(() => ({ scheme: 'none' })),
    queries: null,
    learned: () => 'none',
    beyond: () => 'nothing to extrapolate',
    pastTrained: { seen: null, note: 'no position' },
  },
};

/** ?schemes=a,b,… → 2 to MAX_SCHEMES known, distinct scheme ids, and a note when the text had to be corrected. */
export function parseSchemes(text) {
  const asked = String(text ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const ids = [...new Set(asked.filter((id) => SCHEME_IDS.includes(id)))].slice(0, MAX_SCHEMES);
  const unknown = asked.filter((id) => !SCHEME_IDS.includes(id));
  if (ids.length >= 2 && unknown.length === 0 && asked.length === ids.length) return { ids };
  const fixed = ids.length >= 2 ? ids : DEFAULT_SCHEMES;
  return {
    ids: fixed,
    note: `schemes must be 2 to ${MAX_SCHEMES} of ${SCHEME_IDS.join(', ')}; using ${fixed.join(',')}`,
  };
}

/** T5's stand-in bucket table: 2·exp(−d²/8) at each bucket's nearest distance d (no trained model here). */
export function t5StandInBiases(rp) {
  const reach = 2 * T5_VIEW.maxDistance + 1;
  const { data } = rp.t5Buckets(reach, T5_VIEW); // row 0: offsets 0…reach−1; column 0: 0…−(reach−1)
  const nearest = new Array(T5_VIEW.numBuckets).fill(Infinity);
  for (let d = 0; d < reach; d += 1) {
    for (const bucket of [data[d], data[d * reach]]) nearest[bucket] = Math.min(nearest[bucket], d);
  }
  return Float64Array.from(nearest, (d) => (Number.isFinite(d) ? 2 * Math.exp((-d * d) / 8) : 0));
}

// One scheme's attention() on the example's inputs (or on others of the same shapes).
const runScheme = (rp, id, ex, params, replace) => SCHEME_INFO[id].run(rp, ex, params, replace);

const maxAbsDifference = (a, b) => a.reduce((m, value, i) => Math.max(m, Math.abs(value - b[i])), 0);

// Every cell's bias by its offset j − i (keys the causal mask hides left out), and the spread
// of the biases on each diagonal.
function offsetProfile(bias, n, causal) {
  const offsets = [];
  const values = [];
  const lineX = [];
  const lineY = [];
  let spread = 0;
  for (let o = -(n - 1); o <= (causal ? 0 : n - 1); o += 1) {
    let sum = 0;
    let count = 0;
    let low = Infinity;
    let high = -Infinity;
    for (let i = Math.max(0, -o); i < n && i + o < n; i += 1) {
      const value = bias[i * n + i + o];
      offsets.push(o);
      values.push(value);
      sum += value;
      count += 1;
      low = Math.min(low, value);
      high = Math.max(high, value);
    }
    lineX.push(o);
    lineY.push(sum / count);
    spread = Math.max(spread, high - low);
  }
  return { offsets, values, lineX, lineY, spread };
}

// The queries replaced by another draw (x for sinusoidal), the rest kept: how far the bias moves.
function queryDependence(rp, id, ex, params, seed) {
  const { queries = 'q' } = SCHEME_INFO[id];
  if (queries === null) return 0;
  const { rows, cols } = queries === 'x' ? ex.weights.x : ex.inputs.q;
  const other = { rows, cols, data: rp.randn((seed + 1) % (MAX_SEED + 1), rows * cols) };
  const before = runScheme(rp, id, ex, params).positionBiases.data;
  const after = runScheme(rp, id, ex, params, { [queries]: other }).positionBiases.data;
  return maxAbsDifference(before, after);
}

// The shift experiment: m filler tokens in front. The original tokens' scores before and after
// (n × n: rows and columns m… of the longer run), their difference and its largest |value|.
function shiftExperiment(before, after, n, m) {
  const moved = new Float64Array(n * n);
  const difference = new Float64Array(n * n);
  let worst = 0;
  for (let i = 0; i < n; i += 1) {
    for (let j = 0; j < n; j += 1) {
      moved[i * n + j] = after[(i + m) * (n + m) + j + m];
      difference[i * n + j] = moved[i * n + j] - before[i * n + j];
      worst = Math.max(worst, Math.abs(difference[i * n + j]));
    }
  }
  return { before: Float64Array.from(before), after: moved, difference, worst };
}

// The shift experiment's entries of a column: its largest change and the three matrices.
function shiftResult(result, moved, n, m) {
  const experiment = shiftExperiment(result.combinedScores.data, moved.combinedScores.data, n, m);
  return { shiftDifference: experiment.worst, shifted: experiment };
}

// RoPE with one query vector and one key vector at every position (the first token's): what is
// left of the bias is a function of j − i alone, constant along each diagonal.
function fixedContentProfile(rp, id, ex, params, n, causal) {
  const { q, k } = ex.inputs;
  const repeat = (m) => ({
    rows: n,
    cols: m.cols,
    data: Float64Array.from({ length: n * m.cols }, (_, x) => m.data[x % m.cols]),
  });
  const bias = runScheme(rp, id, ex, params, { q: repeat(q), k: repeat(k) }).positionBiases.data;
  return offsetProfile(bias, n, causal);
}

/**
 * A column's bias caption: its entry's formula and, where its panel draws the dashed band edges
 * (some cell clipped), what they mark, as panel 2 says it (and that a decoder's shows only the lower).
 */
export function biasCaption(info, view) {
  if (!info.bandEdges || !bandEdgesDrawn(view)) return info.bias;
  return `${info.bias} ${BAND_EDGES_TEXT}${view.causal ? ` ${DECODER_NOTE}` : ''}`;
}

/**
 * The comparison view's numbers for the page's settings (ATTENTION_SETTINGS), the chosen scheme
 * ids, the RoPE layout and the shift m: per scheme its panels, offset profile, query
 * dependence, shift difference, its learned parameters and what it does beyond, said; and the static
 * facts (T5's bucket map, ALiBi's slopes, RoPE's angle per pair).
 */
export function computeSchemesView(rp, settings, { schemes, ropeLayout = ROPE_DEFAULTS.layout, shift = 3 }) {
  const n = settings.seqLen;
  const words = tokenLabels(settings.tokens, n).map((word, i) => word || `#${i}`);
  const options = { ...exampleOptions({ ...settings, draw: 'stable' }, words), sameQuery: false };
  const ex = rp.example(options);
  const slopes = rp.alibiSlopes(ALIBI_HEADS);
  const params = { biases: t5StandInBiases(rp), slope: slopes[0], ropeLayout };
  const shifted = rp.example({ ...options, tokens: [...Array.from({ length: shift }, (_, i) => FILLER(i)), ...words] });
  const dK = ex.inputs.q.cols;
  const columns = schemes.map((id) => {
    // Its entry (name, source, what, bias, bandEdges) with what was computed.
    const info = SCHEME_INFO[id];
    if (needsEvenWidth(id) && dK % 2 !== 0)
      return { id, ...info, error: `${info.name} rotates pairs of dimensions: d_k = ${dK} is odd; pick an even d_k.` };
    const result = runScheme(rp, id, ex, params);
    const moved = runScheme(rp, id, shifted, params);
    return {
      id,
      ...info,
      biasCaption: biasCaption(info, { n, maxDistance: settings.maxDistance, causal: settings.causal }),
      result,
      profile: offsetProfile(result.positionBiases.data, n, settings.causal),
      queryDependence: queryDependence(rp, id, ex, params, settings.seed),
      ...shiftResult(result, moved, n, shift),
      fixedContent: info.contentProfile ? fixedContentProfile(rp, id, ex, params, n, settings.causal) : null,
      learned: info.learned(ex, params),
      beyond: info.beyond(rp, ex, params),
    };
  });
  // RoPE's angle per pair, read back from the core: e_a rotated at position 1 lands at angle θ_t.
  const ropeAngles = [];
  if (dK % 2 === 0) {
    for (let t = 0; t < dK / 2; t += 1) {
      const [a, b] = ropeLayout === 'half' ? [t, t + dK / 2] : [2 * t, 2 * t + 1];
      const unit = new Float64Array(dK);
      unit[a] = 1;
      const turned = rp.rope({ rows: 1, cols: dK, data: unit }, { positions: [1], layout: ropeLayout }).data;
      ropeAngles.push(Math.atan2(turned[b], turned[a]));
    }
  }
  return {
    n,
    tokens: words,
    labels: words.map((word, i) => `${i} ${word}`),
    causal: settings.causal,
    maxDistance: settings.maxDistance,
    dK,
    shift,
    ropeLayout,
    columns,
    facts: {
      buckets: rp.t5Buckets(n, T5_VIEW),
      slopes,
      slope: params.slope,
      ropeAngles,
      t5Biases: params.biases,
    },
  };
}
