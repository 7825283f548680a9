// Property-based fuzzing of the corpus pipeline (fast-check), both ways a corpus comes to be:
// - a file, as the training worker reads it: gzip (of a mutated corpus, of random bytes, or a
//   small file that expands far past the bound) → gunzipBounded → decodeCorpus →
//   corpusShortfall → a training session that takes a step and measures its held-out loss.
//   Oracle: the file is refused with a message (an error from the gunzip bound, the decoder or
//   the shortfall), or the session trains with a finite loss.
// - text, as `npx relpos-wasm corpus` reads it (corpusOfTexts, with the real tagger): random
//   words, digits, punctuation, very long tokens, no sentence ends, blank lines. Oracle: an Error
//   naming the file, or a corpus with no shortfall that round-trips through the file format
//   and trains a step.
// Run bounded by tests/js/corpus-pipeline-fuzz.test.js, for longer by `npm run fuzz:js`.
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import nlp from 'compromise';
import { createRelPos } from '../../../web/api/index.js';
import { corpusOfTexts } from '../../../bin/relpos-wasm.js';
import { corpusShortfall, decodeCorpus, encodeCorpus } from '../../../web/train/corpus-format.js';
import { gunzipBounded } from '../../../web/train/read-gzip.js';
import { TrainSession } from '../../../web/train/train-session.js';

const BOUND = 64 * 1024; // a small bound, so that expanding past it costs little here

// A small well-formed corpus of `train` and `heldOut` tokens over a 40-word vocabulary.
function corpusOf(train, heldOut) {
  const words = ['<mask>', '<unk>', ...Array.from({ length: 40 }, (_, i) => `w${i}`)];
  const ids = (count, seed) => Int32Array.from({ length: count }, (_, i) => 2 + ((i * seed + 3) % 40));
  const starts = (count) => Int32Array.from({ length: Math.ceil(count / 12) }, (_, i) => i * 12);
  return {
    header: { source: 'fuzz', terms: 'fuzz', settings: {}, posNames: [], words },
    train: ids(train, 7),
    trainSentenceStarts: starts(train),
    heldOut: ids(heldOut, 11),
    heldOutPos: Uint8Array.from({ length: heldOut }, (_, i) => i % 9),
    heldOutSentenceStarts: starts(heldOut),
  };
}

const fileCase = fc.record({
  kind: fc.constantFrom('corpus', 'corpus', 'random', 'expanding'),
  train: fc.integer({ min: 0, max: 3000 }),
  heldOut: fc.integer({ min: 0, max: 600 }),
  flips: fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }) },
  ),
  cut: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat() }),
  random: fc.uint8Array({ maxLength: 200 }),
  task: fc.constantFrom('masked', 'next'),
});

const word = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('the', 'cat', 'sat', 'on', 'a', 'mat', 'dogs', 'ran', 'past', 'houses') },
  { weight: 2, arbitrary: fc.constantFrom('1,', '22;', '333.', '(4)', '5!', '?', '—', '…', '"', 'é', '猫') },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 6 }) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 3000 }).map((n) => 'z'.repeat(n)) },
);
const separator = fc.oneof(
  { weight: 20, arbitrary: fc.constant(' ') },
  { weight: 2, arbitrary: fc.constantFrom('. ', '\n', '\n\n', ', ') },
);
const textCase = fc.record({
  words: fc.array(fc.tuple(word, separator), { minLength: 1500, maxLength: 3500 }),
});

/** The file property: bytes as the training worker reads them. */
export function corpusFileProperty(env) {
  return fc.asyncProperty(fileCase, async (c) => {
    env.counts.files += 1;
    let gz;
    if (c.kind === 'random') gz = gzipSync(c.random);
    else if (c.kind === 'expanding') gz = gzipSync(new Uint8Array(BOUND + 1 + c.train));
    else {
      const bytes = encodeCorpus(corpusOf(c.train, c.heldOut));
      for (const [at, value] of c.flips) bytes[at % bytes.length] = value;
      gz = gzipSync(c.cut === null ? bytes : bytes.subarray(0, c.cut % (bytes.length + 1)));
    }
    let corpus;
    try {
      const expanded = await gunzipBounded(new Blob([gz]).stream(), BOUND);
      corpus = decodeCorpus(expanded);
    } catch (error) {
      if (c.kind === 'expanding' && !/expands past/.test(error.message))
        throw new Error(`an expanding file was not stopped at the bound: ${error.message}`, { cause: error });
      if (!(error instanceof RangeError) || !/^(decodeCorpus: |it expands past )/.test(error.message))
        throw new Error(`an unclear refusal: ${error.constructor.name}: ${error.message}`, { cause: error });
      env.counts.refusedFiles += 1;
      return;
    }
    if (c.kind === 'expanding') throw new Error('a file expanding past the bound was read');
    if (corpusShortfall(corpus)) {
      env.counts.refusedFiles += 1;
      return;
    }
    trainOneStep(env, corpus, c.task);
    env.counts.trainedFiles += 1;
  });
}

/** The text property: text as `npx relpos-wasm corpus` reads it. */
export function corpusTextProperty(env) {
  return fc.property(textCase, (c) => {
    env.counts.texts += 1;
    const text = c.words.map(([w, s]) => w + s).join('');
    let corpus;
    try {
      corpus = corpusOfTexts(nlp, [{ name: 'fuzzed.txt', text }], '14.17.0');
    } catch (error) {
      if (!error.message.startsWith('fuzzed.txt: '))
        throw new Error(`an unclear refusal: ${error.message}`, { cause: error });
      env.counts.refusedTexts += 1;
      return;
    }
    if (corpusShortfall(corpus)) throw new Error(`a corpus was written with ${corpusShortfall(corpus)}`);
    const read = decodeCorpus(encodeCorpus(corpus));
    trainOneStep(env, read, 'masked');
    env.counts.trainedTexts += 1;
  });
}

function trainOneStep(env, corpus, task) {
  const session = new TrainSession(env.rp, corpus, { task, preset: 'tiny', seed: 1 });
  try {
    session.step();
    const { loss } = session.heldOut();
    if (!Number.isFinite(loss)) throw new Error(`the held-out loss is ${loss}`);
  } finally {
    session.dispose();
  }
}

/** Runs `files` corpus files and `texts` texts (seed: fast-check's, or `seed`); returns the counts. */
export async function fuzzCorpusPipeline({ files, texts, seed } = {}) {
  const env = {
    rp: await createRelPos(),
    counts: { files: 0, refusedFiles: 0, trainedFiles: 0, texts: 0, refusedTexts: 0, trainedTexts: 0 },
  };
  const options = seed === undefined ? {} : { seed };
  try {
    await fc.assert(corpusFileProperty(env), { numRuns: files, ...options });
    fc.assert(corpusTextProperty(env), { numRuns: texts, ...options });
  } finally {
    env.rp.dispose();
  }
  return env.counts;
}
