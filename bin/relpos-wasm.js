#!/usr/bin/env node
// relpos-wasm's command line: `npx relpos-wasm corpus my-text.txt` builds the training corpus
// <relpos-train corpus="…"> loads, from text the author owns, the way the package's own corpus is
// built (web/train/build-corpus.js: the same vocabulary, sampling and held-out split; held-out
// parts of speech by the tagger compromise, which the author installs: it is an optional peer
// dependency, so the package itself needs nothing). `--language ja` (Japanese, cut into words and
// tagged by kuromoji, another optional peer dependency) and `--language es` (Spanish, closed word
// classes from word lists) build corpora in the languages the comparison of languages reads.
import { closeSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { CORPUS_SETTINGS, buildCorpus, splitDocuments } from '../web/train/build-corpus.js';
import { corpusShortfall, encodeCorpus } from '../web/train/corpus-format.js';
import { japaneseSentences } from '../web/train/japanese-sentences.js';
import { SPANISH_TAGGED_POS, spanishSentences } from '../web/train/spanish-sentences.js';

/** The tagger the package's corpus was tagged by. */
const TAGGER_VERSION = '14.17.0';
/** The Japanese analyser the comparison of languages was tagged by. */
const KUROMOJI_VERSION = '0.1.2';
/** The languages the command can tag, and how. */
export const CORPUS_LANGUAGES = Object.freeze({
  en: `English, tagged by compromise (npm install --save-dev compromise@${TAGGER_VERSION})`,
  ja: `Japanese, cut into words and tagged by kuromoji (npm install --save-dev kuromoji@${KUROMOJI_VERSION})`,
  es: 'Spanish, its closed word classes (determiners, prepositions, pronouns, conjunctions) from word lists; nothing to install',
});
/** The text is cut into this many documents of consecutive sentences; every 10th is held out. */
const DOCUMENTS = 20;
/** Fewer words than this leave too little to train on and to hold out (windows of 32 tokens). */
export const MIN_WORDS = 2000;
/** The most text read, all files together: 16 MiB (a long novel is 1 MB; the corpus keeps about 150,000 tokens). */
export const MAX_TEXT_BYTES = 16 * 1024 * 1024;
/**
 * Text is tokenized in pieces of at most this many characters (piecesOf): a text without sentence ends or line breaks costs the tokenizer no more
 * than ordinary text, and gives sentences of at most a piece.
 */
export const PIECE_CHARS = 600;

const HELP = `Usage: relpos-wasm corpus <text file>... [--out <file>] [--language en|ja|es]

Builds the training corpus for <relpos-train corpus="..."> from plain text (UTF-8) you own: the
words lower-cased, a vocabulary of the ${CORPUS_SETTINGS.vocabularyWords.toLocaleString('en')} most frequent, up to ${CORPUS_SETTINGS.trainTokens.toLocaleString('en')} tokens to train on and
${CORPUS_SETTINGS.heldOutTokens.toLocaleString('en')} held out, the held-out words tagged with their part of speech by compromise
(npm install --save-dev compromise@${TAGGER_VERSION}, the tagger of the package's own corpus). At least
${MIN_WORDS.toLocaleString('en')} words of text.

Options:
  -o, --out <file>       where to write it (default: training-corpus.bin)
  -l, --language <code>  the text's language (default: en); the languages it can tag:
${Object.entries(CORPUS_LANGUAGES)
  .map(([code, how]) => `                           ${code}: ${how}`)
  .join('\n')}
  -h, --help             this help

Then serve the file beside your page: <relpos-train corpus="training-corpus.bin"></relpos-train>
`;

class UsageError extends Error {}

function parseArguments(args) {
  const [command, ...rest] = args;
  if (command === undefined || command === '-h' || command === '--help') return { help: true };
  if (command !== 'corpus') throw new UsageError(`unknown command ${JSON.stringify(command)}; the command is corpus`);
  const files = [];
  let out = 'training-corpus.bin';
  let language = 'en';
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i];
    if (arg === '-h' || arg === '--help') return { help: true };
    if (arg === '-o' || arg === '--out') {
      out = rest[(i += 1)];
      if (out === undefined || out === '') throw new UsageError(`${arg} needs a file name`);
    } else if (arg.startsWith('--out=')) {
      out = arg.slice(6);
      if (out === '') throw new UsageError('--out= needs a file name');
    } else if (arg === '-l' || arg === '--language' || arg.startsWith('--language=')) {
      language = arg.startsWith('--language=') ? arg.slice(11) : rest[(i += 1)];
      if (!Object.hasOwn(CORPUS_LANGUAGES, language ?? ''))
        throw new UsageError(
          `--language ${JSON.stringify(language ?? '')} cannot be tagged; the languages it can tag: ${Object.entries(
            CORPUS_LANGUAGES,
          )
            .map(([code, how]) => `${code} (${how})`)
            .join('; ')}`,
        );
    } else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
    else files.push(arg);
  }
  if (files.length === 0) throw new UsageError('give the text file(s) to build the corpus from');
  return { files, out, language };
}

