// The other languages' corpora (docs/corpus.md, "Other languages"): the Japanese tag map and
// sentences with the real analyser (kuromoji), the Spanish word lists, the Debian Reference's
// prose read from its plain-text edition, a slice of the Japanese corpus built twice to the same
// bytes (and to the checksum recorded below), and `relpos-wasm corpus --language`.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import kuromoji from 'kuromoji';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildCorpus, splitDocuments } from '../../web/train/build-corpus.js';
import { POS_NAMES, decodeCorpus, encodeCorpus } from '../../web/train/corpus-format.js';
import { coarsePosOfIpadic, japaneseSentences } from '../../web/train/japanese-sentences.js';
import { SPANISH_TAGGED_POS, coarsePosOfSpanish, spanishSentences } from '../../web/train/spanish-sentences.js';
import { debianReferenceDocuments } from '../../scripts/make-corpus.mjs';

const BIN = new URL('../../bin/relpos-wasm.js', import.meta.url).pathname;
const name = (code) => POS_NAMES[code];
let tokenizer;
beforeAll(async () => {
  const dicPath = join(dirname(createRequire(import.meta.url).resolve('kuromoji/package.json')), 'dict');
  tokenizer = await new Promise((done, fail) =>
    kuromoji.builder({ dicPath }).build((error, t) => (error ? fail(error) : done(t))),
  );
});

describe('Japanese: IPADIC classes to the coarse names', () => {
  test('the table of docs/corpus.md', () => {
    const cases = [
      ['連体詞', '*', 'determiner'],
      ['名詞', '一般', 'noun'],
      ['名詞', '固有名詞', 'noun'],
      ['名詞', 'サ変接続', 'noun'],
      ['名詞', '代名詞', 'pronoun'],
      ['名詞', '数', 'other'],
      ['名詞', '形容動詞語幹', 'adjective'],
      ['動詞', '自立', 'verb'],
      ['助動詞', '*', 'verb'],
      ['形容詞', '自立', 'adjective'],
      ['副詞', '一般', 'adverb'],
      ['助詞', '格助詞', 'preposition'],
      ['助詞', '係助詞', 'preposition'],
      ['助詞', '副助詞', 'preposition'],
      ['助詞', '連体化', 'preposition'],
      ['助詞', '接続助詞', 'conjunction'],
      ['助詞', '並立助詞', 'conjunction'],
      ['助詞', '終助詞', 'other'],
      ['接続詞', '*', 'conjunction'],
      ['記号', '句点', 'other'],
      ['接頭詞', '名詞接続', 'other'],
    ];
    for (const [pos, detail, expected] of cases)
      expect(name(coarsePosOfIpadic(pos, detail)), `${pos}-${detail}`).toBe(expected);
  });

  test('a sentence cut and tagged by kuromoji: postpositions after their nouns, the verb last', () => {
    const [sentence, second] = japaneseSentences(
      tokenizer,
      'この表は Debian システムの重要なディレクトリーを示します。「引用」(注)も読む。',
      true,
    );
    expect(sentence.map(({ word, pos }) => `${word}/${name(pos)}`)).toEqual([
      'この/determiner',
      '表/noun',
      'は/preposition',
      'debian/noun',
      'システム/noun',
      'の/preposition',
      '重要/adjective',
      'な/verb',
      'ディレクトリー/noun',
      'を/preposition',
      '示し/verb',
      'ます/verb',
      '。/other',
    ]);
    // Quotation marks dropped, brackets kept as "other" (the analyser calls ASCII brackets nouns).
    expect(second.map((t) => t.word)).toEqual(['引用', '(', '注', ')', 'も', '読む', '。']);
    expect(second.filter((t) => '()'.includes(t.word)).every((t) => name(t.pos) === 'other')).toBe(true);
    expect(japaneseSentences(tokenizer, '表を示す。', false)[0].every((t) => t.pos === undefined)).toBe(true);
  });
});

describe('Spanish: closed classes from word lists', () => {
  test('a verse of the 1909 spelling, and what is left untagged', () => {
    const [first, second] = spanishSentences(
      'Y dijo Dios: Sea la luz, á los hombres de la tierra. ¿Quién es él?',
      true,
    );
    expect(first.map(({ word, pos }) => `${word}/${name(pos)}`)).toEqual([
      'y/conjunction',
      'dijo/other',
      'dios/other',
      ':/other',
      'sea/other',
      'la/determiner',
      'luz/other',
      ',/other',
      'á/preposition',
      'los/determiner',
      'hombres/other',
      'de/preposition',
      'la/determiner',
      'tierra/other',
      './other',
    ]);
    expect(second.map((t) => t.word)).toEqual(['quién', 'es', 'él', '?']);
    expect(name(coarsePosOfSpanish('él'))).toBe('pronoun');
    expect(name(coarsePosOfSpanish('del'))).toBe('preposition');
    expect(SPANISH_TAGGED_POS).toEqual(['determiner', 'preposition', 'pronoun', 'conjunction']);
  });
});

