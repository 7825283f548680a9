// The RelPos class (as BaseRelPos) without the checkpoint reader, which index.js adds: what the
// page's shared instance (web/figures/shared-relpos.js) and the pool workers (worker-tasks.js)
// make, so neither loads the safetensors reader. It validates every argument (validate.js), lays
// the data out in WASM memory (wasm-arena.js), calls the core and returns copies that belong to
// the caller (or, with attention()'s `views`, views of WASM memory that the next call detaches:
// docs/memory-views.md). Each public method runs as one call of the instance (#entry); attention()
// is computed here, the other calls by a module function of their own given the instance's host
// (example-scenario.js, locality-profile.js, synthetic-batch.js, schemes.js; the model: model.js).
// Maths and conventions: docs/maths.md, docs/random-stream.md.
import { addSymbolDispose } from './dispose.js';
import { MAX_DIMENSION, MAX_SEED } from './limits.js';
import { checkBudget, checkInteger, checkWork, floatArrayType } from './validate.js';
import { regionAt, throwIfRefused, WasmArena } from './wasm-arena.js';
import { emptyResult } from './attention-options.js';
import { ATTENTION_SHAPES, INPUT_MATRICES, regionSides } from './attention-regions.js';
import { checkAttentionArgs, checkReadAttentionArgs, readAttentionArgs } from './attention-args.js';
import { Model } from './model.js';
import { NO_TRAINING, resolveModelConfig } from './model-checks.js';
import { exampleScenario } from './example-scenario.js';
import { localityProfile } from './locality-profile.js';
import { syntheticBatch } from './synthetic-batch.js';
import * as schemes from './schemes.js';
import { ROPE_DEFAULTS, T5_BUCKET_DEFAULTS } from './schemes.js';

const F64 = Float64Array.BYTES_PER_ELEMENT;

const matrix = (rows, cols, data) => ({ rows, cols, data });

// Multiply-adds of a checked attention() call: the content scores and position biases, the
// softmax, masks and copies (counted as 32 per score) and the output (docs/api-boundary.md).
function attentionWork(a) {
  const scores = a.heads * a.queryRows * a.n;
  const table = a.queryRows * (a.tableRows || 0) * a.dK;
  const projections = a.x ? a.x.rows * a.x.cols * (2 * a.dK + a.dV) : 0; // the sinusoidal scheme's x·W
  return a.queryRows * a.n * a.dK + table + 32 * scores + a.queryRows * a.n * a.dV + projections;
}

/** The RelPos class without openCheckpoint and checkpointPositions (index.js's RelPos adds them). */
export class BaseRelPos {
  #core;
  #arena;
  #models = new Set();
  /** The call running now (its name), or null: a call made while another runs is refused. */
  #running = null;
  // True while views of WASM memory handed out by the last call are live.
  #viewsOut = false;
  #kernels;

