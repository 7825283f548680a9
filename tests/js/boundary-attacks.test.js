// The API against arguments that change under it: shadowed lengths, getters that answer
// differently on each read, Proxies, detached buffers, calls from inside a call, calls after
// dispose(). Each attack must end in a clear error or in the result of the same call with
// plain arguments; afterwards the instance gives bit-identical results for a fixed call and a
// second model on it is untouched (docs/api-boundary.md).
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { bits, matrix, plainInputs, witnessOf } from './witness.js';

let rp;
let witness; // a second model on the same instance (witness.js)
let expectIntact;
let fixed;

// An object whose `name` reads `first` once and `later` on every read after.
function changing(object, name, first, later) {
  let reads = 0;
  Object.defineProperty(object, name, {
    enumerable: true,
    get: () => (reads++ === 0 ? first : later),
  });
  return object;
}

beforeAll(async () => {
  rp = await createRelPos();
  ({ model: witness, fixed, expectIntact } = witnessOf(rp));
});

describe('shadowed lengths', () => {
  test('a Float64Array with its own length of 24 over 60,000 entries is refused by its real length', () => {
    const big = Float64Array.from({ length: 60000 }, (_, i) => i / 60000);
    Object.defineProperty(big, 'length', { value: 24 });
    const inputs = { ...plainInputs(), q: { rows: 6, cols: 4, data: big } };
    expect(() => rp.attention(inputs)).toThrow(
      /^attention: q\.data must hold rows × cols = 6 × 4 = 24 numbers, got 60000$/,
    );
    expectIntact();
  });

  test('a subclass whose length getter lies is read by the intrinsic getter', () => {
    class Lying extends Float64Array {
      get length() {
        return 24;
      }
    }
    const inputs = { ...plainInputs(), k: { rows: 6, cols: 4, data: new Lying(5000) } };
    expect(() => rp.attention(inputs)).toThrow(/k\.data must hold .* got 5000$/);
    expectIntact();
  });

  test('a shadowed Symbol.toStringTag does not change the array kind', () => {
    const data = Float64Array.from(plainInputs().q.data);
    Object.defineProperty(data, Symbol.toStringTag, { value: 'Uint8Array' });
    const result = rp.attention({ ...plainInputs(), q: { rows: 6, cols: 4, data } });
    expect(bits(result.output.data)).toEqual(bits(fixed.output.data));
  });

  test('model.attention(tokens) with a shadowed length is refused', () => {
    const tokens = Int32Array.from({ length: 4000 }, (_, i) => i % 12);
    Object.defineProperty(tokens, 'length', { value: 4 });
    expect(() => witness.attention(tokens)).toThrow(
      /^model\.attention: tokens must hold 1 to seqLen \(8\) ids, got 4000$/,
    );
    expectIntact();
  });

  test('setParameters with a shadowed length is refused and changes nothing', () => {
    const model = rp.createModel({ vocabSize: 12, dModel: 8, heads: 2, seqLen: 8, maxBatchSize: 4, seed: 5 });
    const before = model.parameters();
    const size = before['output.bias'].data.length;
    const data = new Float32Array(100000).fill(7);
    Object.defineProperty(data, 'length', { value: size });
    expect(() => model.setParameters({ 'output.bias': data })).toThrow(
      new RegExp(`^model\\.setParameters: output\\.bias must hold ${size} numbers .* got 100000$`),
    );
    const after = model.parameters();
    for (const name of Object.keys(before)) expect(bits(after[name].data), name).toEqual(bits(before[name].data));
    model.dispose();
    expectIntact();
  });
});

describe('getters read once', () => {
  test('a q.data getter, small when checked and large when copied, is read once', () => {
    const inputs = plainInputs();
    const small = inputs.q.data;
    changing(inputs.q, 'data', small, new Float64Array(1 << 20).fill(1));
    const result = rp.attention(inputs);
    expect(bits(result.output.data)).toEqual(bits(fixed.output.data));
    expectIntact();
  });

  test('rope() with an x.data getter is read once; the next attention() is unharmed', () => {
    const x = changing(
      { rows: 4, cols: 4 },
      'data',
      Float64Array.from({ length: 16 }, (_, i) => i),
      new Float64Array(1 << 20),
    );
    const rotated = rp.rope(x);
    expect(rotated.data.length).toBe(16);
    expect(Array.from(rotated.data.subarray(0, 4))).toEqual([0, 1, 2, 3]); // position 0 is not rotated
    expectIntact();
  });

  test('batch getters (seqLen, batchSize, tokens, targets) are read once: the loss is the plain batch loss', () => {
    const batch = rp.syntheticBatch({ vocabSize: 12, seqLen: 8, batchSize: 4, seed: 9 });
    const plain = witness.evaluate(batch).loss;
    const other = rp.syntheticBatch({ vocabSize: 12, seqLen: 8, batchSize: 4, seed: 10 });
    const tricky = changing({}, 'tokens', batch.tokens, other.tokens);
    changing(tricky, 'targets', batch.targets, other.targets);
    changing(tricky, 'batchSize', 4, 1);
    changing(tricky, 'seqLen', 8, 64);
    expect(witness.evaluate(tricky).loss).toBe(plain);
    expect(witness.evaluate(batch).loss).toBe(plain);
    expectIntact();
  });

  test('a Proxy of inputs is asked once per field', () => {
    const reads = {};
    const inputs = new Proxy(plainInputs(), {
      get(target, key, receiver) {
        reads[key] = (reads[key] ?? 0) + 1;
        return Reflect.get(target, key, receiver);
      },
    });
    const result = rp.attention(inputs);
    expect(bits(result.output.data)).toEqual(bits(fixed.output.data));
    for (const key of ['q', 'k', 'v', 'relKeys']) expect(reads[key], key).toBe(1);
  });

  test('sparse tokens are a TypeError naming the hole', () => {
    // eslint-disable-next-line no-sparse-arrays
    const tokens = ['the', , 'cat'];
    expect(() => rp.example({ tokens, draw: 'stable' })).toThrow(
      /^example: tokens\[1\] must be a string, got undefined$/,
    );
    expectIntact();
  });
});

