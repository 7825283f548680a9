// A bounded fuzz of the safetensors header parser (fast-check, fixed seed): whatever the bytes,
// openCheckpoint either opens the file (every tensor's bytes inside the data, none overlapping,
// each the size its shape and dtype say, each readable) or rejects with a CheckpointError
// naming the file; never another error, never a read outside the file.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { openCheckpoint, CheckpointError, CHECKPOINT_DTYPES } from 'relpos-wasm';

const DTYPES = [...Object.keys(CHECKPOINT_DTYPES), 'F8_E4M3', 'f32', '', 'constructor', '__proto__'];
const encoder = new TextEncoder();

function fileOf(lengthField, header, dataLength) {
  const out = new Uint8Array(8 + header.length + dataLength);
  new DataView(out.buffer).setBigUint64(0, lengthField, true);
  out.set(header, 8);
  return out;
}

// Offsets, shapes and dtypes near the edges: mostly well-formed, often a little wrong.
const entry = fc.record({
  dtype: fc.constantFrom(...DTYPES),
  shape: fc.oneof(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }), fc.anything()),
  data_offsets: fc.oneof(
    fc.tuple(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 80 })),
    fc.array(fc.oneof(fc.integer({ min: -2, max: 2 ** 53 }), fc.double()), { maxLength: 3 }),
    fc.anything(),
  ),
});
const headers = fc.dictionary(
  fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__metadata__', '__proto__', 'constructor', 'toString')),
  fc.oneof({ weight: 4, arbitrary: entry }, { weight: 1, arbitrary: fc.anything() }),
  { maxKeys: 5 },
);

// A file whose every slice must lie inside it.
class CheckedFile extends Blob {
  get name() {
    return 'fuzzed.safetensors';
  }
  slice(begin, end) {
    if (!(Number.isSafeInteger(begin) && Number.isSafeInteger(end) && begin >= 0 && begin <= end && end <= this.size))
      throw new Error(`read outside the file: ${begin}…${end} of ${this.size} bytes`);
    return super.slice(begin, end);
  }
}

async function check(bytes) {
  let checkpoint;
  try {
    checkpoint = await openCheckpoint(new CheckedFile([bytes]));
  } catch (error) {
    expect(error).toBeInstanceOf(CheckpointError);
    expect(error.message.startsWith('fuzzed.safetensors: ')).toBe(true);
    return;
  }
  for (const t of checkpoint.tensors) {
    const { data, shape } = await checkpoint.read(t.name);
    expect(data.length).toBe(shape.reduce((a, b) => a * b, 1));
  }
}

describe('the safetensors header parser under fuzzing', () => {
  test('structured headers: opened and readable, or a CheckpointError', async () => {
    await fc.assert(
      fc.asyncProperty(
        headers,
        fc.integer({ min: 0, max: 96 }),
        fc.integer({ min: -3, max: 3 }),
        async (h, data, skew) => {
          const text = encoder.encode(JSON.stringify(h));
          const length = BigInt(Math.max(0, text.length + skew));
          await check(fileOf(length, text, data));
        },
      ),
      { numRuns: 400, seed: 28 },
    );
  });

  test('well-formed files of random tensors always open, and each tensor reads back its bytes', async () => {
    const tensor = fc.record({
      dtype: fc.constantFrom('F32', 'U8', 'I16', 'F64', 'BOOL'),
      shape: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 3 }),
    });
    const names = fc
      .uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 5 })
      .map((list) => list.filter((name) => name !== '__metadata__'));
    await fc.assert(
      fc.asyncProperty(names, fc.array(tensor, { minLength: 5, maxLength: 5 }), fc.nat(4), async (list, specs, gap) => {
        const header = {};
        let at = 0;
        list.forEach((name, i) => {
          const { dtype, shape } = specs[i];
          const size = shape.reduce((a, b) => a * b, 1) * CHECKPOINT_DTYPES[dtype].size;
          header[name] = { dtype, shape, data_offsets: [at, at + size] };
          at += size + gap;
        });
        const text = encoder.encode(JSON.stringify(header));
        const bytes = fileOf(BigInt(text.length), text, at);
        for (let i = 8 + text.length; i < bytes.length; i += 1) bytes[i] = (i * 37) & 0xff;
        const checkpoint = await openCheckpoint(bytes);
        expect(checkpoint.tensors.map((t) => t.name)).toEqual(Object.keys(header));
        for (const name of Object.keys(header)) {
          const { data } = await checkpoint.read(name);
          const [begin, end] = header[name].data_offsets;
          const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
          expect(raw).toEqual(bytes.subarray(8 + text.length + begin, 8 + text.length + end));
        }
      }),
      { numRuns: 200, seed: 28 },
    );
  });

  test('arbitrary bytes after any length field: a CheckpointError, never another error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.bigInt({ min: 0n, max: 64n })),
        fc.uint8Array({ maxLength: 64 }),
        async (length, rest) => {
          await check(fileOf(length, rest, 0));
        },
      ),
      { numRuns: 300, seed: 28 },
    );
  });
});
