// When a training run ends (docs/training.md, "A run has an end"): at the convergence criterion
// (the held-out loss within CRITERION.within of the reference run's final held-out loss,
// the mean over its seeds, reference-run.js), once the task is learned (LEARNED), or at the run's
// step budget, whichever comes first. A run with no reference (another task, size or corpus)
// ends when it has learned the task or at its budget. Pure.

/**
 * The convergence criterion: held-out loss ≤ (1 + within) × the reference's final loss. 2 %: at
 * 3 % the default run (seed 1, relaxed kernels, as in Chromium) stopped at step 3600 before its
 * determiner head had formed, which it has from step 4000 (docs/training.md).
 */
export const CRITERION = Object.freeze({ within: 0.02 });

/**
 * A task learned: held-out loss at most 0.01 nats per token, where the model gives the right
 * token a probability of e^−0.01 ≈ 0.99 in geometric mean. The copy task gets there within a few
 * hundred steps; text never does (its next word is not determined by the words before it).
 */
export const LEARNED = Object.freeze({ heldOut: 0.01 });

/**
 * How far the held-out loss may rise above its lowest reading before a run is said to over-fit
 * (the loss figure's lead; the comparison of languages' caveat): 5 %.
 */
export const OVERFIT_RISE = 0.05;

/**
 * Whether a run that has taken `steps` of its `budget` steps, with held-out loss `heldOut`, has
 * ended: { ended, reason: 'criterion' | 'learned' | 'budget' | null, target (the loss to reach;
 * NaN without a reference), gap (heldOut / referenceLoss − 1), heldOut }.
 */
export function runEnd({ steps, budget, heldOut, referenceLoss = NaN, within = CRITERION.within }) {
  const target = referenceLoss * (1 + within);
  const gap = heldOut / referenceLoss - 1;
  if (Number.isFinite(target) && heldOut <= target) return { ended: true, reason: 'criterion', target, gap, heldOut };
  if (heldOut <= LEARNED.heldOut) return { ended: true, reason: 'learned', target, gap, heldOut };
  if (steps >= budget) return { ended: true, reason: 'budget', target, gap, heldOut };
  return { ended: false, reason: null, target, gap, heldOut };
}