/** The bytes of `file`, at most `budget` of them (an Error with code EFBIG past that). */
function readAtMost(file, budget) {
  const fd = openSync(file, 'r');
  try {
    const chunks = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, budget + 1 - total));
      const got = readSync(fd, chunk, 0, chunk.length, null);
      if (got === 0) return Buffer.concat(chunks, total);
      total += got;
      if (total > budget) throw Object.assign(new Error(), { code: 'EFBIG', size: `more than ${budget}` });
      chunks.push(chunk.subarray(0, got));
    }
  } finally {
    closeSync(fd);
  }
}

/** The text of `file`, or an Error naming the file and what is wrong with it. */
function readText(file, budget = MAX_TEXT_BYTES) {
  let bytes;
  try {
    const stats = statSync(file);
    if (stats.isDirectory()) throw Object.assign(new Error(), { code: 'EISDIR' });
    if (stats.size > budget) throw Object.assign(new Error(), { code: 'EFBIG', size: stats.size });
    bytes = readAtMost(file, budget); // a device or a pipe says size 0: read no more than the budget either way
  } catch (error) {
    const why = {
      ENOENT: ': no such file',
      EISDIR: ' is a folder; give a plain text file',
      EFBIG: ` is ${error.size} bytes; the text read may be at most ${MAX_TEXT_BYTES} bytes (16 MiB) in all, far more than the ${CORPUS_SETTINGS.trainTokens.toLocaleString('en')} tokens a corpus keeps`,
    }[error.code];
    throw new Error(`${file}${why ?? ` could not be read (${error.code ?? error.message})`}`, { cause: error });
  }
  const nul = bytes.indexOf(0);
  let text;
  try {
    if (nul >= 0) throw new Error();
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error(
      `${file} is not a text file (${nul >= 0 ? `a zero byte at byte ${nul}` : 'it is not UTF-8 text'}); ` +
        'save it as plain text (UTF-8) first: a .docx, .pdf or image cannot be read',
    );
  }
  if (text.trim() === '') throw new Error(`${file} is empty; it must hold text`);
  return text.replace(/^\uFEFF/, '');
}

/** compromise, or an Error saying how to install it. */
async function loadTagger() {
  try {
    const { default: nlp } = await import('compromise');
    return nlp;
  } catch (error) {
    throw new Error(
      `the held-out words are tagged by compromise, which is not installed here: npm install --save-dev compromise@${TAGGER_VERSION} (the tagger of the package's own corpus), then run this again`,
      { cause: error },
    );
  }
}

