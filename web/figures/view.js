// From settings to the numbers a figure draws: every matrix comes from the JS API (WASM).
import { computeOffsetSpace } from './offset-space.js';
import { tokenLabels } from './settings.js';

/** An axis label: the position and its word (or just the position). */
const axisLabel = (tokens, i) => (tokens[i] ? `${i} ${tokens[i]}` : String(i));

export const D_MODEL = 8;

/**
 * The attention panels' numbers for settings { seqLen, dK, maxDistance, seed, causal, tokens }.
 * With `positionsOnly` (the long-sequence view) the axes name positions, not words, and the view
 * carries `offsetSpace`, the panels as (query, clipped offset) matrices. With
 * `previous` (the view on screen), its offsets are kept when n and k are the same.
 */
export function computeAttentionView(rp, settings, { positionsOnly = false, previous = null } = {}) {
  const n = settings.seqLen;
  const tokens = positionsOnly ? Array(n).fill('') : tokenLabels(settings.tokens, n);
  const result = rp.example({
    seed: settings.seed,
    seqLen: n,
    dModel: D_MODEL,
    dK: settings.dK,
    maxDistance: settings.maxDistance,
    causal: settings.causal,
  });
  const difference = new Float64Array(n * n);
  const combined = result.combinedWeights.data;
  const content = result.contentWeights.data;
  for (let index = 0; index < n * n; index += 1) difference[index] = combined[index] - content[index];
  const view = {
    n,
    long: positionsOnly,
    maxDistance: settings.maxDistance,
    causal: settings.causal,
    tokens,
    labels: tokens.map((_, i) => axisLabel(tokens, i)),
    result,
    difference,
    offsets: sameOffsets(previous, n, settings.maxDistance) ? previous.offsets : rp.relativeOffsets(n, settings.maxDistance),
  };
  // The long view draws its panels in offset space (offset-space.js): n × (2k′ + 1) matrices.
  if (positionsOnly) view.offsetSpace = computeOffsetSpace(view);
  return keepOffsets(view, previous);
}

// The clipped offsets depend on n and k only. Keeping the same matrix tells the figures that the
// offsets panel is unchanged (a new seed redraws five panels, not six); the same for the long
// view's offset-space offsets.
const sameOffsets = (view, n, k) => Boolean(view) && view.n === n && view.maxDistance === k && view.offsets.data.length === n * n;

/** `view` with the offsets matrix of `previous` when it is the same one (a view from a worker). */
export function keepOffsets(view, previous) {
  if (!sameOffsets(previous, view.n, view.maxDistance)) return view;
  const offsetSpace =
    view.offsetSpace && previous.offsetSpace ? { ...view.offsetSpace, panels: { ...view.offsetSpace.panels, offsets: previous.offsetSpace.panels.offsets } } : view.offsetSpace;
  return { ...view, offsets: previous.offsets, offsetSpace };
}

/** The locality profile for settings { profileSeed, profileDK, profileMaxDistance, noise, width, asymmetry }. */
export function computeProfile(rp, settings) {
  return {
    settings: { ...settings },
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
