// checkpointPositions(): the position tables a checkpoint holds, as bias against offset
// (docs/checkpoints.md). T5's relative_attention_bias ([buckets, heads]) read through T5's
// bucket rule (t5Buckets, docs/schemes.md §1); the page's own saved models' Shaw aᴷ through
// the model's mean-query profile (model.positionProfile); a tensor the caller names, by the
// rule the caller names.
import { CheckpointError } from './checkpoint-file.js';
import { T5_BUCKET_DEFAULTS } from './schemes.js';
import { checkOptions, describe, numberArray } from './validate.js';
import { isPlainObject, typedArrayTag } from './snapshot.js';

/** The `format` of a model the training section saves (JSON, or model.json inside a .npz). */
export const SAVED_MODEL_FORMAT = 'relpos-train-model';
/** checkpointPositions' offsets when none are given: −256 … 256. */
export const CHECKPOINT_OFFSET_REACH = 256;
/** The farthest offset checkpointPositions reads a table at. */
export const MAX_CHECKPOINT_OFFSET = 2048;

// transformers' T5 names: {encoder|decoder}.block.N.layer.0.SelfAttention.relative_attention_bias.weight
// (block 0 holds it and every layer uses it; UMT5 has one in every block). Any prefix.
const T5_TABLE =
  /(?:^|\.)(encoder|decoder)\.block\.(\d+)\.layer\.0\.[A-Za-z]*SelfAttention\.relative_attention_bias\.weight$/;

function checkOffsets(where, offsets) {
  if (offsets === undefined)
    return Int32Array.from({ length: 2 * CHECKPOINT_OFFSET_REACH + 1 }, (_, i) => i - CHECKPOINT_OFFSET_REACH);
  const isList = Array.isArray(offsets) || (ArrayBuffer.isView(offsets) && !(offsets instanceof DataView));
  if (!isList || offsets.length === 0)
    throw new TypeError(`${where}: offsets must be a non-empty array of whole numbers, got ${describe(offsets)}`);
  const out = new Int32Array(offsets.length);
  for (let i = 0; i < offsets.length; i += 1) {
    const c = offsets[i];
    if (!Number.isInteger(c) || Math.abs(c) > MAX_CHECKPOINT_OFFSET)
      throw new RangeError(
        `${where}: offsets[${i}] is ${describe(c)}; offsets are whole numbers from −${MAX_CHECKPOINT_OFFSET} to ${MAX_CHECKPOINT_OFFSET}`,
      );
    out[i] = c;
  }
  return out;
}

// T5's bucket of each offset, from rp.t5Buckets' grid: row 0 holds offsets 0…n−1, column 0 0…−(n−1).
function bucketsOf(rp, offsets, params) {
  let reach = 0;
  for (const c of offsets) reach = Math.max(reach, Math.abs(c));
  const n = reach + 1;
  const { data } = rp.t5Buckets(n, params);
  return Int32Array.from(offsets, (c) => (c >= 0 ? data[c] : data[-c * n]));
}

function t5Params(config, numBuckets, options) {
  const fromConfig = (key) => (config && Number.isInteger(config[key]) ? config[key] : undefined);
  const maxDistance =
    options.maxDistance ?? fromConfig('relative_attention_max_distance') ?? T5_BUCKET_DEFAULTS.maxDistance;
  const configured = fromConfig('relative_attention_num_buckets');
  return { numBuckets, maxDistance, configured };
}

function t5Entry(rp, table, part, layer, params, offsets, bidirectional, rule) {
  const [numBuckets, heads] = table.shape;
  const buckets = bucketsOf(rp, offsets, { numBuckets, maxDistance: params.maxDistance, bidirectional });
  const bias = new Float64Array(heads * offsets.length);
  for (let h = 0; h < heads; h += 1)
    for (let o = 0; o < offsets.length; o += 1) bias[h * offsets.length + o] = table.data[buckets[o] * heads + h];
  return {
    tensor: table.name,
    scheme: 't5',
    part,
    layer,
    bidirectional,
    numBuckets,
    maxDistance: params.maxDistance,
    heads,
    offsets: Int32Array.from(offsets),
    buckets,
    bias,
    rule,
  };
}

