// The training corpus built from documents of sentences (docs/corpus.md): the vocabulary of the
// most frequent training words plus <mask> and <unk>, whole sentences sampled evenly over the
// documents, the coarse part of speech of every held-out token, ready for encodeCorpus
// (corpus-format.js). One implementation for the package's corpus (scripts/make-corpus.mjs) and
// for a corpus from the author's own text (`npx relpos-wasm corpus`, bin/relpos-wasm.js). Pure
// code: the tagger (compromise) is passed in.
import { POS_NAMES, coarsePosOfTags } from './corpus-format.js';

/** What the page ships (docs/corpus.md says why these sizes). */
export const CORPUS_SETTINGS = Object.freeze({
  vocabularyWords: 3000, // V most frequent training words; ids 2 … V + 1
  heldOutEvery: 10, // documents 0, 10, 20, … (of each genre, for Brown) are held out
  trainTokens: 135_000, // tokens of training text shipped (whole sentences, spread over documents)
  heldOutTokens: 16_000, // tokens of held-out text shipped (with their part of speech)
});

/** Punctuation kept as tokens (as the Brown Corpus keeps it); quotation marks are dropped. */
const PUNCTUATION = /[.,;:!?()]/g;

/**
 * compromise's sentences of one text as [{ word, pos }]: each term's normal form (lower case,
 * straight apostrophes) and the punctuation around it (PUNCTUATION) as tokens of their own; with
 * `tagged`, pos is the coarse part of speech of its tags (coarsePosOfTags), else undefined.
 */
export function sentencesOf(nlp, text, tagged) {
  const doc = tagged ? nlp(text) : nlp.tokenize(text);
  const sentences = [];
  for (const { terms } of doc.json({ terms: { normal: true } })) {
    const sentence = [];
    const pos = (term) => (tagged ? coarsePosOfTags(term.tags) : undefined);
    for (const term of terms) {
      for (const mark of term.pre.match(PUNCTUATION) ?? []) sentence.push({ word: mark, pos: 8 });
      if (term.text) sentence.push({ word: term.normal, pos: pos(term) });
      for (const mark of term.post.match(PUNCTUATION) ?? []) sentence.push({ word: mark, pos: 8 });
    }
    if (sentence.length > 0) sentences.push(sentence);
  }
  return sentences;
}

/**
 * Texts split into documents (`texts`: [{ name, text }], or [{ name, sentences }] with the text
 * already cut into sentences, each read on its own) the way the package's corpus is: every
 * heldOutEvery-th document held out and tagged, the others only tokenized. `reader` is compromise
 * (`nlp`: English, sentencesOf) or a function (text, tagged) → sentences of { word, pos } for
 * another language (japanese-sentences.js, spanish-sentences.js).
 * Returns { train, heldOut, heldOutNames } for buildCorpus.
 */
export function splitDocuments(reader, texts, settings = CORPUS_SETTINGS) {
  const train = [];
  const heldOut = [];
  const heldOutNames = [];
  const sentencesOfText =
    typeof reader.tokenize === 'function' ? (text, tagged) => sentencesOf(reader, text, tagged) : reader;
  const read = ({ text, sentences }, tagged) =>
    sentences ? sentences.flatMap((sentence) => sentencesOfText(sentence, tagged)) : sentencesOfText(text, tagged);
  texts.forEach((document, index) => {
    if (index % settings.heldOutEvery === 0) {
      heldOut.push(read(document, true));
      heldOutNames.push(document.name);
    } else {
      train.push(read(document, false));
    }
  });
  return { train, heldOut, heldOutNames };
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

function sentenceStarts(sentences) {
  const starts = new Int32Array(sentences.length);
  let at = 0;
  sentences.forEach((sentence, i) => {
    starts[i] = at;
    at += sentence.length;
  });
  return starts;
}

/**
 * The corpus for encodeCorpus from `docs`: { train, heldOut, heldOutNames } (documents of
 * sentences of { word, pos }) and what the header says of them: { source, terms, tagger }, and
 * for a corpus in another language than English its `language` (ISO 639-1) and `taggedPos` (the
 * part-of-speech names its tagger assigns, when not all of them).
 */
export function buildCorpus(docs, settings = CORPUS_SETTINGS) {
  // The vocabulary from all training documents (not only the shipped part), most frequent first;
  // ties by the word, so the build is repeatable.
  const counts = new Map();
  for (const doc of docs.train)
    for (const sentence of doc) for (const { word } of sentence) counts.set(word, (counts.get(word) ?? 0) + 1);
  const words = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, settings.vocabularyWords)
    .map(([word]) => word);
  const trainSentences = sample(docs.train, settings.trainTokens);
  const heldOutSentences = sample(docs.heldOut, settings.heldOutTokens);
  const ids = new Map(words.map((word, i) => [word, i + 2]));
  const toIds = (sentences) => Int32Array.from(sentences.flat(), ({ word }) => ids.get(word) ?? 1);
  return {
    header: {
      source: docs.source,
      terms: docs.terms,
      tagger: docs.tagger,
      ...(docs.language ? { language: docs.language } : {}),
      ...(docs.taggedPos ? { taggedPos: docs.taggedPos } : {}),
      settings,
      trainDocuments: docs.train.length,
      heldOutDocuments: docs.heldOutNames,
      posNames: POS_NAMES,
      words: ['<mask>', '<unk>', ...words],
    },
    train: toIds(trainSentences),
    trainSentenceStarts: sentenceStarts(trainSentences),
    heldOut: toIds(heldOutSentences),
    heldOutPos: Uint8Array.from(heldOutSentences.flat(), ({ pos }) => pos),
    heldOutSentenceStarts: sentenceStarts(heldOutSentences),
  };
}