describe('shared memory', () => {
  test("attention()'s out over SharedArrayBuffers is written through and returned (inputs over one are copied)", () => {
    const inputs = plainInputs();
    const shared = (data) => {
      const copy = new Float64Array(new SharedArrayBuffer(data.byteLength));
      copy.set(data);
      return copy;
    };
    const out = rp.allocateAttention(inputs);
    for (const panel of Object.values(out)) {
      if (panel?.data) panel.data = new Float64Array(new SharedArrayBuffer(panel.data.byteLength));
    }
    const sharedInputs = { ...inputs, q: { ...inputs.q, data: shared(inputs.q.data) } };
    const result = rp.attention(sharedInputs, { out });
    for (const name of Object.keys(fixed)) {
      if (name === 'maxDistance') continue;
      expect(result[name].data, name).toBe(out[name].data);
      expect(bits(out[name].data), name).toEqual(bits(fixed[name].data));
    }
    expectIntact();
  });
});

describe('detached buffers and re-entry', () => {
  test('a detached buffer is refused with a clear error', () => {
    const inputs = plainInputs();
    structuredClone(inputs.q.data.buffer, { transfer: [inputs.q.data.buffer] });
    expect(() => rp.attention(inputs)).toThrow(/^attention: q\.data is a view of a detached ArrayBuffer/);
    expectIntact();
  });

  test('a buffer detached by a later getter is refused before anything is computed', () => {
    const inputs = plainInputs();
    const q = inputs.q.data;
    changing(inputs, 'v', inputs.v, inputs.v);
    Object.defineProperty(inputs, 'relKeys', {
      enumerable: true,
      get() {
        if (q.length) structuredClone(q.buffer, { transfer: [q.buffer] });
        return matrix(5, 4, 3);
      },
    });
    expect(() => rp.attention(inputs)).toThrow(
      /^attention: q\.data lost its memory while the arguments were being read/,
    );
    expectIntact();
  });

  test('a getter that calls the API during a call is refused', () => {
    const inputs = plainInputs();
    Object.defineProperty(inputs, 'k', {
      enumerable: true,
      get: () => {
        rp.attention(plainInputs());
        return matrix(6, 4, 2);
      },
    });
    expect(() => rp.attention(inputs)).toThrow(
      /^attention: called while attention\(\) of the same instance is running/,
    );
    const disposing = plainInputs();
    Object.defineProperty(disposing, 'k', {
      enumerable: true,
      get: () => {
        witness.dispose();
        return matrix(6, 4, 2);
      },
    });
    expect(() => rp.attention(disposing)).toThrow(/^model\.dispose: called while attention\(\)/);
    expect(witness.disposed).toBe(false);
    expectIntact();
  });
});

describe('float32 models and disposed instances', () => {
  test('float64 values beyond float32 are refused for a float32 model, naming the parameter', () => {
    const model = rp.createModel({ vocabSize: 12, dModel: 8, heads: 2, seqLen: 8, maxBatchSize: 4 });
    const size = model.parameters()['output.bias'].data.length;
    const data = new Float64Array(size).fill(1e39);
    expect(() => model.setParameters({ 'output.bias': data })).toThrow(
      /^model\.setParameters: output\.bias\[0\] is 1e\+39, beyond float32's range/,
    );
    expect(() =>
      model.trainStep(rp.syntheticBatch({ vocabSize: 12, seqLen: 8, batchSize: 4 }), { epsilon: 1e-50 }),
    ).toThrow(/^model\.trainStep: epsilon must be at least 1\.4e-45/);
    const batch = rp.syntheticBatch({ vocabSize: 12, seqLen: 8, batchSize: 4 });
    expect(Number.isFinite(model.evaluate(batch).loss)).toBe(true);
    model.dispose();
  });

  test('syntheticBatch has the model’s bounds: a vocabulary or a sequence no model can take is refused by name', () => {
    for (const [name, value, most] of [
      ['vocabSize', 1e9, 1048576],
      ['seqLen', 5000, 4096],
    ]) {
      const refused = new RegExp(`^syntheticBatch: ${name} must be an integer from 1 to ${most}, got ${value}$`);
      expect(() => rp.syntheticBatch({ vocabSize: 12, seqLen: 8, batchSize: 1, [name]: value })).toThrow(refused);
      expect(() => rp.syntheticBatch({ vocabSize: 12, seqLen: 8, batchSize: 1, [name]: most })).not.toThrow();
      // The model's own config refuses the same value, with the same bound.
      expect(() => rp.createModel({ vocabSize: 12, [name]: value })).toThrow(
        new RegExp(`${name} must be an integer from 1 to ${most},`),
      );
    }
  });

  test('syntheticBatch after dispose() says the instance was disposed', async () => {
    const other = await createRelPos();
    other.dispose();
    expect(() => other.syntheticBatch()).toThrow(/^syntheticBatch: this RelPos instance has been disposed$/);
    expect(() => other.attention(plainInputs())).toThrow(/^attention: this RelPos instance has been disposed$/);
  });
});
