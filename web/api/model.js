// The trainable relative-attention model (README.md, "Training a model"): a small Transformer
// whose only order signal is Shaw's relative tables, trained in WebAssembly. RelPos.createModel()
// makes one; this file holds its parameters and its training calls, each argument checked before
// the core runs (validate.js conventions: a wrong type is a TypeError, a wrong value a RangeError,
// messages name the method and argument; the model's checks are model-checks.js). Its read-only
// views of one head (attention, headInputs, positionProfile) are model-heads.js's.
import { ADAM_DEFAULTS, MODEL_DEFAULTS, SYNTHETIC_DEFAULTS } from './defaults.js';
import { SETTING_RANGES } from './limits.js';
import {
  checkFloat32Range,
  checkInteger,
  checkNumber,
  checkOptions,
  describe,
  floatArrayType,
  typedArrayType,
} from './validate.js';
import { Snapshot, isPlainObject } from './snapshot.js';
import { throwIfRefused } from './wasm-arena.js';
import { checkBatch, checkReadBatch, coreModelConfig, modelBytes, readBatch } from './model-checks.js';
import { headAttention, headInputs, positionProfile } from './model-heads.js';

export { ADAM_DEFAULTS, MODEL_DEFAULTS, SYNTHETIC_DEFAULTS };
export {
  MODEL_POSITION_SCHEMES,
  coreModelConfig,
  modelBytes,
  resolveModelConfig,
  resolveSyntheticOptions,
} from './model-checks.js';

export class Model {
  #host;
  #handle;
  #config;
  #table;
  #ArrayType;

