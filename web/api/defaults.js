// The API's defaults: the core's own (its structs default-constructed, core-defaults.js, written
// from the module by scripts/make-defaults.mjs), shaped as each call's options, plus the few
// options only the JS API has (noted below). No WebAssembly here, so the page's settings take
// their defaults from this file without loading the module.
import { CORE_CONTRACT } from './core-contract.js';
import { CORE_DEFAULTS } from './core-defaults.js';

const {
  LocalityProfileParams: localityProfile,
  ScenarioSettings: example,
  ExampleSizes: exampleSizes,
  T5BucketParams: t5,
  RopeParams: rope,
  SinusoidalParams: sinusoidal,
  ModelConfig: model,
  AdamOptions: adam,
  SyntheticBatchOptions: synthetic,
} = CORE_DEFAULTS;

export const LOCALITY_PROFILE_DEFAULTS = Object.freeze({ ...localityProfile });

/** The locality table's shape (example({ table: 'locality' })); the handbook's figure. */
export const LOCALITY_TABLE_DEFAULTS = Object.freeze({ ...example.locality });

export const EXAMPLE_DEFAULTS = Object.freeze({
  seed: example.seed,
  seqLen: exampleSizes.n,
  dModel: exampleSizes.dModel,
  dK: exampleSizes.dK,
  maxDistance: exampleSizes.maxDistance,
  causal: false, // the JS API's: handed on with the inputs to attention()
  draw: example.draw,
  tokens: undefined, // the JS API's: the stable draw's words, else #0, #1, …
  table: example.table,
  locality: LOCALITY_TABLE_DEFAULTS,
  sameQuery: example.sameQuery,
});

/** example()'s choices, the core's enums by name (its contract): `draw` and `table`. */
export const EXAMPLE_CHOICES = Object.freeze({
  draw: Object.freeze([...CORE_CONTRACT.scenarioDraws]),
  table: Object.freeze([...CORE_CONTRACT.positionTables]),
});

export const T5_BUCKET_DEFAULTS = Object.freeze({ ...t5 });
/** RoPE's pairings, the core's RopeLayout enum by name (its contract). */
export const ROPE_LAYOUTS = Object.freeze([...CORE_CONTRACT.ropeLayouts]);
export const ROPE_DEFAULTS = Object.freeze({ base: rope.base, positions: undefined, layout: rope.layout });
export const SINUSOIDAL_DEFAULTS = Object.freeze({ ...sinusoidal });

/** Defaults of createModel(); vocabSize is required, ffnWidth defaults to 4 · dModel. */
export const MODEL_DEFAULTS = Object.freeze({
  dModel: model.dModel,
  heads: model.heads,
  layers: model.layers,
  ffnWidth: undefined,
  maxDistance: model.maxDistance,
  seqLen: model.seqLen,
  maxBatchSize: model.maxBatchSize,
  causal: model.causal,
  perHeadTables: model.perHeadTables,
  precision: 'float32', // the JS API's: the core is built for both
  seed: model.seed,
  position: undefined,
});

/** createModel's `position`: the scheme, and T5's buckets. */
export const MODEL_POSITION_DEFAULTS = Object.freeze({
  scheme: model.positionScheme,
  numBuckets: model.numBuckets,
  maxDistance: model.bucketDistance,
});

/** Defaults of trainStep()'s options (Adam with decoupled weight decay). */
export const ADAM_DEFAULTS = Object.freeze({ ...adam });

export const SYNTHETIC_DEFAULTS = Object.freeze({ ...synthetic });
