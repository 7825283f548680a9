// Crafted model files (.npz, .npy, JSON) against the training section's readers: each is
// refused with a message naming the file and what is wrong, before anything large is
// allocated, and nothing is made (docs/api-boundary.md).
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import {
  MAX_NPZ_ENTRIES,
  modelToNpz,
  npyBytes,
  parseNpy,
  modelFileTooLarge,
  readModelFile,
  zipStored,
} from '../../web/train/model-files.js';
import { TrainSession, sessionFromExport } from '../../web/train/train-session.js';

let rp;
let good; // an exported copy-offset model (no corpus needed)

beforeAll(async () => {
  rp = await createRelPos();
  const session = new TrainSession(rp, null, { task: 'copy', preset: 'tiny' });
  good = session.exportModel();
  session.dispose();
});

const load = (bytes, name) => sessionFromExport(rp, null, readModelFile(bytes, name));
const json = (change) => {
  const copy = JSON.parse(JSON.stringify(good));
  change(copy);
  return new TextEncoder().encode(JSON.stringify(copy));
};

// A zip of one stored file whose central directory lists it `copies` times, under names
// `name(i)` (all of the first one's length), every entry pointing at the same bytes.
function zipPointingOnce(file, copies, name) {
  const zip = zipStored([file]);
  const view = new DataView(zip.buffer);
  const end = zip.length - 22;
  const centralAt = view.getUint32(end + 16, true);
  const entry = zip.slice(centralAt, end);
  const out = new Uint8Array(centralAt + copies * entry.length + 22);
  out.set(zip.subarray(0, centralAt));
  for (let i = 0; i < copies; i += 1) {
    const copy = entry.slice();
    copy.set(new TextEncoder().encode(name(i)), 46);
    out.set(copy, centralAt + i * entry.length);
  }
  const tail = new DataView(out.buffer, out.length - 22);
  tail.setUint32(0, 0x06054b50, true);
  tail.setUint16(8, copies, true);
  tail.setUint16(10, copies, true);
  tail.setUint32(12, copies * entry.length, true);
  tail.setUint32(16, centralAt, true);
  return out;
}

function npyWithHeader(header, major = 1, data = new Uint8Array(0)) {
  const text = new TextEncoder().encode(header);
  const start = major === 1 ? 10 : 12;
  const out = new Uint8Array(start + text.length + data.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, major, 0]);
  const view = new DataView(out.buffer);
  if (major === 1) view.setUint16(8, text.length, true);
  else view.setUint32(8, text.length, true);
  out.set(text, start);
  out.set(data, start + text.length);
  return out;
}

describe('.npz archives', () => {
  test(`65,535 directory entries pointing at one 1 MiB .npy are refused before any is parsed`, () => {
    const npy = npyBytes([256, 1024], new Float32Array(256 * 1024));
    const bytes = zipPointingOnce(
      { name: 'p00000.npy', bytes: npy },
      65535,
      (i) => `p${String(i).padStart(5, '0')}.npy`,
    );
    expect(() => readModelFile(bytes, 'bomb.npz')).toThrow(
      new RegExp(
        `^bomb\\.npz is not a \\.npz saved by this page: it has 65535 entries \\(at most ${MAX_NPZ_ENTRIES}\\)\\.$`,
      ),
    );
  });

  test('entries that share their bytes, or a name, are refused', () => {
    const npy = npyBytes([256, 1024], new Float32Array(256 * 1024));
    const shared = zipPointingOnce({ name: 'p000.npy', bytes: npy }, 200, (i) => `p${String(i).padStart(3, '0')}.npy`);
    expect(() => readModelFile(shared, 'shared.npz')).toThrow(
      /^shared\.npz is not a \.npz saved by this page: "p\d{3}\.npy" overlaps "p\d{3}\.npy"\.$/,
    );
    const twice = zipPointingOnce({ name: 'embedding.npy', bytes: npy }, 2, () => 'embedding.npy');
    expect(() => readModelFile(twice, 'twice.npz')).toThrow(
      /^twice\.npz is not a \.npz saved by this page: "embedding\.npy" appears twice\.$/,
    );
  });

  test('only the expected parameters are parsed, with the expected shapes, before their numbers are read', () => {
    const export_ = {
      ...good,
      parameters: { ...good.parameters, huge: { shape: [1024, 1024], data: new Float32Array(1 << 20) } },
    };
    expect(() => load(modelToNpz(export_), 'extra.npz')).toThrow(/unknown parameter "huge"/);
    const wrongShape = {
      ...good,
      parameters: { ...good.parameters, embedding: { shape: [2, 3], data: new Float32Array(6) } },
    };
    expect(() => load(modelToNpz(wrongShape), 'shape.npz')).toThrow(
      /parameter "embedding" has shape \[2,3\], expected \[16,32\]/,
    );
  });

  test('a "__proto__.npy" entry is an unknown parameter, not ignored', () => {
    const files = [
      ...zipEntries(modelToNpz(good)),
      { name: '__proto__.npy', bytes: npyBytes([1], new Float32Array(1)) },
    ];
    expect(() => load(zipStored(files), 'proto.npz')).toThrow(/unknown parameter "__proto__"/);
  });

  test('a good .npz still loads, and loads the same numbers', () => {
    const session = load(modelToNpz(good), 'good.npz');
    const back = session.exportModel();
    for (const [name, { data }] of Object.entries(good.parameters))
      expect(Array.from(back.parameters[name].data), name).toEqual(Array.from(data));
    session.dispose();
  });
});

