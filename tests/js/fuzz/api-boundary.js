// Property-based fuzzing of the JS API's boundary (fast-check). Each case is one call whose
// arguments are attacked: random shapes, every kind of typed array (and look-alikes), views at
// offsets into larger buffers, shadowed `length`s, getters that answer differently after the
// first read, Proxies, detached buffers, getters that call back into the API, calls after
// dispose(). The oracle is the same call with plain arguments (what a single read of each field
// gives) on a second instance: both throw the same error, or both give the same bits. After each
// case a fixed call still gives bit-identical results and a second model is untouched.
// Run bounded by tests/js/api-boundary-fuzz.test.js, for longer by `npm run fuzz:js`.
import fc from 'fast-check';
import { createRelPos } from '../../../web/api/index.js';

const KINDS = ['Float64Array', 'Float32Array', 'Int32Array', 'Uint8Array', 'Array', 'BigInt64Array', 'DataView'];
const MODEL = { vocabSize: 12, dModel: 8, heads: 2, seqLen: 8, maxBatchSize: 4, seed: 3 };

// The same bytes (arrays of the same kind and length), or the same JSON for anything else.
function sameBits(a, b) {
  if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b)) return JSON.stringify(a) === JSON.stringify(b);
  if (a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return false;
  return true;
}

// How one array argument is given: its kind, its real length against the one it should have, an
// offset into a larger buffer, and what is done to it.
const rarely = (arbitrary, weight = 12) => fc.oneof({ weight, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
const arrayAttack = fc.record({
  kind: rarely(fc.constantFrom(...KINDS), 16),
  lengthDelta: fc.oneof(
    { weight: 16, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: -3, max: 3 }) },
    { weight: 1, arbitrary: fc.constant(5000) },
  ),
  offset: fc.integer({ min: 0, max: 5 }),
  shadowLength: fc.option(fc.integer({ min: 0, max: 64 }), { freq: 3 }),
  special: rarely(fc.constantFrom(NaN, Infinity, -Infinity, 1e39, -0), 20),
  detach: fc.oneof({ weight: 30, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  laterLength: fc.option(fc.constantFrom(0, 1, 1 << 16), { freq: 3 }),
});

// How an object argument (a matrix, the inputs, a batch) is given.
const objectAttack = fc.record({
  proxy: fc.boolean(),
  getters: fc.boolean(),
  reenter: rarely(fc.constantFrom('attention', 'dispose-model', 'randn'), 30),
});

const shapes = fc.record({
  n: fc.integer({ min: 1, max: 40 }),
  dK: fc.integer({ min: 1, max: 6 }),
  dV: fc.integer({ min: 1, max: 5 }),
  k: fc.integer({ min: 0, max: 5 }),
  rowsDelta: fc.oneof(
    { weight: 12, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: -2, max: 2 }) },
  ),
  kind: fc.constantFrom('Float64Array', 'Float32Array'),
  withV: fc.boolean(),
});

const CASE = fc.oneof(
  fc.record({
    call: fc.constant('attention'),
    shapes,
    arrays: fc.array(arrayAttack, { minLength: 5, maxLength: 5 }),
    objects: fc.array(objectAttack, { minLength: 6, maxLength: 6 }),
    scheme: fc.constantFrom('shaw', 'shaw', 'alibi', 't5', 'rope', 'none'),
  }),
  fc.record({
    call: fc.constant('rope'),
    shapes,
    arrays: fc.array(arrayAttack, { minLength: 1, maxLength: 1 }),
    objects: fc.array(objectAttack, { minLength: 1, maxLength: 1 }),
  }),
  fc.record({
    call: fc.constant('evaluate'),
    batchSize: fc.integer({ min: 1, max: 4 }),
    seqLen: fc.integer({ min: 1, max: 8 }),
    seqDelta: fc.constantFrom(0, 0, 0, 56),
    arrays: fc.array(arrayAttack, { minLength: 2, maxLength: 2 }),
    objects: fc.array(objectAttack, { minLength: 1, maxLength: 1 }),
  }),
  fc.record({
    call: fc.constant('setParameters'),
    arrays: fc.array(arrayAttack, { minLength: 1, maxLength: 1 }),
    objects: fc.array(objectAttack, { minLength: 1, maxLength: 1 }),
    name: fc.constantFrom('output.bias', 'output.bias', 'embedding', '__proto__', 'constructor'),
    kind: fc.constantFrom('Float64Array', 'Float32Array'),
  }),
  fc.record({
    call: fc.constant('modelAttention'),
    length: fc.integer({ min: 0, max: 10 }),
    arrays: fc.array(arrayAttack, { minLength: 1, maxLength: 1 }),
  }),
  fc.record({
    call: fc.constant('example'),
    tokens: fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.constant(undefined), fc.integer()), { maxLength: 12 }),
    holes: fc.boolean(),
    draw: fc.constantFrom('handbook', 'stable'),
    objects: fc.array(objectAttack, { minLength: 1, maxLength: 1 }),
  }),
  fc.record({
    call: fc.constant('afterDispose'),
    which: fc.constantFrom('attention', 'syntheticBatch', 'randn', 'rope', 'createModel', 'evaluate'),
  }),
);

