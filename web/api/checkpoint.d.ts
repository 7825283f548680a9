// Types for openCheckpoint and checkpointPositions (web/api/checkpoint-file.js,
// checkpoint-positions.js; docs/checkpoints.md).

/** The safetensors dtypes the reader converts. */
export type CheckpointDtype =
  'F64' | 'F32' | 'F16' | 'BF16' | 'I64' | 'I32' | 'I16' | 'I8' | 'U64' | 'U32' | 'U16' | 'U8' | 'BOOL';

/** What read() gives for each dtype: F16 and BF16 widened exactly to float32. */
export interface CheckpointArrays {
  F64: Float64Array;
  F32: Float32Array;
  F16: Float32Array;
  BF16: Float32Array;
  I64: BigInt64Array;
  I32: Int32Array;
  I16: Int16Array;
  I8: Int8Array;
  U64: BigUint64Array;
  U32: Uint32Array;
  U16: Uint16Array;
  U8: Uint8Array;
  BOOL: Uint8Array;
}

export type CheckpointSource = Blob | Uint8Array | ArrayBuffer;

export interface CheckpointTensorInfo {
  name: string;
  dtype: CheckpointDtype;
  shape: number[];
  /** The file (shard) that holds it. */
  file: string;
}

export interface CheckpointTensor {
  name: string;
  dtype: CheckpointDtype;
  shape: number[];
  /** Row-major values. */
  data: CheckpointArrays[CheckpointDtype];
}

export interface Checkpoint {
  /** The files read: the index first (when given), then each shard. */
  readonly files: readonly string[];
  /** Every tensor, in header order, shard by shard. */
  readonly tensors: readonly CheckpointTensorInfo[];
  /** `__metadata__` of a single file, or the index's `metadata`; null when there is none. */
  readonly metadata: Record<string, unknown> | null;
  /** True when the checkpoint holds a tensor of this name (own names only). */
  has(name: string): boolean;
  /** Reads one tensor's bytes (only those) and converts them; RangeError for an unknown name. */
  read(name: string): Promise<CheckpointTensor>;
}

export interface OpenCheckpointOptions {
  /** The name messages give bytes in memory (a File's own name is used otherwise). */
  name?: string;
}

/** A bad file: the message starts with the file's name; `file` holds it. */
export declare class CheckpointError extends Error {
  readonly file: string;
}

/** The largest header read: 16 MiB (the reference implementation allows 100 MB; real headers need a few hundred KB). */
export declare const MAX_CHECKPOINT_HEADER_BYTES: number;
export declare const CHECKPOINT_DTYPES: Readonly<Record<CheckpointDtype, { size: number }>>;
/** The offsets checkpointPositions reads when none are given: −256 … 256. */
export declare const CHECKPOINT_OFFSET_REACH: number;
/** The farthest |offset| checkpointPositions reads (2048). */
export declare const MAX_CHECKPOINT_OFFSET: number;
/** The `format` of a model the training section saves. */
export declare const SAVED_MODEL_FORMAT: 'relpos-train-model';

/** A model the training section saved (its JSON, or a .npz read back), as far as read here. */
export interface SavedModel {
  format: 'relpos-train-model';
  config: Record<string, unknown>;
  parameters: Record<string, { shape: number[]; data: ArrayLike<number> }>;
}

export interface CheckpointPositionsOptions {
  /** config.json, parsed: relative_attention_num_buckets, relative_attention_max_distance, num_heads. */
  config?: Record<string, unknown>;
  /** Offsets j − i to read the tables at (default −256 … 256; |offset| ≤ 2048). */
  offsets?: ArrayLike<number>;
  /** A tensor of the caller's to read instead of the T5 tables found by name… */
  tensor?: string;
  /** …by this rule: 't5' for [buckets, heads], 'shaw' for [2k + 1, d] or [heads, 2k + 1, d]. */
  rule?: 't5' | 'shaw';
  /** For rule 't5': both directions (default) or the past only. */
  bidirectional?: boolean;
  /** T5's max distance (default: config.json's, else 128). */
  maxDistance?: number;
  /** For a saved model: the token sequences of the mean query (default: model.positionProfile's). */
  tokens?: Int32Array | { tokens: Int32Array; batchSize: number; seqLen: number };
}

export interface CheckpointPositionTable {
  tensor: string;
  scheme: 't5' | 'shaw';
  part: 'encoder' | 'decoder';
  /** The block (T5) or layer (Shaw) the table belongs to. */
  layer: number;
  bidirectional: boolean;
  numBuckets?: number;
  maxDistance: number;
  heads: number;
  offsets: Int32Array;
  /** T5: each offset's bucket. */
  buckets?: Int32Array;
  /** heads × offsets, head-major: each head's bias at each offset. */
  bias: Float64Array;
  /** How the bias was read from the table, in words. */
  rule: string;
}

export interface BiasMass {
  left: number;
  self: number;
  right: number;
  /** The mean |offset| under that softmax. */
  meanDistance: number;
}

export declare function openCheckpoint(
  source: CheckpointSource | readonly CheckpointSource[],
  options?: OpenCheckpointOptions,
): Promise<Checkpoint>;

/** Softmax of one head's bias alone over offsets −window … window (the past only for a decoder). */
export declare function biasMass(table: CheckpointPositionTable, head: number, window: number): BiasMass;

export interface CheckpointMethods {
  openCheckpoint(
    source: CheckpointSource | readonly CheckpointSource[],
    options?: OpenCheckpointOptions,
  ): Promise<Checkpoint>;
  checkpointPositions(
    checkpoint: Checkpoint | SavedModel,
    options?: CheckpointPositionsOptions,
  ): Promise<CheckpointPositionTable[]>;
}
