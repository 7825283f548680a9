// The model's configuration and the options of its calls, checked (README.md, "Training a
// model"): createModel's config by the core's limits (its contract) and, where the module has the
// training engine, by the core's own check of the whole; syntheticBatch's options; a call's layer
// and head; a sequence and a batch (read once, then checked) and their ids; the work of a pass.
// web/api/model.js's Model and model-heads.js read them.
import { MODEL_DEFAULTS, MODEL_POSITION_DEFAULTS, SYNTHETIC_DEFAULTS } from './defaults.js';
import { CORE_CONTRACT } from './core-contract.js';
import { MAX_DIMENSION, MAX_SEED } from './limits.js';
import { SCHEMES, t5ExactBuckets } from './schemes.js';
import { Snapshot, isPlainObject } from './snapshot.js';
import {
  checkBoolean,
  checkBudget,
  checkInteger,
  checkOptions,
  checkWork,
  describe,
  typedArrayType,
} from './validate.js';

/** createModel's position schemes (docs/schemes.md); 'shaw' (the a^K / a^V tables) is the default. */
export const MODEL_POSITION_SCHEMES = SCHEMES;

/** syntheticBatch's tasks, by the core's SyntheticTask names. */
const SYNTHETIC_TASKS = CORE_CONTRACT.syntheticTasks;

// The largest model the core takes, field by field (its contract).
const LIMITS = CORE_CONTRACT.model;
export const I32 = Int32Array.BYTES_PER_ELEMENT;
/** The Error of createModel and syntheticBatch where the module has no training engine (the page's first-load build: vite.config.js). */
export const NO_TRAINING = (where) =>
  `${where}: this build of the module has no training engine (the page's first-load build); import relpos-wasm itself`;
/** positionProfile without sequences reads this many of seqLen uniform random tokens (seed 0). */
export const DEFAULT_PROFILE_SEQUENCES = 32;

/** The configuration as the core's ModelConfig: the scheme by its enum, T5's buckets by their field names. */
export function coreModelConfig(core, c) {
  const { position, ...rest } = c;
  delete rest.precision; // the JS API's: the core is built for both
  return {
    ...rest,
    positionScheme: core.PositionScheme[position?.scheme ?? MODEL_POSITION_DEFAULTS.scheme],
    numBuckets: position?.numBuckets ?? MODEL_POSITION_DEFAULTS.numBuckets,
    bucketDistance: position?.maxDistance ?? MODEL_POSITION_DEFAULTS.maxDistance,
  };
}

/** Bytes of WASM memory a model of this (resolved) configuration holds: the core's count. */
export function modelBytes(core, c) {
  return core.modelBytes(coreModelConfig(core, c), c.precision === 'float64' ? 8 : 4);
}

/**
 * createModel's config: defaults filled in, every field checked, by the core's limits (its
 * contract) and then, where the module has the training engine (`core.checkModelConfig`), by the
 * core's own check of the whole (dModel a multiple of heads, RoPE's even head width) and its count
 * of the bytes the model holds.
 */
