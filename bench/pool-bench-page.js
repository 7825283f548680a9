// The pool benchmark's page (bench/pool-bench.mjs): full attention in float32 at d_k = 64 on one
// instance in the page and on pools of 1, 2, … workers; with each worker's core time, so the
// cost of a block of rows and of sending and putting the results together can be told apart.
import { createRelPos } from '../web/api/index.js';
import { createRelPosWorker } from '../web/api/worker.js';
import { shawInputs } from './shaw-inputs.js';

const D = 64;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function medianMs(run, reps, after = null) {
  await run();
  const times = [];
  const extra = [];
  for (let r = 0; r < reps; r += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
    if (after) extra.push(await after());
  }
  return { ms: median(times), extra: after ? median(extra) : null };
}

window.benchPool = async ({ n, k, poolSizes, reps }) => {
  const rp = await createRelPos();
  const inputs = shawInputs(rp, n, k, D);
  const coreOf = (timings) => Object.values(timings).reduce((a, b) => a + b, 0);
  const single = await medianMs(
    () => rp.attention(inputs),
    reps,
    () => coreOf(rp.lastTimings()),
  );
  const pools = [];
  for (const workers of poolSizes) {
    const pool = await createRelPosWorker({ workers });
    // The slowest worker's core time per call: the split's compute; the rest is messages,
    // transfers and putting the blocks together on the page.
    const timed = await medianMs(
      () => pool.attention(inputs),
      reps,
      async () => Math.max(...(await pool.lastTimings()).map(coreOf)),
    );
    pools.push({ workers, ms: timed.ms, slowestCoreMs: timed.extra });
    pool.terminate();
  }
  return { n, k, singleMs: single.ms, singleCoreMs: single.extra, pools, cores: navigator.hardwareConcurrency };
};

document.body.dataset.ready = 'true';
