// Types for relpos-wasm (hand-written: see web/api/index.js for the implementation).
import type {
  ModelSchemeName,
  SchemeAttentionInputs,
  SchemeAttentionResult,
  SchemeMethods,
  SinusoidalAttentionInputs,
} from './schemes.js';
import type { CheckpointMethods } from './checkpoint.js';
import type { PositionTableName, ScenarioDrawName, SyntheticTaskName } from './example-names.js';

export * from './schemes.js';
export * from './checkpoint.js';
export type { PositionTableName, ScenarioDrawName, SyntheticTaskName } from './example-names.js';

declare global {
  // Symbol.dispose (TypeScript's lib esnext.disposable, @types/node) for projects whose lib lacks it.
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** A row-major matrix: element (i, j) is data[i * cols + j]. */
export interface Matrix<A extends Float64Array | Float32Array = Float64Array | Float32Array> {
  rows: number;
  cols: number;
  data: A;
}

/** The clipped offsets clip(j - i, -k, k), key position j minus query position i. */
export interface OffsetMatrix {
  rows: number;
  cols: number;
  data: Int32Array;
}

/**
 * A matrix as attention() takes it: { rows, cols, data }, or { data, dims: [rows, cols] }
 * (onnxruntime-web's Tensor), or { data, shape: [rows, cols] } (tfjs, numpy-like).
 */
export type MatrixInput<A extends Float64Array | Float32Array = Float64Array | Float32Array> =
  Matrix<A> | { data: A; dims: readonly number[] } | { data: A; shape: readonly number[] };

export interface AttentionInputs<A extends Float64Array | Float32Array = Float64Array | Float32Array> {
  /**
   * Queries, n × d_k (with `heads`, n × (heads · d_k), the heads side by side). Its array type
   * (Float64Array or Float32Array) sets the precision.
   */
  q: MatrixInput<A>;
  /** Keys, n × d_k (with `heads`, n × (heads · d_k)). */
  k: MatrixInput<A>;
  /**
   * The relative key table a^K, (2k + 1) × d_k: row c is offset c - k. Sets k. With `heads`,
   * either (2k + 1) × d_k, shared by every head (as Shaw et al.), or (2k + 1) × (heads · d_k),
   * one table per head side by side.
   */
  relKeys: MatrixInput<A>;
  /** Values, n × d_v (with `heads`, n × (heads · d_v)). Without them there is no output. */
  v?: MatrixInput<A>;
  /** The relative value table a^V, (2k + 1) × d_v (with `heads`, shared or one per head, as relKeys). Needs v. */
  relValues?: MatrixInput<A>;
  /** Mask keys j > i before the softmax (their weights are exactly 0). Default false. */
  causal?: boolean;
  /**
   * The score scale: content and position scores are both multiplied by it. A finite number > 0
   * (finite and positive in float32 for Float32Array inputs). Default 1/√d_k (d_k of one head).
   */
  scale?: number;
  /**
   * How many heads lie side by side in the columns of q, k and v (default 1). Each panel of the
   * result is then heads blocks of q.rows rows, head after head (rows heads · q.rows: the layout
   * of PyTorch's [heads, L, S] attention weights); the output is q.rows × (heads · d_v), each
   * head's output in its own columns (PyTorch's concatenation before out_proj).
   */
  heads?: number;
  /**
   * One flag per key (length k.rows): **true (or 1) = a padding key** that no query attends to
   * (weight exactly 0), as PyTorch's key_padding_mask. A Uint8Array of 0 and 1, or booleans.
   */
  keyPadding?: Uint8Array | readonly boolean[];
  /**
   * Which keys each query may attend to, q.rows × k.rows: **true (or 1) = may attend**; false
   * cells weigh exactly 0 (the opposite of PyTorch's boolean attn_mask, where true = masked).
   * { rows, cols, data } with data a Uint8Array of 0 and 1 or booleans, or an array of q.rows
   * rows of booleans. Combines with causal and keyPadding: a key counts only if all allow it.
   * A query left with no key gets all-zero weights and a zero output (not NaN). The score
   * panels are returned unmasked, as with causal.
   */
  allowed?: BooleanMatrix | readonly (readonly boolean[])[];
  /** Shaw's relative position terms (the default); other schemes: schemes.d.ts. */
  position?: { scheme: 'shaw' };
}

/** A row-major boolean matrix: cell (i, j) is data[i * cols + j], 1 or true for yes. */
export interface BooleanMatrix {
  rows: number;
  cols: number;
  data: Uint8Array | readonly boolean[];
}

/**
 * attention()'s result. Each panel is n_q × n (n_q = q.rows, n = k.rows); with `heads`,
 * (heads · n_q) × n, head h's panel in rows h · n_q … (h + 1) · n_q − 1.
 */
export interface AttentionResult<A extends Float64Array | Float32Array = Float64Array | Float32Array> {
  /** The clipping distance k, from relKeys.rows = 2k + 1. */
  maxDistance: number;
  /** scale · q_i · k_j (scale 1/sqrt(d_k) by default), n × n. */
  contentScores: Matrix<A>;
  /** scale · q_i · a^K[clip(j - i) + k], n × n. */
  positionBiases: Matrix<A>;
  /** contentScores + positionBiases. Not masked: causal and the masks apply to the weights. */
  combinedScores: Matrix<A>;
  /** Row softmax of contentScores (masked keys weigh 0; a row with no key left is all 0). */
  contentWeights: Matrix<A>;
  /** Row softmax of combinedScores (masked keys weigh 0; a row with no key left is all 0). */
  combinedWeights: Matrix<A>;
  /** z_i = sum_j w_ij (v_j + a^V[clip(j - i) + k]), n × d_v (heads · d_v with heads); absent without v. */
  output?: Matrix<A>;
}

export interface LocalityProfileOptions {
  /** numpy seed, 0 … 2^32 - 1. Default 42. */
  seed?: number;
  /** Embedding width. Default 4. */
  dK?: number;
  /** Largest offset k; the profile covers -k … k. Default 5. */
  maxDistance?: number;
  /** Scale of the random part of the table. Default 0.1. */
  noise?: number;
  /** Sigma of the Gaussian locality bump, in positions. Default 1. */
  width?: number;
  /** In (-1, 1): sigma is width·(1 + a) looking back (offsets < 0), width·(1 - a) ahead. Default 0. */
  asymmetry?: number;
}

export interface LocalityProfile {
  /** -k … k */
  offsets: Int32Array;
  /** The simulated table a^K, (2k + 1) × d_k. */
  embeddings: Matrix<Float64Array>;
  /** ones(d_k) / sqrt(d_k) */
  query: Float64Array;
  /** embeddings · query: one score per offset. */
  profile: Float64Array;
}

export interface ExampleOptions {
  /** numpy seed. Default 42. */
  seed?: number;
  /** Number of positions n. Default 6. */
  seqLen?: number;
  /** Width of X. Default 8. */
  dModel?: number;
  /** Head width. Default 4. */
  dK?: number;
  /** Clipping distance k. Default 3. */
  maxDistance?: number;
  /** Causal mask. Default false. */
  causal?: boolean;
  /**
   * How the inputs are drawn. 'handbook' (default): X, W_Q, W_K, W_V, aᴷ, aⱽ in that order from
   * np.random.seed(seed), so every change re-rolls everything. 'stable': each word's embedding,
   * the weights and each offset's table row from a stream of their own, so a word is the same
   * row anywhere and changing k changes only the rows beyond the smaller k.
   */
  draw?: ScenarioDrawName;
  /** The words (non-empty strings); sets seqLen. Without them position i is the word "#i". */
  tokens?: string[];
  /** aᴷ as drawn ('random', default) or the handbook's simulated locality table ('locality'). */
  table?: PositionTableName;
  /** The locality table: noise · (random table) + strength · Gaussian bump on column 0. */
  locality?: LocalityTableOptions;
  /** Every query row is the uniform query (1, …, 1)/√d_k. Default false. */
  sameQuery?: boolean;
  /**
   * Which of attention()'s outputs to compute (as its `outputs`); default all. [] computes none:
   * only the draw (the result's panels are then absent).
   */
  outputs?: readonly OutputName[];
  /** The panels as views of WASM memory, as attention()'s `views`. Default false. */
  views?: boolean;
}

export interface LocalityTableOptions {
  /** Scale of the random part. Default 0.1. */
  noise?: number;
  /** σ of the bump, in positions (> 0). Default 1. */
  width?: number;
  /** In (−1, 1): σ × (1 + a) looking back, σ × (1 − a) ahead. Default 0. */
  asymmetry?: number;
  /** Height of the bump. Default 1 (the handbook's). */
  strength?: number;
}

export interface ExampleResult extends AttentionResult<Float64Array> {
  params: Required<Omit<ExampleOptions, 'tokens' | 'locality' | 'outputs' | 'views'>> & {
    tokens: string[] | undefined;
    locality: Required<LocalityTableOptions>;
  };
  /** The word at each position ("#i" where none was given). */
  tokens: string[];
  /** The uniform query's position bias per offset: (u · aᴷ[c]) / √d_k, u = (1, …, 1)/√d_k. */
  profile: { offsets: Int32Array; values: Float64Array };
  /** X (n × d_model) and the projections W_Q, W_K, W_V (d_model × d_k). */
  weights: { x: Matrix<Float64Array>; wQ: Matrix<Float64Array>; wK: Matrix<Float64Array>; wV: Matrix<Float64Array> };
  /** Q = X W_Q, K = X W_K, V = X W_V and the tables a^K, a^V: pass them to attention(). */
  inputs: {
    q: Matrix<Float64Array>;
    k: Matrix<Float64Array>;
    v: Matrix<Float64Array>;
    relKeys: Matrix<Float64Array>;
    relValues: Matrix<Float64Array>;
    causal: boolean;
  };
  output: Matrix<Float64Array>;
}

/** example()'s draw, whatever outputs it computes: its settings, words, inputs and profile. */
export type ExampleDraw = Omit<ExampleResult, OutputName>;

/** What attention() can compute and return. */
export type OutputName =
  'contentScores' | 'positionBiases' | 'combinedScores' | 'contentWeights' | 'combinedWeights' | 'output';

/** OUTPUT_NAMES: every name attention()'s `outputs` accepts, in the core's order. */
export declare const OUTPUT_NAMES: readonly OutputName[];

export interface AttentionOptions<A extends Float64Array | Float32Array, O extends OutputName = OutputName> {
  /** The outputs to compute and return (default: all; 'output' needs v). */
  outputs?: readonly O[];
  /** An earlier result with the same options, written into and returned. */
  out?: SelectedResult<A, O>;
  /** q holds queries queryOffset … queryOffset + q.rows − 1 of the k.rows positions. */
  queryOffset?: number;
  /**
   * Views of the instance's WASM memory instead of copies (not with `out`): valid until the
   * next call on the instance or dispose(), which detach them (length 0).
   */
  views?: boolean;
}

/** The outputs asked for, and maxDistance. */
export type SelectedResult<A extends Float64Array | Float32Array, O extends OutputName> = {
  [K in O]: Matrix<A>;
} & { maxDistance: number };

export interface MemoryInfo {
  /** Size of the instance's WebAssembly memory. */
  wasmBytes: number;
  /** Bytes malloc has handed out inside it. */
  heapInUseBytes: number;
}

/** The position schemes' methods (t5Buckets, alibiSlopes, rope, sinusoidal): schemes.d.ts. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface, @typescript-eslint/no-empty-object-type
export interface RelPos extends SchemeMethods, CheckpointMethods {}
export declare class RelPos {
  private constructor();
  /** np.random.seed(seed); np.random.randn(count). */
  randn(seed: number, count: number): Float64Array;
  /** The n × n matrix clip(j - i, -maxDistance, maxDistance). */
  relativeOffsets(n: number, maxDistance: number): OffsetMatrix;
  // The other schemes' overload comes first and the one with options takes every scheme: a call
  // that matches none is reported against Shaw's inputs, naming the field that is wrong.
  /** With position: { scheme: a PositionSchemeName other than 'shaw', … } (schemes.d.ts). */
  attention<A extends Float64Array | Float32Array>(
    inputs: SchemeAttentionInputs<A> | SinusoidalAttentionInputs<A>,
  ): SchemeAttentionResult<A>;
  /**
   * Every panel of relative self-attention; results keep the inputs' precision. Pass an earlier
   * result of the same shapes as `{ out }` to have its arrays overwritten and it returned.
   */
  attention<A extends Float64Array | Float32Array>(
    inputs: AttentionInputs<A> & { v: MatrixInput<A> },
  ): AttentionResult<A> & { output: Matrix<A> };
  attention<A extends Float64Array | Float32Array>(
    inputs: AttentionInputs<A> & { v?: undefined },
  ): AttentionResult<A> & { output?: undefined };
  attention<A extends Float64Array | Float32Array>(inputs: AttentionInputs<A>): AttentionResult<A>;
  /**
   * Only the outputs named (and what they need) are computed and copied out; `out` (from an
   * earlier call or allocateAttention() with the same options) is written into and returned;
   * `queryOffset` places q's rows among k's (panels q.rows × k.rows).
   */
  attention<A extends Float64Array | Float32Array, O extends OutputName = OutputName>(
    inputs: AttentionInputs<A> | SchemeAttentionInputs<A> | SinusoidalAttentionInputs<A>,
    options: AttentionOptions<A, O>,
  ): SelectedResult<A, O>;
  /** A result of zeros shaped for attention(inputs, options), to pass as its `out`. */
  allocateAttention<A extends Float64Array | Float32Array, O extends OutputName = OutputName>(
    inputs: AttentionInputs<A>,
    options?: AttentionOptions<A, O>,
  ): SelectedResult<A, O>;
  /** The handbook's simulated locality profile. */
  localityProfile(options?: LocalityProfileOptions): LocalityProfile;
  /** The page's default scenario, drawn from numpy's stream, and its attention panels. */
  /** With outputs: the draw and only the outputs named ([]: the draw alone). */
  example<O extends OutputName>(
    options: ExampleOptions & { outputs: readonly O[] },
  ): ExampleDraw & SelectedResult<Float64Array, O>;
  example(options?: ExampleOptions): ExampleResult;
  memory(): MemoryInfo;
  /** Milliseconds the core spent in each stage of the last attention() call. */
  lastTimings(): AttentionTimings;
  /** A trainable relative-attention model in this instance's memory; free it with dispose(). */
  createModel<P extends Precision = 'float32'>(config: ModelConfig<P>): Model<ArrayOf<P>>;
  /** A batch of a synthetic task (copy-offset or sum-offset). */
  syntheticBatch(options?: SyntheticBatchOptions): Batch;
  /** True after dispose(). */
  readonly disposed: boolean;
  /** The GEMM kernels this instance runs ('relaxed' or 'plain'). */
  readonly kernels: KernelBuild;
  /**
   * Frees this instance's blocks and models inside its WebAssembly memory and lets go of the
   * instance; later calls throw. WebAssembly memory never shrinks: it goes back to the system
   * when the garbage collector finds nothing refers to it. Safe to call twice.
   */
  dispose(): void;
  /** dispose(), for `using rp = await createRelPos()`. */
  [Symbol.dispose](): void;
}

