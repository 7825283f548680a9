// openCheckpoint(): a safetensors file (docs/checkpoints.md), or an index and its shards, read
// without reading it whole. The 8-byte little-endian header length N and the N bytes of JSON
// header are read first; a tensor's bytes only when read(name) asks for them (Blob.slice for a
// Blob or File, a view for bytes in memory). Every number in the header is checked against the
// file before anything is returned; a bad file is an Error naming the file and what is wrong.
// Pure code: no DOM, so it runs in workers and in Node.
import { BYTES_KINDS, blobSize, isBlob, isBytesInMemory, ownBytes } from './own-bytes.js';
import { isPlainObject } from './snapshot.js';
import { checkOptions, describe } from './validate.js';

/**
 * The largest header read, 16 MiB (the reference reader allows 100 MB): the largest real headers
 * are far smaller (docs/api-boundary.md, "Checkpoints": about 150 bytes a tensor, a few hundred
 * KB for the largest shards), and parsing 100 MB of JSON takes half a minute and gigabytes.
 */
export const MAX_CHECKPOINT_HEADER_BYTES = 16 * 1024 * 1024;
/** The most tensors one file's header may list (real shards list at most a few thousand). */
export const MAX_CHECKPOINT_TENSORS = 65_536;
/** The most dimensions a tensor's shape may have. */
export const MAX_CHECKPOINT_RANK = 64;

/** Each safetensors dtype this reader converts: bytes per element and the array it reads into. */
export const CHECKPOINT_DTYPES = Object.freeze({
  F64: { size: 8, ArrayType: Float64Array },
  F32: { size: 4, ArrayType: Float32Array },
  F16: { size: 2, ArrayType: Float32Array },
  BF16: { size: 2, ArrayType: Float32Array },
  I64: { size: 8, ArrayType: BigInt64Array },
  I32: { size: 4, ArrayType: Int32Array },
  I16: { size: 2, ArrayType: Int16Array },
  I8: { size: 1, ArrayType: Int8Array },
  U64: { size: 8, ArrayType: BigUint64Array },
  U32: { size: 4, ArrayType: Uint32Array },
  U16: { size: 2, ArrayType: Uint16Array },
  U8: { size: 1, ArrayType: Uint8Array },
  BOOL: { size: 1, ArrayType: Uint8Array },
});

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

/** The error a bad file gets: its name, then what is wrong. */
export class CheckpointError extends Error {
  constructor(file, what) {
    super(`${file}: ${what}`);
    this.name = 'CheckpointError';
    this.file = file;
  }
}

// One file as byte ranges: { name, size, read(begin, end) → Promise<Uint8Array> }.
function byteSource(where, value, index, fallbackName) {
  const at = index === null ? 'source' : `source[${index}]`;
  if (isBlob(value)) {
    const name = typeof value.name === 'string' && value.name ? value.name : fallbackName;
    return {
      name,
      size: blobSize(where, at, value),
      read: async (begin, end) => new Uint8Array(await value.slice(begin, end).arrayBuffer()),
    };
  }
  if (isBytesInMemory(value)) {
    // Exactly the caller's bytes, copied once (own-bytes.js): a Buffer's pool is never read.
    const bytes = ownBytes(where, at, value);
    return { name: fallbackName, size: bytes.length, read: async (begin, end) => bytes.subarray(begin, end) };
  }
  throw new TypeError(`${where}: ${at} must be ${BYTES_KINDS}, got ${describe(value)}`);
}

const isOffset = (value) => Number.isSafeInteger(value) && value >= 0;
// A value in a message, at most 80 characters of its JSON.
const shortJson = (value) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
};

