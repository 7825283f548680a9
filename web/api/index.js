// relpos-wasm: relative position encoding in self-attention (Shaw et al. 2018), computed by a
// C++/Eigen core compiled to WebAssembly. This file is the package's public face: it validates
// every argument (validate.js), lays the data out in WASM memory (wasm-arena.js), calls the core
// and returns copies that belong to the caller. Maths and conventions: docs/maths.md, docs/random-stream.md.
import createRelPosCore from '../../dist/relpos-core.mjs';
import { wasmBase64 } from '../../dist/relpos-core-wasm.mjs';
import { EXAMPLE_DEFAULTS, LOCALITY_PROFILE_DEFAULTS, LOCALITY_TABLE_DEFAULTS } from './defaults.js';
import { MAX_DIMENSION, MAX_SEED } from './limits.js';
import {
  describe,
  checkBoolean,
  checkChoice,
  checkBudget,
  checkInteger,
  checkMatrix,
  checkNumber,
  checkOptions,
  checkShape,
} from './validate.js';
import { WasmArena } from './wasm-arena.js';
import { Model, resolveModelConfig, resolveSyntheticOptions } from './model.js';

export { MAX_CALL_BYTES, MAX_DIMENSION, MAX_SEED } from './limits.js';
export { EXAMPLE_DEFAULTS, LOCALITY_PROFILE_DEFAULTS, LOCALITY_TABLE_DEFAULTS };
export { Model, MODEL_DEFAULTS, ADAM_DEFAULTS, SYNTHETIC_DEFAULTS } from './model.js';

const F64 = Float64Array.BYTES_PER_ELEMENT;
const MAX_TABLE_DISTANCE = (MAX_DIMENSION - 1) / 2;

/** The longest token example() takes, in UTF-8 bytes. */
export const MAX_TOKEN_BYTES = 8192;

const matrix = (rows, cols, data) => ({ rows, cols, data });
const PANEL_NAMES = ['contentScores', 'positionBiases', 'combinedScores', 'contentWeights', 'combinedWeights'];

// `out` for attention(): an earlier result whose arrays match this call's shapes and precision.
function checkReusableResult(where, out, ArrayType, n, dV) {
  if (out === null || typeof out !== 'object') {
    throw new TypeError(`${where}: out must be an earlier result of attention(), got ${describe(out)}`);
  }
  const expected = [...PANEL_NAMES.map((name) => [name, n * n]), ['output', dV ? n * dV : 0]];
  for (const [name, length] of expected) {
    const data = out[name]?.data;
    if (name === 'output' && length === 0 && out.output === null) continue;
    if (!(data instanceof ArrayType)) {
      throw new TypeError(
        `${where}: out.${name}.data must be a ${ArrayType.name} like the inputs, got ${describe(data)}`,
      );
    }
    if (data.length !== length) {
      throw new RangeError(
        `${where}: out.${name}.data must hold ${length} numbers for these inputs, got ${data.length}`,
      );
    }
  }
}

const utf8 = new TextEncoder();

// example()'s tokens: an array of 1 to MAX_DIMENSION non-empty strings.
function checkTokens(where, tokens) {
  if (!Array.isArray(tokens))
    throw new TypeError(`${where}: tokens must be an array of strings, got ${describe(tokens)}`);
  if (tokens.length === 0 || tokens.length > MAX_DIMENSION) {
    throw new RangeError(`${where}: tokens must hold 1 to ${MAX_DIMENSION} words, got ${tokens.length}`);
  }
  tokens.forEach((token, index) => {
    if (typeof token !== 'string')
      throw new TypeError(`${where}: tokens[${index}] must be a string, got ${describe(token)}`);
    if (token === '') throw new RangeError(`${where}: tokens[${index}] is empty; every token must be a word`);
    if (utf8.encode(token).length > MAX_TOKEN_BYTES) {
      throw new RangeError(`${where}: tokens[${index}] is longer than ${MAX_TOKEN_BYTES} bytes of UTF-8`);
    }
  });
  return tokens;
}

let wasmBinary = null;

