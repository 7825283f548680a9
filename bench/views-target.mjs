// npm run bench's target row: attention(…, { views: true }) at n = 1024, k = 16, d_k = 64,
// float32, against numpy on 1 thread (bench/numpy_attention.py --serve, a process of its own:
// bench/anchor-process.mjs), timed in alternation, blocks of 4 calls each of which the last 3
// count, so that each runs as in a loop of its own (its caches warm) and both meet the same
// moments of a shared machine. bench/run.mjs runs this file first, in a Node process of its own,
// so that nothing else in the process (TF.js, the garbage of earlier rows) runs beside it.
// Prints one JSON line: { ours: { wall, cpu }, numpy: { wall, cpu } } (median ms), or { error }.
import { createRelPos } from '../web/api/index.js';
import { blasEnv, startAnchor } from './anchor-process.mjs';
import { interleavedMedians, timeOf } from './interleaved.mjs';
import { shawInputs } from './shaw-inputs.js';

const ROOT = new URL('../', import.meta.url).pathname;
const [N, K, D, BLOCK] = [1024, 16, 64, 4];

const rp = await createRelPos();
const inputs = shawInputs(rp, N, K, D);
const anchor = await startAnchor(
  '/usr/bin/python3',
  [`${ROOT}bench/numpy_attention.py`, '--serve', JSON.stringify({ n: N, k: K, d: D, dtype: 'float32' })],
  blasEnv(1),
);
if (anchor.error) {
  console.log(JSON.stringify({ error: anchor.error }));
} else {
  const oneCall = () => timeOf(() => rp.attention(inputs, { views: true }));
  const [ours, numpy] = await interleavedMedians(
    [
      () => Array.from({ length: BLOCK }, oneCall).slice(1),
      async () => {
        const { wall_ms: wall, cpu_ms: cpu } = await anchor.time(BLOCK);
        return wall.map((w, i) => ({ wall: w, cpu: cpu[i] })).slice(1);
      },
    ],
    { budgetMs: 4000, minRounds: 10, maxRounds: 20 },
  );
  anchor.close();
  console.log(JSON.stringify({ ours, numpy, kernels: rp.kernels }));
}
rp.dispose();
