// From the page's state to the numbers it draws: every matrix comes from the JS API (WASM).
import { tokenLabels } from './state.js';

export const D_MODEL = 8;

export function computeView(rp, state) {
  const n = state.seqLen;
  const result = rp.example({
    seed: state.seed,
    seqLen: n,
    dModel: D_MODEL,
    dK: state.dK,
    maxDistance: state.maxDistance,
    causal: state.causal,
  });
  const difference = new Float64Array(n * n);
  const combined = result.combinedWeights.data;
  const content = result.contentWeights.data;
  for (let index = 0; index < n * n; index += 1) difference[index] = combined[index] - content[index];
  return {
    n,
    tokens: tokenLabels(state.tokens, n),
    result,
    difference,
    offsets: rp.relativeOffsets(n, state.maxDistance),
    profile: rp.localityProfile({
      seed: state.profileSeed,
      dK: state.profileDK,
      maxDistance: state.profileMaxDistance,
      noise: state.noise,
      width: state.width,
      asymmetry: state.asymmetry,
    }),
  };
}

/** clip(j - i, -k, k) */
export const clippedOffset = (i, j, k) => Math.min(k, Math.max(-k, j - i));