/** kuromoji's tokenizer with its own dictionary, or an Error saying how to install it. */
async function loadJapaneseTagger() {
  let kuromoji;
  let dicPath;
  try {
    ({ default: kuromoji } = await import('kuromoji'));
    dicPath = join(dirname(createRequire(import.meta.url).resolve('kuromoji/package.json')), 'dict');
  } catch (error) {
    throw new Error(
      `Japanese is cut into words and tagged by kuromoji, which is not installed here: npm install --save-dev kuromoji@${KUROMOJI_VERSION}, then run this again`,
      { cause: error },
    );
  }
  return new Promise((done, fail) =>
    kuromoji.builder({ dicPath }).build((error, tokenizer) => (error ? fail(error) : done(tokenizer))),
  );
}

/** Whitespace-separated words of a sentence. */
const spacedWords = (sentence) => sentence.split(/\s+/).filter(Boolean).length;

/**
 * How the command reads a language: { split(piece) → sentences (strings), words(sentence) → count,
 * reader (splitDocuments's), tagger (what the header says) }. Loads the tagger it needs.
 */
export async function readerFor(language) {
  if (language === 'ja') {
    const tokenizer = await loadJapaneseTagger();
    return {
      split: (piece) =>
        piece
          .split(/(?<=[。！？])|\n/)
          .map((s) => s.trim())
          .filter(Boolean),
      words: (sentence) => tokenizer.tokenize(sentence).filter((t) => t.pos !== '記号').length,
      reader: (sentence, tagged) => japaneseSentences(tokenizer, sentence, tagged),
      tagger: `kuromoji ${KUROMOJI_VERSION} (npm, Apache-2.0; IPADIC)`,
      language,
    };
  }
  if (language === 'es') {
    return {
      split: (piece) =>
        piece
          .split(/(?<=[.!?])\s+|\n\s*\n/)
          .map((s) => s.trim())
          .filter(Boolean),
      words: spacedWords,
      reader: spanishSentences,
      tagger: 'closed-class word lists (relpos-wasm: web/train/spanish-sentences.js)',
      language,
      taggedPos: SPANISH_TAGGED_POS,
    };
  }
  const nlp = await loadTagger();
  const version = nlp.version ?? 'of unknown version';
  if (version !== TAGGER_VERSION) {
    console.warn(
      `relpos-wasm corpus: compromise ${version} is installed; the package's own corpus was tagged by ${TAGGER_VERSION}, so parts of speech may differ slightly`,
    );
  }
  return englishReader(nlp, version);
}

/** English read with compromise (`nlp`, of `version`). */
export function englishReader(nlp, version) {
  return {
    split: (piece) => nlp.tokenize(piece).out('array'),
    words: spacedWords,
    reader: nlp,
    tagger: `compromise ${version} (npm, MIT)`,
  };
}

/**
 * The corpus of `files` ({ name, text }) read by `read` (readerFor's, or compromise `nlp` for
 * English with its `version`): every file's sentences in order, cut into DOCUMENTS documents of
 * about equal length, every 10th held out and tagged (splitDocuments).
 */
export function corpusOfTexts(read, texts, version) {
  const how = typeof read.split === 'function' ? read : englishReader(read, version);
  const sentences = texts.flatMap(({ text }) => piecesOf(text).flatMap((piece) => how.split(piece)));
  const words = sentences.reduce((sum, sentence) => sum + how.words(sentence), 0);
  const names = texts.map(({ name }) => name).join(', ');
  if (words < MIN_WORDS) {
    throw new Error(
      `${names}: ${words.toLocaleString('en')} words; a corpus needs at least ${MIN_WORDS.toLocaleString('en')} (a few pages), to train on and to hold some out`,
    );
  }
  // A held-out document is tagged (the slow part: about a thousand words a second) only as far
  // as the held-out sample can reach: twice its share of heldOutTokens.
  const heldOutDocuments = Math.ceil(DOCUMENTS / CORPUS_SETTINGS.heldOutEvery);
  const heldOutReach = (2 * CORPUS_SETTINGS.heldOutTokens) / heldOutDocuments;
  const documents = Array.from({ length: DOCUMENTS }, (_, d) => {
    const part = sentences.slice(
      Math.floor((d * sentences.length) / DOCUMENTS),
      Math.floor(((d + 1) * sentences.length) / DOCUMENTS),
    );
    return {
      name: `part ${d + 1} of ${DOCUMENTS}`,
      sentences: d % CORPUS_SETTINGS.heldOutEvery === 0 ? leadingWords(part, heldOutReach, how.words) : part,
    };
  });
  const docs = splitDocuments(how.reader, documents, CORPUS_SETTINGS);
  const corpus = buildCorpus({
    ...docs,
    source: `${names}: the author's own text, lower-cased and sampled`,
    terms: "The author's own text, under the author's terms.",
    tagger: how.tagger,
    ...(how.language ? { language: how.language } : {}),
    ...(how.taggedPos ? { taggedPos: how.taggedPos } : {}),
  });
  const shortfall = corpusShortfall(corpus);
  if (shortfall) {
    throw new Error(
      `${names}: its sentences give ${shortfall} (is it ordinary prose? text without words, or words without sentences, gives too little)`,
    );
  }
  return corpus;
}