export function resolveModelConfig(where, config, core) {
  const c = checkOptions(where, 'config', config, MODEL_DEFAULTS, ['vocabSize']);
  checkInteger(where, 'vocabSize', c.vocabSize, 1, LIMITS.maxVocabSize);
  checkInteger(where, 'dModel', c.dModel, 1, LIMITS.maxDModel);
  checkInteger(where, 'heads', c.heads, 1, LIMITS.maxDModel); // at most dModel: the core's check below
  checkInteger(where, 'layers', c.layers, LIMITS.minLayers, LIMITS.maxLayers);
  c.ffnWidth ??= 4 * c.dModel;
  checkInteger(where, 'ffnWidth', c.ffnWidth, 1, LIMITS.maxFfnWidth);
  checkInteger(where, 'maxDistance', c.maxDistance, 0, LIMITS.maxMaxDistance);
  checkInteger(where, 'seqLen', c.seqLen, 1, LIMITS.maxSeqLen);
  checkInteger(where, 'maxBatchSize', c.maxBatchSize, 1, LIMITS.maxBatchSize);
  checkBoolean(where, 'causal', c.causal);
  checkBoolean(where, 'perHeadTables', c.perHeadTables);
  if (typeof c.precision !== 'string') {
    throw new TypeError(`${where}: precision must be 'float32' or 'float64', got ${describe(c.precision)}`);
  }
  if (c.precision !== 'float32' && c.precision !== 'float64') {
    throw new RangeError(`${where}: precision must be 'float32' or 'float64', got ${JSON.stringify(c.precision)}`);
  }
  checkInteger(where, 'seed', c.seed, 0, MAX_SEED);
  if (c.position !== undefined) c.position = resolveModelPosition(where, c);
  if (core?.checkModelConfig) {
    const error = core.checkModelConfig(coreModelConfig(core, c));
    if (error) throw new RangeError(`${where}: ${error}`);
    checkBudget(where, 'this configuration', modelBytes(core, c));
  }
  return c;
}

// createModel's `position: { scheme, numBuckets, maxDistance }` (the last two for T5), checked
// by the core's limits and T5 rules (one way when causal).
function resolveModelPosition(where, c) {
  const p = checkOptions(where, 'position', c.position, MODEL_POSITION_DEFAULTS);
  if (typeof p.scheme !== 'string') {
    throw new TypeError(
      `${where}: position.scheme must be one of ${MODEL_POSITION_SCHEMES.join(', ')}, got ${describe(p.scheme)}`,
    );
  }
  if (!MODEL_POSITION_SCHEMES.includes(p.scheme)) {
    throw new RangeError(
      `${where}: position.scheme must be one of ${MODEL_POSITION_SCHEMES.join(', ')}, got ${JSON.stringify(p.scheme)}`,
    );
  }
  checkInteger(where, 'position.numBuckets', p.numBuckets, LIMITS.minBuckets, LIMITS.maxBuckets);
  const exact = t5ExactBuckets(p.numBuckets, !c.causal);
  checkInteger(where, 'position.maxDistance', p.maxDistance, exact + 1, LIMITS.maxBucketDistance);
  return Object.freeze(p);
}

/** syntheticBatch's options, checked. */
export function resolveSyntheticOptions(where, options) {
  const o = checkOptions(where, 'options', options, SYNTHETIC_DEFAULTS);
  if (typeof o.task !== 'string') {
    throw new TypeError(`${where}: task must be one of ${SYNTHETIC_TASKS.join(', ')}, got ${describe(o.task)}`);
  }
  if (!SYNTHETIC_TASKS.includes(o.task)) {
    throw new RangeError(`${where}: task must be one of ${SYNTHETIC_TASKS.join(', ')}, got ${JSON.stringify(o.task)}`);
  }
  checkInteger(where, 'vocabSize', o.vocabSize, 1, LIMITS.maxVocabSize);
  checkInteger(where, 'seqLen', o.seqLen, 1, LIMITS.maxSeqLen);
  checkInteger(where, 'batchSize', o.batchSize, 1, MAX_DIMENSION);
  checkInteger(where, 'offset', o.offset, -o.seqLen, o.seqLen);
  checkInteger(where, 'seed', o.seed, 0, MAX_SEED);
  checkBudget(where, `batchSize × seqLen = ${o.batchSize * o.seqLen}`, 2 * o.batchSize * o.seqLen * I32);
  return o;
}

/** A model call's { layer, head } options, checked against the configuration. */
export function checkLayerHead(where, options, config) {
  const o = checkOptions(where, 'options', options, { layer: 0, head: 0 });
  checkInteger(where, 'layer', o.layer, 0, config.layers - 1);
  checkInteger(where, 'head', o.head, 0, config.heads - 1);
  return o;
}

