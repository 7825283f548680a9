// The training section's reference run (docs/training.md, "The reference run"):
// `npm run train:reference` trains the default run (masked words, small) on the shipped corpus
// (dist/training-corpus.bin) for each of REFERENCE.seeds, in Node on the WebAssembly module with
// the plain SIMD128 kernels (the same numbers on every engine and Node version), each seed with
// the section's learning-rate schedule stretched to REFERENCE.steps (3 × the live run's budget).
// Converged: the held-out loss fell by at most REFERENCE.converged (1 %) over the run's last third
// (the held-out reading at two thirds of the steps against the last one; readings every 100 steps). It then reads
// what the heads learned and writes web/train/reference-run.js (the readings the section opens
// on; budget 64 KiB). Deterministic: the same file from a fresh clone. About 2.5 min of CPU per
// seed here; never part of npm test.
// Options: --seeds 1,2,3  --jobs N (seeds trained at once, worker threads; default: the cores)
// --steps N (instead of REFERENCE.steps: a quick look, not the reference)
// --corpus FILE (instead of dist/training-corpus.bin) --out FILE (instead of web/train/reference-run.js):
// the same run on another corpus; --word-order adds each head's side intervals and adposition
// verdicts (word-order-readings.js) for the comparison of languages (npm run train:languages).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { createRelPos } from '../web/api/index.js';
import { decodeCorpus } from '../web/train/corpus-format.js';
import { DEFAULT_RUN, PRESETS, SCHEDULE, ADAM, TrainSession } from '../web/train/train-session.js';
import { claimsAcrossRuns } from '../web/train/pos-verdicts.js';
import { CRITERION } from '../web/train/run-end.js';
import { wordOrderReadings } from '../web/train/word-order-readings.js';

const REFERENCE = Object.freeze({ seeds: [1, 2, 3], steps: 3 * PRESETS[DEFAULT_RUN.preset].steps, converged: 0.01 });
const SIZE_BUDGET = 64 * 1024;
const CORPUS = new URL('../dist/training-corpus.bin', import.meta.url);
const OUT = new URL('../web/train/reference-run.js', import.meta.url);
/** Held-out readings of the loss curve kept, every this many steps. */
const CURVE_EVERY = 100;

const round = (v) => (Number.isFinite(v) ? Number(v.toFixed(4)) : null);
const rounded = (array) => Array.from(array, round);

/** What the section draws of one head, with its numbers rounded to 4 decimals. */
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

/** Verdicts with their numbers rounded to 4 decimals. */
function compactVerdicts(verdicts) {
  return Object.fromEntries(
    Object.entries(verdicts).map(([name, v]) => [
      name,
      Object.fromEntries(Object.entries(v).map(([key, x]) => [key, typeof x === 'number' ? round(x) : x])),
    ]),
  );
}

/** One seed of the default run trained for REFERENCE.steps: its held-out curve, whether it converged, its readings. */
async function referenceSeed(seed, budget, corpusFile, wordOrder) {
  const corpus = decodeCorpus(gunzipSync(readFileSync(corpusFile)));
  const rp = await createRelPos({ kernels: 'plain' });
  const session = new TrainSession(rp, corpus, { ...DEFAULT_RUN, seed, budget });
  const curve = [];
  while (session.steps < budget) {
    session.step();
    if (session.steps % CURVE_EVERY === 0) curve.push({ step: session.steps, heldOut: session.heldOut().loss });
  }
  const heldOut = curve.at(-1).heldOut;
  const before = curve.find((p) => p.step === Math.round((2 * budget) / 3 / CURVE_EVERY) * CURVE_EVERY).heldOut;
  const change = (before - heldOut) / heldOut;
  const analysis = session.analyse();
  const sides = wordOrder ? wordOrderReadings(session) : null;
  session.dispose();
  return {
    seed,
    steps: budget,
    converged: change <= REFERENCE.converged,
    change: round(change),
    heldOut: round(heldOut),
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
  const seeds = option('seeds', REFERENCE.seeds.join(',')).split(',').map(Number);
  const steps = Number(option('steps', REFERENCE.steps));
  const jobs = Math.max(1, Math.min(seeds.length, Number(option('jobs', availableParallelism()))));
  const corpusFile = option('corpus', null) ? resolvePath(option('corpus')) : fileURLToPath(CORPUS);
  const out = option('out', null) ? resolvePath(option('out')) : fileURLToPath(OUT);
  const corpus = decodeCorpus(gunzipSync(readFileSync(corpusFile)));
  const started = Date.now();
  const results = new Array(seeds.length);
  let next = 0;
  const runOne = () =>
    new Promise((resolve, reject) => {
      const index = next;
      next += 1;
      if (index >= seeds.length) return resolve();
      const worker = new Worker(new URL(import.meta.url), {
        workerData: { seed: seeds[index], steps, corpusFile, wordOrder: args.includes('--word-order') },
      });
      worker.once('message', (result) => {
        results[index] = result;
        console.log(
          `seed ${result.seed}: ${result.steps} steps, held-out ${result.heldOut}; ${result.converged ? 'converged' : 'NOT converged'} (fell ${(100 * result.change).toFixed(2)} % over the last third) after ${((Date.now() - started) / 1000).toFixed(0)} s`,
        );
        resolve(runOne());
      });
      worker.once('error', reject);
    });
  await Promise.all(Array.from({ length: jobs }, runOne));
  const heldOut = results.reduce((sum, r) => sum + r.heldOut, 0) / results.length;
  const reference = {
    what: 'The reference run of the training section: npm run train:reference (scripts/train-reference.mjs)',
    task: DEFAULT_RUN.task,
    preset: DEFAULT_RUN.preset,
    corpus: { source: corpus.header.source, train: corpus.train.length, heldOut: corpus.heldOut.length },
    kernels: 'plain',
    peakLearningRate: ADAM.learningRate,
    schedule: { ...SCHEDULE },
    liveBudget: PRESETS[DEFAULT_RUN.preset].steps,
    convergence: { steps, lastThirdFall: REFERENCE.converged },
    criterion: { within: CRITERION.within },
    heldOut: round(heldOut),
    seeds: results,
  };
  const text = `// Written by scripts/train-reference.mjs (npm run train:reference): the training section's
// reference run, the readings it opens on (docs/training.md). Do not edit by hand.
export const REFERENCE_RUN = ${JSON.stringify(reference)};
`;
  if (text.length > SIZE_BUDGET) throw new Error(`${out} would be ${text.length} bytes, over its ${SIZE_BUDGET}`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  console.log(
    `${out}: ${(text.length / 1024).toFixed(1)} KiB; mean final held-out loss ${heldOut.toFixed(4)}; ${Object.values(
      claimsAcrossRuns(results),
    )
      .map((c) => `${c.short}: holds in ${c.holds} of ${c.of} seeds`)
      .join('; ')}`,
  );
}

if (isMainThread) await main();
else
  parentPort.postMessage(
    await referenceSeed(workerData.seed, workerData.steps, workerData.corpusFile, workerData.wordOrder),
  );
