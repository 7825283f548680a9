// Run by tests/js/dispose-memory.test.js under `node --expose-gc`: an app that keeps every
// model it made while disposing their instances, each of which grew its memory by 128 MiB.
// Prints the resident set size before and after, in MiB, as JSON.
import { createRelPos } from '../../../web/api/index.js';

const rounds = Number(process.argv[2] ?? 4);
const mib = () => process.memoryUsage().rss / 2 ** 20;
const collect = async () => {
  for (let i = 0; i < 4; i += 1) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const kept = [];
await collect();
const before = mib();
for (let round = 0; round < rounds; round += 1) {
  const rp = await createRelPos();
  const model = rp.createModel({ vocabSize: 16, dModel: 8, heads: 2, seqLen: 8, maxBatchSize: 4 });
  rp.randn(round, 2 ** 24).fill(1); // 128 MiB of WASM memory, written
  rp.dispose();
  kept.push(model, rp);
}
await collect();
console.log(JSON.stringify({ before, after: mib(), kept: kept.filter((m) => m.disposed).length }));
