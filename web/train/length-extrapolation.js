// "Longer than trained" (the ALiBi paper's Figure 1 at toy scale; docs/schemes.md): one small
// model per position scheme, each trained on copy-offset at length L with the same batches and
// seed, then its held-out loss and accuracy at L, 2L, 4L and 8L. Plain JS on the API's training
// engine (createModel, syntheticBatch), so the page's worker and the bench run the same thing.

export const EXTRAPOLATION = Object.freeze({
  length: 16,
  steps: 200,
  offset: -2,
  causal: true,
  vocabSize: 16,
  batchSize: 32,
  learningRate: 0.01,
  seed: 1,
});

/** The evaluation lengths: L, 2L, 4L, 8L. */
export const evaluationLengths = (L) => [L, 2 * L, 4 * L, 8 * L];

/**
 * rp: a createRelPos() instance with the training engine; schemes: ids of createModel's
 * position schemes. onScheme(row) is called after each scheme. Returns { settings, lengths,
 * rows: [{ scheme, loss: number[], accuracy: number[], seconds }] } (one entry per length).
 */
export function lengthExtrapolation(rp, schemes, settings = {}, onScheme = () => {}) {
  const s = { ...EXTRAPOLATION, ...settings };
  const lengths = evaluationLengths(s.length);
  const rows = [];
  for (const scheme of schemes) {
    const started = performance.now();
    const model = rp.createModel({
      vocabSize: s.vocabSize,
      dModel: 32,
      heads: 2,
      layers: 1,
      ffnWidth: 64,
      maxDistance: 4,
      seqLen: lengths.at(-1),
      maxBatchSize: s.batchSize,
      causal: s.causal,
      seed: s.seed,
      position: { scheme, numBuckets: 16, maxDistance: 4 * s.length },
    });
    try {
      for (let step = 0; step < s.steps; step += 1) {
        const batch = rp.syntheticBatch({
          offset: s.offset,
          vocabSize: s.vocabSize,
          seqLen: s.length,
          batchSize: s.batchSize,
          seed: 1000 + step,
        });
        model.trainStep(batch, { learningRate: s.learningRate });
      }
      const loss = [];
      const accuracy = [];
      for (const n of lengths) {
        const heldOut = rp.syntheticBatch({
          offset: s.offset,
          vocabSize: s.vocabSize,
          seqLen: n,
          batchSize: 16,
          seed: 7,
        });
        const r = model.evaluate(heldOut);
        loss.push(r.loss);
        accuracy.push(r.accuracy);
      }
      const row = { scheme, loss, accuracy, seconds: (performance.now() - started) / 1000 };
      rows.push(row);
      onScheme(row);
    } finally {
      model.dispose();
    }
  }
  return { settings: s, lengths, rows };
}