// One tensor's header entry, checked: { name, dtype, shape, begin, end } (offsets in the data).
function checkEntry(file, name, entry, dataBytes) {
  const bad = (what) => {
    throw new CheckpointError(file, `tensor "${name}" ${what}`);
  };
  if (!isPlainObject(entry)) bad(`is ${describe(entry)}, not an object { dtype, shape, data_offsets }`);
  const { dtype, shape } = entry;
  const offsets = entry.data_offsets;
  if (typeof dtype !== 'string') bad(`has no "dtype" string`);
  if (!own(CHECKPOINT_DTYPES, dtype))
    bad(`has dtype ${JSON.stringify(dtype)}, not one this reader knows (${Object.keys(CHECKPOINT_DTYPES).join(', ')})`);
  if (Array.isArray(shape) && shape.length > MAX_CHECKPOINT_RANK)
    bad(`has a shape of ${shape.length} dimensions; this reader takes at most ${MAX_CHECKPOINT_RANK}`);
  if (!Array.isArray(shape) || !shape.every((n) => Number.isSafeInteger(n) && n >= 0))
    bad(`has shape ${shortJson(shape)}; a shape is a list of whole numbers ≥ 0`);
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isOffset))
    bad(`has data_offsets ${shortJson(offsets)}; expected [begin, end], whole numbers ≥ 0`);
  const [begin, end] = offsets;
  if (end < begin) bad(`ends (${end}) before it begins (${begin})`);
  if (end > dataBytes)
    bad(`is out of range: its bytes ${begin}…${end} pass the end of the data (${dataBytes} bytes after the header)`);
  let count = 1n;
  for (const n of shape) count *= BigInt(n);
  const expected = count * BigInt(CHECKPOINT_DTYPES[dtype].size);
  if (expected !== BigInt(end - begin))
    bad(
      `has shape [${shape.join(', ')}] of ${dtype} (${expected} bytes) but data_offsets [${begin}, ${end}] hold ${end - begin} bytes`,
    );
  return { name, dtype, shape: [...shape], begin, end };
}

/** The checked header of one safetensors file: { entries (file order), metadata, dataStart }. */
export function parseCheckpointHeader(file, headerBytes, fileSize) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(headerBytes);
  } catch {
    throw new CheckpointError(file, 'the header is not UTF-8 text');
  }
  let header;
  try {
    header = JSON.parse(text);
  } catch (error) {
    throw new CheckpointError(file, `the header is not JSON (${error.message})`);
  }
  if (!isPlainObject(header))
    throw new CheckpointError(file, `the header is ${describe(header)}, not a JSON object of tensors`);
  const names = Object.keys(header);
  if (names.length > MAX_CHECKPOINT_TENSORS + 1)
    throw new CheckpointError(
      file,
      `the header lists ${names.length} entries; this reader takes at most ${MAX_CHECKPOINT_TENSORS} tensors a file`,
    );
  const duplicate = duplicateTopLevelKey(text, names.length);
  if (duplicate !== null)
    throw new CheckpointError(file, `the header names tensor ${shortJson(duplicate)} twice; each name may appear once`);
  const dataBytes = fileSize - 8 - headerBytes.length;
  let metadata = null;
  const entries = [];
  for (const name of names) {
    if (name === '__metadata__') {
      metadata = header[name];
      if (!isPlainObject(metadata))
        throw new CheckpointError(file, `"__metadata__" is ${describe(metadata)}, not an object of strings`);
      for (const key of Object.keys(metadata))
        if (typeof metadata[key] !== 'string')
          throw new CheckpointError(file, `"__metadata__"."${key}" is ${describe(metadata[key])}, not a string`);
      continue;
    }
    entries.push(checkEntry(file, name, header[name], dataBytes));
  }
  // Tensors holding bytes, by where they begin: each must begin at or after the furthest end
  // of those before it (empty tensors hold no bytes and overlap nothing).
  const byBegin = entries.filter((e) => e.end > e.begin).sort((a, b) => a.begin - b.begin || a.end - b.end);
  let furthest = null;
  for (const b of byBegin) {
    if (furthest && b.begin < furthest.end)
      throw new CheckpointError(
        file,
        `tensors "${furthest.name}" (bytes ${furthest.begin}…${furthest.end}) and "${b.name}" (${b.begin}…${b.end}) overlap`,
      );
    if (!furthest || b.end > furthest.end) furthest = b;
  }
  return { entries, metadata, dataStart: 8 + headerBytes.length };
}

const JSON_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * A name the JSON object `text` (whose JSON.parse has `distinct` keys) gives twice at its top
 * level, or null: JSON.parse keeps the last silently. One pass over the text.
 */
