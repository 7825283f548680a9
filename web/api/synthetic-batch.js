// A batch of a synthetic task, rp.syntheticBatch(options) (README "Training a model"): the
// options checked (model-checks.js), the core's draw of tokens and targets, and copies of both.
// Takes the RelPos instance's host ({ core, arena, callRegions }); a module without the training
// engine (the page's first-load build) refuses with an Error.
import { NO_TRAINING, resolveSyntheticOptions } from './model-checks.js';
import { throwIfRefused } from './wasm-arena.js';

/** rp.syntheticBatch(options): { tokens, targets, batchSize, seqLen } (Int32Arrays). */
export function syntheticBatch(host, options) {
  const where = 'syntheticBatch';
  if (!host.core.syntheticBatchInto) throw new Error(NO_TRAINING(where));
  const o = resolveSyntheticOptions(where, options);
  const shape = [o.batchSize, o.seqLen, Int32Array];
  return host.callRegions(where, [shape, shape], ([tokens, targets]) => {
    const { task, offset, vocabSize, seqLen, batchSize, seed } = o;
    throwIfRefused(
      where,
      host.core.syntheticBatchInto(
        { task: host.core.SyntheticTask[task], offset, vocabSize, seqLen, batchSize, seed },
        tokens,
        targets,
      ),
    );
    return {
      tokens: host.arena.readRegion(tokens, Int32Array),
      targets: host.arena.readRegion(targets, Int32Array),
      batchSize: o.batchSize,
      seqLen: o.seqLen,
    };
  });
}
