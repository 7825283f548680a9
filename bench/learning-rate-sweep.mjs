// The live run's schedule, measured: the default run (masked words, small) in Node on the plain
// kernels, trained for each step budget and peak learning rate given, with the held-out loss read
// every READINGS.loss steps as the page reads it. Prints, per budget and peak, the held-out loss at
// the end and the first step at which the run met the criterion against the reference run
// (run-end.js, web/train/reference-run.js), if it did. Never part of npm test.
// `node bench/learning-rate-sweep.mjs --budgets 3000,3600 --peaks 0.002,0.004 --seed 1 [--json out.json]`
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createRelPos } from '../web/api/index.js';
import { decodeCorpus } from '../web/train/corpus-format.js';
import { DEFAULT_RUN, READINGS, TrainSession } from '../web/train/train-session.js';
import { REFERENCE_RUN } from '../web/train/reference-run.js';
import { runEnd } from '../web/train/run-end.js';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const budgets = option('budgets', '3000').split(',').map(Number);
const peaks = option('peaks', '0.002,0.003,0.004').split(',').map(Number);
const seed = Number(option('seed', DEFAULT_RUN.seed));
const corpus = decodeCorpus(gunzipSync(readFileSync(new URL('../dist/training-corpus.bin', import.meta.url))));
const rp = await createRelPos({ kernels: 'plain' });

const rows = [];
for (const budget of budgets) {
  for (const peak of peaks) {
    const session = new TrainSession(rp, corpus, { ...DEFAULT_RUN, seed, budget, peak });
    const curve = [];
    let met = null;
    while (session.steps < budget) {
      session.step();
      if (session.steps % READINGS.loss !== 0) continue;
      const heldOut = session.heldOut().loss;
      curve.push([session.steps, Number(heldOut.toFixed(4))]);
      if (
        met === null &&
        runEnd({ steps: session.steps, budget, heldOut, referenceLoss: REFERENCE_RUN.heldOut }).reason === 'criterion'
      )
        met = session.steps;
    }
    session.dispose();
    rows.push({ budget, peak, seed, final: curve.at(-1)[1], met, curve });
    // Written after every row: a long sweep's finished rows are kept.
    if (option('json')) writeFileSync(option('json'), JSON.stringify(rows));
    console.log(
      `budget ${budget}  peak ${peak}  seed ${seed}  final held-out ${curve.at(-1)[1].toFixed(4)}  criterion (≤ ${(REFERENCE_RUN.heldOut * 1.03).toFixed(4)}) met at step ${met ?? '—'}`,
    );
  }
}
