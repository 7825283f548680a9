// openCheckpoint and checkpointPositions on safetensors files written byte by byte by an
// independent script (tests/fixtures/make_checkpoints.py: struct + numpy, T5's bucket rule
// rewritten from transformers in float32), through the real WASM module.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRelPos, openCheckpoint, biasMass, CheckpointError, SAVED_MODEL_FORMAT } from 'relpos-wasm';
import { halfToNumber, parseCheckpointHeader } from '../../web/api/checkpoint-file.js';
import { checkpointCaption, positionTablesJson, tablesFromJson } from '../../web/views/checkpoint-view.js';
import { sideOf } from '../../web/views/left-right.js';

let rp;
let dir;
let expected;
const T5_ENCODER = 'encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight';
const T5_DECODER = 'decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'relpos-checkpoints-'));
  execFileSync('/usr/bin/python3', [new URL('../fixtures/make_checkpoints.py', import.meta.url).pathname, dir]);
  expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));
  rp = await createRelPos();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A Blob over a file on disk that counts the bytes its slices hand out.
class CountingBlob extends Blob {
  #inner;
  #name;
  bytesRead = 0;
  constructor(inner, name) {
    super([]);
    this.#inner = inner;
    this.#name = name;
  }
  get size() {
    return this.#inner.size;
  }
  get name() {
    return this.#name;
  }
  slice(begin, end) {
    const part = this.#inner.slice(begin, end);
    const counter = this;
    return {
      async arrayBuffer() {
        const buffer = await part.arrayBuffer();
        counter.bytesRead += buffer.byteLength;
        return buffer;
      },
    };
  }
}

const file = async (name) => new CountingBlob(await openAsBlob(join(dir, name)), name);
const bytes = (name) => new Uint8Array(readFileSync(join(dir, name)));
const config = () => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
const number = (x) => ({ NaN, Infinity, '-Infinity': -Infinity, '-0': -0 })[x] ?? x;

