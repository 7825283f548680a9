// The training section's reference run (docs/training.md, "The reference run"):
// `npm run train:reference` trains the default run (masked words, small) on the shipped corpus
// (dist/training-corpus.bin) for each of REFERENCE_RECIPE.seeds, in Node on the WebAssembly
// module with the plain SIMD128 kernels (the same numbers on every engine and Node version), each
// seed with the section's learning-rate schedule stretched to REFERENCE_RECIPE.steps (10000) at
// the default run's peak rate, and again stretched to REFERENCE_RECIPE.longer (30000) for the
// convergence check (longerRunGain(),
// web/train/reference.js): converged when the longer run's lowest held-out level (a mean of 10
// readings, every 100 steps) is at most 1 % below the reference's final level. It then reads what
// the heads learned and writes web/train/reference-run.js (the readings the section opens on;
// budget 64 KiB). Deterministic: the same file from a fresh clone. About 4 minutes of CPU per
// 10000 steps on a quiet machine here; never part of npm test.
// Options: --seeds 1,2,3  --jobs N (runs trained at once, worker threads; default: the cores)
// --peak P (instead of REFERENCE_RECIPE.peak, the default run's: the languages' runs use their own)
// --steps N (instead of REFERENCE_RECIPE.steps: a quick look, not the reference; the longer runs
// then take 3 N; --no-check: no longer runs) --corpus FILE (instead of dist/training-corpus.bin)
// --out FILE (instead of web/train/reference-run.js): the same run on another corpus;
// --word-order adds each head's side intervals and adposition verdicts (word-order-readings.js)
// for the comparison of languages (npm run train:languages). Each run's result is kept in
// build/reference-seeds/ (named by corpus file, preset, seed, steps and peak, with the recipe it
// was trained with): run again, it is read back, not trained again, so several processes may
// train one seed each (--seeds 2) and a last run with all seeds writes the file.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { createRelPos } from '../web/api/index.js';
import { decodeCorpus } from '../web/train/corpus-format.js';
import { DEFAULT_RUN, SCHEDULE, TrainSession } from '../web/train/train-session.js';
import { REFERENCE_RECIPE, heldOutLevels, longerRunGain } from '../web/train/reference.js';
import { HANDBOOK_CLAIMS, claimsAcrossRuns } from '../web/train/pos-verdicts.js';
import { CRITERION } from '../web/train/run-end.js';
import { wordOrderReadings } from '../web/train/word-order-readings.js';

const SIZE_BUDGET = 64 * 1024;
const CORPUS = new URL('../dist/training-corpus.bin', import.meta.url);
const OUT = new URL('../web/train/reference-run.js', import.meta.url);
/** Each seed's result, kept so that writing the file again (another criterion, another format) needs no retraining. */
const SEED_CACHE = new URL('../build/reference-seeds/', import.meta.url);
/** Progress lines every this many steps. */
const PROGRESS_EVERY = 1000;

const round = (v) => (Number.isFinite(v) ? Number(v.toFixed(4)) : null);
const rounded = (array) => Array.from(array, round);
/** A verdict's numbers to 6 decimals: rounded to 4, an effect just under the rule's 0.03 would read as 0.03. */
const roundVerdict = (v) => (Number.isFinite(v) ? Number(v.toFixed(6)) : null);

/** What the section draws of one head, with its numbers rounded to 4 decimals (its verdicts' to 6). */
function compactHead(h) {
  return {
    layer: h.layer,
    head: h.head,
    profile: rounded(h.profile),
    profileLow: rounded(h.profileLow),
    profileHigh: rounded(h.profileHigh),
    offsetWeights: rounded(h.offsetWeights),
    left: round(h.left),
    self: round(h.self),
    right: round(h.right),
    near: round(h.near),
    nearUniform: round(h.nearUniform),
    byPos: Object.fromEntries(
      Object.entries(h.byPos).map(([name, p]) => [name, { count: p.count, weights: rounded(p.weights) }]),
    ),
    verdicts: compactVerdicts(h.verdicts),
  };
}

/** Verdicts with their numbers rounded to 6 decimals (roundVerdict). */
function compactVerdicts(verdicts) {
  return Object.fromEntries(
    Object.entries(verdicts).map(([name, v]) => [
      name,
      Object.fromEntries(Object.entries(v).map(([key, x]) => [key, typeof x === 'number' ? roundVerdict(x) : x])),
    ]),
  );
}

