// A trained model as files: JSON (train-session.js's exportModel, as it is) and NumPy's .npz, a
// zip (stored, uncompressed) of one .npy per parameter (float32, C order; `np.load(file)[name]`)
// plus model.json, the export without the numbers. Both read back into the export object;
// anything malformed is an Error whose message says what is wrong.
import { byteLengthOf, isBytesInMemory, ownBytes } from '../api/own-bytes.js';
import { formatBytes } from '../api/limits.js';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i += 1) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One float32 array as .npy (format 1.0). */
export function npyBytes(shape, data) {
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${dims}), }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const out = new Uint8Array(10 + header.length + data.length * 4);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 0xff, header.length >> 8]);
  for (let i = 0; i < header.length; i += 1) out[10 + i] = header.charCodeAt(i);
  const view = new DataView(out.buffer, 10 + header.length);
  for (let i = 0; i < data.length; i += 1) view.setFloat32(i * 4, data[i], true);
  return out;
}

/** The largest model file read (the largest preset's .npz is about 4 MiB, its JSON about 12). */
export const MAX_MODEL_FILE_BYTES = 64 * 2 ** 20;
/** The longest .npy header read (NumPy itself refuses more than 10,000 bytes by default). */
export const MAX_NPY_HEADER_BYTES = 65536;
/** The most entries a .npz may have (a model has one per parameter, a few dozen). */
export const MAX_NPZ_ENTRIES = 4096;

const latin1 = new TextDecoder('latin1');

/**
 * A .npy file's header: { shape, size (bytes per number), dataStart, count }, checked against
 * the bytes there are (little-endian float32 or float64, C order, whole-number sides); nothing
 * of the data is read.
 */
export function parseNpyHeader(bytes, name) {
  const fail = (what) => {
    throw new Error(`${name} is not a .npy array this page reads: ${what}`);
  };
  if (bytes.length < 10 || bytes[0] !== 0x93 || latin1.decode(bytes.subarray(1, 6)) !== 'NUMPY') fail('no .npy magic');
  const major = bytes[6];
  if (major !== 1 && major !== 2 && major !== 3) fail(`format version ${major} (expected 1, 2 or 3)`);
  if (major > 1 && bytes.length < 12) fail('its header is cut short');
  const headerLength =
    major === 1 ? bytes[8] | (bytes[9] << 8) : new DataView(bytes.buffer, bytes.byteOffset + 8, 4).getUint32(0, true);
  const start = major === 1 ? 10 : 12;
  if (headerLength > MAX_NPY_HEADER_BYTES)
    fail(`its header is ${headerLength} bytes (at most ${MAX_NPY_HEADER_BYTES})`);
  if (start + headerLength > bytes.length) fail('its header is cut short');
  const header = (major === 3 ? new TextDecoder() : latin1).decode(bytes.subarray(start, start + headerLength));
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  if (descr !== '<f4' && descr !== '<f8') fail(`dtype ${descr ?? '?'} (expected <f4 or <f8)`);
  if (/'fortran_order':\s*True/.test(header)) fail('Fortran order');
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  if (shapeText === undefined) fail('no shape');
  const sides = shapeText
    .split(',')
    .map((side) => side.trim())
    .filter(Boolean);
  if (sides.length > 32) fail(`its shape has ${sides.length} dimensions`);
  const shape = sides.map((side) => {
    if (!/^\d{1,10}$/.test(side))
      fail(`its shape (${shapeText.trim()}) must list whole numbers ≥ 0, got ${JSON.stringify(side.slice(0, 20))}`);
    return Number(side);
  });
  const count = shape.reduce((a, b) => a * b, 1);
  const size = descr === '<f4' ? 4 : 8;
  const dataStart = start + headerLength;
  if (!Number.isSafeInteger(count * size) || bytes.length - dataStart < count * size) {
    fail(
      `the data is cut short (shape (${shape.join(', ')}) needs ${count * size} bytes, the file has ${bytes.length - dataStart})`,
    );
  }
  return { shape, size, dataStart, count };
}

/** { shape, data: Float32Array } from .npy bytes (little-endian float32 or float64, C order). */
export function parseNpy(bytes, name) {
  const { shape, size, dataStart, count } = parseNpyHeader(bytes, name);
  const view = new DataView(bytes.buffer, bytes.byteOffset + dataStart, count * size);
  const data = new Float32Array(count);
  for (let i = 0; i < count; i += 1) data[i] = size === 4 ? view.getFloat32(i * 4, true) : view.getFloat64(i * 8, true);
  return { shape, data };
}

