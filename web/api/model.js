// The trainable relative-attention model (README.md, "Training a model"): a small Transformer
// whose only order signal is Shaw's relative tables, trained in WebAssembly. RelPos.createModel()
// makes one; every argument is checked here before the core runs (validate.js conventions: a
// wrong type is a TypeError, a wrong value a RangeError, messages name the method and argument).
import { ADAM_DEFAULTS, MODEL_DEFAULTS, SYNTHETIC_DEFAULTS } from './defaults.js';
import { MAX_DIMENSION, SETTING_RANGES } from './limits.js';
import {
  checkBudget,
  checkFloat32Range,
  checkInteger,
  checkNumber,
  checkOptions,
  checkWork,
  describe,
  floatArrayType,
  typedArrayType,
} from './validate.js';
import { Snapshot } from './snapshot.js';
import { throwIfRefused } from './wasm-arena.js';
import {
  DEFAULT_PROFILE_SEQUENCES,
  I32,
  checkIds,
  checkLayerHead,
  coreModelConfig,
  modelBytes,
  modelWork,
} from './model-checks.js';
import { checkHeadInputsOut, readHeadInputsOut } from './head-inputs-out.js';

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
    if (values === null || typeof values !== 'object' || Array.isArray(values)) {
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
      const b = this.#checkBatch(where, batch);
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
      const batchRead = this.#readBatch(snapshot, batch);
      snapshot.seal();
      const b = this.#checkReadBatch(where, batchRead);
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
    const b = this.#checkBatch(where, batch);
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
      const b = this.#checkBatch(where, batch);
      const { loss, accuracy } = this.#withBatch(where, b, ({ tokens, targets }) => handle.evaluate(tokens, targets));
      return { loss, accuracy };
    });
  }

  /**
   * Every panel of rp.attention() for one head of one layer on one sequence (its queries, keys
   * and values as the model computed them, the layer's a^K and a^V for that head).
   */
  attention(tokens, options) {
    const where = 'model.attention';
    this.#live(where);
    return this.#entry(where, () => {
      const sequence = this.#readSequence(where, tokens);
      const { layer, head } = checkLayerHead(where, options, this.#config);
      const inputs = this.#headInputs(where, this.#checkSequence(where, sequence), layer, head);
      return { layer, head, ...this.#host.attention(inputs) };
    });
  }

  /**
   * Every head's inputs on one sequence, from one pass through the model: an array, layer by
   * layer, of { layer, head, q, k, v, relKeys, relValues, causal }, each exactly what
   * attention(tokens, { layer, head }) hands to rp.attention(). With { out }, an earlier result
   * for a sequence of the same length, the numbers are written into its arrays (no new memory;
   * docs/performance.md) and the result holds those arrays.
   */
  headInputs(tokens, options) {
    const where = 'model.headInputs';
    const handle = this.#live(where);
    return this.#entry(where, () => {
      const sequence = this.#readSequence(where, tokens);
      const out = readHeadInputsOut(where, options);
      return this.#allHeadInputs(where, handle, sequence, out);
    });
  }

  #allHeadInputs(where, handle, tokens, out) {
    this.#checkSequence(where, tokens);
    const { heads, layers } = this.#config;
    return this.#withSequence(where, tokens, (regions) => {
      // Every array of `out` checked before the first is written: a refused call changes none.
      if (out) {
        const sizes = {
          q: regions.queries,
          k: regions.keys,
          v: regions.values,
          relKeys: handle.relativeKeys(0, 0),
          relValues: handle.relativeValues(0, 0),
        };
        checkHeadInputsOut(where, out, { count: layers * heads, sizes, ArrayType: this.#ArrayType });
      }
      const result = [];
      for (let layer = 0; layer < layers; layer += 1) {
        for (let head = 0; head < heads; head += 1) {
          throwIfRefused(where, handle.headInputs(layer, head, regions.queries, regions.keys, regions.values));
          result.push({ layer, head, ...this.#readHeadInputs(layer, head, regions, out?.[result.length]) });
        }
      }
      return result;
    });
  }

  /**
   * The learned position profile of one head: for each offset c in -k … k, the mean over the
   * positions i of the given sequences of q_i · a^K[c] / sqrt(d_k), with q_i the head's query.
   * `tokens` is one sequence (Int32Array) or a batch { tokens, batchSize, seqLen }; without it
   * (positionProfile({ layer, head })), 32 sequences of seqLen uniform random tokens
   * (syntheticBatch with seed 0).
   */
  positionProfile(tokens, options) {
    const where = 'model.positionProfile';
    this.#live(where);
    return this.#entry(where, () => this.#positionProfile(where, tokens, options));
  }

  #positionProfile(where, given, givenOptions) {
    // Read once: a sequence (a view), a batch's fields, or the options in the first place.
    let tokens = this.#readSequenceOrBatch(where, given);
    let options = givenOptions;
    // positionProfile({ layer, head }): no sequences given.
    const isOptions = (value) =>
      value !== null &&
      typeof value === 'object' &&
      !ArrayBuffer.isView(value) &&
      !Array.isArray(value) &&
      !('tokens' in value);
    if (options === undefined && isOptions(tokens)) {
      options = tokens;
      tokens = undefined;
    }
    const { layer, head } = checkLayerHead(where, options, this.#config);
    if (tokens === undefined) {
      const { vocabSize, seqLen } = this.#config;
      tokens = this.#host.syntheticBatch({
        task: 'copy-offset',
        offset: 0,
        vocabSize,
        seqLen,
        batchSize: DEFAULT_PROFILE_SEQUENCES,
        seed: 0,
      });
    }
    let batch;
    if (typedArrayType(tokens) === Int32Array) {
      const sequence = this.#checkSequence(where, tokens);
      batch = { tokens: sequence, batchSize: 1, seqLen: sequence.length };
    } else {
      batch = this.#checkBatch(where, tokens, false);
    }
    this.#requireShaw(where);
    const rows = 2 * this.#config.maxDistance + 1;
    // The core's mean query times a^K (TransformerModel::positionProfile).
    const profile = this.#host.callRegions(
      where,
      [
        [batch.batchSize, batch.seqLen, Int32Array],
        [1, rows, Float64Array],
      ],
      ([sequences, out]) => {
        this.#host.arena.write(sequences.address, batch.tokens);
        throwIfRefused(where, this.#handle.positionProfile(layer, head, sequences, out));
        return this.#host.arena.readRegion(out, Float64Array);
      },
    );
    return {
      layer,
      head,
      offsets: Int32Array.from({ length: rows }, (_, c) => c - this.#config.maxDistance),
      profile,
    };
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

  // A sequence of token ids read once: a view of an Int32Array by its intrinsic length.
  #readSequence(where, tokens) {
    const snapshot = new Snapshot(where);
    const view = snapshot.typedArray('tokens', tokens);
    snapshot.seal();
    return view;
  }

  // positionProfile's first argument read once: a sequence, a batch (its fields), or options.
  #readSequenceOrBatch(where, value) {
    const snapshot = new Snapshot(where);
    const read =
      value !== null && typeof value === 'object' && !Array.isArray(value) && typedArrayType(value) === null
        ? snapshot.fields(value, (key, item) =>
            key === 'tokens' || key === 'targets' ? snapshot.typedArray(`batch.${key}`, item) : item,
          )
        : snapshot.typedArray('tokens', value);
    snapshot.seal();
    return read;
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

  #checkSequence(where, tokens) {
    if (typedArrayType(tokens) !== Int32Array) {
      throw new TypeError(`${where}: tokens must be an Int32Array of token ids, got ${describe(tokens)}`);
    }
    const { seqLen, vocabSize } = this.#config;
    if (tokens.length < 1 || tokens.length > seqLen) {
      throw new RangeError(`${where}: tokens must hold 1 to seqLen (${seqLen}) ids, got ${tokens.length}`);
    }
    checkIds(where, 'tokens', tokens, 0, vocabSize);
    return tokens;
  }

  #checkBatch(where, given, withTargets = true) {
    // Each field read once (tokens and targets as views by their intrinsic length), then checked.
    const snapshot = new Snapshot(where);
    const batch = this.#readBatch(snapshot, given);
    snapshot.seal();
    return this.#checkReadBatch(where, batch, withTargets);
  }

  // A batch's fields read into `snapshot`, tokens and targets as views.
  #readBatch(snapshot, given) {
    return snapshot.fields(given, (key, item) =>
      key === 'tokens' || key === 'targets' ? snapshot.typedArray(`batch.${key}`, item) : item,
    );
  }

  #checkReadBatch(where, batch, withTargets = true) {
    if (batch === null || typeof batch !== 'object' || Array.isArray(batch) || ArrayBuffer.isView(batch)) {
      throw new TypeError(
        `${where}: batch must be an object { tokens, targets, batchSize, seqLen }, got ${describe(batch)}`,
      );
    }
    const known = ['tokens', 'targets', 'batchSize', 'seqLen'];
    for (const key of Object.keys(batch)) {
      if (!known.includes(key))
        throw new TypeError(`${where}: unknown batch field ${JSON.stringify(key)}; expected ${known.join(', ')}`);
    }
    const { seqLen: maxSeqLen, vocabSize } = this.#config;
    checkInteger(where, 'batch.batchSize', batch.batchSize, 1, MAX_DIMENSION);
    checkInteger(where, 'batch.seqLen', batch.seqLen, 1, maxSeqLen);
    const length = batch.batchSize * batch.seqLen;
    checkBudget(where, `batchSize × seqLen = ${length}`, 2 * length * I32);
    checkWork(where, `batchSize × seqLen = ${length}`, modelWork(this.#config, length, batch.seqLen));
    const fields = withTargets ? ['tokens', 'targets'] : ['tokens'];
    for (const name of fields) {
      const data = batch[name];
      if (typedArrayType(data) !== Int32Array) {
        throw new TypeError(`${where}: batch.${name} must be an Int32Array, got ${describe(data)}`);
      }
      if (data.length !== length) {
        throw new RangeError(
          `${where}: batch.${name} must hold batchSize × seqLen = ${batch.batchSize} × ${batch.seqLen} = ${length} ids, got ${data.length}`,
        );
      }
    }
    checkIds(where, 'batch.tokens', batch.tokens, 0, vocabSize);
    if (withTargets) checkIds(where, 'batch.targets', batch.targets, -1, vocabSize);
    return batch;
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

  // One sequence through the model (forwardSequence), then body(regions) with the regions one
  // head's queries, keys and values are written into (headInputs).
  #withSequence(where, tokens, body) {
    const n = tokens.length;
    const head = [n, this.#config.dModel / this.#config.heads, this.#ArrayType];
    return this.#host.callRegions(
      where,
      [[1, n, Int32Array], head, head, head],
      ([sequence, queries, keys, values]) => {
        this.#host.arena.write(sequence.address, tokens);
        throwIfRefused(where, this.#handle.forwardSequence(sequence));
        return body({ queries, keys, values });
      },
    );
  }

  // headInputs, attention and positionProfile read Shaw's a^K and a^V.
  #requireShaw(where) {
    const { position } = this.#config;
    if (position && position.scheme !== 'shaw') {
      throw new TypeError(`${where}: reads Shaw's a^K and a^V; this model's position scheme is '${position.scheme}'`);
    }
  }

  #headInputs(where, tokens, layer, head) {
    this.#requireShaw(where);
    return this.#withSequence(where, tokens, (regions) => {
      throwIfRefused(where, this.#handle.headInputs(layer, head, regions.queries, regions.keys, regions.values));
      return this.#readHeadInputs(layer, head, regions);
    });
  }

  // One head's attention() inputs, copied out of WASM memory: q, k, v from the regions the core
  // wrote, and the head's a^K and a^V tables (regions the core describes); into `target`'s
  // arrays when given (an entry of headInputs' `out`, checked).
  #readHeadInputs(layer, head, { queries, keys, values }, target = null) {
    const { arena } = this.#host;
    const handle = this.#handle;
    const matrix = (region, name) => {
      const into = target?.[name];
      const data = arena.readRegion(region, this.#ArrayType, into?.view ?? null);
      return { rows: region.rows, cols: region.cols, data: into ? into.original : data };
    };
    return {
      q: matrix(queries, 'q'),
      k: matrix(keys, 'k'),
      v: matrix(values, 'v'),
      relKeys: matrix(handle.relativeKeys(layer, head), 'relKeys'),
      relValues: matrix(handle.relativeValues(layer, head), 'relValues'),
      causal: this.#config.causal,
    };
  }
}