/** Loads the WebAssembly module and resolves to a RelPos instance with its own memory. */
export async function createRelPos() {
  wasmBinary ??= Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0));
  return new RelPos(await createRelPosCore({ wasmBinary }));
}

export class RelPos {
  #core;
  #arena;

  /** Use createRelPos(); the constructor takes the loaded core module. */
  constructor(core) {
    this.#core = core;
    this.#arena = new WasmArena(core);
  }

  /** np.random.seed(seed); np.random.randn(count), as a Float64Array. */
  randn(seed, count) {
    const where = 'randn';
    checkInteger(where, 'seed', seed, 0, MAX_SEED);
    checkInteger(where, 'count', count, 0, Number.MAX_SAFE_INTEGER);
    checkBudget(where, `count = ${count}`, count * F64);
    return this.#call(where, [count * F64], ([out]) => {
      this.#core.randnInto(seed, count, out);
      return this.#arena.read(out, Float64Array, count);
    });
  }

  /** The n × n matrix clip(j - i, -maxDistance, maxDistance): key j minus query i. */
  relativeOffsets(n, maxDistance) {
    const where = 'relativeOffsets';
    checkInteger(where, 'n', n, 1, MAX_DIMENSION);
    checkInteger(where, 'maxDistance', maxDistance, 0, 2 ** 31 - 1);
    const bytes = n * n * Int32Array.BYTES_PER_ELEMENT;
    checkBudget(where, `n = ${n}`, bytes);
    return this.#call(where, [bytes], ([out]) => {
      this.#core.relativeOffsetsInto(n, maxDistance, out);
      return matrix(n, n, this.#arena.read(out, Int32Array, n * n));
    });
  }

  /**
   * Every panel of relative self-attention for queries q, keys k (n × d_k) and the key table
   * relKeys ((2k + 1) × d_k, which sets the clipping distance k); with values v (n × d_v) also
   * the output, plus the value table relValues ((2k + 1) × d_v) if given. With `out`, a
   * result of an earlier call with the same shapes and precision, the results are written into
   * its arrays (and `out` is returned) instead of new ones: faster for repeated calls.
   */
  attention(inputs, out) {
    const where = 'attention';
    const given = checkOptions(where, 'inputs', inputs, { v: undefined, relValues: undefined, causal: false }, [
      'q',
      'k',
      'relKeys',
    ]);
    const q = checkMatrix(where, 'q', given.q);
    const n = q.rows;
    const dK = q.cols;
    const k = checkMatrix(where, 'k', given.k, q);
    checkShape(where, 'k', k, { rows: { value: n, what: 'q.rows' }, cols: { value: dK, what: 'q.cols' } });
    const relKeys = checkMatrix(where, 'relKeys', given.relKeys, q);
    checkShape(where, 'relKeys', relKeys, { cols: { value: dK, what: 'q.cols' } });
    if (relKeys.rows % 2 !== 1) {
      throw new RangeError(
        `${where}: relKeys.rows must be odd (2k + 1 rows for clipping distance k), got ${relKeys.rows}`,
      );
    }
    const tableRows = relKeys.rows;
    const v = given.v === undefined ? null : checkMatrix(where, 'v', given.v, q);
    if (v) checkShape(where, 'v', v, { rows: { value: n, what: 'q.rows' } });
    let relValues = null;
    if (given.relValues !== undefined) {
      if (!v) throw new TypeError(`${where}: relValues needs v (the values whose output it adds to)`);
      relValues = checkMatrix(where, 'relValues', given.relValues, q);
      checkShape(where, 'relValues', relValues, {
        rows: { value: tableRows, what: 'relKeys.rows' },
        cols: { value: v.cols, what: 'v.cols' },
      });
    }
    const causal = checkBoolean(where, 'causal', given.causal);
    if (out !== undefined) checkReusableResult(where, out, q.data.constructor, n, v ? v.cols : 0);

    const ArrayType = q.data.constructor;
    const size = ArrayType.BYTES_PER_ELEMENT;
    const dV = v ? v.cols : 0;
    // One table of the call's buffers, by the names both sides use (cpp/bindings.cpp
    // AttentionBuffers): elements each.
    const lengths = {
      queries: n * dK,
      keys: n * dK,
      relativeKeys: tableRows * dK,
      values: n * dV,
      relativeValues: relValues ? tableRows * dV : 0,
      ...Object.fromEntries(PANEL_NAMES.map((name) => [name, n * n])),
      output: n * dV,
    };
    const names = Object.keys(lengths);
    const scratch = 2 * n * tableRows;
    checkBudget(where, `n = ${n}`, (Object.values(lengths).reduce((a, b) => a + b) + scratch) * size);

    return this.#call(
      where,
      names.map((name) => lengths[name] * size),
      (addresses) => {
        const at = Object.fromEntries(names.map((name, index) => [name, addresses[index]]));
        this.#arena.write(at.queries, q.data);
        this.#arena.write(at.keys, k.data);
        this.#arena.write(at.relativeKeys, relKeys.data);
        if (v) this.#arena.write(at.values, v.data);
        if (relValues) this.#arena.write(at.relativeValues, relValues.data);
        const run = ArrayType === Float64Array ? this.#core.attentionIntoFloat64 : this.#core.attentionIntoFloat32;
        run({ n, dK, dV, tableRows, causal, hasRelativeValues: relValues !== null }, at);
        const read = (name, rows, cols) =>
          matrix(rows, cols, this.#arena.read(at[name], ArrayType, rows * cols, out?.[name].data));
        const result = out ?? {};
        result.maxDistance = (tableRows - 1) / 2;
        for (const name of PANEL_NAMES) result[name] = read(name, n, n);
        result.output = v ? read('output', n, dV) : null;
        return result;
      },
    );
  }

  /**
   * The handbook's simulated locality profile (docs/maths.md §7): a relative key table of seeded noise
   * plus a Gaussian bump on its first column, read out by a uniform query.
   */
  localityProfile(options) {
    const where = 'localityProfile';
    const p = checkOptions(where, 'options', options, LOCALITY_PROFILE_DEFAULTS);
    checkInteger(where, 'seed', p.seed, 0, MAX_SEED);
    checkInteger(where, 'dK', p.dK, 1, MAX_DIMENSION);
    checkInteger(where, 'maxDistance', p.maxDistance, 0, MAX_TABLE_DISTANCE);
    checkNumber(where, 'noise', p.noise, { min: 0, max: 1e6 });
    checkNumber(where, 'width', p.width, { min: 0, max: 1e6, minInclusive: false });
    checkNumber(where, 'asymmetry', p.asymmetry, { min: -1, max: 1, minInclusive: false, maxInclusive: false });
    const tableRows = 2 * p.maxDistance + 1;
    const lengths = [tableRows * p.dK * F64, p.dK * F64, tableRows * F64];
    checkBudget(
      where,
      `maxDistance = ${p.maxDistance} with dK = ${p.dK}`,
      lengths.reduce((a, b) => a + b),
    );
    return this.#call(where, lengths, ([embeddingsAt, queryAt, profileAt]) => {
      const { seed, dK, maxDistance, noise, width, asymmetry } = p;
      this.#core.localityProfileInto(
        { seed, dK, maxDistance, noise, width, asymmetry },
        { embeddings: embeddingsAt, query: queryAt, profile: profileAt },
      );
      return {
        offsets: Int32Array.from({ length: tableRows }, (_, index) => index - p.maxDistance),
        embeddings: matrix(tableRows, p.dK, this.#arena.read(embeddingsAt, Float64Array, tableRows * p.dK)),
        query: this.#arena.read(queryAt, Float64Array, p.dK),
        profile: this.#arena.read(profileAt, Float64Array, tableRows),
      };
    });
  }

  /**
   * The page's example scenario (float64), by one of two draws (README "The example scenario"):
   * 'handbook' (default): X, W_Q, W_K, W_V, a^K, a^V in that order from np.random.seed(seed);
   * 'stable': each word's embedding, the weights and each offset's table row from a stream of
   * their own, so a change re-draws only what it concerns. Then Q = X W_Q, K = X W_K, V = X W_V,
   * and every panel of attention(). `inputs` can be passed straight back to attention().
   */
  example(options) {
    const where = 'example';
    const p = checkOptions(where, 'options', options, EXAMPLE_DEFAULTS);
    checkInteger(where, 'seed', p.seed, 0, MAX_SEED);
    checkChoice(where, 'draw', p.draw, ['handbook', 'stable']);
    const tokens = p.tokens === undefined ? undefined : checkTokens(where, p.tokens);
    if (tokens) {
      if (options?.seqLen !== undefined && options.seqLen !== tokens.length) {
        checkInteger(where, 'seqLen', p.seqLen, 1, MAX_DIMENSION);
        throw new RangeError(
          `${where}: seqLen (${p.seqLen}) must equal the number of tokens (${tokens.length}); give one or the other`,
        );
      }
      p.seqLen = tokens.length;
    }
    checkInteger(where, 'seqLen', p.seqLen, 1, MAX_DIMENSION);
    checkInteger(where, 'dModel', p.dModel, 1, MAX_DIMENSION);
    checkInteger(where, 'dK', p.dK, 1, MAX_DIMENSION);
    checkInteger(where, 'maxDistance', p.maxDistance, 0, MAX_TABLE_DISTANCE);
    checkBoolean(where, 'causal', p.causal);
    checkChoice(where, 'table', p.table, ['random', 'locality']);
    const shape = checkOptions(where, 'locality', p.locality, LOCALITY_TABLE_DEFAULTS);
    checkNumber(where, 'locality.noise', shape.noise, { min: 0, max: 1e6 });
    checkNumber(where, 'locality.width', shape.width, { min: 0, max: 1e6, minInclusive: false });
    checkNumber(where, 'locality.asymmetry', shape.asymmetry, {
      min: -1,
      max: 1,
      minInclusive: false,
      maxInclusive: false,
    });
    checkNumber(where, 'locality.strength', shape.strength, { min: -1e6, max: 1e6 });
    checkBoolean(where, 'sameQuery', p.sameQuery);
    const { seqLen: n, dModel, dK } = p;
    const words = tokens ?? Array.from({ length: n }, (_, i) => `#${i}`);
    const tableRows = 2 * p.maxDistance + 1;
    const shapes = {
      x: [n, dModel],
      queryWeights: [dModel, dK],
      keyWeights: [dModel, dK],
      valueWeights: [dModel, dK],
      relativeKeys: [tableRows, dK],
      relativeValues: [tableRows, dK],
      queries: [n, dK],
      keys: [n, dK],
      values: [n, dK],
      profile: [tableRows, 1],
    };
    const encoded = p.draw === 'stable' ? words.map((word) => utf8.encode(word)) : [];
    const tokenBytes = encoded.reduce((sum, bytes) => sum + bytes.length, 0);
    const drawBytes = Object.values(shapes).reduce((sum, [rows, cols]) => sum + rows * cols * F64, 0);
    const attentionBytes = (5 * n * n + 2 * n * tableRows + n * dK) * F64;
    checkBudget(
      where,
      `seqLen = ${n} with dModel = ${dModel}, dK = ${dK}`,
      drawBytes + attentionBytes + tokenBytes + 4 * n,
    );
    const names = Object.keys(shapes);
    const drawn = this.#call(
      where,
      [...names.map((name) => shapes[name][0] * shapes[name][1] * F64), tokenBytes, 4 * n],
      (addresses) => {
        const buffers = Object.fromEntries(names.map((name, index) => [name, addresses[index]]));
        const [tokenBytesAt, tokenLengthsAt] = addresses.slice(names.length);
        let at = tokenBytesAt;
        for (const bytes of encoded) {
          this.#arena.write(at, bytes);
          at += bytes.length;
        }
        if (encoded.length)
          this.#arena.write(
            tokenLengthsAt,
            Int32Array.from(encoded, (bytes) => bytes.length),
          );
        this.#core.exampleScenarioInto(
          {
            seed: p.seed,
            n,
            dModel,
            dK,
            maxDistance: p.maxDistance,
            stable: p.draw === 'stable',
            locality: p.table === 'locality',
            sameQuery: p.sameQuery,
            ...shape,
            tokenBytes: tokenBytesAt,
            tokenLengths: tokenLengthsAt,
          },
          buffers,
        );
        return Object.fromEntries(
          names.map((name) => {
            const [rows, cols] = shapes[name];
            return [name, matrix(rows, cols, this.#arena.read(buffers[name], Float64Array, rows * cols))];
          }),
        );
      },
    );
    const inputs = {
      q: drawn.queries,
      k: drawn.keys,
      v: drawn.values,
      relKeys: drawn.relativeKeys,
      relValues: drawn.relativeValues,
      causal: p.causal,
    };
    const profile = {
      offsets: Int32Array.from({ length: tableRows }, (_, index) => index - p.maxDistance),
      values: drawn.profile.data,
    };
    return {
      params: { ...p, tokens: tokens ? [...tokens] : undefined, locality: { ...shape } },
      tokens: [...words],
      weights: { x: drawn.x, wQ: drawn.queryWeights, wK: drawn.keyWeights, wV: drawn.valueWeights },
      inputs,
      profile,
      ...this.attention(inputs),
    };
  }

  /**
   * Milliseconds the core spent in each stage of the last attention() call (diagnostics):
   * { contentScores, positionBiases, softmax, valueProduct, valuePosition }.
   */
  lastTimings() {
    return this.#core.lastAttentionTimings();
  }

  // ---- Training engine (issue #13): web/api/model.js

  /**
   * A trainable relative-attention model in this instance's memory (README "Training a model"):
   * config { vocabSize, dModel, heads, layers, ffnWidth, maxDistance, seqLen, maxBatchSize,
   * causal, perHeadTables, precision, seed }; vocabSize is required. Free it with dispose().
   */
  createModel(config) {
    const resolved = resolveModelConfig('createModel', config);
    const host = {
      core: this.#core,
      arena: this.#arena,
      call: (where, lengths, body) => this.#call(where, lengths, body),
      attention: (inputs) => this.attention(inputs),
      syntheticBatch: (options) => this.syntheticBatch(options),
    };
    return new Model(host, resolved);
  }

  /**
   * A batch of a synthetic task, { tokens, targets, batchSize, seqLen } (Int32Arrays):
   * 'copy-offset' (target[i] = token[i + offset]) or 'sum-offset'
   * (target[i] = (token[i] + token[i + offset]) mod vocabSize); -1 where i + offset is outside.
   */
  syntheticBatch(options) {
    const where = 'syntheticBatch';
    const o = resolveSyntheticOptions(where, options);
    const length = o.batchSize * o.seqLen;
    const bytes = length * Int32Array.BYTES_PER_ELEMENT;
    return this.#call(where, [bytes, bytes], ([tokensAt, targetsAt]) => {
      this.#core.syntheticBatchInto(
        o.task === 'copy-offset' ? 0 : 1,
        o.offset,
        o.vocabSize,
        o.seqLen,
        o.batchSize,
        o.seed,
        tokensAt,
        targetsAt,
      );
      return {
        tokens: this.#arena.read(tokensAt, Int32Array, length),
        targets: this.#arena.read(targetsAt, Int32Array, length),
        batchSize: o.batchSize,
        seqLen: o.seqLen,
      };
    });
  }

  // ---- end of the training engine

  /** WASM memory in bytes: its whole size, and the part malloc has handed out. */
  memory() {
    return { wasmBytes: this.#core.HEAPU8.length, heapInUseBytes: this.#core.heapBytesInUse() };
  }

  // Reserves the arena regions, runs `body` with their addresses, and trims the arena after.
  #call(where, byteLengths, body) {
    const addresses = this.#arena.reserve(where, byteLengths);
    try {
      return body(addresses);
    } finally {
      this.#arena.trim();
    }
  }
}
