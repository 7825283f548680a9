// The breaks at the boundary that issue 35 found, each as it was found, through the real WASM
// module and (for the worker API) real threads: a Node Buffer read as a checkpoint, the worker
// API's inputs read once and copied on the call, rope()'s options read before x is checked, a
// large `work` in the pool, safetensors headers that hide overlaps, repeat names or cost
// seconds, a `views: true` result given back as input. The corpus tool's text, the page's long
// tokens and the saved model's name are in tests/js/corpus-tool-bounds.test.js and
// tests/page/boundary-page.test.js.
import { openAsBlob, readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRelPos, openCheckpoint, CheckpointError } from 'relpos-wasm';
import { decodeCorpus, encodeCorpus } from '../../web/train/corpus-format.js';
import { readModelFile } from '../../web/train/model-files.js';
import { startNodePool } from './pool/node-pool.js';

let rp;
let dir;
beforeAll(async () => {
  rp = await createRelPos();
  dir = mkdtempSync(join(tmpdir(), 'relpos-breaks-'));
});
afterAll(() => {
  rp.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const bits = (data) => Array.from(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
const wave = (seed) => (_, i) => Math.sin(seed * 7 + i * 0.3);
const matrix = (rows, cols, seed, ArrayType = Float64Array) => ({
  rows,
  cols,
  data: ArrayType.from({ length: rows * cols }, wave(seed)),
});

// A safetensors file written by hand: the 8-byte little-endian header length, the JSON header
// (padded with spaces to 8 bytes, as the reference writer does), then the data.
function safetensors(header, data) {
  const text = JSON.stringify(header);
  const padded = text + ' '.repeat((8 - (text.length % 8)) % 8);
  const head = Buffer.alloc(8);
  head.writeBigUInt64LE(BigInt(padded.length));
  return Buffer.concat([head, Buffer.from(padded), Buffer.from(data)]);
}
const rawHeader = (text, data = new Uint8Array(0)) => {
  const head = Buffer.alloc(8);
  head.writeBigUInt64LE(BigInt(Buffer.byteLength(text)));
  return Buffer.concat([head, Buffer.from(text), Buffer.from(data)]);
};
const refusal = (promise) =>
  promise.then(
    () => null,
    (error) => error,
  );

describe('1. bytes: a Node Buffer and any view at an offset read exactly their own bytes', () => {
  // One F32 tensor [2, 3] and one F64 [2]: values whose bytes are easy to tell apart.
  const f32 = Float32Array.from([1.5, -2.25, 3, 4.125, -5.5, 6]);
  const f64 = Float64Array.from([Math.PI, -Math.E]);
  const data = Buffer.concat([Buffer.from(f32.buffer), Buffer.from(f64.buffer)]);
  const header = {
    a: { dtype: 'F32', shape: [2, 3], data_offsets: [0, 24] },
    b: { dtype: 'F64', shape: [2], data_offsets: [24, 40] },
  };

  test('fs.readFileSync of a small file (a Buffer in Node’s shared pool), Buffer views and offset views', async () => {
    const file = join(dir, 'small.safetensors');
    writeFileSync(file, safetensors(header, data));
    const fromDisk = readFileSync(file);
    const bytes = new Uint8Array(fromDisk);
    // A Uint8Array at an offset into a larger buffer full of other numbers.
    const larger = new Uint8Array(bytes.length + 3 + 17).fill(0xcd);
    larger.set(bytes, 3);
    const atOffset = larger.subarray(3, 3 + bytes.length);
    // A Buffer made inside Node's pool: byteOffset > 0 into shared memory.
    Buffer.alloc(0);
    const pooled = Buffer.from(bytes);
    const sources = { fromDisk, atOffset, pooled, arrayBuffer: bytes.slice().buffer, blob: await openAsBlob(file) };
    for (const [kind, source] of Object.entries(sources)) {
      const checkpoint = await openCheckpoint(source, { name: 'small.safetensors' });
      expect(Array.from((await checkpoint.read('a')).data), kind).toEqual(Array.from(f32));
      expect(Array.from((await checkpoint.read('b')).data), kind).toEqual(Array.from(f64));
    }
    expect(pooled.byteOffset + atOffset.byteOffset).toBeGreaterThan(0);
  });

  test('bytes changed after openCheckpoint returns do not change what it reads (its own copy)', async () => {
    const bytes = new Uint8Array(safetensors(header, data));
    const checkpoint = await openCheckpoint(bytes);
    bytes.fill(0xff);
    expect(Array.from((await checkpoint.read('a')).data)).toEqual(Array.from(f32));
  });
});

test('one rule for bytes: corpora, model files and wasmBinary take a Buffer, a view at an offset, an ArrayBuffer or a Blob', async () => {
  const corpus = {
    header: { source: 's', terms: 't', settings: {}, posNames: [], words: ['<mask>', '<unk>', 'a'] },
    train: Int32Array.from([2, 2, 2]),
    trainSentenceStarts: Int32Array.from([0]),
    heldOut: Int32Array.from([2]),
    heldOutPos: Uint8Array.from([1]),
    heldOutSentenceStarts: Int32Array.from([0]),
  };
  const encoded = encodeCorpus(corpus);
  const atOffset = (bytes) => {
    const larger = new Uint8Array(bytes.length + 9).fill(0x7f);
    larger.set(bytes, 4);
    return larger.subarray(4, 4 + bytes.length);
  };
  for (const given of [Buffer.from(encoded), atOffset(encoded), encoded.slice().buffer]) {
    expect(Array.from(decodeCorpus(given).train)).toEqual([2, 2, 2]);
  }
  const model = new TextEncoder().encode('{"format":"x"}');
  for (const given of [Buffer.from(model), atOffset(model), model.slice().buffer])
    expect(readModelFile(given, 'm.json')).toEqual({ format: 'x' });
  expect(() => readModelFile('{}', 'm.json')).toThrow(/^readModelFile: m\.json must be a Uint8Array/);
  const wasm = readFileSync(new URL('../../dist/relpos-core.wasm', import.meta.url));
  for (const wasmBinary of [atOffset(wasm), new Blob([wasm])]) {
    const other = await createRelPos({ wasmBinary });
    expect(bits(other.randn(3, 5))).toEqual(bits(rp.randn(3, 5)));
    other.dispose();
  }
});

describe('2. the worker API reads its arguments once and copies them on the call', () => {
  let pool;
  beforeAll(async () => {
    // Worker 1 answers after 400 ms: a call sent to it waits while it is busy.
    pool = await startNodePool({ size: 2, delays: [0, 400] });
  });
  afterAll(() => pool?.terminate());

  test('a position getter read once: every row computed with the slope first read, and the result says so', async () => {
    const n = 64; // two blocks of 32 rows: one per worker
    const plain = { q: matrix(n, 8, 1), k: matrix(n, 8, 2), v: matrix(n, 4, 3) };
    let reads = 0;
    const position = {
      scheme: 'alibi',
      get slope() {
        reads += 1;
        return reads === 1 ? 0.5 : 3;
      },
    };
    const result = await pool.attention({ ...plain, position });
    const expected = rp.attention({ ...plain, position: { scheme: 'alibi', slope: 0.5 } });
    expect(reads).toBe(1);
    for (const name of ['combinedWeights', 'output'])
      expect(bits(result[name].data), name).toEqual(bits(expected[name].data));
    expect(result.position).toEqual(expected.position);
  });

  test('k and v changed after the call, while a worker is busy, change nothing computed', async () => {
    const n = 64;
    const given = { q: matrix(n, 8, 1), k: matrix(n, 8, 2), relKeys: matrix(5, 8, 4), v: matrix(n, 4, 3) };
    const original = structuredClone(given);
    const busy = pool.run('randn', [1, 4], { worker: 1 }); // worker 1 busy for 400 ms
    const call = pool.attention(given);
    given.k.data.fill(7);
    given.v.data.fill(-7);
    given.relKeys.data.fill(3);
    const [result] = await Promise.all([call, busy]);
    const expected = rp.attention(original);
    for (const name of Object.keys(expected)) {
      if (name === 'maxDistance') continue;
      expect(bits(result[name].data), name).toEqual(bits(expected[name].data));
    }
  });

  test('pool.run copies its arguments on the call', async () => {
    const options = { width: 2, asymmetry: 0.4 };
    const busy = pool.run('randn', [1, 4], { worker: 1 });
    const call = pool.run('relativeOffsets', [6, 2], { worker: 1 });
    const later = pool.run('localityProfile', [options], { worker: 1 });
    options.width = 'changed';
    await busy;
    expect(bits((await call).data)).toEqual(bits(rp.relativeOffsets(6, 2).data));
    expect(bits((await later).profile)).toEqual(bits(rp.localityProfile({ width: 2, asymmetry: 0.4 }).profile));
  });

  test('4. a large work gives a long time limit (at most setTimeout’s 2^31 − 1 ms), not a stopped worker', async () => {
    const result = await pool.run('randn', [1, 4], { work: 1.5e14 });
    expect(bits(result)).toEqual(bits(rp.randn(1, 4)));
    expect(await pool.taskCounts()).toMatchObject({ randn: expect.any(Number) });
    for (const [work, type] of [
      [-1, RangeError],
      [NaN, RangeError],
      [Infinity, RangeError],
      ['1e9', TypeError],
    ]) {
      const error = await refusal(pool.run('randn', [1, 4], { work }));
      expect(error, String(work)).toBeInstanceOf(type);
      expect(error.message).toMatch(/run\(randn\): options\.work must be/);
    }
  });
});

test('3. rope() reads its options before it checks x: a getter that writes NaN into x is refused', () => {
  const x = matrix(4, 6, 1);
  const options = {
    get base() {
      x.data[5] = NaN;
      return 10000;
    },
  };
  expect(() => rp.rope(x, options)).toThrow(/^rope: x\.data\[5\] is NaN; every entry must be finite$/);
  // A positions getter (a list read element by element) is read before x is checked too.
  const y = matrix(3, 2, 2);
  const positions = [0, 1, 2];
  Object.defineProperty(positions, 2, {
    get() {
      y.data[0] = Infinity;
      return 2;
    },
  });
  expect(() => rp.rope(y, { positions })).toThrow(/^rope: x\.data\[0\] is Infinity/);
});

describe('5 and 6. safetensors headers', () => {
  const bytes8 = new Uint8Array(100);

  test('an empty tensor between two overlapping ones does not hide the overlap', async () => {
    const file = safetensors(
      {
        A: { dtype: 'U8', shape: [100], data_offsets: [0, 100] },
        E: { dtype: 'U8', shape: [0], data_offsets: [8, 8] },
        B: { dtype: 'U8', shape: [20], data_offsets: [10, 30] },
      },
      bytes8,
    );
    const error = await refusal(openCheckpoint(file, { name: 'm.safetensors' }));
    expect(error).toBeInstanceOf(CheckpointError);
    expect(error.message).toMatch(/^m\.safetensors: tensors "A" \(bytes 0…100\) and "B" \(10…30\) overlap$/);
    // A short tensor inside a long one, after a third: still an overlap.
    const nested = safetensors(
      {
        A: { dtype: 'U8', shape: [100], data_offsets: [0, 100] },
        C: { dtype: 'U8', shape: [5], data_offsets: [20, 25] },
        B: { dtype: 'U8', shape: [10], data_offsets: [50, 60] },
      },
      bytes8,
    );
    expect((await refusal(openCheckpoint(nested, { name: 'n.safetensors' }))).message).toMatch(/overlap/);
  });

  test('a name given twice in the header is refused, naming it', async () => {
    const text =
      '{"w":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},"w":{"dtype":"U8","shape":[4],"data_offsets":[4,8]}}';
    const error = await refusal(openCheckpoint(rawHeader(text, new Uint8Array(8)), { name: 'd.safetensors' }));
    expect(error).toBeInstanceOf(CheckpointError);
    expect(error.message).toBe('d.safetensors: the header names tensor "w" twice; each name may appear once');
    // The same key inside a tensor's entry or in a string is no repeat of a tensor's name.
    const fine = '{"w":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},"__metadata__":{"w":"\\"w\\":"}}';
    const checkpoint = await openCheckpoint(rawHeader(fine, new Uint8Array(4)));
    expect(checkpoint.tensors.map((t) => t.name)).toEqual(['w']);
  });

  test('a 95 MB header is refused before it is read; many tensors or a long shape in a smaller one are refused', async () => {
    // 1.6M empty tensors (95 MB of header): the length alone is refused.
    const entry = (i) => `"t${i}":{"dtype":"U8","shape":[0],"data_offsets":[0,0]}`;
    const perEntry = entry(1000000).length + 1;
    const length = 1_600_000 * perEntry;
    const head = Buffer.alloc(8);
    head.writeBigUInt64LE(BigInt(length));
    let bytesRead = 0;
    const huge = {
      size: 8 + length,
      name: 'huge.safetensors',
    };
    // A Blob whose slices count what they hand out (a file of that size is not written).
    class CountingBlob extends Blob {
      get size() {
        return huge.size;
      }
      get name() {
        return huge.name;
      }
      slice(begin, end) {
        bytesRead += end - begin;
        return new Blob([head.subarray(begin, Math.min(8, end))]);
      }
    }
    const error = await refusal(openCheckpoint(new CountingBlob([])));
    expect(error.message).toMatch(/^huge\.safetensors: the header length is \d+ bytes, over the 16777216 \(16 MiB\)/);
    expect(bytesRead).toBe(8);
    // 70,000 empty tensors in 4 MB: over the tensors a file may list.
    const many = `{${Array.from({ length: 70_000 }, (_, i) => entry(i)).join(',')}}`;
    const manyError = await refusal(openCheckpoint(rawHeader(many), { name: 'many.safetensors' }));
    expect(manyError.message).toBe(
      'many.safetensors: the header lists 70000 entries; this reader takes at most 65536 tensors a file',
    );
    // A shape of 1M ones (2 MB): over the dimensions a shape may have.
    const long = `{"s":{"dtype":"U8","shape":[${Array(1_000_000).fill(1).join(',')}],"data_offsets":[0,1]}}`;
    const longError = await refusal(openCheckpoint(rawHeader(long, new Uint8Array(1)), { name: 'long.safetensors' }));
    expect(longError.message).toBe(
      'long.safetensors: tensor "s" has a shape of 1000000 dimensions; this reader takes at most 64',
    );
  });
});

test('a views: true result given as the next call’s input is a TypeError naming the argument', () => {
  const inputs = { q: matrix(4, 2, 1), k: matrix(4, 2, 2), relKeys: matrix(3, 2, 3), v: matrix(4, 2, 4) };
  const views = rp.attention(inputs, { views: true });
  expect(() => rp.attention({ ...inputs, v: views.output })).toThrow(
    /^attention: v\.data is a view of this instance's memory from an earlier call with views: true, which this call detaches before reading it; pass a copy \(v\.data\.slice\(\)\)$/,
  );
  // A copy of it is fine.
  const again = rp.attention(inputs, { views: true });
  const copied = { rows: 4, cols: 2, data: again.output.data.slice() };
  expect(() => rp.attention({ ...inputs, v: copied })).not.toThrow();
});

test('a position table that is not of floats, or a Shaw table without a width, is refused naming it', async () => {
  // T5's encoder table stored as I64 (the reader gives BigInt64Array): it threw a bare TypeError.
  const ints = new BigInt64Array([1n, 2n, 3n, 4n]);
  const t5Name = 'encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight';
  const t5 = await openCheckpoint(
    safetensors({ [t5Name]: { dtype: 'I64', shape: [2, 2], data_offsets: [0, 32] } }, new Uint8Array(ints.buffer)),
    { name: 'ints.safetensors' },
  );
  const error = await refusal(rp.checkpointPositions(t5));
  expect(error).toBeInstanceOf(CheckpointError);
  expect(error.message).toBe(`ints.safetensors: tensor "${t5Name}" is I64; a position table holds floats`);
  // Two buckets, which T5's rule cannot take: said of the file's tensor, not of rp.t5Buckets.
  const two = await openCheckpoint(
    safetensors({ [t5Name]: { dtype: 'F32', shape: [2, 2], data_offsets: [0, 16] } }, new Uint8Array(16)),
    { name: 'two.safetensors' },
  );
  const bucketError = await refusal(rp.checkpointPositions(two));
  expect(bucketError).toBeInstanceOf(CheckpointError);
  expect(bucketError.message).toMatch(
    new RegExp(
      `^two\\.safetensors: tensor "${t5Name.replaceAll('.', '\\.')}" cannot be read by T5's bucket rule: numBuckets`,
    ),
  );
  // A [3, 0] Shaw table: no width to read it by (its biases came out NaN).
  const empty = await openCheckpoint(safetensors({ rel: { dtype: 'F32', shape: [3, 0], data_offsets: [0, 0] } }, []), {
    name: 'empty.safetensors',
  });
  await expect(rp.checkpointPositions(empty, { tensor: 'rel', rule: 'shaw' })).rejects.toThrow(
    /^checkpointPositions: tensor "rel" has shape \[3,0\]; a Shaw table's rows need a width d ≥ 1$/,
  );
});

test('a property a page adds to Object.prototype leaves every call working', () => {
  // A page's script (an old library, a polyfill) adding an enumerable property: embind's struct
  // arguments met it and every call taking one threw "fields[fieldName].write is not a function".
  const before = rp.example({ seed: 3 });
  Object.prototype.pollution = 1;
  try {
    const after = rp.example({ seed: 3 });
    expect(Array.from(after.combinedWeights.data)).toEqual(Array.from(before.combinedWeights.data));
    expect(Array.from(rp.randn(7, 4))).toEqual(Array.from(rp.randn(7, 4)));
    const model = rp.createModel({
      vocabSize: 9,
      dModel: 8,
      heads: 2,
      layers: 1,
      ffnWidth: 8,
      maxDistance: 2,
      seqLen: 4,
      maxBatchSize: 2,
    });
    const batch = rp.syntheticBatch({ task: 'copy-offset', offset: 1, vocabSize: 9, seqLen: 4, batchSize: 2, seed: 1 });
    expect(Number.isFinite(model.trainStep(batch).loss)).toBe(true);
    model.dispose();
  } finally {
    delete Object.prototype.pollution;
  }
});
