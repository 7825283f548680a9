// The read-only views of a trained model, one head at a time (README.md, "Training a model"):
// model.attention() (every panel of rp.attention() for one head on one sequence), headInputs()
// (every head's attention() inputs from one pass) and positionProfile() (a head's mean query
// times a^K, the core's TransformerModel::positionProfile). Each reads its arguments once
// (snapshot.js), checks them (model-checks.js), then runs the core through the model's host
// ({ host: the instance's, handle, config, ArrayType }: web/api/model.js) and returns copies.
import { Snapshot } from './snapshot.js';
import { typedArrayType } from './validate.js';
import { throwIfRefused } from './wasm-arena.js';
import { DEFAULT_PROFILE_SEQUENCES, checkLayerHead, checkReadBatch, checkSequence, readBatch } from './model-checks.js';
import { checkHeadInputsOut, readHeadInputsOut } from './head-inputs-out.js';

/** model.attention(tokens, { layer, head }): { layer, head, ...rp.attention() of the head's inputs }. */
export function headAttention(model, tokens, options) {
  const where = 'model.attention';
  const sequence = readSequence(where, tokens);
  const { layer, head } = checkLayerHead(where, options, model.config);
  const inputs = oneHeadInputs(model, where, checkSequence(where, sequence, model.config), layer, head);
  return { layer, head, ...model.host.attention(inputs) };
}

/** model.headInputs(tokens, { out }): every head's attention() inputs, layer by layer. */
export function headInputs(model, tokens, options) {
  const where = 'model.headInputs';
  const sequence = readSequence(where, tokens);
  const out = readHeadInputsOut(where, options);
  const { handle } = model;
  checkSequence(where, sequence, model.config);
  requireShaw(model, where);
  const { heads, layers } = model.config;
  return withSequence(model, where, sequence, (regions) => {
    // Every array of `out` checked before the first is written: a refused call changes none.
    if (out) {
      const sizes = {
        q: regions.queries,
        k: regions.keys,
        v: regions.values,
        relKeys: handle.relativeKeys(0, 0),
        relValues: handle.relativeValues(0, 0),
      };
      checkHeadInputsOut(where, out, { count: layers * heads, sizes, ArrayType: model.ArrayType });
    }
    const result = [];
    for (let layer = 0; layer < layers; layer += 1) {
      for (let head = 0; head < heads; head += 1) {
        throwIfRefused(where, handle.headInputs(layer, head, regions.queries, regions.keys, regions.values));
        result.push({ layer, head, ...readHeadInputs(model, layer, head, regions, out?.[result.length]) });
      }
    }
    return result;
  });
}

/** model.positionProfile(tokens, { layer, head }): { layer, head, offsets, profile }. */
export function positionProfile(model, given, givenOptions) {
  const where = 'model.positionProfile';
  // Read once: a sequence (a view), a batch's fields, or the options in the first place.
  let tokens = readSequenceOrBatch(where, given);
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
  const { layer, head } = checkLayerHead(where, options, model.config);
  if (tokens === undefined) {
    const { vocabSize, seqLen } = model.config;
    tokens = model.host.syntheticBatch({
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
    const sequence = checkSequence(where, tokens, model.config);
    batch = { tokens: sequence, batchSize: 1, seqLen: sequence.length };
  } else {
    batch = checkReadBatch(where, tokens, model.config, false); // read once, by readSequenceOrBatch
  }
  requireShaw(model, where);
  const rows = 2 * model.config.maxDistance + 1;
  // The core's mean query times a^K (TransformerModel::positionProfile).
  const profile = model.host.callRegions(
    where,
    [
      [batch.batchSize, batch.seqLen, Int32Array],
      [1, rows, Float64Array],
    ],
    ([sequences, out]) => {
      model.host.arena.write(sequences.address, batch.tokens);
      throwIfRefused(where, model.handle.positionProfile(layer, head, sequences, out));
      return model.host.arena.readRegion(out, Float64Array);
    },
  );
  return {
    layer,
    head,
    offsets: Int32Array.from({ length: rows }, (_, c) => c - model.config.maxDistance),
    profile,
  };
}

// A sequence of token ids read once: a view of an Int32Array by its intrinsic length.
function readSequence(where, tokens) {
  const snapshot = new Snapshot(where);
  const view = snapshot.typedArray('tokens', tokens);
  snapshot.seal();
  return view;
}

// positionProfile's first argument read once: a sequence, a batch (its fields), or options.
function readSequenceOrBatch(where, value) {
  const snapshot = new Snapshot(where);
  const read =
    value !== null && typeof value === 'object' && !Array.isArray(value) && typedArrayType(value) === null
      ? readBatch(snapshot, value)
      : snapshot.typedArray('tokens', value);
  snapshot.seal();
  return read;
}

// One sequence through the model (forwardSequence), then body(regions) with the regions one
// head's queries, keys and values are written into (headInputs).
function withSequence(model, where, tokens, body) {
  const n = tokens.length;
  const head = [n, model.config.dModel / model.config.heads, model.ArrayType];
  return model.host.callRegions(where, [[1, n, Int32Array], head, head, head], ([sequence, queries, keys, values]) => {
    model.host.arena.write(sequence.address, tokens);
    throwIfRefused(where, model.handle.forwardSequence(sequence));
    return body({ queries, keys, values });
  });
}

// headInputs, attention and positionProfile read Shaw's a^K and a^V.
function requireShaw(model, where) {
  const { position } = model.config;
  if (position && position.scheme !== 'shaw') {
    throw new TypeError(`${where}: reads Shaw's a^K and a^V; this model's position scheme is '${position.scheme}'`);
  }
}

function oneHeadInputs(model, where, tokens, layer, head) {
  requireShaw(model, where);
  return withSequence(model, where, tokens, (regions) => {
    throwIfRefused(where, model.handle.headInputs(layer, head, regions.queries, regions.keys, regions.values));
    return readHeadInputs(model, layer, head, regions);
  });
}

// One head's attention() inputs, copied out of WASM memory: q, k, v from the regions the core
// wrote, and the head's a^K and a^V tables (regions the core describes); into `target`'s
// arrays when given (an entry of headInputs' `out`, checked).
function readHeadInputs(model, layer, head, { queries, keys, values }, target = null) {
  const { arena } = model.host;
  const handle = model.handle;
  const matrix = (region, name) => {
    const into = target?.[name];
    const data = arena.readRegion(region, model.ArrayType, into?.view ?? null);
    return { rows: region.rows, cols: region.cols, data: into ? into.original : data };
  };
  return {
    q: matrix(queries, 'q'),
    k: matrix(keys, 'k'),
    v: matrix(values, 'v'),
    relKeys: matrix(handle.relativeKeys(layer, head), 'relKeys'),
    relValues: matrix(handle.relativeValues(layer, head), 'relValues'),
    causal: model.config.causal,
  };
}
