// From settings to the numbers a figure draws: every matrix comes from the JS API (WASM).
import { EXAMPLE_DEFAULTS, LOCALITY_TABLE_DEFAULTS } from '../api/defaults.js';
import { computeOffsetSpace } from './offset-space.js';
import { tokenLabels } from '../settings/settings.js';
import { weightDifference } from './weight-difference.js';

/** An axis label: the position and its word (or just the position). */
const axisLabel = (tokens, i) => (tokens[i] ? `${i} ${tokens[i]}` : String(i));

/** The width of the example's tokens: the core's default (ExampleSizes). */
export const D_MODEL = EXAMPLE_DEFAULTS.dModel;

/** The example() options for figure settings (ATTENTION_SETTINGS) and the words at the positions. */
export function exampleOptions(settings, words) {
  const options = {
    seed: settings.seed,
    dModel: D_MODEL,
    dK: settings.dK,
    maxDistance: settings.maxDistance,
    causal: settings.causal,
    draw: settings.draw ?? EXAMPLE_DEFAULTS.draw,
    table: settings.table ?? EXAMPLE_DEFAULTS.table,
    locality: {
      noise: settings.noise ?? LOCALITY_TABLE_DEFAULTS.noise,
      width: settings.width ?? LOCALITY_TABLE_DEFAULTS.width,
      asymmetry: settings.asymmetry ?? LOCALITY_TABLE_DEFAULTS.asymmetry,
      strength: settings.strength ?? LOCALITY_TABLE_DEFAULTS.strength,
    },
    sameQuery: settings.sameQuery ?? EXAMPLE_DEFAULTS.sameQuery,
  };
  // The stable draw embeds each word; a position without one is the word "#i".
  if (options.draw === 'stable' && words) options.tokens = words.map((word, i) => word || `#${i}`);
  else options.seqLen = settings.seqLen;
  return options;
}

/**
 * The attention panels' numbers for settings (ATTENTION_SETTINGS: the draw, the table and its
 * shape, sameQuery, seqLen, dK, maxDistance, seed, causal, tokens). With `positionsOnly` (the
 * long-sequence view) the axes name positions, not words, and the view carries `offsetSpace`, the
 * panels as (query, clipped offset) matrices. With `previous` (the view on screen), its offsets
 * are kept when n and k are the same.
 */
export function computeAttentionView(rp, settings, { positionsOnly = false, previous = null } = {}) {
  const n = settings.seqLen;
  const tokens = positionsOnly ? Array(n).fill('') : tokenLabels(settings.tokens, n);
  const result = rp.example(exampleOptions({ ...settings, seqLen: n }, positionsOnly ? null : tokens));
  const offsets = sameOffsets(previous, n, settings.maxDistance)
    ? previous.offsets
    : rp.relativeOffsets(n, settings.maxDistance);
  return assembleView(settings, tokens, result, offsets, positionsOnly, previous);
}

/**
 * The same view (the sentence view's) from relpos-wasm/worker's pool, whose methods return
 * Promises: the numbers are computed off the main thread; `signal` cancels it (an AbortError).
 */
export async function computeAttentionViewInWorkers(pool, settings, { previous = null, signal } = {}) {
  const n = settings.seqLen;
  const tokens = tokenLabels(settings.tokens, n);
  const [result, offsets] = await Promise.all([
    pool.run('example', [exampleOptions({ ...settings, seqLen: n }, tokens)], { signal }),
    sameOffsets(previous, n, settings.maxDistance)
      ? previous.offsets
      : pool.run('relativeOffsets', [n, settings.maxDistance], { signal }),
  ]);
  return assembleView(settings, tokens, result, offsets, false, previous);
}

function assembleView(settings, tokens, result, offsets, positionsOnly, previous) {
  const n = settings.seqLen;
  const difference = weightDifference(result, n * n);
  const view = {
    n,
    long: positionsOnly,
    maxDistance: settings.maxDistance,
    causal: settings.causal,
    draw: settings.draw ?? EXAMPLE_DEFAULTS.draw,
    table: settings.table ?? EXAMPLE_DEFAULTS.table,
    sameQuery: settings.sameQuery ?? EXAMPLE_DEFAULTS.sameQuery,
    weightScale: settings.weightScale === 'panel' ? 'panel' : 'shared', // the weight panels' colour tops
    tokens,
    labels: tokens.map((_, i) => axisLabel(tokens, i)),
    result,
    profile: { offsets: result.profile.offsets, profile: result.profile.values, maxDistance: settings.maxDistance },
    difference,
    offsets,
  };
  // The long view draws its panels in offset space (offset-space.js): n × (2k′ + 1) matrices.
  if (positionsOnly) view.offsetSpace = computeOffsetSpace(view);
  return keepOffsets(view, previous);
}

/**
 * Query i's output split in two (docs/maths.md): z_i = Σ_j w_ij v_j + Σ_j w_ij aⱽ[clip(j − i)].
 * Returns { fromValues, fromPositions, output } (d_v numbers each; output is the core's z_i).
 */
export function outputParts(view, i) {
  const { n, maxDistance: k, result } = view;
  const { v, relValues } = result.inputs;
  const dV = v.cols;
  const fromValues = new Float64Array(dV);
  const fromPositions = new Float64Array(dV);
  const weights = result.combinedWeights.data;
  for (let j = 0; j < n; j += 1) {
    const w = weights[i * n + j];
    if (w === 0) continue;
    const c = clippedOffset(i, j, k) + k;
    for (let d = 0; d < dV; d += 1) {
      fromValues[d] += w * v.data[j * dV + d];
      fromPositions[d] += w * relValues.data[c * dV + d];
    }
  }
  return { fromValues, fromPositions, output: result.output.data.subarray(i * dV, (i + 1) * dV) };
}

// The clipped offsets depend on n and k only. Keeping the same matrix tells the figures that the
// offsets panel is unchanged (a new seed redraws five panels, not six); the same for the long
// view's offset-space offsets.
const sameOffsets = (view, n, k) =>
  Boolean(view) && view.n === n && view.maxDistance === k && view.offsets.data.length === n * n;

/** `view` with the offsets matrix of `previous` when it is the same one (a view from a worker). */
export function keepOffsets(view, previous) {
  if (!sameOffsets(previous, view.n, view.maxDistance)) return view;
  const offsetSpace =
    view.offsetSpace && previous.offsetSpace
      ? { ...view.offsetSpace, panels: { ...view.offsetSpace.panels, offsets: previous.offsetSpace.panels.offsets } }
      : view.offsetSpace;
  return { ...view, offsets: previous.offsets, offsetSpace };
}

/** The locality profile for settings { profileSeed, profileDK, profileMaxDistance, noise, width, asymmetry }. */
export function computeProfile(rp, settings) {
  return {
    settings: { ...settings },
    maxDistance: settings.profileMaxDistance,
    ...rp.localityProfile({
      seed: settings.profileSeed,
      dK: settings.profileDK,
      maxDistance: settings.profileMaxDistance,
      noise: settings.noise,
      width: settings.width,
      asymmetry: settings.asymmetry,
    }),
  };
}

/** clip(j - i, -k, k) */
export const clippedOffset = (i, j, k) => Math.min(k, Math.max(-k, j - i));
