// Sizes the API accepts. WASM memory is 32-bit (at most 2 GiB here), so every call is checked
// against a byte budget before anything is allocated: too large is a RangeError, never an abort.
// What the core itself accepts comes from its contract (core-contract.js, generated).
import { CORE_CONTRACT } from './core-contract.js';

/** Bytes one call may ask for in WASM memory (inputs, results and scratch together). */
export const MAX_CALL_BYTES = 2 ** 30;

/**
 * Multiply-adds one call may take on a page's main thread: 2^33, about 1.5 s of float32 attention
 * on the machine the benchmarks run on (docs/api-boundary.md). Workers and Node are not bounded.
 */
export const MAX_MAIN_THREAD_WORK = 2 ** 33;

/** The largest matrix side or vector length accepted anywhere (keeps every index in int32). */
export const MAX_DIMENSION = 2 ** 24;

/** The largest clipping distance k of a relative table the API draws: its 2k + 1 rows stay within MAX_DIMENSION. */
export const MAX_TABLE_DISTANCE = Math.floor((MAX_DIMENSION - 1) / 2);

/**
 * Query rows of one block of the core's attention (its contract): rows computed on their own
 * from a multiple of it are bit for bit those of the whole, so work is split only there.
 */
export const ATTENTION_BLOCK_ROWS = CORE_CONTRACT.attentionBlockRows;

/**
 * The ranges of the core's real-valued settings, by name ({ min, max, minInclusive,
 * maxInclusive }: validate.js's checkNumber reads them as they are): the core refuses outside them.
 */
export const SETTING_RANGES = CORE_CONTRACT.settingRanges;

/** The largest seed (the core's contract): numpy's legacy seeding takes a 32-bit unsigned integer. */
export const MAX_SEED = CORE_CONTRACT.maxSeed;

/** Human-readable size, for error messages. */
export function formatBytes(bytes) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toPrecision(3)} ${units[unit]}`;
}