export function duplicateTopLevelKey(text, distinct) {
  let depth = 0;
  let count = 0;
  let start = -1;
  const keys = [];
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (start >= 0) {
      if (c === 0x5c)
        i += 1; // a backslash: the next character is escaped
      else if (c === 0x22) {
        // A string ends: a key of the top-level object when a colon follows at depth 1.
        let j = i + 1;
        while (j < text.length && JSON_SPACE.has(text.charCodeAt(j))) j += 1;
        if (depth === 1 && text[j] === ':') {
          count += 1;
          keys.push([start, i + 1]);
        }
        start = -1;
      }
    } else if (c === 0x22) start = i;
    else if (c === 0x7b || c === 0x5b) depth += 1;
    else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  if (count === distinct) return null;
  const seen = new Set();
  for (const [from, to] of keys) {
    const key = JSON.parse(text.slice(from, to));
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return null;
}

async function openOne(source) {
  const file = source.name;
  if (source.size < 8)
    throw new CheckpointError(file, `is ${source.size} bytes: too short for a safetensors file (8-byte header length)`);
  const lengthBytes = await source.read(0, 8);
  const length = new DataView(lengthBytes.buffer, lengthBytes.byteOffset, 8).getBigUint64(0, true);
  if (length > BigInt(MAX_CHECKPOINT_HEADER_BYTES))
    throw new CheckpointError(
      file,
      `the header length is ${length} bytes, over the ${MAX_CHECKPOINT_HEADER_BYTES} (16 MiB) this reader takes (real headers are a few hundred KB at most; is this a safetensors file?)`,
    );
  if (8n + length > BigInt(source.size))
    throw new CheckpointError(
      file,
      `the header length (${length} bytes) runs past the end of the file (${source.size} bytes): the file is cut short or not safetensors`,
    );
  const headerBytes = await source.read(8, 8 + Number(length));
  const { entries, metadata, dataStart } = parseCheckpointHeader(file, headerBytes, source.size);
  return { source, entries, metadata, dataStart };
}

// A tensor's bytes → its values (F16 and BF16 widened exactly to float32; little-endian data).
export function decodeTensor(dtype, bytes) {
  const { size, ArrayType } = CHECKPOINT_DTYPES[dtype];
  const count = bytes.length / size;
  if (dtype === 'F16' || dtype === 'BF16') {
    const out = new Float32Array(count);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    if (dtype === 'BF16') {
      const bits = new Uint32Array(out.buffer);
      for (let i = 0; i < count; i += 1) bits[i] = view.getUint16(i * 2, true) << 16;
    } else {
      for (let i = 0; i < count; i += 1) out[i] = halfToNumber(view.getUint16(i * 2, true));
    }
    return out;
  }
  // Exactly these bytes, aligned, in a buffer of their own (Uint8Array's slice: a Buffer's is a view).
  const copy = Uint8Array.prototype.slice.call(bytes);
  if (LITTLE_ENDIAN || size === 1) return new ArrayType(copy.buffer, 0, count);
  const view = new DataView(copy.buffer);
  const getter = {
    F64: 'getFloat64',
    F32: 'getFloat32',
    I64: 'getBigInt64',
    I32: 'getInt32',
    I16: 'getInt16',
    U64: 'getBigUint64',
    U32: 'getUint32',
    U16: 'getUint16',
  }[dtype];
  return ArrayType.from({ length: count }, (_, i) => view[getter](i * size, true));
}

/** IEEE 754 binary16 bits → the number they hold (exact: every half is a float32). */
export function halfToNumber(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * (1024 + fraction) * 2 ** (exponent - 25);
}

// The index file's weight_map: tensor name → shard file name.
function parseIndex(file, text) {
  let index;
  try {
    index = JSON.parse(text);
  } catch (error) {
    throw new CheckpointError(file, `is not JSON (${error.message})`);
  }
  if (isPlainObject(index) && !('weight_map' in index) && ('model_type' in index || 'architectures' in index))
    throw new CheckpointError(
      file,
      "is a model's configuration, not a safetensors index: give it to checkpointPositions(checkpoint, { config }), parsed, and only the weights to openCheckpoint",
    );
  if (!isPlainObject(index) || !isPlainObject(index.weight_map))
    throw new CheckpointError(file, 'is not a safetensors index: it has no "weight_map" object');
  const weightMap = new Map();
  for (const tensor of Object.keys(index.weight_map)) {
    const shard = index.weight_map[tensor];
    if (typeof shard !== 'string' || !shard)
      throw new CheckpointError(file, `"weight_map"."${tensor}" is ${describe(shard)}, not a file name`);
    weightMap.set(tensor, shard);
  }
  return { weightMap, metadata: isPlainObject(index.metadata) ? index.metadata : null };
}

const baseName = (name) => name.replace(/^.*[\\/]/, '');
const looksLikeIndex = (name) => /\.json$/i.test(name);

/**
 * rp.openCheckpoint(source, { name }): a safetensors file, or an index (…safetensors.index.json)
 * and its shards (or several shards without one), as
 * { files, tensors: [{ name, dtype, shape, file }], metadata, has(name), read(name) }.
 * `source` is a Blob or File, a Uint8Array or ArrayBuffer, or an array of them; `name` names
 * bytes in memory in messages (a File's own name is used otherwise).
 */
export async function openCheckpoint(source, optionsGiven = {}) {
  const where = 'openCheckpoint';
  if (!isPlainObject(optionsGiven))
    throw new TypeError(`${where}: options must be an object, got ${describe(optionsGiven)}`);
  const options = checkOptions(where, 'options', optionsGiven, { name: undefined }); // each read once; no other
  if (options.name !== undefined && typeof options.name !== 'string')
    throw new TypeError(`${where}: options.name must be a string, got ${describe(options.name)}`);
  const list = Array.isArray(source) ? source : [source];
  if (list.length === 0) throw new RangeError(`${where}: source is an empty array; give at least one file`);
  const fallback = options.name ?? 'the checkpoint';
  const sources = list.map((value, i) =>
    byteSource(where, value, Array.isArray(source) ? i : null, list.length > 1 ? `${fallback} [${i}]` : fallback),
  );
  const indexSources = sources.filter((s) => looksLikeIndex(s.name));
  if (indexSources.length > 1)
    throw new CheckpointError(
      indexSources[1].name,
      `is a second index (${indexSources[0].name} is the first); give one`,
    );
  const shardSources = sources.filter((s) => !looksLikeIndex(s.name));
  if (shardSources.length === 0)
    throw new CheckpointError(indexSources[0].name, 'is an index, but none of the shards it lists was given with it');
  let index = null;
  if (indexSources.length === 1) {
    const s = indexSources[0];
    if (s.size > MAX_CHECKPOINT_HEADER_BYTES)
      throw new CheckpointError(s.name, `is ${s.size} bytes, over the 16 MiB an index file may be`);
    index = { file: s.name, ...parseIndex(s.name, new TextDecoder().decode(await s.read(0, s.size))) };
    const given = new Set(shardSources.map((s2) => baseName(s2.name)));
    const missing = [...new Set(index.weightMap.values())].filter((shard) => !given.has(baseName(shard)));
    if (missing.length)
      throw new CheckpointError(
        s.name,
        `lists ${missing.length === 1 ? 'a shard' : 'shards'} not given with it: ${missing.join(', ')}`,
      );
  }
  const opened = [];
  for (const s of shardSources) opened.push(await openOne(s));
  const byName = new Map();
  for (const one of opened) {
    for (const entry of one.entries) {
      const earlier = byName.get(entry.name);
      if (earlier)
        throw new CheckpointError(
          one.source.name,
          `tensor "${entry.name}" is also in ${earlier.one.source.name}; a tensor may be in one shard only`,
        );
      byName.set(entry.name, { entry, one });
    }
  }
  if (index) {
    for (const [tensor, shard] of index.weightMap) {
      const found = byName.get(tensor);
      if (!found || baseName(found.one.source.name) !== baseName(shard))
        throw new CheckpointError(
          index.file,
          `says tensor "${tensor}" is in ${shard}, but ${found ? `it is in ${found.one.source.name}` : 'no shard given holds it'}`,
        );
    }
  }
  const tensors = [...byName.values()].map(({ entry, one }) => ({
    name: entry.name,
    dtype: entry.dtype,
    shape: [...entry.shape],
    file: one.source.name,
  }));
  const metadata = index ? index.metadata : opened.length === 1 ? opened[0].metadata : null;
  return Object.freeze({
    files: [...(index ? [index.file] : []), ...opened.map((o) => o.source.name)],
    tensors,
    metadata,
    has: (name) => typeof name === 'string' && byName.has(name),
    async read(name) {
      if (typeof name !== 'string')
        throw new TypeError(`checkpoint.read: name must be a tensor's name (a string), got ${describe(name)}`);
      const found = byName.get(name);
      if (!found)
        throw new RangeError(`checkpoint.read: no tensor named ${JSON.stringify(name)} in ${fileList(opened)}`);
      const { entry, one } = found;
      const start = one.dataStart + entry.begin;
      const bytes = await one.source.read(start, one.dataStart + entry.end);
      if (bytes.length !== entry.end - entry.begin)
        throw new CheckpointError(one.source.name, `tensor "${name}" could not be read whole (the file changed?)`);
      return { name, dtype: entry.dtype, shape: [...entry.shape], data: decodeTensor(entry.dtype, bytes) };
    },
  });
}

const fileList = (opened) => opened.map((o) => o.source.name).join(', ');
