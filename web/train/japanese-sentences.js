// Japanese text as sentences of { word, pos } for the corpus pipeline (build-corpus.js;
// docs/corpus.md, "Other languages"): Japanese has no spaces between words, so a morphological
// analyser cuts it into words and tags them. The analyser is passed in (the npm package kuromoji,
// IPADIC tags), so this file stays pure and the package never depends on it.

/** The punctuation kept as tokens (as the English corpus keeps . , ; : ! ? ( )); quotation marks are dropped. */
const KEPT_MARKS = new Set(['。', '、', '(', ')', '（', '）', '.', ',', ';', ':', '!', '?', '！', '？']);

/** Particles (助詞) by their IPADIC subclass: which are adpositions, which conjunctions. */
const ADPOSITION_PARTICLES = new Set(['格助詞', '係助詞', '副助詞', '連体化']);
const CONJUNCTION_PARTICLES = new Set(['接続助詞', '並立助詞']);

/**
 * The coarse part of speech (an index into POS_NAMES) of a token tagged with IPADIC's classes
 * (`pos`, `detail`: kuromoji's pos and pos_detail_1), by the table in docs/corpus.md:
 * 連体詞 (adnominal: この, その) determiner; 名詞 noun, but 代名詞 pronoun, 数 other and
 * 形容動詞語幹 (the stem of a na-adjective) adjective; 動詞 and 助動詞 (auxiliaries) verb; 形容詞
 * adjective; 副詞 adverb; the case, binding and adverbial particles and の (格助詞, 係助詞, 副助詞,
 * 連体化) preposition, that is postposition; the conjunctive and coordinating particles and 接続詞
 * conjunction; anything else (symbols, prefixes, sentence-final particles) other.
 */
export function coarsePosOfIpadic(pos, detail) {
  switch (pos) {
    case '連体詞':
      return 0;
    case '名詞':
      if (detail === '代名詞') return 6;
      if (detail === '数') return 8;
      if (detail === '形容動詞語幹') return 3;
      return 1;
    case '動詞':
    case '助動詞':
      return 2;
    case '形容詞':
      return 3;
    case '副詞':
      return 4;
    case '助詞':
      if (ADPOSITION_PARTICLES.has(detail)) return 5;
      if (CONJUNCTION_PARTICLES.has(detail)) return 7;
      return 8;
    case '接続詞':
      return 7;
    default:
      return 8;
  }
}

/**
 * The sentences of Japanese `text` as [{ word, pos }], cut by `tokenizer` (kuromoji's: tokenize(text)
 * → [{ surface_form, pos, pos_detail_1 }]): each word's surface form (Latin letters lower-cased),
 * spaces and quotation marks dropped, the marks of KEPT_MARKS kept as tokens; a sentence ends at 。
 * (or ！ ？). With `tagged`, pos is coarsePosOfIpadic's, else undefined.
 */
export function japaneseSentences(tokenizer, text, tagged) {
  const sentences = [];
  let sentence = [];
  for (const token of tokenizer.tokenize(text)) {
    const surface = token.surface_form.trim();
    if (!surface) continue;
    // A kept mark is "other" whatever the analyser says (it reads ASCII brackets as nouns).
    const isMark = KEPT_MARKS.has(surface);
    if (token.pos === '記号' && !isMark) continue;
    sentence.push({
      word: surface.toLowerCase(),
      pos: tagged ? (isMark ? 8 : coarsePosOfIpadic(token.pos, token.pos_detail_1)) : undefined,
    });
    if (surface === '。' || surface === '！' || surface === '？') {
      sentences.push(sentence);
      sentence = [];
    }
  }
  if (sentence.length > 0) sentences.push(sentence);
  return sentences;
}