describe('openCheckpoint', () => {
  test('lists the tensors and metadata of a file, and reads one tensor exactly', async () => {
    const checkpoint = await openCheckpoint(await file('t5-tiny.safetensors'));
    expect(checkpoint.files).toEqual(['t5-tiny.safetensors']);
    expect(checkpoint.metadata).toEqual({ format: 'pt' });
    expect(checkpoint.tensors.map(({ name, dtype, shape }) => [name, dtype, shape])).toEqual([
      ['shared.weight', 'F32', [64, 16]],
      ['encoder.block.0.layer.0.SelfAttention.q.weight', 'F32', [16, 16]],
      [T5_ENCODER, 'F32', [32, 4]],
      [T5_DECODER, 'BF16', [32, 4]],
    ]);
    const q = await checkpoint.read('encoder.block.0.layer.0.SelfAttention.q.weight');
    expect(q.data).toBeInstanceOf(Float32Array);
    expect(Array.from(q.data)).toEqual(expected.t5.q);
  });

  test('every dtype converts exactly (F16 and BF16 too; unaligned data)', async () => {
    const checkpoint = await openCheckpoint(bytes('dtypes.safetensors'), { name: 'dtypes.safetensors' });
    const types = {
      F64: Float64Array,
      F32: Float32Array,
      F16: Float32Array,
      BF16: Float32Array,
      I64: BigInt64Array,
      U64: BigUint64Array,
      I32: Int32Array,
      BOOL: Uint8Array,
    };
    for (const [dtype, values] of Object.entries(expected.dtypes)) {
      const { data } = await checkpoint.read(`t.${dtype}`);
      if (types[dtype]) expect(data, dtype).toBeInstanceOf(types[dtype]);
      const got = Array.from(data, (x) => (typeof x === 'bigint' ? String(x) : x));
      expect(got, dtype).toEqual(values.map(number));
    }
  });

  test('all 65536 halves read as numpy converts them', async () => {
    const checkpoint = await openCheckpoint(bytes('halves.safetensors'));
    const { data } = await checkpoint.read('h');
    const want = new Float64Array(readFileSync(join(dir, 'halves.f64')).buffer.slice(0));
    const differ = [];
    for (let i = 0; i < 65536; i += 1) if (!Object.is(data[i], want[i])) differ.push(i);
    expect(differ).toEqual([]);
    expect(halfToNumber(0x3c00)).toBe(1);
  });

  test('an index and its shards open as one checkpoint, in any order', async () => {
    const files = await Promise.all(
      ['model-00002-of-00002.safetensors', 'model.safetensors.index.json', 'model-00001-of-00002.safetensors'].map(
        file,
      ),
    );
    const checkpoint = await openCheckpoint(files);
    expect(checkpoint.files).toEqual([
      'model.safetensors.index.json',
      'model-00002-of-00002.safetensors',
      'model-00001-of-00002.safetensors',
    ]);
    expect(checkpoint.metadata.total_size).toBeGreaterThan(0);
    expect(checkpoint.tensors.find((t) => t.name === T5_ENCODER)).toMatchObject({
      dtype: 'F16',
      file: 'model-00001-of-00002.safetensors',
    });
    const missing = files.filter((f) => f.name !== 'model-00002-of-00002.safetensors');
    await expect(openCheckpoint(missing)).rejects.toThrow(
      'model.safetensors.index.json: lists a shard not given with it: model-00002-of-00002.safetensors',
    );
  });

  test('options are read once, each, and no other is taken', async () => {
    // A getter that answers differently the second time cannot pass one value and use another.
    let reads = 0;
    const name = {
      get name() {
        reads += 1;
        return reads === 1 ? undefined : 12345;
      },
    };
    expect((await openCheckpoint(bytes('t5-tiny.safetensors'), name)).files).toEqual(['the checkpoint']);
    expect(reads).toBe(1);
    await expect(openCheckpoint(bytes('t5-tiny.safetensors'), { nmae: 'x' })).rejects.toThrow(
      /^openCheckpoint: unknown option "nmae"; expected name$/,
    );
    const checkpoint = await openCheckpoint(bytes('t5-tiny.safetensors'));
    let distanceReads = 0;
    const distance = {
      config: config(),
      get maxDistance() {
        distanceReads += 1;
        return distanceReads === 1 ? undefined : -3;
      },
    };
    const tables = await rp.checkpointPositions(checkpoint, distance);
    expect(distanceReads).toBe(1);
    expect(tables.map((t) => t.maxDistance)).toEqual(
      (await rp.checkpointPositions(checkpoint, { config: config() })).map((t) => t.maxDistance),
    );
    await expect(rp.checkpointPositions(checkpoint, { ofsets: [1] })).rejects.toThrow(
      /^checkpointPositions: unknown option "ofsets"; expected config, offsets, tensor, rule, bidirectional, maxDistance, tokens$/,
    );
  });

  test('a 3 GB file opens by reading its header, and reading the tables reads only their bytes', async () => {
    const blob = await file('large.safetensors');
    expect(blob.size).toBe(expected.large.size);
    const checkpoint = await openCheckpoint(blob);
    expect(blob.bytesRead).toBe(8 + expected.large.headerBytes);
    const tables = await rp.checkpointPositions(checkpoint, { config: config() });
    expect(tables.map((t) => t.part)).toEqual(['decoder', 'encoder']);
    expect(blob.bytesRead).toBe(8 + expected.large.headerBytes + expected.large.tableBytes);
    expect(Array.from(tables[1].bias.subarray(0, 513))).toEqual(expected.t5.encoder.bias[0]);
  });

  test('names that Object.prototype also has are tensors only when the file has them', async () => {
    const checkpoint = await openCheckpoint(bytes('prototype-names.safetensors'));
    expect(checkpoint.tensors.map((t) => t.name)).toEqual(['__proto__', 'constructor']);
    expect(Array.from((await checkpoint.read('constructor')).data)).toEqual([0, 2, 4]);
    expect(Array.from((await checkpoint.read('__proto__')).data)).toEqual([0, 1, 2]);
    await expect(checkpoint.read('toString')).rejects.toThrow(RangeError);
    await expect(checkpoint.read('hasOwnProperty')).rejects.toThrow('no tensor named "hasOwnProperty"');
    expect(checkpoint.has('valueOf')).toBe(false);
  });

  test('each bad file gets an error naming the file and what is wrong', async () => {
    for (const [name, what] of Object.entries(expected.bad)) {
      const blob = await file(name);
      const error = await openCheckpoint(blob).then(
        () => null,
        (e) => e,
      );
      expect(error, name).toBeInstanceOf(CheckpointError);
      expect(error.message, name).toContain(`${name}: `);
      expect(error.message, name).toContain(what);
      expect(error.file).toBe(name);
      // A header over 16 MiB or past the end is refused before it is read.
      if (/length-past-end|too-large/.test(name)) expect(blob.bytesRead, name).toBe(8);
    }
  });

  test('arguments that are not files are TypeErrors naming the argument', async () => {
    await expect(openCheckpoint('model.safetensors')).rejects.toThrow(
      /openCheckpoint: source must be a Uint8Array \(a Node Buffer is one\), an ArrayBuffer, a Blob or a File, got a string/,
    );
    await expect(openCheckpoint([bytes('t5-tiny.safetensors'), 3])).rejects.toThrow(/source\[1\] must be a Uint8Array/);
    await expect(openCheckpoint([])).rejects.toThrow(RangeError);
    const checkpoint = await openCheckpoint(bytes('t5-tiny.safetensors'));
    await expect(checkpoint.read(3)).rejects.toThrow(TypeError);
  });

  test('the header parser on its own: own keys only, every entry checked', () => {
    const text = (header) => new TextEncoder().encode(JSON.stringify(header));
    const header = text({ a: { dtype: 'U8', shape: [2, 0], data_offsets: [0, 0] } });
    expect(parseCheckpointHeader('x', header, 8 + header.length).entries).toEqual([
      { name: 'a', dtype: 'U8', shape: [2, 0], begin: 0, end: 0 },
    ]);
    expect(() =>
      parseCheckpointHeader('x', text({ a: { dtype: 'toString', shape: [], data_offsets: [0, 0] } }), 100),
    ).toThrow('dtype "toString"');
  });
});

