// `npx relpos-wasm corpus` (bin/relpos-wasm.js) on degenerate text, with the real tagger: a text
// without sentence ends or line breaks gives a corpus that trains (not one with no training
// tokens), text of digits and punctuation gives a usable corpus or a refusal naming the file,
// and a file over the text bound is refused before it is read.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nlp from 'compromise';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MAX_TEXT_BYTES, corpusOfTexts, piecesOf, PIECE_CHARS } from '../../bin/relpos-wasm.js';
import { MIN_CORPUS_TOKENS, corpusShortfall, decodeCorpus, encodeCorpus } from '../../web/train/corpus-format.js';

let dir;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'relpos-corpus-tool-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Words drawn by a fixed linear congruential stream: text the test can rebuild.
function words(count, list) {
  let state = 1;
  return Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return list[state % list.length];
  });
}
const VOCABULARY = 'the cat sat on a mat while dogs ran past old houses near rivers and green hills under skies'.split(
  ' ',
);

test('one line of 20,000 words without a sentence end: a corpus with enough training and held-out tokens', () => {
  const text = words(20_000, VOCABULARY).join(' ');
  const corpus = corpusOfTexts(nlp, [{ name: 'line.txt', text }], '14.17.0');
  expect(corpus.train.length).toBeGreaterThanOrEqual(MIN_CORPUS_TOKENS.train);
  expect(corpus.heldOut.length).toBeGreaterThanOrEqual(MIN_CORPUS_TOKENS.heldOut);
  expect(corpusShortfall(corpus)).toBe(null);
  // Every sentence at most a piece long; the file round-trips.
  const starts = [...corpus.trainSentenceStarts, corpus.train.length];
  const lengths = starts.slice(1).map((end, i) => end - starts[i]);
  expect(Math.max(...lengths)).toBeLessThanOrEqual(PIECE_CHARS / 2);
  expect(decodeCorpus(encodeCorpus(corpus)).train.length).toBe(corpus.train.length);
});

test('digits and punctuation: a usable corpus, or a refusal naming the file', () => {
  const text = words(6_000, ['1,', '22;', '333.', '4:', '(5)', '6!', '7?']).join(' ');
  let corpus = null;
  try {
    corpus = corpusOfTexts(nlp, [{ name: 'digits.txt', text }], '14.17.0');
  } catch (error) {
    expect(error.message).toMatch(/^digits\.txt: its sentences give .* a corpus needs at least/);
  }
  if (corpus) expect(corpusShortfall(corpus)).toBe(null);
});

test('piecesOf cuts at paragraph breaks and sentence ends first, and never loses a character', () => {
  const prose = `${'A sentence of words. '.repeat(40)}\n\n${'Another one here! '.repeat(40)}`;
  const pieces = piecesOf(prose);
  expect(pieces.join('')).toBe(prose);
  expect(pieces.every((piece) => piece.length <= PIECE_CHARS)).toBe(true);
  expect(pieces.slice(0, -1).every((piece) => /[.!?]\s$|\n$/.test(piece))).toBe(true);
  const solid = 'x'.repeat(PIECE_CHARS * 2 + 5);
  expect(piecesOf(solid).map((piece) => piece.length)).toEqual([PIECE_CHARS, PIECE_CHARS, 5]);
});

test('a file over the text bound is refused before it is read, naming it', () => {
  const file = join(dir, 'big.txt');
  writeFileSync(file, '');
  truncateSync(file, MAX_TEXT_BYTES + 1); // sparse: nothing is written
  let stderr = '';
  try {
    execFileSync(process.execPath, [new URL('../../bin/relpos-wasm.js', import.meta.url).pathname, 'corpus', file], {
      cwd: dir,
      stdio: 'pipe',
    });
  } catch (error) {
    stderr = String(error.stderr);
    expect(error.status).toBe(1);
  }
  expect(stderr).toContain(
    `big.txt is ${MAX_TEXT_BYTES + 1} bytes; the text read may be at most ${MAX_TEXT_BYTES} bytes`,
  );
});

test('a device or a pipe, whose size says 0, is read no further than the text bound; an empty --out= is refused at once', () => {
  const tool = new URL('../../bin/relpos-wasm.js', import.meta.url).pathname;
  const run = (args) => {
    try {
      execFileSync(process.execPath, [tool, ...args], { cwd: dir, stdio: 'pipe', timeout: 60_000 });
      return { status: 0, stderr: '' };
    } catch (error) {
      return { status: error.status, stderr: String(error.stderr) };
    }
  };
  // /dev/zero never ends: it grew past 1.4 GB before; now it stops at the bound.
  const zero = run(['corpus', '/dev/zero']);
  expect(zero.status).toBe(1);
  expect(zero.stderr).toContain(
    `/dev/zero is more than ${MAX_TEXT_BYTES} bytes; the text read may be at most ${MAX_TEXT_BYTES} bytes`,
  );
  const out = run(['corpus', '--out=', '/dev/zero']);
  expect(out.status).toBe(2);
  expect(out.stderr).toContain('--out= needs a file name');
});
