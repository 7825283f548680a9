// Property-based fuzzing of openCheckpoint (fast-check) with an independent oracle. Each case is
// a safetensors file written from a list of entries: names from a small alphabet (so some repeat,
// written as repeated keys in the JSON text), empty tensors anywhere, byte ranges that often
// overlap, shapes that do or do not match their ranges, now and then a header padded to just
// under or over the 16 MiB the reader takes, given as a Buffer from Node's pool, a Uint8Array
// at an offset, an ArrayBuffer or a Blob. The oracle decides from the list alone whether the
// file is well-formed (names once each, every range inside the data and the size its shape
// says, no two non-empty ranges sharing a byte, pairs compared all against all): a well-formed
// file opens and every tensor reads back exactly its bytes; any other is a CheckpointError
// naming the file. Every case within a time and memory budget.
// Run bounded by tests/js/safetensors-fuzz.test.js, for longer by `npm run fuzz:js`.
import fc from 'fast-check';
import { openCheckpoint, CheckpointError } from '../../../web/api/index.js';
import { MAX_CHECKPOINT_HEADER_BYTES } from '../../../web/api/checkpoint-file.js';

/** The budget of one case: seconds of wall time (on a loaded, shared machine) and megabytes of heap it may add. */
export const CASE_BUDGET = { seconds: 15, heapMegabytes: 256 };

const NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'A', 'é', 'a.b'];
const DATA_BYTES = 64;

const entryArbitrary = fc.record({
  name: fc.constantFrom(...NAMES),
  begin: fc.integer({ min: 0, max: DATA_BYTES + 2 }),
  length: fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 5, arbitrary: fc.integer({ min: 1, max: 24 }) }),
  // The shape holds `length` bytes of U8, or is off by one.
  shapeSkew: fc.oneof({ weight: 8, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(-1, 1) }),
  split: fc.boolean(), // [length] or [1, length]
});

const caseArbitrary = fc.record({
  entries: fc.array(entryArbitrary, { maxLength: 8 }),
  source: fc.constantFrom('buffer', 'offset', 'arrayBuffer', 'blob'),
  padding: fc.oneof(
    { weight: 40, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.constantFrom(-64, 8) }, // near the header bound: under it, over it
  ),
});

// The file and what the oracle expects of it.
function build(c) {
  const parts = c.entries.map((e) => {
    const count = Math.max(0, e.length + e.shapeSkew);
    const shape = e.split ? [1, count] : [count];
    return `${JSON.stringify(e.name)}:${JSON.stringify({ dtype: 'U8', shape, data_offsets: [e.begin, e.begin + e.length] })}`;
  });
  let text = `{${parts.join(',')}}`;
  if (c.padding !== 0) {
    // Spaces after the object (JSON allows them) to the bound, minus or plus a little.
    const target = MAX_CHECKPOINT_HEADER_BYTES + c.padding;
    text += ' '.repeat(Math.max(0, target - Buffer.byteLength(text)));
  }
  const header = Buffer.from(text);
  const file = Buffer.alloc(8 + header.length + DATA_BYTES);
  file.writeBigUInt64LE(BigInt(header.length));
  header.copy(file, 8);
  for (let i = 0; i < DATA_BYTES; i += 1) file[8 + header.length + i] = (i * 37 + 11) & 0xff;
  const names = c.entries.map((e) => e.name);
  const ranges = c.entries.filter((e) => e.length > 0).map((e) => [e.begin, e.begin + e.length]);
  const wellFormed =
    header.length <= MAX_CHECKPOINT_HEADER_BYTES &&
    new Set(names).size === names.length &&
    c.entries.every((e) => Math.max(0, e.length + e.shapeSkew) === e.length && e.begin + e.length <= DATA_BYTES) &&
    ranges.every(([b1, e1], i) => ranges.every(([b2, e2], j) => i === j || e1 <= b2 || e2 <= b1));
  return { file, dataStart: 8 + header.length, wellFormed };
}

function sourceOf(kind, file) {
  if (kind === 'buffer') {
    Buffer.alloc(0);
    return file.length < 4096 ? Buffer.from(file) : file; // small ones from Node's shared pool
  }
  if (kind === 'offset') {
    const larger = new Uint8Array(file.length + 13).fill(0xee);
    larger.set(file, 5);
    return larger.subarray(5, 5 + file.length);
  }
  if (kind === 'arrayBuffer') return new Uint8Array(file).buffer;
  return new Blob([file]);
}

/** The property: one file against the oracle, within the budget. */
export function safetensorsProperty(counts) {
  return fc.asyncProperty(caseArbitrary, async (c) => {
    counts.cases += 1;
    const { file, dataStart, wellFormed } = build(c);
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    let checkpoint = null;
    try {
      checkpoint = await openCheckpoint(sourceOf(c.source, file), { name: 'fuzzed.safetensors' });
    } catch (error) {
      if (!(error instanceof CheckpointError) || !error.message.startsWith('fuzzed.safetensors: '))
        throw new Error(`not a CheckpointError naming the file: ${error.constructor.name}: ${error.message}`, {
          cause: error,
        });
      if (wellFormed) throw new Error(`a well-formed file was refused: ${error.message}`, { cause: error });
      counts.refused += 1;
    }
    if (checkpoint) {
      if (!wellFormed) throw new Error('a malformed file opened (a repeated name, a bad range or an overlap)');
      for (const e of c.entries) {
        const { data } = await checkpoint.read(e.name);
        const expected = file.subarray(dataStart + e.begin, dataStart + e.begin + e.length);
        if (!Buffer.from(data.buffer, data.byteOffset, data.byteLength).equals(expected))
          throw new Error(`tensor "${e.name}" read other bytes than its own`);
      }
      counts.opened += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    const heapMegabytes = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
    if (seconds > CASE_BUDGET.seconds) throw new Error(`a case took ${seconds.toFixed(1)} s`);
    if (heapMegabytes > CASE_BUDGET.heapMegabytes)
      throw new Error(`a case kept ${heapMegabytes.toFixed(0)} MB of heap`);
    counts.slowest = Math.max(counts.slowest, seconds);
  });
}

/** Runs `numRuns` files (seed: fast-check's, or `seed`); returns the counts. */
export async function fuzzSafetensors({ numRuns, seed } = {}) {
  const counts = { cases: 0, opened: 0, refused: 0, slowest: 0 };
  await fc.assert(safetensorsProperty(counts), { numRuns, ...(seed === undefined ? {} : { seed }) });
  return counts;
}