// Multiply-adds of one forward and backward pass over `rows` positions in sequences of seqLen:
// the projections and the feed-forward layer (2 · d · (4d + 2f) each way), attention (4 · n · d),
// the output layer (3 · d · V).
export function modelWork(c, rows, seqLen) {
  const { dModel: d, ffnWidth: f, layers, vocabSize } = c;
  return rows * (layers * (3 * d * (4 * d + 2 * f) + 6 * seqLen * d) + 3 * d * vocabSize);
}

/** Each id of `ids` from min to end − 1, else a RangeError naming its index. */
export function checkIds(where, name, ids, min, end) {
  for (let i = 0; i < ids.length; i += 1) {
    const id = ids[i];
    if (id < min || id >= end) {
      throw new RangeError(`${where}: ${name}[${i}] is ${id}; ids must be from ${min} to ${end - 1}`);
    }
  }
}

/** A sequence of token ids (read: a view), checked: an Int32Array of 1 to seqLen ids of the vocabulary. */
export function checkSequence(where, tokens, config) {
  if (typedArrayType(tokens) !== Int32Array) {
    throw new TypeError(`${where}: tokens must be an Int32Array of token ids, got ${describe(tokens)}`);
  }
  const { seqLen, vocabSize } = config;
  if (tokens.length < 1 || tokens.length > seqLen) {
    throw new RangeError(`${where}: tokens must hold 1 to seqLen (${seqLen}) ids, got ${tokens.length}`);
  }
  checkIds(where, 'tokens', tokens, 0, vocabSize);
  return tokens;
}

/** A batch { tokens, targets, batchSize, seqLen } read once (readBatch) and checked (checkReadBatch); without targets when withTargets is false. */
export function checkBatch(where, given, config, withTargets = true) {
  // Each field read once (tokens and targets as views by their intrinsic length), then checked.
  const snapshot = new Snapshot(where);
  const batch = readBatch(snapshot, given);
  snapshot.seal();
  return checkReadBatch(where, batch, config, withTargets);
}

/** A batch's fields read into `snapshot`, tokens and targets as views. */
export function readBatch(snapshot, given) {
  return snapshot.fields(given, (key, item) =>
    key === 'tokens' || key === 'targets' ? snapshot.typedArray(`batch.${key}`, item) : item,
  );
}

/** A batch read by readBatch, checked against the configuration: its fields, sizes, work and ids. */
export function checkReadBatch(where, batch, config, withTargets = true) {
  if (!isPlainObject(batch)) {
    throw new TypeError(
      `${where}: batch must be an object { tokens, targets, batchSize, seqLen }, got ${describe(batch)}`,
    );
  }
  const known = ['tokens', 'targets', 'batchSize', 'seqLen'];
  for (const key of Object.keys(batch)) {
    if (!known.includes(key))
      throw new TypeError(`${where}: unknown batch field ${JSON.stringify(key)}; expected ${known.join(', ')}`);
  }
  const { seqLen: maxSeqLen, vocabSize } = config;
  checkInteger(where, 'batch.batchSize', batch.batchSize, 1, MAX_DIMENSION);
  checkInteger(where, 'batch.seqLen', batch.seqLen, 1, maxSeqLen);
  const length = batch.batchSize * batch.seqLen;
  checkBudget(where, `batchSize × seqLen = ${length}`, 2 * length * I32);
  checkWork(where, `batchSize × seqLen = ${length}`, modelWork(config, length, batch.seqLen));
  const fields = withTargets ? ['tokens', 'targets'] : ['tokens'];
  for (const name of fields) {
    const data = batch[name];
    if (typedArrayType(data) !== Int32Array) {
      throw new TypeError(`${where}: batch.${name} must be an Int32Array, got ${describe(data)}`);
    }
    if (data.length !== length) {
      throw new RangeError(
        `${where}: batch.${name} must hold batchSize × seqLen = ${batch.batchSize} × ${batch.seqLen} = ${length} ids, got ${data.length}`,
      );
    }
  }
  checkIds(where, 'batch.tokens', batch.tokens, 0, vocabSize);
  if (withTargets) checkIds(where, 'batch.targets', batch.targets, -1, vocabSize);
  return batch;
}