/** The handbook's claims a run's heads show (a claim holds when one head shows it), as a key. */
const claimsHeld = (heads) =>
  HANDBOOK_CLAIMS.filter((name) => heads.some((h) => h.verdicts[name].verdict === 'shows')).join(',');

/**
 * A seed's reference result with its convergence check against the same seed trained longer: the
 * longer run's levels (every 1000 steps), how much lower it got, and whether it shows the same claims.
 */
function withConvergence(result, longerResult) {
  const levels = heldOutLevels(result.curve);
  const longerLevels = heldOutLevels(longerResult.curve);
  const check = longerRunGain(levels, longerLevels);
  return {
    ...result,
    converged: check.gain <= REFERENCE_RECIPE.longerGain,
    longer: {
      steps: longerResult.steps,
      levels: rounded(longerLevels),
      gain: round(check.gain),
      lowest: round(check.lowest),
      lowestStep: check.lowestStep,
      rise: round(check.rise),
      claims: claimsHeld(longerResult.heads),
      sameClaims: claimsHeld(longerResult.heads) === claimsHeld(result.heads),
    },
  };
}

/** One seed of the default run trained for REFERENCE_RECIPE.steps: its held-out curve, whether it converged, its readings. */
async function referenceSeed(seed, budget, peak, corpusPath, wordOrder) {
  const corpus = decodeCorpus(gunzipSync(readFileSync(corpusPath)));
  const rp = await createRelPos({ kernels: 'plain' });
  const session = new TrainSession(rp, corpus, { ...DEFAULT_RUN, seed, budget, peak });
  const curve = [];
  while (session.steps < budget) {
    session.step();
    if (session.steps % REFERENCE_RECIPE.curveEvery === 0)
      curve.push({ step: session.steps, heldOut: session.heldOut().loss });
    if (session.steps % PROGRESS_EVERY === 0) parentPort.postMessage({ progress: curve.at(-1) });
  }
  const analysis = session.analyse();
  const sides = wordOrder ? wordOrderReadings(session) : null;
  session.dispose();
  return {
    seed,
    steps: budget,
    heldOut: round(curve.at(-1).heldOut),
    curve: curve.map((p) => ({ step: p.step, heldOut: round(p.heldOut) })),
    heads: analysis.heads.map((h, index) =>
      sides
        ? {
            ...compactHead(h),
            sides: rounded(sides[index].sides),
            adpositions: compactVerdicts(sides[index].adpositions),
          }
        : compactHead(h),
    ),
  };
}