/** The first sentences of `sentences` (strings) that hold at least `words` words (or all of them), counted by `count`. */
function leadingWords(sentences, words, wordsIn) {
  let count = 0;
  let end = 0;
  while (end < sentences.length && count < words) {
    count += wordsIn(sentences[end]);
    end += 1;
  }
  return sentences.slice(0, end);
}

/**
 * `text` in pieces of at most PIECE_CHARS characters, cut at a paragraph break, else a sentence
 * end, else a line end, else a space, else anywhere.
 */
export function piecesOf(text) {
  const pieces = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + PIECE_CHARS);
    if (end < text.length) {
      // After the last paragraph break, else sentence end, else line end, else space in the window.
      const window = text.slice(start, end);
      const after = (mark) => {
        const at = window.lastIndexOf(mark);
        return at > 0 ? at + mark.length : -1;
      };
      const sentenceEnd = Math.max(...['. ', '! ', '? ', '.\n', '!\n', '?\n'].map(after));
      const cut = [after('\n\n'), sentenceEnd, after('\n'), after(' ')].find((at) => at > 0);
      if (cut !== undefined) end = start + cut;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

async function main(args) {
  const { help, files, out, language } = parseArguments(args);
  if (help) {
    process.stdout.write(HELP);
    return;
  }
  let budget = MAX_TEXT_BYTES;
  const texts = files.map((file) => {
    const text = readText(file, budget);
    budget -= Buffer.byteLength(text);
    return { name: basename(file), text };
  });
  const how = await readerFor(language);
  const corpus = corpusOfTexts(how, texts);
  const bytes = gzipSync(encodeCorpus(corpus), { level: 9 });
  try {
    writeFileSync(out, bytes);
  } catch (error) {
    throw new Error(`${out} could not be written (${error.code ?? error.message})`, { cause: error });
  }
  const unknown = corpus.train.reduce((n, id) => n + (id === 1 ? 1 : 0), 0);
  console.log(
    `relpos-wasm corpus: wrote ${out} (${(bytes.length / 1024).toFixed(1)} KiB): ${corpus.train.length.toLocaleString('en')} training tokens ` +
      `(${((100 * unknown) / corpus.train.length).toFixed(1)} % outside the vocabulary), ${corpus.heldOut.length.toLocaleString('en')} held-out tokens ` +
      `tagged by ${how.tagger}, a vocabulary of ${(corpus.header.words.length - 2).toLocaleString('en')} words.\n` +
      `Serve it beside your page: <relpos-train corpus="${basename(out)}"></relpos-train>`,
  );
}

if (process.argv[1] && import.meta.filename === (await import('node:fs')).realpathSync(process.argv[1])) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(`relpos-wasm corpus: ${error.message}`);
    if (error instanceof UsageError) console.error('Run relpos-wasm --help for the usage.');
    process.exitCode = error instanceof UsageError ? 2 : 1;
  });
}