const T5_RULE = (bidirectional, numBuckets, maxDistance, part) =>
  `T5's bucket rule (${numBuckets} buckets, max distance ${maxDistance}, ${
    bidirectional ? 'both directions' : 'the past only: keys after the query share bucket 0 and are masked'
  }): bias(j − i) = table[bucket(j − i), head], added to the score unscaled${part ? `; the ${part}'s layers all use it` : ''}`;

async function t5Tables(rp, checkpoint, config, offsets, options) {
  const out = [];
  const found = checkpoint.tensors
    .map((t) => ({ t, match: T5_TABLE.exec(t.name) }))
    .filter(({ match }) => match)
    .sort((a, b) => (a.match[1] === b.match[1] ? a.match[2] - b.match[2] : a.match[1] < b.match[1] ? -1 : 1));
  for (const { t, match } of found) {
    const part = match[1];
    const layer = Number(match[2]);
    if (t.shape.length !== 2 || t.shape[0] < 1 || t.shape[1] < 1)
      throw new CheckpointError(t.file, `tensor "${t.name}" has shape [${t.shape}]; T5's table is [buckets, heads]`);
    const params = t5Params(config, t.shape[0], options);
    if (params.configured !== undefined && params.configured !== t.shape[0])
      throw new CheckpointError(
        t.file,
        `tensor "${t.name}" has ${t.shape[0]} buckets, but config.json says relative_attention_num_buckets = ${params.configured}`,
      );
    if (config && Number.isInteger(config.num_heads) && config.num_heads !== t.shape[1] && part === 'encoder')
      throw new CheckpointError(
        t.file,
        `tensor "${t.name}" has ${t.shape[1]} heads, but config.json says num_heads = ${config.num_heads}`,
      );
    const bidirectional = part === 'encoder';
    const table = await checkpoint.read(t.name);
    if (!(table.data instanceof Float32Array || table.data instanceof Float64Array))
      throw new CheckpointError(t.file, `tensor "${t.name}" is ${table.dtype}; a position table holds floats`);
    const rule = T5_RULE(bidirectional, t.shape[0], params.maxDistance, found.length <= 2 ? part : '');
    try {
      out.push(t5Entry(rp, table, part, layer, params, offsets, bidirectional, rule));
    } catch (error) {
      // The bucket rule's own refusal (rp.t5Buckets: its bucket count or max distance), said of this file's tensor.
      if (!(error instanceof RangeError) || !error.message.startsWith('t5Buckets: ')) throw error;
      throw new CheckpointError(
        t.file,
        `tensor "${t.name}" cannot be read by T5's bucket rule: ${error.message.slice('t5Buckets: '.length)}`,
      );
    }
  }
  return out;
}

// A Shaw table [2k + 1, d] or [H, 2k + 1, d], read by the uniform query 1/√d (as the handbook reads
// its simulated table, docs/maths.md §7); offsets past ±k use row ±k (Shaw's clipping).
function shawUniformEntry(table, offsets) {
  const perHead = table.shape.length === 3;
  const [heads, rows, d] = perHead ? table.shape : [1, ...table.shape];
  if (rows % 2 !== 1)
    throw new RangeError(`checkpointPositions: tensor "${table.name}" has ${rows} rows; a Shaw table has 2k + 1`);
  if (d < 1 || heads < 1)
    throw new RangeError(
      `checkpointPositions: tensor "${table.name}" has shape [${table.shape}]; a Shaw table's rows need a width d ≥ 1`,
    );
  const k = (rows - 1) / 2;
  const bias = new Float64Array(heads * offsets.length);
  const scale = 1 / Math.sqrt(d);
  for (let h = 0; h < heads; h += 1) {
    for (let o = 0; o < offsets.length; o += 1) {
      const row = Math.min(k, Math.max(-k, offsets[o])) + k;
      let sum = 0;
      for (let x = 0; x < d; x += 1) sum += table.data[(h * rows + row) * d + x];
      bias[h * offsets.length + o] = sum * scale;
    }
  }
  return {
    tensor: table.name,
    scheme: 'shaw',
    part: 'encoder',
    layer: 0,
    bidirectional: true,
    maxDistance: k,
    heads,
    offsets: Int32Array.from(offsets),
    bias,
    rule: `a Shaw table aᴷ of 2k + 1 = ${rows} rows × d = ${d}, read by the uniform query 1/√d: bias(c) = Σₓ aᴷ[clip(c, −${k}, ${k}) + ${k}, x]/√${d}`,
  };
}

