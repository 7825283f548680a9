// relpos-wasm/worker: the API in a pool of module workers (one WebAssembly instance each).
import type {
  AttentionInputs,
  AttentionOptions,
  AttentionResult,
  AttentionTimings,
  Batch,
  ExampleOptions,
  ExampleResult,
  LocalityProfile,
  LocalityProfileOptions,
  MemoryInfo,
  OffsetMatrix,
  OutputName,
  SelectedResult,
  SyntheticBatchOptions,
} from './index.js';

export { OUTPUT_NAMES } from './index.js';
export type { OutputName, AttentionOptions, SelectedResult } from './index.js';

/** The most workers a pool starts (8). */
export declare const MAX_WORKERS: number;
/** attention() is split among the workers at multiples of this many query rows (32). */
export declare const BLOCK_ROWS: number;
/** navigator.hardwareConcurrency − 1, from 1 to MAX_WORKERS. */
export declare function defaultPoolSize(): number;
/** How n query rows are split among at most `parts` workers. */
export declare function splitRows(n: number, parts: number): { first: number; count: number }[];

export interface WorkerPoolOptions {
  /** Workers (WebAssembly instances), 1 … 8. Default defaultPoolSize(). */
  workers?: number;
  /** Starts one worker running worker-entry.js (default: a module worker beside worker.js). */
  createWorker?: () => Worker;
  /** relpos-wasm/relpos-core.wasm compiled, posted to every worker (default: the inlined binary, compiled once). */
  wasmModule?: WebAssembly.Module;
  /** The time every call is given before the time its work adds, in ms (default BASE_TIMEOUT_MS, 10 000). */
  timeoutMs?: number;
}

/** The time every call is given before the time its work adds, in ms (10 000). */
export declare const BASE_TIMEOUT_MS: number;
/** The time limit of a call of `work` multiply-adds: base + work / 50 000 per ms, at most 2^31 − 1 ms (setTimeout's longest). */
export declare function timeoutFor(work: number, base?: number): number;

/** The methods of RelPos, returning Promises; results are transferred from the workers. */
export declare class RelPosPool {
  private constructor();
  /** How many workers the pool runs. */
  readonly size: number;
  /**
   * One method on a worker by name. `signal` cancels it (a call not yet started is never
   * computed; one running has its task's own signal aborted; the Promise rejects with an
   * AbortError at once); `worker` picks one (default: the least busy); `transfer` hands buffers
   * of args over; `work` (multiply-adds) scales its time limit; `onProgress` receives the task's
   * reports before its result; `long`: no time limit, and the worker's next calls run beside it.
   */
  run(
    method: string,
    args: unknown[],
    options?: {
      signal?: AbortSignal;
      worker?: number;
      transfer?: Transferable[];
      work?: number;
      name?: string;
      onProgress?: (progress: unknown) => void;
      long?: boolean;
    },
  ): Promise<unknown>;
  /** A signal for the newest request of `key`: the key's earlier request is cancelled. */
  latest(key: unknown): AbortSignal;
  /** Resolves once every worker has its instance; rejects if one cannot start. */
  ready(): Promise<void[]>;
  /** One task on every worker, by name; resolves to their results in order. */
  each(method: string, args?: unknown[]): Promise<unknown[]>;
  attention<A extends Float64Array | Float32Array>(
    inputs: AttentionInputs<A>,
    out?: AttentionResult<A>,
  ): Promise<AttentionResult<A>>;
  attention<A extends Float64Array | Float32Array, O extends OutputName = OutputName>(
    inputs: AttentionInputs<A>,
    options: AttentionOptions<A, O>,
  ): Promise<SelectedResult<A, O>>;
  allocateAttention<A extends Float64Array | Float32Array, O extends OutputName = OutputName>(
    inputs: AttentionInputs<A>,
    options?: AttentionOptions<A, O>,
  ): Promise<SelectedResult<A, O>>;
  example(options?: ExampleOptions): Promise<ExampleResult>;
  randn(seed: number, count: number): Promise<Float64Array>;
  relativeOffsets(n: number, maxDistance: number): Promise<OffsetMatrix>;
  localityProfile(options?: LocalityProfileOptions): Promise<LocalityProfile>;
  syntheticBatch(options?: SyntheticBatchOptions): Promise<Batch>;
  /** Each worker's stage times of its part of the last attention() call. */
  lastTimings(): Promise<AttentionTimings[]>;
  /** Each worker's WebAssembly memory. */
  memory(): Promise<MemoryInfo[]>;
  /** How many calls of each method the workers have computed (each since it started). */
  taskCounts(): Promise<Record<string, number>>;
  /** Where each worker's instance came from: the pool's compiled module, or its own inlined binary. */
  loadedFrom(): Promise<('wasmModule' | 'inlined')[]>;
  /** Stops every worker; calls still running reject. */
  terminate(): void;
}

/** A module worker running the pool's worker script, loaded from beside worker.js. */
export declare function startRelPosWorker(): Worker;

/** Starts a pool and resolves once every worker has its WebAssembly instance. */
export declare function createRelPosWorker(options?: WorkerPoolOptions): Promise<RelPosPool>;