describe('checkpointPositions', () => {
  test("T5's encoder and decoder tables, bias at each offset by T5's bucket rule", async () => {
    const checkpoint = await openCheckpoint(await file('t5-tiny.safetensors'));
    const tables = await rp.checkpointPositions(checkpoint, { config: config() });
    expect(
      tables.map((t) => [t.tensor, t.scheme, t.part, t.bidirectional, t.numBuckets, t.maxDistance, t.heads]),
    ).toEqual([
      [T5_DECODER, 't5', 'decoder', false, 32, 128, 4],
      [T5_ENCODER, 't5', 'encoder', true, 32, 128, 4],
    ]);
    for (const table of tables) {
      const want = expected.t5[table.part];
      expect(Array.from(table.offsets)).toEqual(Array.from({ length: 513 }, (_, i) => i - 256));
      expect(Array.from(table.buckets)).toEqual(want.buckets);
      expect(Array.from(table.bias)).toEqual(want.bias.flat());
      expect(table.rule).toContain("T5's bucket rule (32 buckets, max distance 128");
    }
  });

  test('the sharded pair gives the same tables (F16 encoder: its exact halves)', async () => {
    const files = await Promise.all(
      ['model.safetensors.index.json', 'model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'].map(
        file,
      ),
    );
    const tables = await rp.checkpointPositions(await openCheckpoint(files), { offsets: [-3, 0, 200] });
    const encoder = tables.find((t) => t.part === 'encoder');
    const at = (o) => expected.sharded.encoder.bias.map((head) => head[o + 256]);
    expect(Array.from(encoder.offsets)).toEqual([-3, 0, 200]);
    for (let h = 0; h < 4; h += 1)
      expect(Array.from(encoder.bias.subarray(h * 3, h * 3 + 3))).toEqual([-3, 0, 200].map((o) => at(o)[h]));
  });

  test('the planted heads: head 0 looks back, head 1 ahead, head 2 at itself (softmax of the bias alone)', async () => {
    const tables = await rp.checkpointPositions(await openCheckpoint(bytes('t5-tiny.safetensors')));
    const encoder = tables.find((t) => t.part === 'encoder');
    const [back, ahead, self] = [0, 1, 2].map((h) => biasMass(encoder, h, 64));
    expect(back.left).toBeGreaterThan(0.6);
    expect(ahead.right).toBeGreaterThan(0.6);
    expect(self.self).toBeGreaterThan(0.6);
    const decoder = biasMass(
      tables.find((t) => t.part === 'decoder'),
      0,
      64,
    );
    expect(decoder.right).toBe(0);
    expect(decoder.left + decoder.self).toBeCloseTo(1, 12);
  });

  test('a config.json that disagrees with the table is an error naming the file', async () => {
    const checkpoint = await openCheckpoint(bytes('t5-tiny.safetensors'), { name: 't5-tiny.safetensors' });
    await expect(
      rp.checkpointPositions(checkpoint, { config: { ...config(), relative_attention_num_buckets: 64 } }),
    ).rejects.toThrow(
      't5-tiny.safetensors: tensor "decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight" has 32 buckets, but config.json says relative_attention_num_buckets = 64',
    );
  });

  test("a tensor the caller names: [buckets, heads] by T5's rule, [2k + 1, d] as a Shaw table", async () => {
    const checkpoint = await openCheckpoint(bytes('t5-tiny.safetensors'));
    const [asT5] = await rp.checkpointPositions(checkpoint, { tensor: T5_ENCODER, rule: 't5' });
    expect(Array.from(asT5.bias.subarray(0, 513))).toEqual(expected.t5.encoder.bias[0]);
    await expect(
      rp.checkpointPositions(checkpoint, { tensor: 'encoder.block.0.layer.0.SelfAttention.q.weight', rule: 'shaw' }),
    ).rejects.toThrow('has 16 rows; a Shaw table has 2k + 1');
    const shaw = await openCheckpoint(bytes('shaw-table.safetensors'));
    const [table] = await rp.checkpointPositions(shaw, {
      tensor: 'rel_keys',
      rule: 'shaw',
      offsets: expected.shaw.offsets,
    });
    expect(table).toMatchObject({ scheme: 'shaw', heads: 1, maxDistance: 4 });
    const error = Array.from(table.bias, (b, i) => Math.abs(b - expected.shaw.bias[i]));
    expect(Math.max(...error)).toBeLessThan(1e-12);
  });

  test('a bad rule or offset is a RangeError naming the option', async () => {
    const checkpoint = await openCheckpoint(bytes('t5-tiny.safetensors'));
    await expect(rp.checkpointPositions(checkpoint, { tensor: T5_ENCODER })).rejects.toThrow(
      /options.rule must be 't5'/,
    );
    await expect(rp.checkpointPositions(checkpoint, { offsets: [0, 1.5] })).rejects.toThrow(/offsets\[1\] is 1.5/);
    await expect(rp.checkpointPositions({}, {})).rejects.toThrow(TypeError);
  });

  test("the page's own saved model: each layer's aᴷ by model.positionProfile's mean query", async () => {
    const model = rp.createModel({ vocabSize: 12, dModel: 8, heads: 2, layers: 2, maxDistance: 3, seqLen: 8, seed: 5 });
    const parameters = {};
    for (const [name, { shape, data }] of Object.entries(model.parameters()))
      parameters[name] = { shape, data: Array.from(data) };
    const saved = { format: SAVED_MODEL_FORMAT, version: 1, config: { ...model.config }, parameters };
    const tables = await rp.checkpointPositions(saved, { offsets: [-5, -3, 0, 2, 9] });
    expect(tables.map((t) => [t.tensor, t.scheme, t.layer, t.heads, t.maxDistance])).toEqual([
      ['layers.0.attention.relativeKeys', 'shaw', 0, 2, 3],
      ['layers.1.attention.relativeKeys', 'shaw', 1, 2, 3],
    ]);
    const { profile } = model.positionProfile({ layer: 1, head: 1 });
    expect(Array.from(tables[1].bias.subarray(5, 10))).toEqual([0, 0, 3, 5, 6].map((row) => profile[row]));
    model.dispose();
  });
});