describe('the Debian Reference, read from its plain-text edition', () => {
  const nb = '\u00a0';
  const text = [
    '1. A chapter',
    '',
    `1.1.${nb}First section`,
    '',
    '    The first paragraph runs over',
    `${nb} ${nb} ${nb}  two lines.`,
    '',
    '    +----+',
    '    |a   |',
    '',
    '    $ ls -l',
    '',
    '      * a list item.',
    '',
    '1.1.1. Second',
    '',
    '    日本語の段落は行を越えて',
    '    続きます。',
    '',
    '    This paragraph was left in English.',
    '',
    'A.1. Appendix',
    '',
    '    No sentence end here',
  ].join('\n');

  test('one document per numbered section, its prose paragraphs only', () => {
    expect(debianReferenceDocuments(text, 'en')).toEqual([
      { name: '1.1', sentences: ['The first paragraph runs over two lines.'] },
      { name: '1.1.1', sentences: ['This paragraph was left in English.'] },
    ]);
    expect(debianReferenceDocuments(text, 'ja')).toEqual([
      { name: '1.1.1', sentences: ['日本語の段落は行を越えて続きます。'] },
    ]);
  });

  test('a slice of the Japanese corpus builds to the same bytes twice, and to the recorded checksum', () => {
    const source = gunzipSync(readFileSync('/usr/share/debian-reference/debian-reference.ja.txt.gz')).toString('utf8');
    const documents = debianReferenceDocuments(source, 'ja').slice(0, 40);
    expect(documents.length).toBe(40);
    const settings = { vocabularyWords: 500, heldOutEvery: 10, trainTokens: 4000, heldOutTokens: 800 };
    const build = () => {
      const reader = (paragraph, tagged) => japaneseSentences(tokenizer, paragraph, tagged);
      const corpus = buildCorpus(
        {
          ...splitDocuments(reader, documents, settings),
          source: 'slice',
          terms: 'GPL-2+',
          tagger: 'kuromoji',
          language: 'ja',
        },
        settings,
      );
      return gzipSync(encodeCorpus(corpus), { level: 9 });
    };
    const first = build();
    expect(Buffer.compare(first, build())).toBe(0);
    const corpus = decodeCorpus(gunzipSync(first));
    expect(corpus.header.language).toBe('ja');
    expect(corpus.heldOut.length).toBeGreaterThan(400);
    // The checksum of this slice as built here (debian-reference-ja 2.100, kuromoji 0.1.2).
    expect(createHash('sha256').update(first).digest('hex')).toBe(SLICE_SHA256);
  });
});

const SLICE_SHA256 = '537086db4a4144370c535a8f78a897396e33009a586f163a785bcc0f614be017';

describe('relpos-wasm corpus --language', () => {
  const dir = mkdtempSync(join(tmpdir(), 'relpos-lang-'));
  const run = (...args) => {
    try {
      return {
        code: 0,
        out: execFileSync('node', [BIN, 'corpus', ...args], { cwd: dir, encoding: 'utf8', stdio: 'pipe' }),
      };
    } catch (error) {
      return { code: error.status, out: `${error.stdout}${error.stderr}` };
    }
  };

  test('builds a Japanese corpus tagged by kuromoji, and a Spanish one with its closed classes', () => {
    const ja = join(dir, 'ja.txt');
    writeFileSync(
      ja,
      'この表はシステムの重要なディレクトリーを示します。ファイルを所有するユーザーが読めます。\n'.repeat(110),
    );
    const jaRun = run(ja, '--language', 'ja', '--out', 'ja.bin');
    expect(jaRun.code, jaRun.out).toBe(0);
    const jaCorpus = decodeCorpus(gunzipSync(readFileSync(join(dir, 'ja.bin'))));
    expect(jaCorpus.header.language).toBe('ja');
    expect(jaCorpus.header.tagger).toMatch(/^kuromoji 0\.1\.2/);
    const particle = jaCorpus.header.words.indexOf('を');
    const at = jaCorpus.heldOut.indexOf(particle);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(name(jaCorpus.heldOutPos[at])).toBe('preposition');
    const es = join(dir, 'es.txt');
    writeFileSync(es, 'Y dijo Dios: Sea la luz en la tierra de los hombres. '.repeat(200));
    const esRun = run(es, '-l', 'es', '-o', 'es.bin');
    expect(esRun.code, esRun.out).toBe(0);
    const esCorpus = decodeCorpus(gunzipSync(readFileSync(join(dir, 'es.bin'))));
    expect(esCorpus.header.taggedPos).toEqual(SPANISH_TAGGED_POS);
  });

  test('a language it cannot tag: a usage error that lists the ones it can', () => {
    const { code, out } = run('x.txt', '--language', 'fr');
    expect(code).toBe(2);
    expect(out).toMatch(
      /--language "fr" cannot be tagged; the languages it can tag: en \(English.*ja \(Japanese.*es \(Spanish/,
    );
    expect(run('--help').out).toMatch(/ja: Japanese, cut into words and tagged by kuromoji/);
  });
});
