// Property-based fuzzing of the file readers (fast-check): .npy, .npz and JSON model files
// (web/train/model-files.js, then sessionFromExport) and the corpus decoder
// (web/train/corpus-format.js). Inputs are valid files mutated (bytes overwritten, cut short,
// lengthened, headers rewritten with hostile shapes and versions) or random bytes. Every read
// must give a well-formed result or an Error whose message starts with the file's name (the
// corpus: "decodeCorpus: "); nothing else escapes, and a refused model leaves the instance's
// heap as it was. Run bounded by tests/js/model-files-fuzz.test.js, longer by `npm run fuzz:js`.
import fc from 'fast-check';
import { createRelPos } from '../../../web/api/index.js';
import { decodeCorpus, encodeCorpus } from '../../../web/train/corpus-format.js';
import { modelToNpz, npyBytes, parseNpy, readModelFile } from '../../../web/train/model-files.js';
import { TrainSession, sessionFromExport } from '../../../web/train/train-session.js';

const edits = fc.array(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }), { maxLength: 6 });
const mutation = fc.record({
  edits,
  cut: fc.option(fc.nat(), { freq: 3 }),
  append: fc.option(fc.uint8Array({ maxLength: 64 }), { freq: 5 }),
});

function mutate(bytes, { edits: changes, cut, append }) {
  let out = bytes.slice();
  for (const { at, value } of changes) if (out.length) out[at % out.length] = value;
  if (cut !== null && out.length) out = out.subarray(0, cut % out.length);
  if (append !== null) {
    const longer = new Uint8Array(out.length + append.length);
    longer.set(out);
    longer.set(append, out.length);
    out = longer;
  }
  return out;
}

const side = fc.oneof(
  fc.integer({ min: 0, max: 8 }).map(String),
  fc.constantFrom('-1', '2.5', '1e3', '0x10', '99999999999', '4294967296', 'None', ''),
);
const hostileNpy = fc.record({
  major: fc.constantFrom(1, 1, 2, 3, 0, 4),
  descr: fc.constantFrom('<f4', '<f8', '>f4', '|u1', '<i4'),
  fortran: fc.boolean(),
  sides: fc.array(side, { maxLength: 4 }),
  pad: fc.constantFrom(0, 10, 1000, 70000),
  dataBytes: fc.nat({ max: 256 }),
  declared: fc.option(fc.nat({ max: 2 ** 32 - 1 }), { freq: 4 }),
});

function npyFrom({ major, descr, fortran, sides, pad, dataBytes, declared }) {
  const header = `{'descr': '${descr}', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': (${sides.join(', ')}${sides.length === 1 ? ',' : ''}), }${' '.repeat(pad)}\n`;
  const text = new TextEncoder().encode(header);
  const start = major === 1 ? 10 : 12;
  const out = new Uint8Array(start + text.length + dataBytes);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, major, 0]);
  const view = new DataView(out.buffer);
  const length = declared ?? text.length;
  if (major === 1) view.setUint16(8, length & 0xffff, true);
  else view.setUint32(8, length, true);
  out.set(text, start);
  return out;
}

const counts = () => ({ cases: 0, read: 0, refused: 0 });

function expectNamedError(error, prefix, what) {
  if (!(error instanceof Error) || !error.message.startsWith(prefix)) {
    throw new Error(
      `${what}: expected an Error starting "${prefix}", got ${error?.constructor?.name}: ${error?.message}`,
    );
  }
}

/** .npy: hostile headers and mutated valid arrays. */
export function npyProperty(tally) {
  const valid = npyBytes(
    [3, 4],
    Float32Array.from({ length: 12 }, (_, i) => i / 3),
  );
  const input = fc.oneof(
    hostileNpy.map(npyFrom),
    mutation.map((m) => mutate(valid, m)),
  );
  return fc.property(input, (bytes) => {
    tally.cases += 1;
    try {
      const { shape, data } = parseNpy(bytes, 'fuzz.npy');
      if (!Array.isArray(shape) || shape.some((s) => !Number.isSafeInteger(s) || s < 0)) throw new Error('bad shape');
      if (data.length !== shape.reduce((a, b) => a * b, 1)) throw new Error('data does not match the shape');
      if (data.length * 4 > bytes.length * 4) throw new Error('more numbers than bytes');
      tally.read += 1;
    } catch (error) {
      expectNamedError(error, 'fuzz.npy ', 'parseNpy');
      tally.refused += 1;
    }
  });
}