describe('the saved position tables', () => {
  test('round-trip: the JSON a course page hosts gives back the same tables and caption', async () => {
    const checkpoint = await openCheckpoint(bytes('t5-tiny.safetensors'));
    const tables = await rp.checkpointPositions(checkpoint, { config: config() });
    const json = JSON.parse(JSON.stringify(positionTablesJson(tables, { files: ['t5-tiny.safetensors'] })));
    expect(JSON.stringify(json).length).toBeLessThan(12_000);
    const back = tablesFromJson(json, 'saved.json');
    for (const [i, table] of tables.entries()) {
      expect(Array.from(back[i].bias)).toEqual(Array.from(table.bias));
      expect(Array.from(back[i].offsets)).toEqual(Array.from(table.offsets));
    }
    expect(checkpointCaption(back)).toBe(checkpointCaption(tables));
  });

  test('a saved file that is not one gets an Error naming it and what is wrong', () => {
    expect(() => tablesFromJson({ format: 'x' }, 'course.json')).toThrow(
      'course.json is not a position-tables file this page reads: its "format" is not "relpos-position-tables".',
    );
    const bad = {
      format: 'relpos-position-tables',
      version: 1,
      tables: [{ heads: 1, part: 'encoder', offsets: [0], bias: [['a']] }],
    };
    expect(() => tablesFromJson(bad, 'course.json')).toThrow('tables[0].bias[0] must hold 1 numbers');
  });

  test('the caption states the numbers biasMass gives', async () => {
    const tables = await rp.checkpointPositions(await openCheckpoint(bytes('t5-tiny.safetensors')), {
      config: config(),
    });
    const encoder = tables.find((t) => t.part === 'encoder');
    const caption = checkpointCaption([encoder]);
    const m = biasMass(encoder, 1, 64);
    expect(caption).toContain(
      `head 1, puts ${m.left.toFixed(2)} left, ${m.self.toFixed(2)} on itself, ${m.right.toFixed(2)} right`,
    );
    // One band for every head: left/right above 1.25 looks back, below 0.8 ahead, else symmetric.
    const sides = [0, 1, 2, 3].map((h) => {
      const { left, right } = biasMass(encoder, h, 64);
      return left > 1.25 * right ? 'back' : left < 0.8 * right ? 'ahead' : 'symmetric';
    });
    const n = (side) => sides.filter((x) => x === side).length;
    expect(caption).toContain(
      `leans back (left/right softmax mass above 1.25) in ${n('back')} of 4 heads, ahead (below 0.8) in ${n('ahead')}, and is symmetric (0.8–1.25) in ${n('symmetric')}`,
    );
  });

  test('an exact tie is symmetric, not leaning back, in the caption as in the training section', () => {
    // Head 0: the same bias on −1 and +1 (a tie); head 1: e^1 : 1 to the left; head 2: 1 : e^0.1, inside the band.
    const table = {
      part: 'encoder',
      scheme: 'shaw',
      maxDistance: 1,
      heads: 3,
      bidirectional: true,
      offsets: Int32Array.from([-1, 0, 1]),
      bias: Float64Array.from([0.39, 0, 0.39, 1, 0, 0, 0, 0, 0.1]),
    };
    expect(checkpointCaption([table], 1)).toContain(
      'leans back (left/right softmax mass above 1.25) in 1 of 3 heads, ahead (below 0.8) in 0, and is symmetric (0.8–1.25) in 2',
    );
    expect([0, 1, 2].map((h) => sideOf(biasMass(table, h, 1)))).toEqual(['symmetric', 'back', 'symmetric']);
  });
});