export interface AttentionTimings {
  /** Q Kᵀ (a matrix product). */
  contentScores: number;
  /** Q aᴷᵀ and the gather by offset. */
  positionBiases: number;
  /** Combined scores and both softmaxes. */
  softmax: number;
  /** W V (a matrix product). */
  valueProduct: number;
  /** The bucketed aⱽ term. */
  valuePosition: number;
}

// ---- Training engine (README "Training a model")

export type Precision = 'float32' | 'float64';
type ArrayOf<P extends Precision> = P extends 'float64' ? Float64Array : Float32Array;

export interface ModelConfig<P extends Precision = Precision> {
  /** Token ids are 0 … vocabSize − 1. Required. */
  vocabSize: number;
  /** Model width d. Default 32. */
  dModel?: number;
  /** Attention heads; dModel must be a multiple (head width d / heads). Default 2. */
  heads?: number;
  /** Blocks of attention + feed-forward, 1 … 4. Default 1. */
  layers?: number;
  /** Hidden width of the feed-forward layer. Default 4 · dModel. */
  ffnWidth?: number;
  /** Clipping distance k: tables of 2k + 1 rows; 0 leaves the model blind to order. Default 4. */
  maxDistance?: number;
  /** The longest sequence a batch may hold. Default 16. */
  seqLen?: number;
  /** Sequences processed at once (memory is sized for it); larger batches run in chunks. Default 32. */
  maxBatchSize?: number;
  /** Position i attends to keys j ≤ i only. Default false. */
  causal?: boolean;
  /** One aᴷ/aⱽ table per head instead of one per layer. Default false. */
  perHeadTables?: boolean;
  /** Default 'float32'. */
  precision?: P;
  /** Initial parameters are np.random.seed(seed) Gaussians, scaled. Default 0. */
  seed?: number;
  /**
   * The position scheme (docs/schemes.md). Default Shaw's tables; 't5' learns one bias per layer,
   * head and bucket (numBuckets, maxDistance: T5's, default 32 and 128), 'alibi' uses the paper's
   * slopes, 'rope' rotates queries and keys (interleaved pairs), 'sinusoidal' and 'absolute' (a
   * learned seqLen × dModel table) add to the embeddings, 'none' has no position at all. With
   * any but 'shaw', the model has no aᴷ/aⱽ (attention() and positionProfile() need them).
   */
  position?: {
    scheme?: ModelSchemeName;
    numBuckets?: number;
    maxDistance?: number;
  };
}

