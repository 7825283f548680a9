// Types for relpos-wasm (hand-written: see web/api/index.js for the implementation).

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

export interface AttentionInputs<A extends Float64Array | Float32Array = Float64Array | Float32Array> {
  /** Queries, n × d_k. Its array type (Float64Array or Float32Array) sets the precision. */
  q: Matrix<A>;
  /** Keys, n × d_k. */
  k: Matrix<A>;
  /** The relative key table a^K, (2k + 1) × d_k: row c is offset c - k. Sets k. */
  relKeys: Matrix<A>;
  /** Values, n × d_v. Without them there is no output. */
  v?: Matrix<A>;
  /** The relative value table a^V, (2k + 1) × d_v. Needs v. */
  relValues?: Matrix<A>;
  /** Mask keys j > i before the softmax (their weights are exactly 0). Default false. */
  causal?: boolean;
}

export interface AttentionResult<A extends Float64Array | Float32Array = Float64Array | Float32Array> {
  /** The clipping distance k, from relKeys.rows = 2k + 1. */
  maxDistance: number;
  /** q_i · k_j / sqrt(d_k), n × n. */
  contentScores: Matrix<A>;
  /** q_i · a^K[clip(j - i) + k] / sqrt(d_k), n × n. */
  positionBiases: Matrix<A>;
  /** contentScores + positionBiases. Not masked: the causal mask applies to the weights. */
  combinedScores: Matrix<A>;
  /** Row softmax of contentScores (masked when causal). */
  contentWeights: Matrix<A>;
  /** Row softmax of combinedScores (masked when causal). */
  combinedWeights: Matrix<A>;
  /** z_i = sum_j w_ij (v_j + a^V[clip(j - i) + k]), n × d_v; null without v. */
  output: Matrix<A> | null;
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
  draw?: 'handbook' | 'stable';
  /** The words (non-empty strings); sets seqLen. Without them position i is the word "#i". */
  tokens?: string[];
  /** aᴷ as drawn ('random', default) or the handbook's simulated locality table ('locality'). */
  table?: 'random' | 'locality';
  /** The locality table: noise · (random table) + strength · Gaussian bump on column 0. */
  locality?: LocalityTableOptions;
  /** Every query row is the uniform query (1, …, 1)/√d_k. Default false. */
  sameQuery?: boolean;
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
  params: Required<Omit<ExampleOptions, 'tokens' | 'locality'>> & {
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
  inputs: Required<AttentionInputs<Float64Array>>;
  output: Matrix<Float64Array>;
}

export interface MemoryInfo {
  /** Size of the instance's WebAssembly memory. */
  wasmBytes: number;
  /** Bytes malloc has handed out inside it. */
  heapInUseBytes: number;
}

export declare class RelPos {
  private constructor();
  /** np.random.seed(seed); np.random.randn(count). */
  randn(seed: number, count: number): Float64Array;
  /** The n × n matrix clip(j - i, -maxDistance, maxDistance). */
  relativeOffsets(n: number, maxDistance: number): OffsetMatrix;
  /**
   * Every panel of relative self-attention; results keep the inputs' precision. With `out` (an
   * earlier result of the same shapes), its arrays are overwritten and it is returned.
   */
  attention<A extends Float64Array | Float32Array>(inputs: AttentionInputs<A>, out?: AttentionResult<A>): AttentionResult<A>;
  /** The handbook's simulated locality profile. */
  localityProfile(options?: LocalityProfileOptions): LocalityProfile;
  /** The page's default scenario, drawn from numpy's stream, and its attention panels. */
  example(options?: ExampleOptions): ExampleResult;
  memory(): MemoryInfo;
  /** Milliseconds the core spent in each stage of the last attention() call. */
  lastTimings(): AttentionTimings;
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

/** Loads the WebAssembly module: each call gives an instance with its own memory. */
export declare function createRelPos(): Promise<RelPos>;

export declare const LOCALITY_PROFILE_DEFAULTS: Readonly<Required<LocalityProfileOptions>>;
export declare const EXAMPLE_DEFAULTS: Readonly<Required<ExampleOptions>>;
/** Bytes one call may use in WASM memory; larger calls are refused with a RangeError. */
export declare const MAX_CALL_BYTES: number;
/** The largest matrix side accepted. */
export declare const MAX_DIMENSION: number;
/** The largest seed, 2^32 - 1. */
export declare const MAX_SEED: number;
