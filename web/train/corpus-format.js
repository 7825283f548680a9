// The training corpus's binary layout (written by scripts/make-corpus.mjs, read by the training
// worker; docs/corpus.md), and the maps from each source's tags to the coarse parts of speech. The file is gzip of:
//   u32 header length, the header as UTF-8 JSON (source, terms, settings, posNames, words),
//   then four sections: training token ids, training sentence lengths, held-out token ids,
//   held-out sentence lengths (each a u32 count, then that many varints), and the held-out
//   tokens' parts of speech (one byte each, count = held-out tokens).
// A varint is 7 bits a byte, low bits first, the top bit set on every byte but the last; ids are
// ranked by frequency, so most take one byte.

import { ownBytes } from '../api/own-bytes.js';

/** The coarse parts of speech, in the order of their codes. */
export const POS_NAMES = Object.freeze([
  'determiner',
  'noun',
  'verb',
  'adjective',
  'adverb',
  'preposition',
  'pronoun',
  'conjunction',
  'other',
]);
export const MASK_ID = 0;
export const UNK_ID = 1;

/**
 * What a caption calls the corpus, read from its header: the header's `source` up to its first
 * parenthesis or colon ("English text derived from the World English Bible"), or "the corpus".
 */
export function corpusName(header) {
  const source = typeof header?.source === 'string' ? header.source : '';
  const name = source.split(/ \(|: /, 1)[0].trim();
  return name || 'the corpus';
}

const DETERMINERS = new Set(['at', 'abn', 'abx', 'abl', 'ap', 'dt', 'dti', 'dts', 'dtx', 'pp$']);
const NOUNS = new Set(['nn', 'nns', 'np', 'nps', 'nr', 'nrs', 'nn$', 'nns$', 'np$', 'nps$', 'nr$', 'nrs$']);
const PRONOUNS = new Set(['pps', 'ppss', 'ppo', 'ppl', 'ppls', 'pp$$', 'pn', 'pn$', 'wps', 'wpo', 'wp$', 'ex']);
const ADJECTIVES = new Set(['jj', 'jjr', 'jjs', 'jjt', 'od']);
const ADVERBS = new Set(['rb', 'rbr', 'rbt', 'rn', 'rp', 'wrb', 'ql', 'qlp']);

/**
 * The coarse part of speech (an index into POS_NAMES) of a Brown tag: the first part of a
 * contraction (`pps+bez` → pps), without the title/headline/cited suffixes (-tl, -hl, -nc) and
 * the negation mark (*); foreign words (fw-…) are "other".
 */
export function coarsePos(tag) {
  const t = tag.toLowerCase();
  if (t.startsWith('fw-')) return 8;
  const base = t.split('+')[0].split('-')[0].replace(/\*$/, '');
  if (DETERMINERS.has(base)) return 0;
  if (NOUNS.has(base)) return 1;
  if (/^(vb|be|do|hv)/.test(base) || base === 'md') return 2;
  if (ADJECTIVES.has(base)) return 3;
  if (ADVERBS.has(base)) return 4;
  if (base === 'in') return 5;
  if (PRONOUNS.has(base)) return 6;
  if (base === 'cc' || base === 'cs') return 7;
  return 8;
}

/**
 * The coarse part of speech (an index into POS_NAMES) of a term tagged by the npm package
 * compromise (its tag names, e.g. ['Noun', 'Pronoun']): possessive pronouns (his, their) are
 * determiners, as Brown's pp$ is; a pronoun is a pronoun before it is a noun; the rest by the
 * first of Determiner, Preposition, Conjunction, Verb, Adjective, Adverb, Noun it carries; any
 * other term (numbers, negation, question words, punctuation) is "other".
 */
export function coarsePosOfTags(tags) {
  const has = new Set(tags);
  if (has.has('Determiner')) return 0;
  if (has.has('Pronoun')) return has.has('Possessive') ? 0 : 6;
  if (has.has('Preposition')) return 5;
  if (has.has('Conjunction')) return 7;
  if (has.has('Verb')) return 2;
  if (has.has('Adjective')) return 3;
  if (has.has('Adverb')) return 4;
  if (has.has('Noun')) return 1;
  return 8;
}

function pushVarint(bytes, value) {
  let v = value;
  while (v >= 0x80) {
    bytes.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  bytes.push(v);
}

function pushU32(bytes, value) {
  bytes.push(value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff);
}

const lengthsOf = (starts, total) =>
  Array.from(starts, (start, i) => (i + 1 < starts.length ? starts[i + 1] : total) - start);

/** The uncompressed bytes of a corpus { header, train, trainSentenceStarts, heldOut, heldOutPos, heldOutSentenceStarts }. */
export function encodeCorpus(corpus) {
  const bytes = [];
  const header = new TextEncoder().encode(JSON.stringify(corpus.header));
  pushU32(bytes, header.length);
  for (const b of header) bytes.push(b);
  const section = (values) => {
    pushU32(bytes, values.length);
    for (const v of values) pushVarint(bytes, v);
  };
  section(corpus.train);
  section(lengthsOf(corpus.trainSentenceStarts, corpus.train.length));
  section(corpus.heldOut);
  section(lengthsOf(corpus.heldOutSentenceStarts, corpus.heldOut.length));
  for (const p of corpus.heldOutPos) bytes.push(p);
  return Uint8Array.from(bytes);
}

/** The fewest tokens each part of a corpus holds to be trained on: several windows of 32 tokens. */
export const MIN_CORPUS_TOKENS = Object.freeze({ train: 512, heldOut: 128 });

/** Why `corpus` (buildCorpus's or decodeCorpus's) is too small to train on and measure, or null. */
export function corpusShortfall(corpus) {
  for (const [what, count, least] of [
    ['training', corpus.train.length, MIN_CORPUS_TOKENS.train],
    ['held-out', corpus.heldOut.length, MIN_CORPUS_TOKENS.heldOut],
  ]) {
    if (count < least) return `${count.toLocaleString('en')} ${what} tokens; a corpus needs at least ${least}`;
  }
  return null;
}

/**
 * Reads the uncompressed bytes back: { header, train, trainSentenceStarts, heldOut, heldOutPos,
 * heldOutSentenceStarts } (Int32Array ids and starts, Uint8Array parts of speech). Throws a
 * RangeError naming what is wrong for a truncated or malformed file; nothing is allocated for a
 * count the bytes left cannot hold.
 */
export function decodeCorpus(given) {
  // The caller's bytes exactly, copied (a Buffer, a view at an offset or an ArrayBuffer).
  const bytes = ownBytes('decodeCorpus', 'bytes', given);
  const fail = (what) => {
    throw new RangeError(`decodeCorpus: ${what}`);
  };
  let at = 0;
  const need = (count, what) => {
    if (at + count > bytes.length) fail(`the file ends inside ${what}`);
  };
  const u32 = (what) => {
    need(4, what);
    const v = (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
    at += 4;
    return v;
  };
  const headerLength = u32('the header length');
  need(headerLength, 'the header');
  let header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(at, at + headerLength)));
  } catch {
    fail('the header is not JSON');
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) fail('the header is not a JSON object');
  const { words } = header;
  if (!Array.isArray(words) || words.length < 2 || words.some((word) => typeof word !== 'string')) {
    fail('the header\'s "words" must be a list of at least 2 strings (<mask>, <unk>, …)');
  }
  at += headerLength;
  const section = (what) => {
    const count = u32(`${what}'s count`);
    // Every number takes at least one byte: a count past the bytes left is a damaged file.
    if (count > bytes.length - at) fail(`${what}'s count (${count}) is more than the file holds`);
    const out = new Int32Array(count);
    for (let i = 0; i < count; i += 1) {
      let v = 0;
      let shift = 0;
      for (;;) {
        need(1, what);
        const b = bytes[at++];
        v += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) break;
        shift += 7;
        if (shift > 28) fail(`${what}[${i}] is longer than 5 bytes`);
      }
      if (v > 0x7fffffff) fail(`${what}[${i}] is ${v}, beyond 2^31 - 1`);
      out[i] = v;
    }
    return out;
  };
  const starts = (lengths, total, what) => {
    const s = new Int32Array(lengths.length);
    let sum = 0;
    lengths.forEach((length, i) => {
      s[i] = sum;
      sum += length;
    });
    if (sum !== total) fail(`${what} add up to ${sum} tokens, not the ${total} there are`);
    return s;
  };
  const train = section('the training tokens');
  const trainSentenceStarts = starts(section('the training sentences'), train.length, 'the training sentences');
  const heldOut = section('the held-out tokens');
  const heldOutSentenceStarts = starts(section('the held-out sentences'), heldOut.length, 'the held-out sentences');
  need(heldOut.length, "the held-out tokens' parts of speech");
  const heldOutPos = bytes.slice(at, at + heldOut.length);
  const posIndex = heldOutPos.findIndex((pos) => pos >= POS_NAMES.length);
  if (posIndex >= 0)
    fail(
      `held-out token ${posIndex}'s part of speech is ${heldOutPos[posIndex]}, not one of 0 to ${POS_NAMES.length - 1}`,
    );
  const vocab = words.length;
  for (const [name, ids] of [
    ['training', train],
    ['held-out', heldOut],
  ]) {
    for (let i = 0; i < ids.length; i += 1) {
      if (ids[i] >= vocab) fail(`${name} token ${i} is ${ids[i]}, beyond the vocabulary`);
    }
  }
  return { header, train, trainSentenceStarts, heldOut, heldOutPos, heldOutSentenceStarts };
}