/** batchSize sequences of seqLen ids, row-major; targets −1 = no loss at that position. */
export interface Batch {
  tokens: Int32Array;
  targets: Int32Array;
  batchSize: number;
  seqLen: number;
}

export interface AdamOptions {
  /** Default 0.001. */
  learningRate?: number;
  /** Default 0.9. */
  beta1?: number;
  /** Default 0.999. */
  beta2?: number;
  /** Default 1e-8. */
  epsilon?: number;
  /** Decoupled (AdamW) weight decay. Default 0. */
  weightDecay?: number;
  /** Clip the gradient's global norm to this; 0 = no clipping. Default 0. */
  maxGradNorm?: number;
}

export interface SyntheticBatchOptions {
  /** Default 'copy-offset'. */
  task?: SyntheticTaskName;
  /** −seqLen … seqLen. Default 1. */
  offset?: number;
  /** Default 16. */
  vocabSize?: number;
  /** Default 16. */
  seqLen?: number;
  /** Default 32. */
  batchSize?: number;
  /** Default 0. */
  seed?: number;
}

export interface HeadSelector {
  /** Default 0. */
  layer?: number;
  /** Default 0. */
  head?: number;
}

export interface PositionProfile {
  layer: number;
  head: number;
  /** −k … k */
  offsets: Int32Array;
  /** Mean over positions of q_i · aᴷ[c] / sqrt(d_k). */
  profile: Float64Array;
}