  /** Use createRelPos(); the constructor takes the loaded core module. */
  constructor(core) {
    this.#core = core;
    this.#kernels = core.kernels;
    this.#arena = new WasmArena(core);
    // Methods work detached too: const { attention } = rp (a subclass's too: index.js's RelPos).
    for (let proto = new.target.prototype; proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        const method = Object.getOwnPropertyDescriptor(proto, name).value;
        if (name === 'constructor' || typeof method !== 'function' || Object.hasOwn(this, name)) continue;
        Object.defineProperty(this, name, { value: method.bind(this), writable: true, configurable: true });
      }
    }
  }

  /** True after dispose(). */
  get disposed() {
    return this.#core === null;
  }

  /** The GEMM kernels this instance runs: 'relaxed' (relaxed SIMD) or 'plain' (web/api/kernels.js). */
  get kernels() {
    return this.#kernels;
  }

  /**
   * Frees what this instance holds in its WebAssembly memory (its block and its models, which
   * are disposed too) and lets go of the WebAssembly instance: every later call throws. The
   * memory itself cannot shrink (WebAssembly has no way to); it is returned to the system when
   * the garbage collector finds nothing else refers to it. Safe to call twice.
   */
  dispose() {
    if (this.#core === null) return;
    this.#refuseReentry('dispose');
    this.#retireViews();
    for (const model of this.#models) model.deref()?.dispose();
    this.#models.clear();
    this.#arena.release();
    this.#arena = null;
    this.#core = null;
  }

  #live(where) {
    if (this.#core === null) throw new Error(`${where}: this RelPos instance has been disposed`);
    return this.#core;
  }

  #refuseReentry(where) {
    if (this.#running !== null) {
      throw new Error(
        `${where}: called while ${this.#running}() of the same instance is running (from a getter, a Proxy or a setter of its arguments); nothing was computed: call it after ${this.#running}() has returned`,
      );
    }
  }

  // Runs one public call: refused after dispose() and while another call of this instance (or of
  // one of its models) runs, since both share the instance's memory.
  #entry(where, body) {
    this.#live(where);
    this.#refuseReentry(where);
    this.#running = where;
    try {
      return body();
    } finally {
      this.#running = null;
    }
  }

  /** np.random.seed(seed); np.random.randn(count), as a Float64Array. */
  randn(seed, count) {
    const where = 'randn';
    return this.#entry(where, () => {
      checkInteger(where, 'seed', seed, 0, MAX_SEED);
      checkInteger(where, 'count', count, 0, Number.MAX_SAFE_INTEGER);
      checkBudget(where, `count = ${count}`, count * F64);
      return this.#callRegions(where, [[1, count, Float64Array]], ([out]) => {
        throwIfRefused(where, this.#core.randnInto(seed, out));
        return this.#arena.readRegion(out, Float64Array);
      });
    });
  }

  /** The n × n matrix clip(j - i, -maxDistance, maxDistance): key j minus query i. */
  relativeOffsets(n, maxDistance) {
    return this.#entry('relativeOffsets', () => this.#relativeOffsets(n, maxDistance));
  }

  #relativeOffsets(n, maxDistance) {
    const where = 'relativeOffsets';
    checkInteger(where, 'n', n, 1, MAX_DIMENSION);
    checkInteger(where, 'maxDistance', maxDistance, 0, 2 ** 31 - 1);
    const bytes = n * n * Int32Array.BYTES_PER_ELEMENT;
    checkBudget(where, `n = ${n}`, bytes);
    return this.#callRegions(where, [[n, n, Int32Array]], ([out]) => {
      throwIfRefused(where, this.#core.relativeOffsetsInto(maxDistance, out));
      return matrix(n, n, this.#arena.readRegion(out, Int32Array));
    });
  }

  /**
   * Every panel of self-attention for queries q, keys k (n × d_k) and the key table relKeys
   * ((2k + 1) × d_k, which sets the clipping distance k), or another position scheme
   * (`position`, docs/schemes.md); with values v (n × d_v) also the output, plus the value table
   * relValues ((2k + 1) × d_v) if given. Options:
   * - outputs: the names to compute and return (OUTPUT_NAMES; default all, the output with v);
   *   the core computes only those and what they need, and only those are copied out;
   * - out: a result of an earlier call (or allocateAttention()) with the same shapes, outputs
   *   and precision: the results are written into its arrays, and `out` is returned;
   * - queryOffset: q holds queries queryOffset … queryOffset + q.rows − 1 of the k.rows
   *   positions (a block of rows; panels are q.rows × k.rows);
   * - views: true returns views of this instance's WASM memory instead of copies (no copy, no
   *   allocation): valid until the next call on this instance or dispose(), which detach them
   *   (length 0; docs/memory-views.md).
   */
  attention(inputs, options) {
    return this.#entry('attention', () => this.#attention(inputs, options));
  }

  #attention(inputs, options) {
    const where = 'attention';
    // Every argument read once, then checked, then copied (attention-args.js).
    const a = checkReadAttentionArgs(where, readAttentionArgs(where, inputs, options));
    const { position, q, causal, n, dK, dV, tableRows, queryRows, shapes, out } = a;
    const ArrayType = floatArrayType(q.data); // this realm's type, also for an iframe's array
    const size = ArrayType.BYTES_PER_ELEMENT;
    const { scheme } = position;
    const sinusoidal = scheme === 'sinusoidal';
    // Every region of the call, by the core's shape table (attention-regions.js): the request's
    // field → [rows, cols, data, element bytes]; a region not given, or a panel nobody asked
    // for, is 0 × 0. The sinusoidal scheme's q, k and v are x's projections, made in the core.
    const projectedAway = sinusoidal ? ['q', 'k', 'v'] : [];
    const positionData = {
      'position.biases':
        scheme === 't5' ? [position.biasRows, position.numBuckets, ArrayType.from(position.biases)] : null,
      'position.slope': scheme === 'alibi' ? [1, position.slopes.length, position.slopes] : null,
    };
    const elementBytes = { scalar: size, float64: F64, byte: 1 };
    const regionOf = ({ name, element, role }) => {
      const none = [0, 0, null, elementBytes[element]];
      const given = (rows, cols, data) => [rows, cols, data, elementBytes[element]];
      if (role === 'input') {
        const m = projectedAway.includes(name) ? null : a[name];
        return m ? given(m.rows, m.cols, m.data) : none;
      }
      if (role === 'position') return positionData[name] ? given(...positionData[name]) : none;
      if (role === 'mask') {
        if (!a[name]) return none;
        const { rows, cols } = regionSides(name, { keys: n, queries: queryRows });
        return given(rows[0], cols[0], a[name]);
      }
      return shapes[name] ? given(...shapes[name], null) : none;
    };
    const regions = Object.fromEntries(ATTENTION_SHAPES.map((shape) => [shape.region, regionOf(shape)]));
    const names = Object.keys(regions);
    const bytes = names.map((name) => regions[name][0] * regions[name][1] * regions[name][3]);
    // Scratch in the core, by its own count (attentionScratchBytes).
    const scratch = this.#core.attentionScratchBytes(
      queryRows,
      n,
      tableRows,
      dK,
      dV,
      schemes.schemeCode(this.#core, scheme),
      size,
    );
    checkBudget(where, `n = ${n}`, bytes.reduce((sum, x) => sum + x) + scratch);
    checkWork(where, `n = ${n} with d_k = ${dK}`, attentionWork(a));
    this.#refuseOwnViews(where, [
      ...INPUT_MATRICES.map((name) => [`${name}.data`, a[name]?.data]),
      ['keyPadding', a.keyPadding],
      ['allowed', a.allowed],
      ...Object.keys(shapes).map((name) => [`out.${name}.data`, out?.[name]?.data]),
    ]);

    return this.#call(where, bytes, (addresses) => {
      const request = {
        heads: a.heads,
        causal,
        firstQuery: a.queryOffset,
        queryRows,
        scale: a.scale ?? 0,
        scheme: schemes.schemeCode(this.#core, scheme),
        t5: {
          numBuckets: position.numBuckets ?? T5_BUCKET_DEFAULTS.numBuckets,
          maxDistance: position.maxDistance ?? T5_BUCKET_DEFAULTS.maxDistance,
          bidirectional: position.bidirectional ?? T5_BUCKET_DEFAULTS.bidirectional,
        },
        base: position.base ?? ROPE_DEFAULTS.base,
        layout: schemes.layoutCode(this.#core, position.layout),
      };
      names.forEach((name, index) => {
        const [rows, cols, data] = regions[name];
        const address = bytes[index] ? addresses[index] : 0;
        if (data && address) this.#arena.write(address, data);
        request[name] = { address, rows, cols, bytes: bytes[index] };
      });
      const run = ArrayType === Float64Array ? this.#core.attentionIntoFloat64 : this.#core.attentionIntoFloat32;
      const refused = run(request);
      throwIfRefused(where, refused);
      // Every result copied out first (into the views of `out` read at the start), then handed
      // over: `out`'s fields are set (checked settable) only after its last array is written.
      const matrices = Object.entries(shapes).map(([name, [rows, cols]]) => {
        if (a.views) return [name, matrix(rows, cols, this.#arena.view(request[name].address, ArrayType, rows * cols))];
        const data = this.#arena.read(request[name].address, ArrayType, rows * cols, out?.[name].data);
        return [name, matrix(rows, cols, out ? out[name].original : data)];
      });
      const result = a.outTarget ?? {};
      result.maxDistance = scheme === 'shaw' ? (tableRows - 1) / 2 : null;
      if (scheme !== 'shaw') result.position = schemes.describePosition(position);
      for (const [name, panel] of matrices) result[name] = panel;
      if (a.views) this.#viewsOut = true;
      return result;
    });
  }

  /**
   * A result of zeros shaped for attention(inputs, options) (the same outputs and queryOffset),
   * to pass as its `out` from the first call on. Nothing is computed.
   */
  allocateAttention(inputs, options) {
    return this.#entry('allocateAttention', () => this.#allocateAttention(inputs, options));
  }

  #allocateAttention(inputs, options) {
    const a = checkAttentionArgs('allocateAttention', inputs, options);
    const result = emptyResult(floatArrayType(a.q.data), a.shapes, a.relKeys ? (a.tableRows - 1) / 2 : null);
    return result;
  }

  /**
   * The handbook's simulated locality profile (docs/maths.md §7): a relative key table of seeded noise
   * plus a Gaussian bump on its first column, read out by a uniform query.
   */
  localityProfile(options) {
    return this.#entry('localityProfile', () => localityProfile(this.#callHost(), options));
  }

  /**
   * The page's example scenario (float64), by one of two draws (README "The example scenario"):
   * 'handbook' (default): X, W_Q, W_K, W_V, a^K, a^V in that order from np.random.seed(seed);
   * 'stable': each word's embedding, the weights and each offset's table row from a stream of
   * their own, so a change re-draws only what it concerns. Then Q = X W_Q, K = X W_K, V = X W_V,
   * and every panel of attention(). `inputs` can be passed straight back to attention().
   * options.outputs: which of attention()'s outputs to compute (its `outputs`; default all;
   * [] computes none, only the draw: a caller that splits the rows, or keeps panels it has).
   * options.views: the panels as attention()'s `views` (the draw is copied; it is small).
   */
  example(options) {
    return this.#entry('example', () =>
      exampleScenario({ ...this.#callHost(), attention: (inputs, o) => this.#attention(inputs, o) }, options),
    );
  }

  /**
   * Milliseconds the core spent in each stage of the last attention() call (diagnostics):
   * { contentScores, positionBiases, softmax, valueProduct, valuePosition }.
   */
  lastTimings() {
    return this.#entry('lastTimings', () => this.#core.lastAttentionTimings());
  }

  // ---- Training engine: web/api/model.js

  /**
   * A trainable relative-attention model in this instance's memory (README "Training a model"):
   * config { vocabSize, dModel, heads, layers, ffnWidth, maxDistance, seqLen, maxBatchSize,
   * causal, perHeadTables, precision, seed }; vocabSize is required. Free it with dispose().
   */
  createModel(config) {
    return this.#entry('createModel', () => this.#createModel(config));
  }

  #createModel(config) {
    const resolved = resolveModelConfig('createModel', config, this.#core);
    if (!this.#core.ModelHandleFloat32) throw new Error(NO_TRAINING('createModel'));
    const host = {
      ...this.#callHost(),
      entry: (where, body) => this.#entry(where, body),
      refuseOwnViews: (where, named) => this.#refuseOwnViews(where, named),
      attention: (inputs) => this.#attention(inputs),
      syntheticBatch: (options) => syntheticBatch(this.#callHost(), options),
    };
    const model = new Model(host, resolved);
    for (const ref of this.#models) if (!ref.deref() || ref.deref().disposed) this.#models.delete(ref);
    this.#models.add(new WeakRef(model));
    return model;
  }

  /**
   * A batch of a synthetic task, { tokens, targets, batchSize, seqLen } (Int32Arrays):
   * 'copy-offset' (target[i] = token[i + offset]) or 'sum-offset'
   * (target[i] = (token[i] + token[i + offset]) mod vocabSize); -1 where i + offset is outside.
   */
  syntheticBatch(options) {
    return this.#entry('syntheticBatch', () => syntheticBatch(this.#callHost(), options));
  }

  // ---- end of the training engine

  // ---- Position schemes (docs/schemes.md): web/api/schemes.js

  /** T5's bucket of j - i for an n × n grid: { rows, cols, data: Int32Array }. */
  t5Buckets(n, options) {
    return this.#entry('t5Buckets', () => schemes.t5Buckets(this.#callHost(), n, options));
  }

  /** The ALiBi paper's slopes for `heads` heads (its rule when heads is not a power of two). */
  alibiSlopes(heads) {
    return this.#entry('alibiSlopes', () => schemes.alibiSlopes(this.#callHost(), heads));
  }

  /** x (n × d) with each row's dimension pairs rotated by its position (RoPE). */
  rope(x, options) {
    return this.#entry('rope', () => schemes.rope(this.#callHost(), x, options));
  }

  /** The sinusoidal position encoding of Vaswani et al., n × d (float64). */
  sinusoidal(n, d, options) {
    return this.#entry('sinusoidal', () => schemes.sinusoidal(this.#callHost(), n, d, options));
  }

  // What a module function computes through (schemes.js, locality-profile.js, synthetic-batch.js,
  // example-scenario.js and the model): the core, the arena, and #callRegions.
  #callHost() {
    return {
      core: this.#core,
      arena: this.#arena,
      callRegions: (where, shapes, body) => this.#callRegions(where, shapes, body),
    };
  }

  // ---- end of the position schemes

  /** WASM memory in bytes: its whole size, and the part malloc has handed out. */
  memory() {
    const core = this.#live('memory');
    this.#refuseReentry('memory');
    return { wasmBytes: core.HEAPU8.length, heapInUseBytes: core.heapBytesInUse() };
  }

  // Reserves the arena regions, runs `body` with their addresses, and trims the arena after
  // (after the next call instead when this one handed out views: their memory stays allocated).
  #call(where, byteLengths, body) {
    this.#live(where);
    this.#retireViews();
    const addresses = this.#arena.reserve(where, byteLengths);
    try {
      return body(addresses);
    } finally {
      if (!this.#viewsOut) this.#arena.trim();
    }
  }

  // #call with one region per [rows, cols, ArrayType] of `shapes` (regionAt: what the core checks).
  #callRegions(where, shapes, body) {
    const bytes = shapes.map(([rows, cols, ArrayType]) => rows * cols * ArrayType.BYTES_PER_ELEMENT);
    return this.#call(where, bytes, (addresses) =>
      body(shapes.map(([rows, cols, ArrayType], index) => regionAt(addresses[index], rows, cols, ArrayType))),
    );
  }

  // Arrays of a call ([name, array]) that are views of this instance's memory handed out by the
  // last call (views: true): the call detaches them before it reads them (docs/memory-views.md),
  // so each is a TypeError naming it.
  #refuseOwnViews(where, named) {
    if (!this.#viewsOut) return;
    const memory = this.#core.HEAPU8.buffer;
    for (const [name, data] of named) {
      if (data && data.buffer === memory) {
        throw new TypeError(
          `${where}: ${name} is a view of this instance's memory from an earlier call with views: true, which this call detaches before reading it; pass a copy (${name}.slice())`,
        );
      }
    }
  }

  // Detaches the views the last call handed out, before anything can overwrite their memory.
  #retireViews() {
    if (!this.#viewsOut) return;
    this.#viewsOut = false;
    this.#core.detachMemoryViews();
    this.#arena.trim();
  }
}

addSymbolDispose(BaseRelPos);
addSymbolDispose(Model);
