// The converged reference run the training section opens on (reference-run.js, written by
// scripts/train-reference.mjs; docs/training.md): whether it applies to a run, its readings as an
// analysis the figures draw, and what it says across seeds. Pure.
import { REFERENCE_RUN } from './reference-run.js';
import { MAX_DISTANCE, learningRateAt } from './train-session.js';
import { CLAIMS, HANDBOOK_CLAIMS, claimsAcrossRuns, strongestShowing } from './pos-verdicts.js';

export { REFERENCE_RUN };

/**
 * How the reference is trained (scripts/train-reference.mjs): seeds, steps per seed (the
 * schedule, SCHEDULE, stretched to them), its peak learning rate, the held-out curve read every
 * `curveEvery` steps, and the convergence criterion: the held-out loss fell by at most
 * `lastThirdFall` over the last third (lastThirdFall()).
 */
export const REFERENCE_RECIPE = Object.freeze({
  seeds: Object.freeze([1, 2, 3]),
  steps: 10000,
  peak: 0.002,
  curveEvery: 100,
  lastThirdFall: 0.01,
});

/** The curve's reading nearest two thirds of a run of `steps` steps (read every `every`). */
export const twoThirdsStep = (steps, every = REFERENCE_RECIPE.curveEvery) =>
  Math.round((2 * steps) / 3 / every) * every;

/**
 * A seed's fall over the last third of its run, read on a least-squares line through every
 * held-out reading from the one nearest two thirds of the steps to the last (34 readings for 10000
 * steps; one reading scatters by about 0.4 %, docs/training.md): (line at two thirds − line at
 * the end) / line at the end, from its held-out curve [{ step, heldOut }].
 */
export function lastThirdFall(curve, steps, every = REFERENCE_RECIPE.curveEvery) {
  const from = twoThirdsStep(steps, every);
  const last = curve.at(-1);
  if (!curve.some((p) => p.step === from) || last.step !== steps)
    throw new RangeError(`lastThirdFall: the curve has no reading at step ${from} or ${steps}`);
  const points = curve.filter((p) => p.step >= from);
  const meanStep = points.reduce((sum, p) => sum + p.step, 0) / points.length;
  const meanLoss = points.reduce((sum, p) => sum + p.heldOut, 0) / points.length;
  let sxx = 0;
  let sxy = 0;
  for (const p of points) {
    sxx += (p.step - meanStep) ** 2;
    sxy += (p.step - meanStep) * (p.heldOut - meanLoss);
  }
  const slope = sxy / sxx;
  const lineAt = (step) => meanLoss + slope * (step - meanStep);
  return (lineAt(from) - lineAt(steps)) / lineAt(steps);
}

/**
 * The reference for a run of `task` and `preset` on a corpus described as { source, train,
 * heldOut } (the worker's `ready`), or null: it is the default run's on the shipped corpus only.
 */
export function referenceFor({ task, preset, corpus }, reference = REFERENCE_RUN) {
  if (!reference || task !== reference.task || preset !== reference.preset || !corpus) return null;
  const c = reference.corpus;
  return corpus.source === c.source && corpus.train === c.train && corpus.heldOut === c.heldOut ? reference : null;
}

/** One seed's readings as an analysis (TrainSession.analyse()'s shape): the first seed unless asked. */
export function referenceAnalysis(reference, seed = reference.seeds[0].seed) {
  const run = reference.seeds.find((s) => s.seed === seed);
  return { step: run.steps, maxDistance: MAX_DISTANCE, causal: false, heads: run.heads, seed: run.seed };
}

/** "determiners → following nouns holds in 2 of 3 seeds, …": a handbook claim holds in a seed when one of its heads shows it. */
export function acrossSeedsText(reference) {
  const parts = Object.values(claimsAcrossRuns(reference.seeds)).map(
    (c) =>
      `${c.short} holds in ${c.holds} of ${c.of} seeds${c.opposite ? ` (the opposite shows in ${c.opposite})` : ''}`,
  );
  return `Across the ${reference.seeds.length} seeds (a claim holds in a seed when one of its heads shows it): ${parts.join('; ')}.`;
}

/**
 * Whether the reference run converged by its own criterion (each seed's held-out loss fell by at
 * most convergence.lastThirdFall over the last third of its steps, lastThirdFall()), in words with the numbers.
 */
export function convergenceText(reference) {
  const { steps } = reference.convergence;
  const twoThirds = twoThirdsStep(steps);
  const readings = (steps - twoThirds) / REFERENCE_RECIPE.curveEvery + 1;
  const rates = `the learning rate falling from ${Math.round(100 * learningRateAt(twoThirds, steps, { peak: 1 }))} % to ${Math.round(100 * learningRateAt(steps, steps, { peak: 1 }))} % of its peak`;
  const falls = reference.seeds.map((s) => s.change);
  const percent = (v) => `${(100 * v).toFixed(1)} %`;
  const range =
    Math.min(...falls) === Math.max(...falls)
      ? percent(falls[0])
      : `${percent(Math.min(...falls))}–${percent(Math.max(...falls))}`;
  const limit = percent(reference.convergence.lastThirdFall);
  const converged = reference.seeds.filter((s) => s.converged).length;
  return converged === reference.seeds.length
    ? `over the last third of its steps (${rates}) the loss fell by ${range} (a straight line through its ${readings} held-out readings), within the convergence criterion of ${limit}: converged`
    : `over the last third of its steps (${rates}) the loss still fell by ${range} (a straight line through its ${readings} held-out readings), more than the convergence criterion’s ${limit} in ${reference.seeds.length - converged} of ${reference.seeds.length} seeds: not converged`;
}

/**
 * What a set of heads says of a claim, as one word: 'holds' (some head shows it), 'opposite'
 * (none shows it and some head shows the opposite), 'untestable' (no head can test it) or 'not shown'.
 */
export function runVerdict(heads, name) {
  const verdicts = heads.map((h) => h.verdicts[name].verdict);
  if (verdicts.includes('shows')) return 'holds';
  if (verdicts.includes('opposite')) return 'opposite';
  if (verdicts.every((v) => v === 'untestable')) return 'untestable';
  return 'not shown';
}

/**
 * What the reference's seeds say of a claim, as one word: 'holds' or 'opposite' where more than
 * half of the seeds say so, else 'not shown'; with the tally ({ holds, opposite, of }).
 */
export function referenceVerdict(reference, name) {
  const tally = claimsAcrossRuns(reference.seeds)[name];
  const most = (count) => 2 * count > tally.of;
  return { verdict: most(tally.holds) ? 'holds' : most(tally.opposite) ? 'opposite' : 'not shown', ...tally };
}

/**
 * The handbook's claims, a run's heads against the reference's seeds: for each claim its text,
 * the reference's verdict and tally (referenceVerdict()), the run's verdict (runVerdict(), null
 * without heads) with its strongest head showing it, and whether the two agree (null without a run).
 */
export function claimsAgainstReference(heads, reference) {
  return HANDBOOK_CLAIMS.map((name) => {
    const ref = referenceVerdict(reference, name);
    const run = heads ? runVerdict(heads, name) : null;
    return {
      name,
      short: CLAIMS[name].short,
      reference: ref,
      run,
      strongest: heads ? strongestShowing(heads, name) : null,
      agrees: run === null ? null : run === ref.verdict,
    };
  });
}