/** .npz and JSON models: mutated saved models, through readModelFile and sessionFromExport. */
export async function modelFileProperty(tally) {
  const rp = await createRelPos();
  const session = new TrainSession(rp, null, { task: 'copy', preset: 'tiny' });
  const exported = session.exportModel();
  session.dispose();
  const npz = modelToNpz(exported);
  const json = new TextEncoder().encode(JSON.stringify(exported));
  // Mutations of the JSON text that keep it JSON: a field replaced by a hostile value.
  const hostileValue = fc.oneof(
    fc.constantFrom('toString', '__proto__', 'constructor', 'copy', 'tiny', 1e308, -1, 0.5, null, [], {}, 2 ** 32),
    fc.jsonValue({ maxDepth: 2 }),
  );
  const jsonEdit = fc
    .record({
      key: fc.constantFrom('task', 'preset', 'seed', 'steps', 'format', 'version', 'parameters'),
      value: hostileValue,
    })
    .map(({ key, value }) => new TextEncoder().encode(JSON.stringify({ ...exported, [key]: value })));
  const input = fc.oneof(
    mutation.map((m) => mutate(npz, m)),
    mutation.map((m) => mutate(json, m)),
    jsonEdit,
    fc.uint8Array({ maxLength: 200 }),
  );
  const property = fc.property(input, (bytes) => {
    tally.cases += 1;
    const heap = rp.memory().heapInUseBytes;
    let data;
    try {
      data = readModelFile(bytes, 'fuzz.model');
    } catch (error) {
      expectNamedError(error, 'fuzz.model', 'readModelFile');
      tally.refused += 1;
      return;
    }
    try {
      const loaded = sessionFromExport(rp, null, data);
      loaded.dispose();
      tally.read += 1;
    } catch (error) {
      expectNamedError(error, 'This is not a model saved by this page: ', 'sessionFromExport');
      tally.refused += 1;
    }
    if (rp.memory().heapInUseBytes !== heap) throw new Error('a model file left memory in use');
  });
  return property;
}

/** The corpus decoder: mutated corpora and random bytes. */
export function corpusProperty(tally) {
  const corpus = {
    header: { source: 'fuzz', terms: '', settings: {}, posNames: [], words: ['<mask>', '<unk>', 'a', 'b', 'c', 'd'] },
    train: [2, 3, 4, 5, 2, 3, 1, 0, 5],
    trainSentenceStarts: [0, 4],
    heldOut: [2, 5, 3, 300 % 6],
    heldOutPos: [0, 1, 2, 8],
    heldOutSentenceStarts: [0],
  };
  const valid = encodeCorpus(corpus);
  const input = fc.oneof(
    mutation.map((m) => mutate(valid, m)),
    fc.uint8Array({ maxLength: 120 }),
  );
  return fc.property(input, (bytes) => {
    tally.cases += 1;
    try {
      const back = decodeCorpus(bytes);
      const vocab = back.header.words.length;
      if (back.train.some((id) => id < 0 || id >= vocab) || back.heldOut.some((id) => id < 0 || id >= vocab)) {
        throw new Error('an id outside the vocabulary was accepted');
      }
      if (back.heldOutPos.length !== back.heldOut.length) throw new Error('parts of speech do not match the tokens');
      tally.read += 1;
    } catch (error) {
      expectNamedError(error, 'decodeCorpus: ', 'decodeCorpus');
      tally.refused += 1;
    }
  });
}

/** Runs each file fuzzer `numRuns` times; returns the counts of each. */
export async function fuzzFiles({ numRuns, seed } = {}) {
  const options = { numRuns, ...(seed === undefined ? {} : { seed }) };
  const result = { npy: counts(), model: counts(), corpus: counts() };
  fc.assert(npyProperty(result.npy), options);
  fc.assert(await modelFileProperty(result.model), options);
  fc.assert(corpusProperty(result.corpus), options);
  return result;
}
