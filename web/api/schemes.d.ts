// Types for the position schemes (web/api/schemes.js; docs/schemes.md). Offsets are key minus
// query, j − i, as everywhere in relpos.
import type { AttentionInputs, AttentionResult, Matrix, OffsetMatrix } from './index.js';
import type { PositionSchemeName, RopeLayout } from './scheme-names.js';

/** The scheme names and RoPE's layouts, generated from the core's contract. */
export type { ModelSchemeName, PositionSchemeName, RopeLayout } from './scheme-names.js';

export interface T5BucketOptions {
  /** Buckets in all (half a side when bidirectional). Default 32; at least 4 (2 one-way). */
  numBuckets?: number;
  /** Offsets from here on share the last bucket. Default 128; above the exact buckets. */
  maxDistance?: number;
  /** Separate buckets for keys after the query (else they all share bucket 0). Default true. */
  bidirectional?: boolean;
}

export interface RopeOptions {
  /** θ_t = base^(−2t/d). Default 10000. */
  base?: number;
  /** One position per row (any finite numbers). Default 0 … n − 1. */
  positions?: ArrayLike<number>;
  /** 'interleaved' pairs (2t, 2t + 1) as RoFormer; 'half' pairs (t, t + d/2) as GPT-NeoX/LLaMA. */
  layout?: RopeLayout;
}

/** T5: bias b[bucket(j − i)], one learned number per bucket, added unscaled. */
export interface T5Position extends T5BucketOptions {
  scheme: 't5';
  /** numBuckets numbers, or heads × numBuckets (one row per head). */
  biases: ArrayLike<number>;
}
/** ALiBi: bias −slope · |j − i|. */
export interface AlibiPosition {
  scheme: 'alibi';
  /** One slope, or one per head (e.g. rp.alibiSlopes(heads)). */
  slope: number | ArrayLike<number>;
}
/** RoPE: queries and keys rotated by their positions; bias = combined − content scores. */
export interface RopePosition {
  scheme: 'rope';
  base?: number;
  layout?: RopeLayout;
}
/** No position at all: combined = content. */
export interface NoPosition {
  scheme: 'none';
}
/** Sinusoidal: PE added to x before the projections; bias = combined − content scores. */
export interface SinusoidalPosition {
  scheme: 'sinusoidal';
  base?: number;
}

/** What every scheme takes as Shaw's does: heads, the scale and the masks. */
type SharedInputs<A extends Float64Array | Float32Array> = Pick<
  AttentionInputs<A>,
  'heads' | 'scale' | 'keyPadding' | 'allowed'
>;

/** attention() inputs for T5, ALiBi, RoPE or none: queries and keys, optional values (computed in their precision). */
export interface SchemeAttentionInputs<
  A extends Float64Array | Float32Array = Float64Array | Float32Array,
> extends SharedInputs<A> {
  q: Matrix<A>;
  k: Matrix<A>;
  v?: Matrix<A>;
  causal?: boolean;
  position: T5Position | AlibiPosition | RopePosition | NoPosition;
}

/** attention() inputs for the sinusoidal encoding: x and the projections it goes through. */
export interface SinusoidalAttentionInputs<
  A extends Float64Array | Float32Array = Float64Array | Float32Array,
> extends SharedInputs<A> {
  /** Token vectors, n × d_model. */
  x: Matrix<A>;
  /** d_model × d_k */
  wQ: Matrix<A>;
  /** d_model × d_k */
  wK: Matrix<A>;
  /** d_model × d_v; without it there is no output. */
  wV?: Matrix<A>;
  causal?: boolean;
  position: SinusoidalPosition;
}

export interface SchemeAttentionResult<
  A extends Float64Array | Float32Array = Float64Array | Float32Array,
> extends Omit<AttentionResult<A>, 'maxDistance'> {
  /** Shaw's clipping distance: null for the other schemes. */
  maxDistance: null;
  /** The position settings used, defaults filled in (T5's biases as a Float64Array copy). */
  position: { scheme: Exclude<PositionSchemeName, 'shaw'>; [option: string]: unknown };
}

/** The scheme methods of RelPos (declared on the class in index.d.ts). */
export interface SchemeMethods {
  /** T5's bucket of j − i for an n × n grid, as its _relative_position_bucket computes it. */
  t5Buckets(n: number, options?: T5BucketOptions): OffsetMatrix;
  /** The ALiBi paper's slopes, 1 … MAX_ALIBI_HEADS heads (its rule when not a power of two). */
  alibiSlopes(heads: number): Float64Array;
  /** x (n × d, d even) with each row's dimension pairs rotated by its position (computed in float64, returned in x's type). */
  rope<A extends Float64Array | Float32Array>(x: Matrix<A>, options?: RopeOptions): Matrix<A>;
  /** The sinusoidal encoding (Vaswani et al. 2017), n × d, float64. */
  sinusoidal(n: number, d: number, options?: { base?: number }): Matrix<Float64Array>;
}

export declare const POSITION_SCHEMES: readonly PositionSchemeName[];
export declare const MAX_ALIBI_HEADS: number;
export declare const T5_BUCKET_DEFAULTS: Readonly<Required<T5BucketOptions>>;
export declare const ROPE_DEFAULTS: Readonly<{ base: number; positions: undefined; layout: RopeLayout }>;
export declare const SINUSOIDAL_DEFAULTS: Readonly<{ base: number }>;