  /** Use RelPos.createModel(config). */
  constructor(host, config) {
    if (host?.core === undefined) throw new TypeError('Model: use RelPos.createModel(config)');
    this.#host = host;
    this.#config = Object.freeze({ ...config });
    this.#ArrayType = config.precision === 'float64' ? Float64Array : Float32Array;
    const coreConfig = coreModelConfig(host.core, config);
    // Probe first: the core cannot report a failed allocation (it would abort the instance).
    const bytes = modelBytes(host.core, config);
    const probe = host.core._malloc(bytes);
    if (!probe)
      throw new RangeError(`createModel: could not allocate ${bytes} bytes of WebAssembly memory for this model`);
    host.core._free(probe);
    this.#handle = new host.core[config.precision === 'float64' ? 'ModelHandleFloat64' : 'ModelHandleFloat32'](
      coreConfig,
    );
    this.#table = this.#handle
      .parameterTable()
      .map((entry) => Object.freeze({ ...entry, shape: Object.freeze(entry.shape) }));
  }

  /** The resolved configuration (every default filled in). */
  get config() {
    return this.#config;
  }

  /** True after dispose(). */
  get disposed() {
    return this.#handle === null;
  }

  /** Adam steps taken so far. */
  get steps() {
    return this.#live('model.steps').adamSteps();
  }

  /**
   * Every parameter in one array, in parameterTable order (the core's layout; a copy, or written
   * into options.out: a Float32Array or Float64Array of the model's type and size).
   */
  parameterVector(options) {
    const where = 'model.parameterVector';
    const handle = this.#live(where);
    return this.#entry(where, () => {
      const snapshot = new Snapshot(where);
      const read = this.#readOut(snapshot, options);
      snapshot.seal();
      return this.#readVector(handle.parameters(), this.#checkOut(where, read));
    });
  }

  /** Every parameter by name: { shape, data } (copies; row-major). */
  parameters() {
    const handle = this.#live('model.parameters');
    return this.#entry('model.parameters', () =>
      this.#readAll(handle.parameters(), (entry, data) => ({ shape: [...entry.shape], data })),
    );
  }

  /** Overwrites the named parameters (any subset) with the given arrays. */
  setParameters(values) {
    const where = 'model.setParameters';
    const handle = this.#live(where);
    return this.#entry(where, () => this.#setParameters(where, handle, values));
  }

  #setParameters(where, handle, given) {
    // Each array read once, as a view by its intrinsic length, before anything is checked.
    const snapshot = new Snapshot(where);
    if (typedArrayType(given) !== null) {
      // One array of every parameter (parameterVector()'s layout).
      const vector = snapshot.typedArray('values', given);
      snapshot.seal();
      // Its type and length here; its entries by the core (finite), which writes it or nothing.
      this.#checkVector(where, 'values', vector, { finite: false });
      if (vector.buffer === this.#heap().buffer) {
        // A view of this instance's memory (views: true) is read where it is: nothing detaches it.
        const { byteOffset: address, length: rows, byteLength: bytes } = vector;
        throwIfRefused(where, handle.setParameterVector({ address, rows, cols: 1, bytes }));
        return;
      }
      this.#host.callRegions(where, [[vector.length, 1, this.#ArrayType]], ([region]) => {
        this.#host.arena.write(region.address, vector);
        throwIfRefused(where, handle.setParameterVector(region));
      });
      return;
    }
    const values = snapshot.fields(given, (name, data) => snapshot.typedArray(name, data));
    snapshot.seal();
    if (!isPlainObject(values)) {
      throw new TypeError(
        `${where}: values must be an object { [name]: Float32Array | Float64Array } or one array of every parameter (parameterVector()), got ${describe(values)}`,
      );
    }
    const byName = new Map(this.#table.map((entry) => [entry.name, entry]));
    const checked = [];
    for (const name of Object.keys(values)) {
      const data = values[name];
      const entry = byName.get(name);
      if (!entry)
        throw new TypeError(
          `${where}: unknown parameter ${JSON.stringify(name)}; see model.parameters() for the names`,
        );
      if (!floatArrayType(data)) {
        throw new TypeError(`${where}: ${name} must be a Float32Array or Float64Array, got ${describe(data)}`);
      }
      if (data.length !== entry.size) {
        throw new RangeError(
          `${where}: ${name} must hold ${entry.size} numbers (shape [${entry.shape.join(', ')}]), got ${data.length}`,
        );
      }
      for (let i = 0; i < data.length; i += 1) {
        if (!Number.isFinite(data[i]))
          throw new RangeError(`${where}: ${name}[${i}] is ${data[i]}; every entry must be finite`);
      }
      if (this.#ArrayType === Float32Array) checkFloat32Range(where, name, data);
      checked.push([entry, data]);
    }
    const region = handle.parameters();
    for (const [entry, data] of checked) {
      if (entry.offset + entry.size > region.rows)
        throw new RangeError(`${where}: ${entry.name} lies outside the parameters`);
      this.#heap().set(data, region.address / this.#ArrayType.BYTES_PER_ELEMENT + entry.offset);
    }
  }

  /** Mean cross-entropy of the batch and its gradient for every parameter (by name). */
  lossAndGradients(batch) {
    const where = 'model.lossAndGradients';
    const handle = this.#live(where);
    return this.#entry(where, () => {
      const b = checkBatch(where, batch, this.#config);
      const { loss } = this.#withBatch(where, b, ({ tokens, targets }) => handle.lossAndGradients(tokens, targets, 0));
      return { loss, gradients: this.#readAll(handle.gradients(), (entry, data) => data) };
    });
  }

  /**
   * One shard of a step whose batch is split across workers (docs/training.md, "A step in
   * shards"): the loss and gradient of Σ (this batch's target losses) / stepTargets, where
   * options.stepTargets counts the targets of all the step's shards, so the shards' gradients
   * add up to the step's. Returns { loss: this shard's part of the step's mean loss, gradients:
   * every parameter's, in parameterTable order (parameterVector()'s layout; into options.out) }.
   */
  shardGradients(batch, options) {
    const where = 'model.shardGradients';
    const handle = this.#live(where);
    return this.#entry(where, () => {
      // Both arguments read (the options first), then sealed, then checked.
      const snapshot = new Snapshot(where);
      const read = this.#readOut(snapshot, options);
      const batchRead = readBatch(snapshot, batch);
      snapshot.seal();
      const b = checkReadBatch(where, batchRead, this.#config);
      const out = this.#checkOut(where, read, ['stepTargets']);
      // The batch's regions detach the views an earlier call handed out (views: true).
      this.#host.refuseOwnViews(where, [['out', out.view]]);
      const { stepTargets } = out.options;
      checkInteger(where, 'stepTargets', stepTargets, 1, 2 ** 31 - 1);
      let own = 0;
      for (const target of b.targets) if (target >= 0) own += 1;
      if (stepTargets < own) {
        throw new RangeError(
          `${where}: stepTargets counts the targets of every shard of the step, so at least this batch's ${own}; got ${stepTargets}`,
        );
      }
      const { loss } = this.#withBatch(where, b, ({ tokens, targets }) =>
        handle.lossAndGradients(tokens, targets, stepTargets),
      );
      return { loss, gradients: this.#readVector(handle.gradients(), out) };
    });
  }

  /**
   * One Adam step (trainStep's options) on the sum of a step's shard gradients (shardGradients()),
   * added in the order given: the same numbers whichever worker computed each shard.
   */
  applyGradients(shards, options) {
    const where = 'model.applyGradients';
    const handle = this.#live(where);
    return this.#entry(where, () => {
      const optionsRead = new Snapshot(where).fields(options);
      const snapshot = new Snapshot(where);
      const list = snapshot.list('shards', shards, (item, i) => snapshot.typedArray(`shards[${i}]`, item), 64);
      snapshot.seal();
      if (!Array.isArray(list) || list.length === 0) {
        throw new TypeError(
          `${where}: shards must be a non-empty Array of gradient vectors (shardGradients()), got ${describe(list)}`,
        );
      }
      // Finite entries: the core's check (gatherGradients), one pass over each.
      list.forEach((vector, i) => this.#checkVector(where, `shards[${i}]`, vector, { finite: false }));
      this.#host.refuseOwnViews(
        where,
        list.map((vector, i) => [`shards[${i}]`, vector]),
      );
      const o = this.#adamOptions(where, optionsRead);
      const count = list[0].length;
      this.#host.callRegions(where, [[count, 1, this.#ArrayType]], ([region]) => {
        list.forEach((vector, i) => {
          this.#host.arena.write(region.address, vector);
          const refused = handle.gatherGradients(region, i === 0);
          throwIfRefused(where, refused && `shards[${i}]: ${refused}`);
        });
      });
      throwIfRefused(where, handle.adamStep(o));
    });
  }

  /** One step of forward, backward and Adam; returns the loss before the step. */
  trainStep(batch, options) {
    const where = 'model.trainStep';
    const handle = this.#live(where);
    return this.#entry(where, () => this.#trainStep(where, handle, batch, options));
  }

  #trainStep(where, handle, batch, options) {
    // The options read first (each field once): a getter of them cannot change the batch after
    // the batch was checked.
    const optionsRead = new Snapshot(where).fields(options);
    const b = checkBatch(where, batch, this.#config);
    const o = this.#adamOptions(where, optionsRead);
    const { loss } = this.#withBatch(where, b, ({ tokens, targets }) => handle.trainStep(tokens, targets, o));
    return { loss };
  }

  // Adam's options (ADAM_DEFAULTS filled in), checked.
  #adamOptions(where, optionsRead) {
    const o = checkOptions(where, 'options', optionsRead, ADAM_DEFAULTS);
    checkNumber(where, 'learningRate', o.learningRate, SETTING_RANGES.learningRate);
    checkNumber(where, 'beta1', o.beta1, SETTING_RANGES.beta1);
    checkNumber(where, 'beta2', o.beta2, SETTING_RANGES.beta2);
    checkNumber(where, 'epsilon', o.epsilon, SETTING_RANGES.epsilon);
    if (this.#ArrayType === Float32Array && !(Math.fround(o.epsilon) > 0)) {
      throw new RangeError(
        `${where}: epsilon must be at least 1.4e-45 (the smallest positive float32) in a float32 model, got ${o.epsilon}`,
      );
    }
    checkNumber(where, 'weightDecay', o.weightDecay, SETTING_RANGES.weightDecay);
    checkNumber(where, 'maxGradNorm', o.maxGradNorm, SETTING_RANGES.maxGradNorm);
    return o;
  }

  // The options of parameterVector() and shardGradients() read into `snapshot`: their fields,
  // `out` as a view (written through, a SharedArrayBuffer's too), and the caller's `out` array.
  #readOut(snapshot, given) {
    let array;
    const options = snapshot.fields(given, (key, item) => {
      if (key !== 'out') return item;
      array = item;
      return snapshot.destination('out', item);
    });
    return { options, array };
  }

  // The options read by #readOut, checked: { options, view, array }; `out` (when given) must be
  // one array of every parameter, of the model's type.
  #checkOut(where, { options: read, array }, required = []) {
    const options = checkOptions(where, 'options', read, { out: undefined }, required);
    const view = options.out;
    if (view !== undefined) this.#checkVector(where, 'out', view, { finite: false });
    return { options, view, array };
  }

  // A region of every parameter (or gradient) copied out: a new array, or into `out`'s view and
  // the caller's array returned.
  #readVector(region, { view, array }) {
    if (view === undefined) return this.#host.arena.readRegion(region, this.#ArrayType);
    this.#host.arena.readRegion(region, this.#ArrayType, view);
    return array;
  }

  // One array of every parameter (or gradient): the model's type, parameterCount entries (finite
  // where it is read: a destination need not be).
  #checkVector(where, name, vector, { finite = true } = {}) {
    if (typedArrayType(vector) !== this.#ArrayType) {
      throw new TypeError(
        `${where}: ${name} must be a ${this.#ArrayType.name} (this model's precision), got ${describe(vector)}`,
      );
    }
    const count = this.#handle.parameters().rows;
    if (vector.length !== count) {
      throw new RangeError(`${where}: ${name} must hold the model's ${count} parameters, got ${vector.length}`);
    }
    for (let i = 0; finite && i < vector.length; i += 1) {
      if (!Number.isFinite(vector[i]))
        throw new RangeError(`${where}: ${name}[${i}] is ${vector[i]}; every entry must be finite`);
    }
  }

  /** Loss and accuracy (argmax = target, over the positions with a target), no gradients. */
  evaluate(batch) {
    const where = 'model.evaluate';
    const handle = this.#live(where);
    return this.#entry(where, () => {
      const b = checkBatch(where, batch, this.#config);
      const { loss, accuracy } = this.#withBatch(where, b, ({ tokens, targets }) => handle.evaluate(tokens, targets));
      return { loss, accuracy };
    });
  }

  /**
   * Every panel of rp.attention() for one head of one layer on one sequence (its queries, keys
   * and values as the model computed them, the layer's a^K and a^V for that head).
   */
  attention(tokens, options) {
    this.#live('model.attention');
    return this.#entry('model.attention', () => headAttention(this.#headsHost(), tokens, options));
  }

  /**
   * Every head's inputs on one sequence, from one pass through the model: an array, layer by
   * layer, of { layer, head, q, k, v, relKeys, relValues, causal }, each exactly what
   * attention(tokens, { layer, head }) hands to rp.attention(). With { out }, an earlier result
   * for a sequence of the same length, the numbers are written into its arrays (no new memory;
   * docs/performance.md) and the result holds those arrays.
   */
  headInputs(tokens, options) {
    this.#live('model.headInputs');
    return this.#entry('model.headInputs', () => headInputs(this.#headsHost(), tokens, options));
  }

  /**
   * The learned position profile of one head: for each offset c in -k … k, the mean over the
   * positions i of the given sequences of q_i · a^K[c] / sqrt(d_k), with q_i the head's query.
   * `tokens` is one sequence (Int32Array) or a batch { tokens, batchSize, seqLen }; without it
   * (positionProfile({ layer, head })), 32 sequences of seqLen uniform random tokens
   * (syntheticBatch with seed 0).
   */
  positionProfile(tokens, options) {
    this.#live('model.positionProfile');
    return this.#entry('model.positionProfile', () => positionProfile(this.#headsHost(), tokens, options));
  }

  // What model-heads.js reads a head through: the instance's host, the core's handle, the
  // resolved configuration and the model's array type.
  #headsHost() {
    return { host: this.#host, handle: this.#handle, config: this.#config, ArrayType: this.#ArrayType };
  }

  /**
   * Frees the model's WASM memory and lets go of its instance (a disposed model holds no
   * reference to it); every later call throws. Safe to call twice.
   */
  dispose() {
    if (this.#handle) {
      this.#host.entry('model.dispose', () => this.#handle.delete());
      this.#handle = null;
      this.#host = null;
    }
  }

  #live(where) {
    if (!this.#handle) throw new Error(`${where}: this model has been disposed`);
    return this.#handle;
  }

  // One public call, through the instance (refused while another call of it runs).
  #entry(where, body) {
    return this.#host.entry(where, body);
  }

  #heap() {
    return this.#ArrayType === Float64Array ? this.#host.core.HEAPF64 : this.#host.core.HEAPF32;
  }

  // Every parameter's entries of the core's region (parameters() or gradients()), by name.
  #readAll(region, make) {
    const size = this.#ArrayType.BYTES_PER_ELEMENT;
    const out = {};
    for (const entry of this.#table) {
      if (entry.offset + entry.size > region.rows)
        throw new RangeError(`${entry.name} lies outside the model's region`);
      const address = region.address + entry.offset * size;
      out[entry.name] = make(entry, this.#host.arena.read(address, this.#ArrayType, entry.size));
    }
    return out;
  }

  // The batch laid out as two regions, tokens and targets; body's result is the core's { error } or result.
  #withBatch(where, batch, body) {
    const shape = [batch.batchSize, batch.seqLen, Int32Array];
    return this.#host.callRegions(where, [shape, shape], ([tokens, targets]) => {
      this.#host.arena.write(tokens.address, batch.tokens);
      this.#host.arena.write(targets.address, batch.targets);
      const result = body({ tokens, targets });
      throwIfRefused(where, result.error);
      return result;
    });
  }
}
