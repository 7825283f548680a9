// relpos-wasm: relative position encoding in self-attention (Shaw et al. 2018), computed by a
// C++/Eigen core compiled to WebAssembly. This file is the package's public face: createRelPos,
// and the RelPos class: relpos.js's (every computing call) with the checkpoint reader
// (checkpoint-file.js, checkpoint-positions.js; docs/checkpoints.md).
import { checkpointPositions } from './checkpoint-positions.js';
import { openCheckpoint } from './checkpoint-file.js';
import { loadCore } from './load-core.js';
import { BaseRelPos } from './relpos.js';

export { MAX_CALL_BYTES, MAX_DIMENSION, MAX_MAIN_THREAD_WORK, MAX_SEED } from './limits.js';
export { OUTPUT_NAMES } from './attention-options.js';
export { EXAMPLE_DEFAULTS, LOCALITY_PROFILE_DEFAULTS, LOCALITY_TABLE_DEFAULTS } from './defaults.js';
export { ENGINE_BASELINE } from './simd.js';
export { version } from './version.js';
export { MAX_TOKEN_BYTES } from './example-scenario.js';
export { Model, MODEL_DEFAULTS, MODEL_POSITION_SCHEMES, ADAM_DEFAULTS, SYNTHETIC_DEFAULTS } from './model.js';
export {
  POSITION_SCHEMES,
  MAX_ALIBI_HEADS,
  T5_BUCKET_DEFAULTS,
  ROPE_DEFAULTS,
  SINUSOIDAL_DEFAULTS,
} from './schemes.js';
export { openCheckpoint, CheckpointError, CHECKPOINT_DTYPES, MAX_CHECKPOINT_HEADER_BYTES } from './checkpoint-file.js';
export {
  biasMass,
  CHECKPOINT_OFFSET_REACH,
  MAX_CHECKPOINT_OFFSET,
  SAVED_MODEL_FORMAT,
} from './checkpoint-positions.js';

/**
 * Loads the WebAssembly module and resolves to a RelPos instance with its own memory. By default
 * from the binary inlined in the package; options.wasmBinary (the bytes of
 * relpos-wasm/relpos-core.wasm) or options.wasmModule (that file compiled) instead.
 */
export async function createRelPos(options) {
  return new RelPos(await loadCore('createRelPos', options));
}

export class RelPos extends BaseRelPos {
  /** A safetensors file (or an index and its shards): its tensors, read on demand. */
  openCheckpoint(source, options) {
    return openCheckpoint(source, options);
  }

  /** The position tables a checkpoint holds, as bias against offset per head. */
  checkpointPositions(checkpoint, options) {
    if (this.disposed) throw new Error('checkpointPositions: this RelPos instance has been disposed');
    return checkpointPositions(this, checkpoint, options);
  }
}