/** A zip archive of stored (uncompressed) files: [{ name, bytes }]. */
export function zipStored(files) {
  const encoder = new TextEncoder();
  const parts = [];
  const central = [];
  let offset = 0;
  for (const { name, bytes } of files) {
    const nameBytes = encoder.encode(name);
    const crc = crc32(bytes);
    const local = new Uint8Array(30 + nameBytes.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, bytes.length, true);
    lv.setUint32(22, bytes.length, true);
    lv.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    const entry = new Uint8Array(46 + nameBytes.length);
    const cv = new DataView(entry.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, bytes.length, true);
    cv.setUint32(24, bytes.length, true);
    cv.setUint16(28, nameBytes.length, true);
    cv.setUint32(42, offset, true);
    entry.set(nameBytes, 46);
    parts.push(local, bytes);
    central.push(entry);
    offset += local.length + bytes.length;
  }
  const centralSize = central.reduce((s, e) => s + e.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, files.length, true);
  ev.setUint16(10, files.length, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, offset, true);
  const out = new Uint8Array(offset + centralSize + 22);
  let at = 0;
  for (const p of [...parts, ...central, end]) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The stored files of a zip: Map name → bytes (views into `bytes`, nothing copied). Refused: a
 * compressed entry, more than MAX_NPZ_ENTRIES entries, a name given twice, entries whose bytes
 * overlap (one file's data counted twice), anything outside the file.
 */
export function unzipStored(bytes, name) {
  const fail = (what) => {
    throw new Error(`${name} is not a .npz saved by this page: ${what}.`);
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i -= 1) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) fail('it is not a zip archive');
  const count = view.getUint16(end + 10, true);
  if (count > MAX_NPZ_ENTRIES) fail(`it has ${count} entries (at most ${MAX_NPZ_ENTRIES})`);
  let at = view.getUint32(end + 16, true);
  const files = new Map();
  const spans = [];
  const decoder = new TextDecoder();
  for (let f = 0; f < count; f += 1) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) fail('its directory is damaged');
    const method = view.getUint16(at + 10, true);
    const stored = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    if (at + 46 + nameLength > bytes.length) fail('its directory is damaged');
    const entryName = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const shown = JSON.stringify(entryName.slice(0, 80));
    if (method !== 0) fail(`${shown} is compressed (save with np.savez, not savez_compressed)`);
    if (stored !== size) fail(`${shown} is stored with two different sizes`);
    if (files.has(entryName)) fail(`${shown} appears twice`);
    if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50)
      fail(`the entry of ${shown} is damaged`);
    const dataStart = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (dataStart + size > bytes.length) fail(`${shown} is cut short`);
    files.set(entryName, bytes.subarray(dataStart, dataStart + size));
    spans.push({ start: local, end: dataStart + size, name: shown });
    at += 46 + nameLength + extra + comment;
  }
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i += 1) {
    if (spans[i].start < spans[i - 1].end) fail(`${spans[i].name} overlaps ${spans[i - 1].name}`);
  }
  return files;
}

/** The export (exportModel()) as .npz bytes. */
export function modelToNpz(model) {
  const { parameters, ...meta } = model;
  const files = [{ name: 'model.json', bytes: new TextEncoder().encode(JSON.stringify(meta)) }];
  for (const [name, { shape, data }] of Object.entries(parameters))
    files.push({ name: `${name}.npy`, bytes: npyBytes(shape, data) });
  return zipStored(files);
}

/**
 * .npz bytes back to the export object. Its parameters are read lazily: each is { shape (from
 * its header, checked against the bytes there are), data (a Float32Array, parsed on first
 * read) }, so only the parameters a model expects, with the shapes it expects, are ever parsed
 * (sessionFromExport checks the names and shapes first). Kept in an object without a prototype:
 * a "__proto__.npy" is a parameter named "__proto__" like any other.
 */
export function modelFromNpz(bytes, name) {
  const files = unzipStored(bytes, name);
  const metaBytes = files.get('model.json');
  if (!metaBytes) throw new Error(`${name} is not a .npz saved by this page: it has no model.json.`);
  let meta;
  try {
    meta = JSON.parse(new TextDecoder().decode(metaBytes));
  } catch {
    throw new Error(`${name}: its model.json is not JSON.`);
  }
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {
    throw new Error(`${name}: its model.json is not a JSON object.`);
  }
  const parameters = Object.create(null);
  for (const [file, entry] of files) {
    if (!file.endsWith('.npy')) continue;
    const where = `${name}: ${file}`;
    const { shape } = parseNpyHeader(entry, where);
    let data = null;
    parameters[file.slice(0, -4)] = Object.freeze({
      shape,
      get data() {
        data ??= parseNpy(entry, where).data;
        return data;
      },
    });
  }
  return { ...meta, parameters };
}

/** Why a file of `bytes` bytes is not read as a model (over MAX_MODEL_FILE_BYTES), or null. */
export function modelFileTooLarge(name, bytes) {
  if (bytes <= MAX_MODEL_FILE_BYTES) return null;
  return `${name} is ${formatBytes(bytes)}; a model saved by this page is at most ${MAX_MODEL_FILE_BYTES / 2 ** 20} MiB.`;
}

/**
 * A saved model's bytes (a .npz: a zip, "PK"; otherwise JSON; a Buffer, a Uint8Array at any
 * offset or an ArrayBuffer: web/api/own-bytes.js) as the export object; `name` (the
 * file's) starts every message. Files over MAX_MODEL_FILE_BYTES are refused unread.
 */
export function readModelFile(given, name) {
  // The size first (a file too large is refused unread), then exactly its bytes, copied.
  const tooLarge = isBytesInMemory(given) && modelFileTooLarge(name, byteLengthOf(given));
  if (tooLarge) throw new Error(tooLarge);
  const bytes = ownBytes('readModelFile', name, given);
  if (bytes.length === 0) throw new Error(`${name} is empty.`);
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return modelFromNpz(bytes, name);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new Error(`${name} is not a model saved by this page: it is neither JSON nor .npz.`);
  }
}