const DETACHED = /detached|lost its memory/;
const CONSTRUCTORS = { Float64Array, Float32Array, Int32Array, Uint8Array, BigInt64Array };

/** The values of one array argument: { attacked (what the API is given), plain (one read's worth) }. */
function makeArray(given, wanted, valueAt, baseKind = 'Float64Array') {
  const attack = { ...given, kind: given.kind ?? baseKind };
  const length = Math.max(0, wanted + attack.lengthDelta);
  const values = Array.from({ length }, (_, i) => valueAt(i));
  if (attack.special !== null && length > 0) values[length >> 1] = attack.special;
  if (attack.kind === 'Array') return { attacked: values, plain: values.slice() };
  if (attack.kind === 'DataView') {
    const view = new DataView(new ArrayBuffer(length * 8));
    return { attacked: view, plain: view };
  }
  const ArrayType = CONSTRUCTORS[attack.kind];
  const convert = ArrayType === BigInt64Array ? (v) => BigInt(Math.trunc(Number.isFinite(v) ? v : 0)) : (v) => v;
  const buffer = new ArrayBuffer((length + attack.offset + 2) * ArrayType.BYTES_PER_ELEMENT);
  const array = new ArrayType(buffer, attack.offset * ArrayType.BYTES_PER_ELEMENT, length);
  values.forEach((v, i) => (array[i] = convert(v)));
  const plain = array.slice();
  if (attack.shadowLength !== null) Object.defineProperty(array, 'length', { value: attack.shadowLength });
  if (attack.detach) structuredClone(buffer, { transfer: [buffer] });
  return { attacked: array, plain, detached: attack.detach };
}

// An object with `fields`, given plainly, through getters whose later reads give `later`, or as
// a Proxy whose later reads give `later`; a getter may call back into the API (re-entry).
function makeObject(attack, fields, later, env) {
  let target = { ...fields };
  const reads = new Map();
  const reenter = () => {
    if (attack.reenter === null) return;
    env.expectError = /called while/;
    if (attack.reenter === 'attention') env.rp.attention(env.fixedInputs());
    if (attack.reenter === 'dispose-model') env.witness.dispose();
    if (attack.reenter === 'randn') env.rp.randn(1, 4);
  };
  const read = (key) => {
    const count = reads.get(key) ?? 0;
    reads.set(key, count + 1);
    if (count === 0) {
      reenter();
      return fields[key];
    }
    return Object.hasOwn(later, key) ? later[key] : fields[key];
  };
  if (attack.getters) {
    target = {};
    for (const key of Object.keys(fields))
      Object.defineProperty(target, key, { enumerable: true, get: () => read(key) });
  }
  if (attack.proxy) {
    return new Proxy(target, {
      get: (object, key) =>
        typeof key === 'string' && Object.hasOwn(fields, key) ? read(key) : Reflect.get(object, key),
    });
  }
  if (!attack.getters && attack.reenter !== null) {
    // A plain object with one getter that calls back.
    const [first] = Object.keys(fields);
    Object.defineProperty(target, first, { enumerable: true, get: () => read(first) });
  }
  return target;
}

const wave = (seed) => (i) => Math.sin(seed * 13 + i * 0.7) * 2;