async function main() {
  const args = process.argv.slice(2);
  const option = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
  const seeds = option('seeds', REFERENCE_RECIPE.seeds.join(',')).split(',').map(Number);
  const steps = Number(option('steps', REFERENCE_RECIPE.steps));
  const peak = Number(option('peak', REFERENCE_RECIPE.peak));
  if (!(peak > 0 && peak < 1)) throw new RangeError(`--peak must be a learning rate in (0, 1), not ${option('peak')}`);
  const jobs = Math.max(1, Math.min(2 * seeds.length, Number(option('jobs', availableParallelism()))));
  const corpusPath = new URL(option('corpus', CORPUS.pathname), `file://${process.cwd()}/`);
  const out = new URL(option('out', OUT.pathname), `file://${process.cwd()}/`);
  const block = REFERENCE_RECIPE.curveEvery * REFERENCE_RECIPE.levelReadings;
  if (!Number.isInteger(steps) || steps < block || steps % block !== 0)
    throw new RangeError(`--steps must be a multiple of ${block} (whole held-out levels), not ${option('steps')}`);
  if (!existsSync(corpusPath)) throw new Error(`--corpus ${corpusPath.pathname}: no such file`);
  const corpus = decodeCorpus(gunzipSync(readFileSync(corpusPath)));
  const wordOrder = args.includes('--word-order');
  // What a kept result was trained with: one kept without the word-order readings is not reused for --word-order.
  const recipe = {
    task: DEFAULT_RUN.task,
    preset: DEFAULT_RUN.preset,
    peak,
    schedule: SCHEDULE,
    ...(wordOrder ? { wordOrder } : {}),
  };
  // --no-check: the reference runs alone, without the longer runs of the convergence check (the
  // other languages' runs, npm run train:languages, which compare seeds and languages, not convergence).
  const check = !args.includes('--no-check');
  const longer = steps === REFERENCE_RECIPE.steps ? REFERENCE_RECIPE.longer : 3 * steps;
  const cached = (seed, budget) =>
    new URL(
      `${basename(corpusPath.pathname)}-${DEFAULT_RUN.preset}-seed${seed}-${budget}-peak${peak}.json`,
      SEED_CACHE,
    );
  const started = Date.now();
  // Every run: each seed at the reference's steps and at the longer check's.
  const budgets = check ? [steps, longer] : [steps];
  const runs = seeds.flatMap((seed) => budgets.map((budget) => ({ seed, budget, result: null })));
  const report = (run, how) =>
    console.log(`seed ${run.seed}: ${run.budget} steps, held-out ${run.result.heldOut} ${how}`);
  const toTrain = [];
  for (const run of runs) {
    const file = cached(run.seed, run.budget);
    const saved = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
    if (saved && JSON.stringify(saved.recipe) === JSON.stringify(recipe)) {
      run.result = saved.result;
      report(run, `(kept from ${file.pathname})`);
    } else toTrain.push(run);
  }
  let next = 0;
  const runOne = () =>
    new Promise((resolve, reject) => {
      const run = toTrain[next];
      next += 1;
      if (run === undefined) return resolve();
      const worker = new Worker(new URL(import.meta.url), {
        workerData: { seed: run.seed, steps: run.budget, peak, corpusPath: corpusPath.href, wordOrder },
      });
      worker.on('message', (message) => {
        if (message.progress) {
          const { step, heldOut } = message.progress;
          console.log(`seed ${run.seed} (${run.budget} steps): step ${step}, held-out ${heldOut.toFixed(4)}`);
          return;
        }
        mkdirSync(SEED_CACHE, { recursive: true });
        writeFileSync(cached(run.seed, run.budget), JSON.stringify({ recipe, result: message }));
        run.result = message;
        report(run, `after ${((Date.now() - started) / 1000).toFixed(0)} s`);
        resolve(runOne());
      });
      worker.once('error', reject);
    });
  await Promise.all(Array.from({ length: jobs }, runOne));
  const results = seeds.map((seed) => {
    const [reference, longerRun] = budgets.map(
      (budget) => runs.find((r) => r.seed === seed && r.budget === budget).result,
    );
    if (!check) return { ...reference, converged: null };
    const result = withConvergence(reference, longerRun);
    const l = result.longer;
    console.log(
      `seed ${seed}: ${result.converged ? 'converged' : 'NOT converged'}: ${longer} steps got ${(100 * l.gain).toFixed(2)} % lower at their lowest (step ${l.lowestStep}), then rose ${(100 * l.rise).toFixed(1)} %; the same claims: ${l.sameClaims}`,
    );
    return result;
  });
  const heldOut = results.reduce((sum, r) => sum + r.heldOut, 0) / results.length;
  const reference = {
    what: 'The reference run of the training section: npm run train:reference (scripts/train-reference.mjs)',
    task: DEFAULT_RUN.task,
    preset: DEFAULT_RUN.preset,
    corpus: { source: corpus.header.source, train: corpus.train.length, heldOut: corpus.heldOut.length },
    kernels: 'plain',
    peakLearningRate: peak,
    schedule: { ...SCHEDULE },
    convergence: {
      steps,
      longer: check ? longer : null,
      longerGain: REFERENCE_RECIPE.longerGain,
      levelSteps: REFERENCE_RECIPE.curveEvery * REFERENCE_RECIPE.levelReadings,
    },
    criterion: { within: CRITERION.within },
    heldOut: round(heldOut),
    seeds: results,
  };
  const text = `// Written by scripts/train-reference.mjs (npm run train:reference): the training section's
// reference run, the readings it opens on (docs/training.md). Do not edit by hand.
export const REFERENCE_RUN = ${JSON.stringify(reference)};
`;
  // The budget is the shipped file's (the section loads it); a run written elsewhere (--out) is read by a script.
  if (out.href === OUT.href && text.length > SIZE_BUDGET)
    throw new Error(`reference-run.js would be ${text.length} bytes, over its ${SIZE_BUDGET}`);
  writeFileSync(out, text);
  console.log(
    `${out.pathname}: ${(text.length / 1024).toFixed(1)} KiB; mean final held-out loss ${heldOut.toFixed(4)}; ${Object.values(
      claimsAcrossRuns(results),
    )
      .map((c) => `${c.short}: holds in ${c.holds} of ${c.of} seeds`)
      .join('; ')}`,
  );
}

if (isMainThread) await main();
else
  parentPort.postMessage(
    await referenceSeed(
      workerData.seed,
      workerData.steps,
      workerData.peak,
      new URL(workerData.corpusPath),
      workerData.wordOrder,
    ),
  );
