// Trains the training section's default run (web/train/train-session.js) in Node and prints the
// held-out loss curve, the time per step and what the heads learned (asymmetry, profiles by part
// of speech). `node bench/train-corpus-run.mjs [steps] [preset] [task]`. Never part of npm test.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createRelPos } from '../web/api/index.js';
import { decodeCorpus } from '../web/train/corpus-format.js';
import { TrainSession } from '../web/train/train-session.js';

const [steps = 1500, preset = 'small', task = 'masked'] = process.argv.slice(2);
const corpus = decodeCorpus(gunzipSync(readFileSync(new URL('../dist/training-corpus.bin', import.meta.url))));
const rp = await createRelPos();
const s = new TrainSession(rp, corpus, { task, preset });
const t0 = performance.now();
const c0 = process.cpuUsage();
let recent = [];
for (let i = 1; i <= Number(steps); i += 1) {
  recent.push(s.step());
  if (i % 100 === 0) {
    const h = s.heldOut();
    const cpu = process.cpuUsage(c0);
    console.log(
      `step ${i}  train ${(recent.reduce((a, b) => a + b) / recent.length).toFixed(3)}  held-out ${h.loss.toFixed(3)} (acc ${(100 * h.accuracy).toFixed(1)} %)  wall ${((performance.now() - t0) / 1000).toFixed(1)} s  cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`,
    );
    recent = [];
  }
}
const a = s.analyse();
for (const h of a.heads) {
  console.log(
    `L${h.layer} H${h.head}: left ${h.left.toFixed(3)} self ${h.self.toFixed(3)} right ${h.right.toFixed(3)}  profile ${Array.from(h.profile, (v) => v.toFixed(2)).join(' ')}`,
  );
  if (h.claims)
    console.log(
      `   claims (weight / uniform): ${Object.entries(h.claims)
        .map(([name, c]) => `${name} ${c.weight.toFixed(3)}/${c.uniform.toFixed(3)}`)
        .join('  ')}`,
    );
  if (h.byPos)
    for (const [name, { count, weights }] of Object.entries(h.byPos))
      console.log(
        `   ${name.padEnd(12)} n=${String(count).padStart(4)}  ${Array.from(weights, (v) => v.toFixed(2)).join(' ')}`,
      );
}