// A .npz's files as [{ name, bytes }], in order (it was written by zipStored).
function zipEntries(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const files = [];
  let at = 0;
  while (view.getUint32(at, true) === 0x04034b50) {
    const size = view.getUint32(at + 18, true);
    const nameLength = view.getUint16(at + 26, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 30, at + 30 + nameLength));
    files.push({ name, bytes: bytes.slice(at + 30 + nameLength, at + 30 + nameLength + size) });
    at += 30 + nameLength + size;
  }
  return files;
}

describe('.npy headers', () => {
  const header = (shape) => `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape}), }\n`;
  test('a negative or fractional side, and a 300 KB v2 header, name the file', () => {
    expect(() => parseNpy(npyWithHeader(header('-1, 4')), 'm.npz: embedding.npy')).toThrow(
      /^m\.npz: embedding\.npy is not a \.npy array this page reads: its shape \(-1, 4\) must list whole numbers ≥ 0, got "-1"$/,
    );
    expect(() => parseNpy(npyWithHeader(header('2.5,')), 'm.npz: embedding.npy')).toThrow(
      /^m\.npz: embedding\.npy is not a \.npy array this page reads: its shape \(2\.5,\) must list whole numbers ≥ 0, got "2\.5"$/,
    );
    const long = `${header('4,').slice(0, -1)}${' '.repeat(300000)}\n`;
    expect(() => parseNpy(npyWithHeader(long, 2), 'm.npz: embedding.npy')).toThrow(
      /^m\.npz: embedding\.npy is not a \.npy array this page reads: its header is 300\d+ bytes \(at most 65536\)$/,
    );
    expect(() => parseNpy(npyWithHeader(header('100000, 100000')), 'big.npy')).toThrow(
      /^big\.npy .*the data is cut short/,
    );
  });
});

describe('JSON models', () => {
  test('task and size names are own properties only', () => {
    for (const task of ['toString', '__proto__', 'constructor']) {
      expect(() =>
        load(
          json((m) => (m.task = task)),
          'm.json',
        ),
      ).toThrow(new RegExp(`unknown task "${task}"`));
    }
    expect(() =>
      load(
        json((m) => (m.preset = 'hasOwnProperty')),
        'm.json',
      ),
    ).toThrow(/unknown model size "hasOwnProperty"/);
  });

  test('a "__proto__" parameter key is an unknown parameter', () => {
    const text = new TextDecoder()
      .decode(json(() => {}))
      .replace('"parameters":{', '"parameters":{"__proto__":{"shape":[1],"data":[0]},');
    expect(() => load(new TextEncoder().encode(text), 'm.json')).toThrow(/unknown parameter "__proto__"/);
  });

  test('steps and seed are bounded', () => {
    expect(() =>
      load(
        json((m) => (m.steps = 1e308)),
        'm.json',
      ),
    ).toThrow(/"steps" must be an integer from 0 to 2147483647, got 1e\+308/);
    expect(() =>
      load(
        json((m) => (m.seed = 1e308)),
        'm.json',
      ),
    ).toThrow(/"seed" must be an integer from 0 to 4294967295/);
  });

  test('a file over 64 MiB is refused unread', () => {
    expect(() => readModelFile(new Uint8Array(65 * 2 ** 20), 'big.json')).toThrow(
      /^big\.json is 65\.0 MiB; a model saved by this page is at most 64 MiB\.$/,
    );
    // A file's size is written as every size the package writes (formatBytes): 3 GiB, not 3072.0 MiB.
    expect(modelFileTooLarge('huge.npz', 3 * 2 ** 30)).toBe(
      'huge.npz is 3.00 GiB; a model saved by this page is at most 64 MiB.',
    );
  });
});