/** model.headInputs()' result: each head's inputs to attention(), layer by layer. */
export type HeadInputs<A extends Float64Array | Float32Array = Float32Array> = Array<{
  q: Matrix<A>;
  k: Matrix<A>;
  relKeys: Matrix<A>;
  v: Matrix<A>;
  relValues: Matrix<A>;
  layer: number;
  head: number;
  causal: boolean;
}>;

export declare class Model<A extends Float64Array | Float32Array = Float32Array> {
  private constructor();
  /** The resolved configuration, every default filled in. */
  readonly config: Readonly<Omit<Required<ModelConfig>, 'position'>> & {
    /** undefined with Shaw's tables (the default); else the scheme with its options resolved. */
    readonly position: Readonly<NonNullable<ModelConfig['position']>> | undefined;
  };
  /** True after dispose(). */
  readonly disposed: boolean;
  /** Adam steps taken. */
  readonly steps: number;
  /** Every parameter by name (copies). */
  parameters(): Record<string, { shape: number[]; data: A }>;
  /** Every parameter in one array, in the core's order (a copy, or written into out's memory). */
  parameterVector(options?: { out?: A }): A;
  /** Overwrites the named parameters, or all of them from one array (parameterVector()'s layout). */
  setParameters(values: Record<string, Float32Array | Float64Array> | A): void;
  lossAndGradients(batch: Batch): { loss: number; gradients: Record<string, A> };
  /**
   * One shard of a step split across workers: loss and gradient of this batch's part of a step whose
   * shards hold stepTargets targets in all (gradients in parameterVector()'s layout).
   */
  shardGradients(batch: Batch, options: { stepTargets: number; out?: A }): { loss: number; gradients: A };
  /** One Adam step on the sum of a step's shard gradients, added in the order given. */
  applyGradients(shards: A[], options?: AdamOptions): void;
  /** Forward, backward and one Adam step; the loss before the step. */
  trainStep(batch: Batch, options?: AdamOptions): { loss: number };
  evaluate(batch: Batch): { loss: number; accuracy: number };
  /** Every panel of attention() for one head on one sequence. */
  attention(tokens: Int32Array, options?: HeadSelector): AttentionResult<A> & { layer: number; head: number };
  /**
   * Every head's inputs to attention() on one sequence, from one pass through the model; with
   * `out` (an earlier result for a sequence of the same length) written into its arrays.
   */
  headInputs(tokens: Int32Array, options?: { out?: HeadInputs<A> }): HeadInputs<A>;
  /** The learned profile per offset −k … k on one sequence or a batch. */
  positionProfile(
    tokens: Int32Array | (Omit<Batch, 'targets'> & { targets?: Int32Array }),
    options?: HeadSelector,
  ): PositionProfile;
  /** The same on 32 sequences of uniform random tokens (syntheticBatch, seed 0). */
  positionProfile(options?: HeadSelector): PositionProfile;
  /** Frees the model's memory; later calls throw. */
  dispose(): void;
  /** dispose(), for `using model = rp.createModel(…)`. */
  [Symbol.dispose](): void;
}

