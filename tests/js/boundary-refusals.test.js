// Arguments the API once took in a way the caller could not see, each now refused before
// anything is computed or written, with a TypeError or RangeError naming the argument: an `out`
// whose fields cannot be set as plain values (frozen, without room for a field, with a setter),
// a Proxy of a typed array (named as what it is), options that are not a plain object (a Map's
// entries are not its fields), a saved model's null numbers (JSON's NaN), a Blob whose size is
// not a number of bytes. Afterwards the instance and a second model on it are as they were.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRelPos, openCheckpoint } from 'relpos-wasm';
import { TrainSession, sessionFromExport } from '../../web/train/train-session.js';
import { startNodePool } from './pool/node-pool.js';
import { matrix, plainInputs, witnessOf } from './witness.js';

let rp;
let witness; // a second model on the same instance (witness.js)
let expectIntact;

const refusal = (call) => {
  try {
    call();
  } catch (error) {
    return error;
  }
  return null;
};

// Every array of an allocateAttention() result still all zeros: nothing was written into it.
const untouched = (out) =>
  Object.entries(out).every(([name, panel]) => name === 'maxDistance' || panel.data.every((x) => x === 0));

beforeAll(async () => {
  rp = await createRelPos();
  ({ model: witness, expectIntact } = witnessOf(rp));
});
afterAll(() => rp.dispose());

