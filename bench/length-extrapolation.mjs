// "Longer than trained" (docs/schemes.md): one small model per position scheme, trained on copy-offset
// at length L, then its held-out loss and accuracy at L, 2L, 4L and 8L — the experiment of the
// ALiBi paper's Figure 1 at toy scale. Prints a table; whatever happens is the result.
//   node bench/length-extrapolation.mjs [L=16] [steps=300] [offset=-2] [causal=1]
import { createRelPos } from '../web/api/index.js';

const [L = 16, steps = 300, offset = -2, causal = 1] = process.argv.slice(2).map(Number);
const lengths = [L, 2 * L, 4 * L, 8 * L];
const schemes = ['shaw', 't5', 'alibi', 'rope', 'sinusoidal', 'absolute', 'none'];
const rp = await createRelPos();
const rows = [];
for (const scheme of schemes) {
  const started = performance.now();
  const model = rp.createModel({
    vocabSize: 16,
    dModel: 32,
    heads: 2,
    layers: 1,
    ffnWidth: 64,
    maxDistance: 4,
    seqLen: 8 * L,
    maxBatchSize: 32,
    causal: Boolean(causal),
    seed: 1,
    position: { scheme, numBuckets: 16, maxDistance: 4 * L },
  });
  for (let step = 0; step < steps; step += 1) {
    const batch = rp.syntheticBatch({ offset, vocabSize: 16, seqLen: L, batchSize: 32, seed: 1000 + step });
    model.trainStep(batch, { learningRate: 0.01 });
  }
  const row = { scheme, 'train s': ((performance.now() - started) / 1000).toFixed(1) };
  for (const n of lengths) {
    const heldOut = rp.syntheticBatch({ offset, vocabSize: 16, seqLen: n, batchSize: 16, seed: 7 });
    const { loss, accuracy } = model.evaluate(heldOut);
    row[`loss@${n}`] = loss.toFixed(3);
    row[`acc@${n}`] = accuracy.toFixed(2);
  }
  rows.push(row);
  model.dispose();
}
console.log(
  `copy-offset (target = token at i ${offset < 0 ? '−' : '+'} ${Math.abs(offset)}), vocabulary 16, trained ${steps} steps at L = ${L}` +
    `${causal ? ', causal' : ''}; held-out loss and accuracy at ${lengths.join(', ')} (chance loss ln 16 = ${Math.log(16).toFixed(3)})`,
);
console.table(rows);
