// The converged reference run the training section opens on (reference-run.js, written by
// scripts/train-reference.mjs; docs/training.md): whether it applies to a run, its readings as an
// analysis the figures draw, and what it says across seeds. Pure.
import { formatPercent, formatSignedPercent } from '../render/number-text.js';
import { REFERENCE_RUN } from './reference-run.js';
import { DEFAULT_RUN, MAX_DISTANCE, PRESETS } from './train-session.js';
import { CLAIMS, HANDBOOK_CLAIMS, claimsAcrossRuns, strongestShowing } from './pos-verdicts.js';

export { REFERENCE_RUN };

/**
 * How the reference is trained (scripts/train-reference.mjs): seeds, steps per seed (the
 * schedule, SCHEDULE, stretched to them), its peak learning rate (the default run's: the reference
 * trains the configuration a reader's default run trains), the held-out curve read every
 * `curveEvery` steps, and the convergence check: the same seeds trained `longer` steps (the
 * schedule stretched to them) reach a held-out level at most `longerGain` lower than the
 * reference's final level, a level being the mean of `levelReadings` consecutive readings
 * (longerRunGain()).
 */
export const REFERENCE_RECIPE = Object.freeze({
  seeds: Object.freeze([1, 2, 3]),
  steps: 10000,
  peak: PRESETS[DEFAULT_RUN.preset].peak,
  curveEvery: 100,
  longer: 30000,
  levelReadings: 10,
  longerGain: 0.01,
});

/** A curve's levels: the mean held-out loss of each block of `readings` consecutive readings ([{ step, heldOut }]). */
export function heldOutLevels(curve, readings = REFERENCE_RECIPE.levelReadings) {
  if (curve.length % readings !== 0)
    throw new RangeError(`heldOutLevels: ${curve.length} readings are not whole blocks of ${readings}`);
  const levels = [];
  for (let i = 0; i < curve.length; i += readings)
    levels.push(curve.slice(i, i + readings).reduce((sum, p) => sum + p.heldOut, 0) / readings);
  return levels;
}

/**
 * How much lower the longer run got: (the reference's final level − the longer run's lowest
 * level) / the reference's final level, from the reference's levels and the longer run's; with the
 * longer run's lowest level, the step its block ends at, and its rise from there to its own end.
 */
export function longerRunGain(
  levels,
  longerLevels,
  every = REFERENCE_RECIPE.curveEvery * REFERENCE_RECIPE.levelReadings,
) {
  const final = levels.at(-1);
  const lowest = Math.min(...longerLevels);
  return {
    gain: (final - lowest) / final,
    lowest,
    lowestStep: (longerLevels.indexOf(lowest) + 1) * every,
    rise: (longerLevels.at(-1) - lowest) / lowest,
  };
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
      `${c.short} holds in ${c.holds} of ${c.of} seeds${c.opposite ? ` (in ${c.opposite}, ${c.holds ? 'another' : 'a'} head shows the opposite)` : ''}`,
  );
  return `In the reference run’s ${reference.seeds.length} seeds (a claim holds in a seed when one of its heads shows it): ${parts.join('; ')}.`;
}

/**
 * Whether the reference run converged by its check (the same seeds trained REFERENCE_RECIPE.longer
 * steps got at most convergence.longerGain lower, longerRunGain()), in words with the numbers, and
 * whether the longer runs' claims are the reference's.
 */
export function convergenceText(reference) {
  const { steps, longer, longerGain } = reference.convergence;
  const span = (values) =>
    Math.min(...values) === Math.max(...values)
      ? formatPercent(values[0])
      : `${formatPercent(Math.min(...values))} to ${formatPercent(Math.max(...values))}`;
  const seeds = reference.seeds;
  const differences = seeds.map((s) => -s.longer.gain);
  const lowestSteps = seeds.map((s) => s.longer.lowestStep);
  const converged = seeds.filter((s) => s.converged).length;
  const sameClaims = seeds.filter((s) => s.longer.sameClaims).length;
  const lowFirst = [...differences].sort((a, b) => a - b);
  const range =
    lowFirst[0] === lowFirst.at(-1)
      ? formatSignedPercent(lowFirst[0])
      : `${formatSignedPercent(lowFirst[0])} to ${formatSignedPercent(lowFirst.at(-1))}`;
  const check = `the same seeds trained ${longer} steps reached, at their lowest (a mean over ${reference.convergence.levelSteps} steps, by step ${Math.max(...lowestSteps)}), ${range} of their own held-out loss at ${steps} steps (a mean over the last ${reference.convergence.levelSteps}), then rose ${span(seeds.map((s) => s.longer.rise))} to their end as the model overfits`;
  // Per claim: in how many seeds it holds at `steps` and at `longer` (longer.claims lists those held).
  const holdsAt = (name) => [
    seeds.filter((s) => s.heads.some((h) => h.verdicts[name].verdict === 'shows')).length,
    seeds.filter((s) => s.longer.claims.split(',').includes(name)).length,
  ];
  const perClaim = HANDBOOK_CLAIMS.map((name) => {
    const [atSteps, atLonger] = holdsAt(name);
    return `${CLAIMS[name].short} in ${atLonger} of ${seeds.length} (at ${steps}: ${atSteps})`;
  }).join(', ');
  const claims = `; at ${longer} steps the handbook’s claims hold in the same seeds as at ${steps} in ${sameClaims} of ${seeds.length}: ${perClaim}`;
  return converged === seeds.length
    ? `${check}: within the convergence criterion of ${formatPercent(longerGain)}, converged${claims}`
    : `${check}: more than the convergence criterion’s ${formatPercent(longerGain)} in ${seeds.length - converged} of ${seeds.length} seeds, not converged${claims}`;
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
 * half of the seeds say so, else 'not shown'; with the tally ({ holds, opposite, of }) and, where
 * the seeds carry their convergence check, `longer`: { steps, holds } (in how many of the longer
 * runs some head shows it).
 */
export function referenceVerdict(reference, name) {
  const tally = claimsAcrossRuns(reference.seeds)[name];
  const most = (count) => 2 * count > tally.of;
  const checked = reference.seeds.every((s) => s.longer);
  return {
    verdict: most(tally.holds) ? 'holds' : most(tally.opposite) ? 'opposite' : 'not shown',
    ...tally,
    longer: checked
      ? {
          steps: reference.convergence.longer,
          holds: reference.seeds.filter((s) => s.longer.claims.split(',').includes(name)).length,
        }
      : undefined,
  };
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