async function namedTable(rp, checkpoint, config, offsets, options, where) {
  const { tensor, rule } = options;
  if (typeof tensor !== 'string')
    throw new TypeError(`${where}: options.tensor must be a tensor's name, got ${describe(tensor)}`);
  if (rule !== 't5' && rule !== 'shaw')
    throw new RangeError(
      `${where}: options.rule must be 't5' (a [buckets, heads] table) or 'shaw' (a [2k + 1, d] table), got ${describe(rule)}`,
    );
  if (!checkpoint.has(tensor))
    throw new RangeError(`${where}: the checkpoint has no tensor named ${JSON.stringify(tensor)}`);
  const table = await checkpoint.read(tensor);
  if (!(table.data instanceof Float32Array || table.data instanceof Float64Array))
    throw new RangeError(`${where}: tensor "${tensor}" is ${table.dtype}; a position table holds floats`);
  if (rule === 'shaw') {
    if (table.shape.length !== 2 && table.shape.length !== 3)
      throw new RangeError(
        `${where}: tensor "${tensor}" has shape [${table.shape}]; a Shaw table is [2k + 1, d] or [heads, 2k + 1, d]`,
      );
    return [shawUniformEntry(table, offsets)];
  }
  if (table.shape.length !== 2)
    throw new RangeError(`${where}: tensor "${tensor}" has shape [${table.shape}]; a T5 table is [buckets, heads]`);
  const bidirectional = options.bidirectional ?? true;
  if (typeof bidirectional !== 'boolean')
    throw new TypeError(`${where}: options.bidirectional must be a boolean, got ${describe(bidirectional)}`);
  const params = t5Params(config, table.shape[0], options);
  const part = bidirectional ? 'encoder' : 'decoder';
  return [
    t5Entry(
      rp,
      table,
      part,
      0,
      params,
      offsets,
      bidirectional,
      T5_RULE(bidirectional, table.shape[0], params.maxDistance, ''),
    ),
  ];
}

// A saved model's parameters ({ [name]: { shape, data: an Array of numbers } }) as Float32Arrays
// for model.setParameters, which checks their names, sizes and values; an entry that is not a
// number (null: JSON's NaN) is refused, naming it.
function savedParameters(where, parameters) {
  const values = {};
  for (const [name, parameter] of Object.entries(parameters)) {
    const at = `parameters[${JSON.stringify(name)}].data`;
    const data = isPlainObject(parameter) ? parameter.data : undefined;
    if (!Array.isArray(data) && typedArrayTag(data) === undefined)
      throw new TypeError(`${where}: ${at} must be an array of numbers, got ${describe(data)}`);
    values[name] = numberArray(data, Float32Array, (index, what) => {
      throw new TypeError(`${where}: ${at}[${index}] must be a number, got ${what}`);
    });
  }
  return values;
}