function buildCase(c, env) {
  if (c.call === 'attention' || c.call === 'rope') {
    const { n, dK, dV, k, rowsDelta, withV } = c.shapes;
    const cols = c.call === 'rope' || c.scheme === 'rope' ? 2 * dK : dK;
    const used = c.call === 'rope' ? 1 : c.scheme !== 'shaw' ? (withV ? [0, 1, 3] : [0, 1]) : withV ? 5 : 3;
    const specs = [
      ['q', n + rowsDelta, cols],
      ['k', n, cols],
      ['relKeys', 2 * k + 1, cols],
      ['v', n, dV],
      ['relValues', 2 * k + 1, dV],
    ]
      .map((spec, index) => [...spec, index])
      .filter((_, index) => (Array.isArray(used) ? used.includes(index) : index < used));
    const attacked = {};
    const plain = {};
    specs.forEach(([name, rows, width, index]) => {
      const array = makeArray(c.arrays[index], rows * width, wave(index + 1), c.shapes.kind);
      if (array.detached) env.expectError = DETACHED;
      const later = c.arrays[index].laterLength === null ? {} : { data: new Float64Array(c.arrays[index].laterLength) };
      attacked[name] = makeObject(c.objects[index], { rows, cols: width, data: array.attacked }, later, env);
      plain[name] = { rows, cols: width, data: array.plain };
    });
    if (c.call === 'rope')
      return { run: (rp) => rp.rope(...(rp === env.rp ? [attacked.q] : [plain.q])), where: 'rope' };
    let extra = {};
    if (c.scheme !== 'shaw') {
      const position = {
        alibi: { scheme: 'alibi', slope: 0.5 },
        t5: { scheme: 't5', biases: Array.from({ length: 32 }, (_, i) => i / 32) },
        rope: { scheme: 'rope' },
        none: { scheme: 'none' },
      }[c.scheme];
      extra = { position };
    }
    const inputs = makeObject(
      c.objects[5],
      { ...attacked, ...extra },
      { q: { rows: 1, cols: 1, data: new Float64Array(1) } },
      env,
    );
    const plainInputs = { ...plain, ...extra };
    return { run: (rp) => rp.attention(rp === env.rp ? inputs : plainInputs), where: 'attention' };
  }
  if (c.call === 'evaluate') {
    const length = c.batchSize * c.seqLen;
    const tokens = makeArray({ ...c.arrays[0], kind: c.arrays[0].kind ?? 'Int32Array' }, length, (i) => (i * 5) % 12);
    const targets = makeArray(
      { ...c.arrays[1], kind: c.arrays[1].kind ?? 'Int32Array' },
      length,
      (i) => ((i * 7) % 13) - 1,
    );
    if (tokens.detached || targets.detached) env.expectError = DETACHED;
    const fields = { tokens: tokens.attacked, targets: targets.attacked, batchSize: c.batchSize, seqLen: c.seqLen };
    const later = { seqLen: c.seqLen + c.seqDelta, batchSize: 1, tokens: new Int32Array(1 << 12) };
    const batch = makeObject(c.objects[0], fields, later, env);
    const plain = { tokens: tokens.plain, targets: targets.plain, batchSize: c.batchSize, seqLen: c.seqLen };
    return {
      run: (rp) => (rp === env.rp ? env.witness : env.witnessRef).evaluate(rp === env.rp ? batch : plain),
      where: 'model.evaluate',
    };
  }
  if (c.call === 'setParameters') {
    const size = c.name === 'output.bias' ? MODEL.vocabSize : MODEL.vocabSize * MODEL.dModel;
    const array = makeArray(c.arrays[0], size, wave(9), c.kind);
    if (array.detached) env.expectError = DETACHED;
    const values = makeObject(c.objects[0], { [c.name]: array.attacked }, {}, env);
    const plain = Object.defineProperty({}, c.name, { value: array.plain, enumerable: true });
    // The witnesses change together: the same values on both, or the same refusal.
    return {
      run: (rp) => (rp === env.rp ? env.witness : env.witnessRef).setParameters(rp === env.rp ? values : plain),
      where: 'model.setParameters',
      changesWitness: true,
    };
  }
  if (c.call === 'modelAttention') {
    const tokens = makeArray(
      { ...c.arrays[0], kind: c.arrays[0].kind ?? 'Int32Array', special: null },
      c.length,
      (i) => (i * 5) % 12,
    );
    if (tokens.detached) env.expectError = DETACHED;
    return {
      run: (rp) =>
        (rp === env.rp ? env.witness : env.witnessRef).attention(rp === env.rp ? tokens.attacked : tokens.plain),
      where: 'model.attention',
    };
  }
  if (c.call === 'example') {
    const tokens = c.tokens.slice();
    if (c.holes && tokens.length > 1) delete tokens[1];
    const options = makeObject(c.objects[0], { tokens, draw: c.draw, outputs: [] }, { tokens: ['x'] }, env);
    const plain = { tokens: Array.from(tokens), draw: c.draw, outputs: [] };
    return { run: (rp) => rp.example(rp === env.rp ? options : plain), where: 'example' };
  }
  // afterDispose: an instance (and its model), disposed, then called.
  const where = c.which === 'evaluate' ? 'model.evaluate' : c.which;
  const expected = `${where}: this ${c.which === 'evaluate' ? 'model' : 'RelPos instance'} has been disposed`;
  return {
    run: (rp) => {
      if (rp !== env.rp) throw new Error(expected);
      const gone = env.disposed;
      const matrix = { rows: 2, cols: 2, data: new Float64Array(4) };
      if (c.which === 'attention')
        return gone.attention({ q: matrix, k: matrix, relKeys: { rows: 1, cols: 2, data: new Float64Array(2) } });
      if (c.which === 'syntheticBatch') return gone.syntheticBatch();
      if (c.which === 'randn') return gone.randn(1, 2);
      if (c.which === 'rope') return gone.rope(matrix);
      if (c.which === 'createModel') return gone.createModel(MODEL);
      return env.disposedModel.evaluate({});
    },
    where,
    afterDispose: true,
  };
}