export declare const MODEL_DEFAULTS: Readonly<
  Omit<Required<ModelConfig>, 'vocabSize' | 'ffnWidth' | 'position'> & { ffnWidth: undefined; position: undefined }
>;
/** createModel's position schemes, in the core's order. */
export declare const MODEL_POSITION_SCHEMES: readonly ModelSchemeName[];
export declare const ADAM_DEFAULTS: Readonly<Required<AdamOptions>>;
export declare const SYNTHETIC_DEFAULTS: Readonly<Required<SyntheticBatchOptions>>;

/**
 * Where the WebAssembly binary comes from: at most one of the three (relpos-wasm/slim needs one;
 * relpos-wasm uses its inlined copy without).
 */
export interface CreateRelPosOptions {
  /** The address of relpos-wasm/relpos-core.wasm, fetched and compiled (streaming when served as application/wasm). */
  wasmUrl?: string | URL;
  /** The bytes of relpos-wasm/relpos-core.wasm (instead of the copy inlined in the package). */
  wasmBinary?: ArrayBuffer | Uint8Array | Blob;
  /** relpos-wasm/relpos-core.wasm compiled (e.g. by WebAssembly.compileStreaming), shareable with workers. */
  wasmModule?: WebAssembly.Module;
  /**
   * The GEMM kernels: 'relaxed' (relaxed SIMD, fused multiply-add) or 'plain' (SIMD128). Default:
   * relaxed where the engine validates it (Chrome or Edge 114+, Node.js 21+, Node.js 20 with
   * --experimental-wasm-relaxed-simd), plain elsewhere (Safari).
   */
  kernels?: KernelBuild;
}

/** The builds of the GEMM kernels. */
export type KernelBuild = 'relaxed' | 'plain';

/**
 * Loads the WebAssembly module: each call gives an instance with its own memory. Rejects with an
 * Error naming ENGINE_BASELINE where WebAssembly SIMD is missing.
 */
export declare function createRelPos(options?: CreateRelPosOptions): Promise<RelPos>;

/** The package's version, as in its package.json. */
export declare const version: string;
/** The engines relpos-wasm needs (WebAssembly SIMD), as named in its errors. */
export declare const ENGINE_BASELINE: string;

export declare const LOCALITY_PROFILE_DEFAULTS: Readonly<Required<LocalityProfileOptions>>;
export declare const EXAMPLE_DEFAULTS: Readonly<Required<ExampleOptions>>;
/** Bytes one call may use in WASM memory; larger calls are refused with a RangeError. */
export declare const MAX_CALL_BYTES: number;
/** Multiply-adds one call may take on a page's main thread (2^33); workers and Node are not bounded. */
export declare const MAX_MAIN_THREAD_WORK: number;
/** The largest matrix side accepted. */
export declare const MAX_DIMENSION: number;
/** The largest seed, 2^32 - 1. */
export declare const MAX_SEED: number;