// The page's saved models: per layer (and head), model.positionProfile's mean over queries of
// q_i·aᴷ[c]/√d_k (docs/maths.md), on the given token sequences or the model's default ones.
function savedModelTables(rp, saved, offsets, options, where) {
  if (!isPlainObject(saved.config) || !isPlainObject(saved.parameters))
    throw new Error(`${where}: this saved model has no "config" or "parameters"`);
  const scheme = saved.config.position?.scheme ?? 'shaw';
  if (scheme !== 'shaw') return [];
  const model = rp.createModel(saved.config);
  try {
    model.setParameters(savedParameters(where, saved.parameters));
    const { layers, heads, maxDistance: k, causal } = model.config;
    const out = [];
    for (let layer = 0; layer < layers; layer += 1) {
      const bias = new Float64Array(heads * offsets.length);
      for (let head = 0; head < heads; head += 1) {
        const { profile } =
          options.tokens === undefined
            ? model.positionProfile({ layer, head })
            : model.positionProfile(options.tokens, { layer, head });
        for (let o = 0; o < offsets.length; o += 1)
          bias[head * offsets.length + o] = profile[Math.min(k, Math.max(-k, offsets[o])) + k];
      }
      out.push({
        tensor: `layers.${layer}.attention.relativeKeys`,
        scheme: 'shaw',
        part: causal ? 'decoder' : 'encoder',
        layer,
        bidirectional: !causal,
        maxDistance: k,
        heads,
        offsets: Int32Array.from(offsets),
        bias,
        rule: `Shaw's aᴷ (k = ${k}), read by the mean query: bias(c) = mean over queries of qᵢ·aᴷ[clip(c, −${k}, ${k}) + ${k}]/√dₖ${
          options.tokens === undefined ? ' (on 32 sequences of uniform random tokens)' : ' (on the given tokens)'
        }`,
      });
    }
    return out;
  } finally {
    model.dispose();
  }
}

const POSITIONS_OPTIONS = {
  config: undefined,
  offsets: undefined,
  tensor: undefined,
  rule: undefined,
  bidirectional: undefined,
  maxDistance: undefined,
  tokens: undefined,
};

/**
 * rp.checkpointPositions(checkpoint, { config, offsets, tensor, rule, bidirectional, maxDistance,
 * tokens }): one entry per position table found (see index.d.ts, CheckpointPositions).
 */
export async function checkpointPositions(rp, checkpoint, given = {}) {
  const where = 'checkpointPositions';
  if (!isPlainObject(given)) throw new TypeError(`${where}: options must be an object, got ${describe(given)}`);
  // Each option read once (what is checked is what is used), and no other.
  const options = checkOptions(where, 'options', given, POSITIONS_OPTIONS);
  const { config } = options;
  if (config !== undefined && !isPlainObject(config))
    throw new TypeError(
      `${where}: options.config must be config.json's object (JSON.parse'd), got ${describe(config)}`,
    );
  if (options.maxDistance !== undefined && (!Number.isInteger(options.maxDistance) || options.maxDistance < 1))
    throw new RangeError(
      `${where}: options.maxDistance must be a whole number ≥ 1, got ${describe(options.maxDistance)}`,
    );
  const offsets = checkOffsets(where, options.offsets);
  if (isPlainObject(checkpoint) && checkpoint.format === SAVED_MODEL_FORMAT)
    return savedModelTables(rp, checkpoint, offsets, options, where);
  if (!isPlainObject(checkpoint) || !Array.isArray(checkpoint.tensors) || typeof checkpoint.read !== 'function')
    throw new TypeError(
      `${where}: checkpoint must be what openCheckpoint() returned, or a model saved by the training section, got ${describe(checkpoint)}`,
    );
  if (options.tensor !== undefined) return namedTable(rp, checkpoint, config, offsets, options, where);
  return t5Tables(rp, checkpoint, config, offsets, options);
}

/**
 * Where one head's bias alone puts the softmax mass over offsets −window…window (keys after the
 * query left out when the table is the past only): { left, self, right, meanDistance }.
 */
export function biasMass(entry, head, window) {
  const { offsets, bias, bidirectional } = entry;
  const count = offsets.length;
  let max = -Infinity;
  const inside = [];
  for (let o = 0; o < count; o += 1) {
    const c = offsets[o];
    if (Math.abs(c) > window || (!bidirectional && c > 0)) continue;
    inside.push(o);
    max = Math.max(max, bias[head * count + o]);
  }
  let left = 0;
  let self = 0;
  let right = 0;
  let distance = 0;
  let sum = 0;
  for (const o of inside) {
    const e = Math.exp(bias[head * count + o] - max);
    sum += e;
    const c = offsets[o];
    if (c < 0) left += e;
    else if (c > 0) right += e;
    else self += e;
    distance += e * Math.abs(c);
  }
  return { left: left / sum, self: self / sum, right: right / sum, meanDistance: distance / sum };
}
