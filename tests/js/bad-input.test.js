// Every entry point against wrong input: the right error class, a message that names the
// argument, and a module that works exactly as before afterwards. Expected messages are written
// from the API's contract (README "Errors"), not copied from a run.
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';

const f64 = (rows, cols, fill = (i) => Math.sin(i + 1)) => ({
  rows,
  cols,
  data: Float64Array.from({ length: rows * cols }, (_, i) => fill(i)),
});
const f32 = (rows, cols) => ({ ...f64(rows, cols), data: Float32Array.from(f64(rows, cols).data) });
const good = () => ({ q: f64(6, 4), k: f64(6, 4), relKeys: f64(5, 4), v: f64(6, 3), relValues: f64(5, 3) });
const withData = (m, change) => {
  const data = Float64Array.from(m.data);
  change(data);
  return { ...m, data };
};

// [label, call, error class, message pattern]
const CASES = [
  [
    'randn seed as a string',
    (rp) => rp.randn('42', 5),
    TypeError,
    /^randn: seed must be an integer from 0 to 4294967295, got a string \("42"\)$/,
  ],
  ['randn negative seed', (rp) => rp.randn(-1, 5), RangeError, /^randn: seed .* got -1$/],
  ['randn seed 2^32', (rp) => rp.randn(2 ** 32, 5), RangeError, /^randn: seed .* got 4294967296$/],
  ['randn fractional seed', (rp) => rp.randn(1.5, 5), RangeError, /^randn: seed .* got 1\.5$/],
  ['randn NaN seed', (rp) => rp.randn(NaN, 5), RangeError, /^randn: seed .* got NaN$/],
  ['randn missing count', (rp) => rp.randn(1), TypeError, /^randn: count .* got undefined$/],
  ['randn bigint count', (rp) => rp.randn(1, 10n), TypeError, /^randn: count .* got a bigint \(10n\)$/],
  ['randn negative count', (rp) => rp.randn(1, -1), RangeError, /^randn: count .* got -1$/],
  ['randn fractional count', (rp) => rp.randn(1, 2.5), RangeError, /^randn: count .* got 2\.5$/],
  ['randn infinite count', (rp) => rp.randn(1, Infinity), RangeError, /^randn: count .* got Infinity$/],
  [
    'randn count too large',
    (rp) => rp.randn(1, 1e12),
    RangeError,
    /^randn: count = 1000000000000 needs 7\.28 TiB of memory; the limit is 1\.00 GiB per call$/,
  ],

  [
    'relativeOffsets n = 0',
    (rp) => rp.relativeOffsets(0, 2),
    RangeError,
    /^relativeOffsets: n must be an integer from 1 to \d+, got 0$/,
  ],
  ['relativeOffsets n as a string', (rp) => rp.relativeOffsets('6', 2), TypeError, /^relativeOffsets: n /],
  [
    'relativeOffsets n too large',
    (rp) => rp.relativeOffsets(100000, 2),
    RangeError,
    /^relativeOffsets: n = 100000 needs 37\.3 GiB/,
  ],
  [
    'relativeOffsets negative k',
    (rp) => rp.relativeOffsets(5, -1),
    RangeError,
    /^relativeOffsets: maxDistance .* got -1$/,
  ],
  ['relativeOffsets k as a string', (rp) => rp.relativeOffsets(5, '2'), TypeError, /^relativeOffsets: maxDistance /],

  ['attention without inputs', (rp) => rp.attention(), TypeError, /^attention: inputs\.q is required$/],
  ['attention with null', (rp) => rp.attention(null), TypeError, /^attention: inputs must be an object, got null$/],
  [
    'attention with an array',
    (rp) => rp.attention([]),
    TypeError,
    /^attention: inputs must be an object, got an Array$/,
  ],
  [
    'attention unknown option',
    (rp) => rp.attention({ ...good(), relkeys: 1 }),
    TypeError,
    /^attention: unknown option "relkeys"; expected q, k, relKeys, v, relValues, causal, scale, heads, keyPadding, allowed, position$/,
  ],
  [
    'attention missing relKeys',
    (rp) => rp.attention({ q: f64(6, 4), k: f64(6, 4) }),
    TypeError,
    /^attention: inputs\.relKeys is required$/,
  ],
  [
    'q as a typed array',
    (rp) => rp.attention({ ...good(), q: new Float64Array(4) }),
    TypeError,
    /^attention: q must be a matrix \{ rows, cols, data \}, got a Float64Array$/,
  ],
  [
    'q.data as an Array',
    (rp) => rp.attention({ ...good(), q: { rows: 6, cols: 4, data: Array(24).fill(0) } }),
    TypeError,
    /^attention: q\.data must be a Float64Array or Float32Array, got an Array$/,
  ],
  [
    'q.data as an Int32Array',
    (rp) => rp.attention({ ...good(), q: { rows: 6, cols: 4, data: new Int32Array(24) } }),
    TypeError,
    /^attention: q\.data .* got an Int32Array$/,
  ],
  [
    'q.rows fractional',
    (rp) => rp.attention({ ...good(), q: { ...f64(6, 4), rows: 2.5 } }),
    RangeError,
    /^attention: q\.rows must be an integer .* got 2\.5$/,
  ],
  [
    'q.rows zero',
    (rp) => rp.attention({ ...good(), q: { ...f64(6, 4), rows: 0 } }),
    RangeError,
    /^attention: q\.rows .* got 0$/,
  ],
  [
    'q.cols missing',
    (rp) => rp.attention({ ...good(), q: { rows: 6, data: new Float64Array(24) } }),
    TypeError,
    /^attention: q\.cols .* got undefined$/,
  ],
  [
    'q.data too short',
    (rp) => rp.attention({ ...good(), q: { ...f64(6, 4), data: new Float64Array(23) } }),
    RangeError,
    /^attention: q\.data must hold rows × cols = 6 × 4 = 24 numbers, got 23$/,
  ],
  [
    'q.data with NaN',
    (rp) =>
      rp.attention({
        ...good(),
        q: withData(f64(6, 4), (d) => {
          d[5] = NaN;
        }),
      }),
    RangeError,
    /^attention: q\.data\[5\] is NaN; every entry must be finite$/,
  ],
  [
    'k.data with -Infinity',
    (rp) =>
      rp.attention({
        ...good(),
        k: withData(f64(6, 4), (d) => {
          d[0] = -Infinity;
        }),
      }),
    RangeError,
    /^attention: k\.data\[0\] is -Infinity/,
  ],
  [
    'k with other rows',
    (rp) => rp.attention({ ...good(), k: f64(5, 4) }),
    RangeError,
    /^attention: k\.rows must equal q\.rows \(6\), got 5$/,
  ],
  [
    'k with other cols',
    (rp) => rp.attention({ ...good(), k: f64(6, 3) }),
    RangeError,
    /^attention: k\.cols must equal q\.cols \(4\), got 3$/,
  ],
  [
    'k in float32, q in float64',
    (rp) => rp.attention({ ...good(), k: f32(6, 4) }),
    TypeError,
    /^attention: k\.data must be a Float64Array like the queries, got a Float32Array$/,
  ],
  [
    'relKeys with even rows',
    (rp) => rp.attention({ ...good(), relKeys: f64(4, 4) }),
    RangeError,
    /^attention: relKeys\.rows must be odd \(2k \+ 1 rows for clipping distance k\), got 4$/,
  ],
  [
    'relKeys with other cols',
    (rp) => rp.attention({ ...good(), relKeys: f64(5, 2) }),
    RangeError,
    /^attention: relKeys\.cols must equal q\.cols \(4\), got 2$/,
  ],
  [
    'v with other rows',
    (rp) => rp.attention({ ...good(), v: f64(7, 3), relValues: undefined }),
    RangeError,
    /^attention: v\.rows must equal q\.rows \(6\), got 7$/,
  ],
  [
    'relValues without v',
    (rp) => rp.attention({ ...good(), v: undefined }),
    TypeError,
    /^attention: relValues needs v/,
  ],
  [
    'relValues with other rows',
    (rp) => rp.attention({ ...good(), relValues: f64(3, 3) }),
    RangeError,
    /^attention: relValues\.rows must equal relKeys\.rows \(5\), got 3$/,
  ],
  [
    'relValues with other cols',
    (rp) => rp.attention({ ...good(), relValues: f64(5, 4) }),
    RangeError,
    /^attention: relValues\.cols must equal v\.cols \(3\), got 4$/,
  ],
  [
    'causal as a string',
    (rp) => rp.attention({ ...good(), causal: 'yes' }),
    TypeError,
    /^attention: causal must be true or false, got a string \("yes"\)$/,
  ],
  [
    'attention too large to allocate',
    (rp) => rp.attention({ q: f64(100000, 1), k: f64(100000, 1), relKeys: f64(3, 1) }),
    RangeError,
    /^attention: n = 100000 needs 373 GiB of memory; the limit is 1\.00 GiB per call$/,
  ],

  [
    'localityProfile with a number',
    (rp) => rp.localityProfile(5),
    TypeError,
    /^localityProfile: options must be an object, got 5$/,
  ],
  [
    'localityProfile unknown option',
    (rp) => rp.localityProfile({ sigma: 1 }),
    TypeError,
    /^localityProfile: unknown option "sigma"; expected seed, dK, maxDistance, noise, width, asymmetry$/,
  ],
  ['localityProfile dK = 0', (rp) => rp.localityProfile({ dK: 0 }), RangeError, /^localityProfile: dK .* got 0$/],
  [
    'localityProfile maxDistance past a table of 2^24 rows (its range says whole numbers)',
    (rp) => rp.localityProfile({ maxDistance: 1e9 }),
    RangeError,
    /^localityProfile: maxDistance must be an integer from 0 to 8388607, got 1000000000$/,
  ],
  [
    'localityProfile width = 0',
    (rp) => rp.localityProfile({ width: 0 }),
    RangeError,
    /^localityProfile: width must be a finite number > 0 and ≤ 1000000, got 0$/,
  ],
  [
    'localityProfile negative width',
    (rp) => rp.localityProfile({ width: -1 }),
    RangeError,
    /^localityProfile: width .* got -1$/,
  ],
  [
    'localityProfile width as a string',
    (rp) => rp.localityProfile({ width: '1' }),
    TypeError,
    /^localityProfile: width must be a number/,
  ],
  [
    'localityProfile negative noise',
    (rp) => rp.localityProfile({ noise: -0.1 }),
    RangeError,
    /^localityProfile: noise .* got -0\.1$/,
  ],
  [
    'localityProfile NaN noise',
    (rp) => rp.localityProfile({ noise: NaN }),
    RangeError,
    /^localityProfile: noise .* got NaN$/,
  ],
  [
    'localityProfile asymmetry = 1',
    (rp) => rp.localityProfile({ asymmetry: 1 }),
    RangeError,
    /^localityProfile: asymmetry must be a finite number > -1 and < 1, got 1$/,
  ],
  ['localityProfile seed 2^32', (rp) => rp.localityProfile({ seed: 2 ** 32 }), RangeError, /^localityProfile: seed /],
  [
    'localityProfile maxDistance huge',
    (rp) => rp.localityProfile({ maxDistance: 1e7 }),
    RangeError,
    /^localityProfile: maxDistance .* got 10000000$/,
  ],
  [
    'localityProfile table too large',
    (rp) => rp.localityProfile({ maxDistance: 5e6, dK: 64 }),
    RangeError,
    /^localityProfile: maxDistance = 5000000 with dK = 64 needs 4\.84 GiB/,
  ],

  ['example seqLen = 0', (rp) => rp.example({ seqLen: 0 }), RangeError, /^example: seqLen .* got 0$/],
  [
    'example too long',
    (rp) => rp.example({ seqLen: 20000 }),
    RangeError,
    /^example: seqLen = 20000 with dModel = 8, dK = 4 needs 14\.9 GiB/,
  ],
  [
    'example causal as a number',
    (rp) => rp.example({ causal: 1 }),
    TypeError,
    /^example: causal must be true or false, got 1$/,
  ],
  ['example unknown option', (rp) => rp.example({ dk: 4 }), TypeError, /^example: unknown option "dk"/],
  [
    'example draw misspelt',
    (rp) => rp.example({ draw: 'stabel' }),
    RangeError,
    /^example: draw must be one of 'handbook', 'stable', got "stabel"$/,
  ],
  [
    'example draw as a number',
    (rp) => rp.example({ draw: 1 }),
    TypeError,
    /^example: draw must be one of 'handbook', 'stable', got 1$/,
  ],
  [
    'example tokens as a string',
    (rp) => rp.example({ tokens: 'the cat' }),
    TypeError,
    /^example: tokens must be an array of strings, got a string/,
  ],
  [
    'example no tokens',
    (rp) => rp.example({ tokens: [] }),
    RangeError,
    /^example: tokens must hold 1 to \d+ words, got 0$/,
  ],
  [
    'example a token not a string',
    (rp) => rp.example({ tokens: ['a', 3] }),
    TypeError,
    /^example: tokens\[1\] must be a string, got 3$/,
  ],
  ['example an empty token', (rp) => rp.example({ tokens: ['a', ''] }), RangeError, /^example: tokens\[1\] is empty/],
  [
    'example a huge token',
    (rp) => rp.example({ draw: 'stable', tokens: ['x'.repeat(9000)] }),
    RangeError,
    /^example: tokens\[0\] is longer than 8192 bytes/,
  ],
  [
    'example tokens against seqLen',
    (rp) => rp.example({ tokens: ['a', 'b'], seqLen: 3 }),
    RangeError,
    /^example: seqLen \(3\) must equal the number of tokens \(2\)/,
  ],
  [
    'example table misspelt',
    (rp) => rp.example({ table: 'local' }),
    RangeError,
    /^example: table must be one of 'random', 'locality'/,
  ],
  [
    'example locality unknown',
    (rp) => rp.example({ locality: { sigma: 1 } }),
    TypeError,
    /^example: unknown option "sigma"/,
  ],
  [
    'example locality width 0',
    (rp) => rp.example({ locality: { width: 0 } }),
    RangeError,
    /^example: locality\.width must be a finite number > 0/,
  ],
  [
    'example locality strength NaN',
    (rp) => rp.example({ locality: { strength: NaN } }),
    RangeError,
    /^example: locality\.strength .* got NaN$/,
  ],
  [
    'example sameQuery as a string',
    (rp) => rp.example({ sameQuery: 'yes' }),
    TypeError,
    /^example: sameQuery must be true or false/,
  ],
  // Scale, masks and heads (README "attention()": scale, keyPadding, allowed, heads).
  [
    'attention scale as a string',
    (rp) => rp.attention({ ...good(), scale: '0.5' }),
    TypeError,
    /^attention: scale must be a finite number > 0 \(the score scale; default 1\/√d_k\), got a string \("0\.5"\)$/,
  ],
  [
    'attention scale 0',
    (rp) => rp.attention({ ...good(), scale: 0 }),
    RangeError,
    /^attention: scale must be a finite number > 0 .*, got 0$/,
  ],
  [
    'attention negative scale',
    (rp) => rp.attention({ ...good(), scale: -1 }),
    RangeError,
    /^attention: scale .* got -1$/,
  ],
  [
    'attention infinite scale',
    (rp) => rp.attention({ ...good(), scale: Infinity }),
    RangeError,
    /^attention: scale .* got Infinity$/,
  ],
  ['attention NaN scale', (rp) => rp.attention({ ...good(), scale: NaN }), RangeError, /^attention: scale .* got NaN$/],
  [
    'attention float32 scale that overflows float32',
    (rp) => rp.attention({ q: f32(6, 4), k: f32(6, 4), relKeys: f32(5, 4), scale: 1e39 }),
    RangeError,
    /^attention: scale must be a finite number > 0 \(the score scale; default 1\/√d_k\) in float32, got 1e\+39$/,
  ],
  [
    'attention keyPadding as numbers',
    (rp) => rp.attention({ ...good(), keyPadding: [0, 1, 0, 0, 0, 0] }),
    TypeError,
    /^attention: keyPadding\[0\] must be true or false \(one flag per key, true or 1 = a padding key that no query attends to\), got 0$/,
  ],
  [
    'attention keyPadding as a Float64Array',
    (rp) => rp.attention({ ...good(), keyPadding: new Float64Array(6) }),
    TypeError,
    /^attention: keyPadding must be a Uint8Array or an array of booleans \(.*\), got a Float64Array$/,
  ],
  [
    'attention keyPadding too short',
    (rp) => rp.attention({ ...good(), keyPadding: new Uint8Array(5) }),
    RangeError,
    /^attention: keyPadding must hold k\.rows = 6 flags \(one flag per key, .*\), got 5$/,
  ],
  [
    'attention keyPadding byte 2',
    (rp) => rp.attention({ ...good(), keyPadding: Uint8Array.of(0, 0, 2, 0, 0, 0) }),
    RangeError,
    /^attention: keyPadding\[2\] must be 0 or 1 \(.*\), got 2$/,
  ],
  [
    'attention allowed as a Uint8Array without shape',
    (rp) => rp.attention({ ...good(), allowed: new Uint8Array(36) }),
    TypeError,
    /^attention: allowed must be a boolean matrix \{ rows, cols, data \} or an array of rows \(true or 1 = this query may attend to this key\), got a Uint8Array$/,
  ],
  [
    'attention allowed of the wrong shape',
    (rp) => rp.attention({ ...good(), allowed: { rows: 6, cols: 5, data: new Uint8Array(30) } }),
    RangeError,
    /^attention: allowed must be q\.rows × k\.rows = 6 × 6, got 6 × 5$/,
  ],
  [
    'attention allowed with too little data',
    (rp) => rp.attention({ ...good(), allowed: { rows: 6, cols: 6, data: new Uint8Array(35) } }),
    RangeError,
    /^attention: allowed\.data must hold q\.rows × k\.rows = 6 × 6 = 36 flags, got 35$/,
  ],
  [
    'attention allowed with a row too short',
    (rp) =>
      rp.attention({ ...good(), allowed: Array.from({ length: 6 }, (_, r) => Array(r === 3 ? 5 : 6).fill(true)) }),
    RangeError,
    /^attention: allowed\[3\] must hold k\.rows = 6 flags \(one per key\), got 5$/,
  ],
  [
    'attention allowed with a number in a row',
    (rp) => rp.attention({ ...good(), allowed: Array.from({ length: 6 }, () => [true, true, 1, true, true, true]) }),
    TypeError,
    /^attention: allowed\[0\]\[2\] must be true or false \(true or 1 = this query may attend to this key\), got 1$/,
  ],
  [
    'attention allowed with too few rows',
    (rp) => rp.attention({ ...good(), allowed: [[true, true, true, true, true, true]] }),
    RangeError,
    /^attention: allowed must hold q\.rows = 6 rows \(one per query\), got 1$/,
  ],
  [
    'attention heads 0',
    (rp) => rp.attention({ ...good(), heads: 0 }),
    RangeError,
    /^attention: heads must be an integer from 1 to \d+, got 0$/,
  ],
  [
    'attention heads as a string',
    (rp) => rp.attention({ ...good(), heads: '2' }),
    TypeError,
    /^attention: heads must be an integer .* got a string \("2"\)$/,
  ],
  [
    'attention q.cols not a multiple of heads',
    (rp) => rp.attention({ ...good(), heads: 3 }),
    RangeError,
    /^attention: q\.cols must be a multiple of heads \(3 heads side by side\), got 4$/,
  ],
  [
    'attention v.cols not a multiple of heads',
    (rp) => rp.attention({ ...good(), relKeys: f64(5, 2), relValues: undefined, heads: 2 }),
    RangeError,
    /^attention: v\.cols must be a multiple of heads \(2 heads side by side\), got 3$/,
  ],
  [
    'attention relKeys neither shared nor per head',
    (rp) => rp.attention({ ...good(), relKeys: f64(5, 3), heads: 2 }),
    RangeError,
    /^attention: relKeys\.cols must equal q\.cols \/ heads \(2: one table shared by every head\) or q\.cols \(4: one table per head, side by side\), got 3$/,
  ],
  [
    'attention relValues neither shared nor per head',
    (rp) =>
      rp.attention({ q: f64(6, 4), k: f64(6, 4), relKeys: f64(5, 2), v: f64(6, 4), relValues: f64(5, 3), heads: 2 }),
    RangeError,
    /^attention: relValues\.cols must equal v\.cols \/ heads \(2: one table shared by every head\) or v\.cols \(4: one table per head, side by side\), got 3$/,
  ],
  [
    'attention out from one head for two',
    (rp) => {
      const inputs = { q: f64(6, 4), k: f64(6, 4), relKeys: f64(5, 2) };
      return rp.attention({ ...inputs, heads: 2 }, { out: rp.attention({ ...inputs, relKeys: f64(5, 4) }) });
    },
    RangeError,
    /^attention: out\.contentScores\.data must hold 72 numbers for these inputs, got 36$/,
  ],
];

let rp;
let before;
beforeAll(async () => {
  rp = await createRelPos();
  before = { weights: rp.attention(good()), profile: rp.localityProfile(), memory: rp.memory() };
});

describe('bad input is refused with a clear error', () => {
  for (const [label, call, ErrorClass, message] of CASES) {
    test(label, () => {
      let thrown;
      try {
        call(rp);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, 'no error thrown').toBeInstanceOf(ErrorClass);
      expect(thrown.message).toMatch(message);
    });
  }
});

describe('after every error the module works as before', () => {
  test('the same inputs give the same results, with no memory kept', () => {
    for (const [, call] of CASES) {
      expect(() => call(rp)).toThrow();
    }
    expect(rp.attention(good())).toEqual(before.weights);
    expect(rp.localityProfile()).toEqual(before.profile);
    expect(rp.memory()).toEqual(before.memory);
  });

  test('a float32 call still works after float64 errors', () => {
    const got = rp.attention({ q: f32(6, 4), k: f32(6, 4), relKeys: f32(5, 4) });
    expect(got.combinedWeights.data).toBeInstanceOf(Float32Array);
  });
});