const outcome = (run) => {
  try {
    return { value: run() };
  } catch (error) {
    return { error };
  }
};

function sameValue(a, b, path = 'result') {
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (Object.prototype.toString.call(a) !== Object.prototype.toString.call(b) || !sameBits(a, b)) {
      throw new Error(`${path} differs from the plain call's`);
    }
    return;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    if (!Object.is(a, b)) throw new Error(`${path}: ${String(a)} against the plain call's ${String(b)}`);
    return;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) sameValue(a[key], b[key], `${path}.${key}`);
}

/** The fuzzing environment: the instance under attack, a reference instance, their witnesses. */
export async function boundaryEnvironment() {
  const env = { rp: await createRelPos(), ref: await createRelPos(), cases: 0, refused: 0, returned: 0, found: [] };
  env.witness = env.rp.createModel(MODEL);
  env.witnessRef = env.ref.createModel(MODEL);
  env.bystander = env.rp.createModel({ ...MODEL, seed: 11 });
  env.bystanderParameters = env.bystander.parameters();
  env.fixedInputs = () => {
    const m = (rows, cols, seed) => ({
      rows,
      cols,
      data: Float64Array.from({ length: rows * cols }, (_, i) => wave(seed)(i)),
    });
    return { q: m(5, 3, 1), k: m(5, 3, 2), relKeys: m(3, 3, 3), v: m(5, 2, 4), relValues: m(3, 2, 5) };
  };
  env.fixed = env.rp.attention(env.fixedInputs());
  env.disposed = await createRelPos();
  env.disposedModel = env.disposed.createModel(MODEL);
  env.disposed.dispose();
  return env;
}

function checkAfter(env) {
  const again = env.rp.attention(env.fixedInputs());
  sameValue(again, env.fixed, 'the fixed call');
  const now = env.bystander.parameters();
  for (const [name, { data }] of Object.entries(env.bystanderParameters)) {
    if (!sameBits(now[name].data, data)) throw new Error(`another model's ${name} changed`);
  }
  if (env.witness.disposed) throw new Error('a getter disposed the witness model');
  sameValue(env.witness.parameters(), env.witnessRef.parameters(), 'the witness model');
}

/** The property: one attacked call against its plain twin. */
export function boundaryProperty(env) {
  return fc.property(CASE, (c) => {
    env.cases += 1;
    env.expectError = null;
    const built = buildCase(c, env);
    const attacked = outcome(() => built.run(env.rp));
    if (env.expectError) {
      if (!attacked.error || !env.expectError.test(attacked.error.message)) {
        throw new Error(`expected ${env.expectError}, got ${attacked.error?.message ?? 'a result'}`);
      }
      env.refused += 1;
      checkAfter(env);
      return;
    }
    const plain = outcome(() => built.run(env.ref));
    if (attacked.error) {
      const { error } = attacked;
      if (!(error instanceof TypeError || error instanceof RangeError || error.constructor === Error)) {
        throw new Error(`${built.where} threw ${error.constructor.name}: ${error.message}`);
      }
      if (!error.message.startsWith(`${built.where}: `)) throw new Error(`unclear message: ${error.message}`);
      if (!plain.error || plain.error.message !== error.message || plain.error.constructor !== error.constructor) {
        throw new Error(
          `the attacked call threw "${error.message}", the plain one ${plain.error ? `"${plain.error.message}"` : 'returned'}`,
        );
      }
      env.refused += 1;
    } else {
      if (plain.error) throw new Error(`the attacked call returned, the plain one threw "${plain.error.message}"`);
      sameValue(attacked.value, plain.value);
      env.returned += 1;
    }
    checkAfter(env);
  });
}

/** Runs `numRuns` cases (seed: fast-check's, or `seed`); returns the counts. */
export async function fuzzBoundary({ numRuns, seed } = {}) {
  const env = await boundaryEnvironment();
  fc.assert(boundaryProperty(env), { numRuns, ...(seed === undefined ? {} : { seed }) });
  return { cases: env.cases, refused: env.refused, returned: env.returned };
}