describe('1. an out the call could not set its fields on is refused before anything is written', () => {
  const unsettable = (key) =>
    `attention: out.${key} cannot be set (out is frozen or sealed, or ${key} is read-only or a setter); pass an earlier result the call can write into`;

  test('a frozen out', () => {
    const out = Object.freeze(rp.allocateAttention(plainInputs()));
    const error = refusal(() => rp.attention(plainInputs(), { out }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(unsettable('maxDistance'));
    expect(untouched(out)).toBe(true);
    expectIntact();
  });

  test('an out frozen by a getter of the options read after it', () => {
    const out = rp.allocateAttention(plainInputs());
    const options = {
      out,
      get queryOffset() {
        Object.freeze(out);
        return undefined;
      },
    };
    const error = refusal(() => rp.attention(plainInputs(), options));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(unsettable('maxDistance'));
    expect(untouched(out)).toBe(true);
    expectIntact();
  });

  test('an out with a setter that detaches another of its arrays', () => {
    const out = rp.allocateAttention(plainInputs());
    const panel = out.contentScores;
    const { buffer } = out.output.data;
    Object.defineProperty(out, 'contentScores', {
      enumerable: true,
      get: () => panel,
      set: () => {
        structuredClone(buffer, { transfer: [buffer] });
      },
    });
    const error = refusal(() => rp.attention(plainInputs(), { out }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(unsettable('contentScores'));
    expect(out.output.data.length).toBe(6 * 3); // the setter never ran
    expect(untouched(out)).toBe(true);
    expectIntact();
  });

  test('an out that takes no new field, where the call adds one (position, for ALiBi)', () => {
    const inputs = { q: matrix(6, 4, 1), k: matrix(6, 4, 2), position: { scheme: 'alibi', slope: 0.5 } };
    const out = Object.preventExtensions(rp.allocateAttention(inputs));
    const error = refusal(() => rp.attention(inputs, { out }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(unsettable('position'));
    expect(untouched(out)).toBe(true);
    // An out that can take its fields is written through and returned.
    const open = rp.allocateAttention(inputs);
    expect(rp.attention(inputs, { out: open })).toBe(open);
    expect(open.position.scheme).toBe('alibi');
    expectIntact();
  });

  test('the worker API: a frozen out is refused before any worker runs, its arrays unwritten', async () => {
    const pool = await startNodePool({ size: 2 });
    try {
      const out = Object.freeze(rp.allocateAttention(plainInputs()));
      const error = await pool.attention(plainInputs(), { out }).then(
        () => null,
        (e) => e,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toBe(unsettable('maxDistance'));
      expect(untouched(out)).toBe(true);
    } finally {
      pool.terminate();
    }
  });
});

test('2. a Proxy of a typed array, or an object with its prototype, is named as what it is', () => {
  const proxied = { ...plainInputs(), q: { rows: 6, cols: 4, data: new Proxy(new Float64Array(24), {}) } };
  const error = refusal(() => rp.attention(proxied));
  expect(error).toBeInstanceOf(TypeError);
  expect(error.message).toBe(
    'attention: q.data must be a Float64Array or Float32Array, got a Proxy or look-alike of a Float64Array, not a typed array',
  );
  const lookAlike = { rows: 2, cols: 4, data: Object.create(Float32Array.prototype) };
  expect(() => rp.rope(lookAlike)).toThrow(
    /^rope: x\.data must be a Float64Array or Float32Array, got a Proxy or look-alike of a Float32Array, not a typed array$/,
  );
  // A real typed array is still named by its class.
  expect(() => rp.rope({ rows: 2, cols: 4, data: new Int32Array(8) })).toThrow(/, got an Int32Array$/);
  expectIntact();
});

test('3. options that are not a plain object (a Map, a Date, a class instance) are a TypeError naming them', () => {
  class Options {
    constructor() {
      this.seed = 3;
    }
  }
  const x = matrix(2, 4, 1);
  const cases = [
    [
      () => rp.localityProfile(new Map([['seed', 3]])),
      /^localityProfile: options must be a plain object \{ … \}, got a Map$/,
    ],
    [() => rp.localityProfile(new Date()), /^localityProfile: options must be a plain object \{ … \}, got a Date$/],
    [
      () => rp.localityProfile(new Options()),
      /^localityProfile: options must be a plain object \{ … \}, got an Options$/,
    ],
    [() => rp.rope(x, new Map([['base', 5]])), /^rope: options must be a plain object \{ … \}, got a Map$/],
    [() => rp.attention(new Map()), /^attention: inputs must be a plain object \{ … \}, got a Map$/],
    [
      () => rp.attention(plainInputs(), new Map()),
      /^attention: options must be an object \{ outputs, out, queryOffset \}, got a Map$/,
    ],
    [() => rp.syntheticBatch(new Map()), /^syntheticBatch: options must be a plain object \{ … \}, got a Map$/],
    [() => rp.createModel(new Map()), /^createModel: config must be a plain object \{ … \}, got a Map$/],
    [
      () => witness.trainStep(new Map()),
      /^model\.trainStep: batch must be an object \{ tokens, targets, batchSize, seqLen \}, got a Map$/,
    ],
    [() => witness.setParameters(new Map()), /^model\.setParameters: values must be an object .*, got a Map$/],
  ];
  for (const [call, message] of cases) {
    const error = refusal(call);
    expect(error, String(message)).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(message);
  }
  // A plain object from anywhere still is one: Object.create(null), JSON.parse's.
  expect(rp.localityProfile(Object.assign(Object.create(null), { seed: 3 })).profile).toEqual(
    rp.localityProfile(JSON.parse('{"seed": 3}')).profile,
  );
  expectIntact();
});

describe('4. a saved model’s parameters: null (JSON’s NaN) is refused, naming the parameter, not read as 0', () => {
  let saved;
  beforeAll(() => {
    const session = new TrainSession(rp, null, { task: 'copy', preset: 'tiny' });
    saved = session.exportModel();
    session.dispose();
  });
  const withNull = () => {
    const copy = JSON.parse(JSON.stringify(saved));
    copy.parameters['output.bias'].data[7] = NaN; // JSON.stringify writes it as null
    return JSON.parse(JSON.stringify(copy));
  };

  test('rp.checkpointPositions(saved model)', async () => {
    const heap = rp.memory().heapInUseBytes;
    await expect(rp.checkpointPositions(withNull())).rejects.toThrow(
      new TypeError(
        'checkpointPositions: parameters["output.bias"].data[7] must be a number, got null (as JSON writes NaN and ±Infinity)',
      ),
    );
    const text = JSON.parse(JSON.stringify(saved));
    text.parameters.embedding.data[2] = '0.5';
    await expect(rp.checkpointPositions(text)).rejects.toThrow(
      /^checkpointPositions: parameters\["embedding"\]\.data\[2\] must be a number, got a string \("0\.5"\)$/,
    );
    expect(rp.memory().heapInUseBytes).toBe(heap);
    expect((await rp.checkpointPositions(JSON.parse(JSON.stringify(saved)))).length).toBeGreaterThan(0);
    expectIntact();
  });

  test('sessionFromExport (the training section’s model files)', () => {
    const heap = rp.memory().heapInUseBytes;
    expect(() => sessionFromExport(rp, null, withNull())).toThrow(
      'This is not a model saved by this page: parameter "output.bias"[7] is null (as JSON writes NaN and ±Infinity), not a number.',
    );
    expect(rp.memory().heapInUseBytes).toBe(heap);
    expectIntact();
  });
});

test('5. a Blob whose size is not a whole number of bytes is refused, naming it', async () => {
  class OddBlob extends Blob {
    constructor(parts, size) {
      super(parts);
      this.claimed = size;
    }

    get size() {
      return this.claimed;
    }
  }
  const bytes = [new Uint8Array(16)];
  await expect(openCheckpoint(new OddBlob(bytes, NaN))).rejects.toThrow(
    new RangeError('openCheckpoint: source.size must be an integer from 0 to 9007199254740991, got NaN'),
  );
  await expect(openCheckpoint([new Uint8Array(16), new OddBlob(bytes, -1)])).rejects.toThrow(
    /^openCheckpoint: source\[1\]\.size must be an integer from 0 to 9007199254740991, got -1$/,
  );
  const error = await openCheckpoint(new OddBlob(bytes, '16')).then(
    () => null,
    (e) => e,
  );
  expect(error).toBeInstanceOf(TypeError);
  expect(error.message).toBe(
    'openCheckpoint: source.size must be an integer from 0 to 9007199254740991, got a string ("16")',
  );
});
