// Spanish text as sentences of { word, pos } for the corpus pipeline (build-corpus.js;
// docs/corpus.md, "Other languages"). No Spanish part-of-speech tagger is reachable from the
// project's package sources, so only the closed classes are tagged, from the word lists below
// (determiners, prepositions, pronouns, conjunctions); every other word is "other", and the
// corpus header says which names are tagged (`taggedPos`). Pure: no tagger to pass in.

const DETERMINERS = [
  'el',
  'la',
  'los',
  'las',
  'un',
  'una',
  'unos',
  'unas',
  'este',
  'esta',
  'estos',
  'estas',
  'ese',
  'esa',
  'esos',
  'esas',
  'aquel',
  'aquella',
  'aquellos',
  'aquellas',
  'mi',
  'mis',
  'tu',
  'tus',
  'su',
  'sus',
  'nuestro',
  'nuestra',
  'nuestros',
  'nuestras',
  'vuestro',
  'vuestra',
  'vuestros',
  'vuestras',
];
const PREPOSITIONS = [
  'a',
  'á',
  'al',
  'ante',
  'bajo',
  'con',
  'contra',
  'de',
  'del',
  'desde',
  'en',
  'entre',
  'hacia',
  'hasta',
  'para',
  'por',
  'según',
  'sin',
  'sobre',
  'tras',
];
const PRONOUNS = [
  'yo',
  'tú',
  'él',
  'ella',
  'ello',
  'nosotros',
  'nosotras',
  'vosotros',
  'vosotras',
  'ellos',
  'ellas',
  'me',
  'te',
  'se',
  'nos',
  'os',
  'le',
  'les',
  'lo',
  'mí',
  'ti',
  'sí',
  'conmigo',
  'contigo',
  'consigo',
];
const CONJUNCTIONS = [
  'y',
  'e',
  'é',
  'o',
  'ó',
  'u',
  'ni',
  'pero',
  'mas',
  'sino',
  'que',
  'porque',
  'pues',
  'si',
  'cuando',
  'como',
];

/** The parts of speech the word lists tag (POS_NAMES names); the rest of the words are "other". */
export const SPANISH_TAGGED_POS = Object.freeze(['determiner', 'preposition', 'pronoun', 'conjunction']);

const CLASS_OF = new Map([
  ...DETERMINERS.map((w) => [w, 0]),
  ...PREPOSITIONS.map((w) => [w, 5]),
  ...PRONOUNS.map((w) => [w, 6]),
  ...CONJUNCTIONS.map((w) => [w, 7]),
]);

/**
 * The coarse part of speech (an index into POS_NAMES) of a lower-case Spanish word by the closed
 * word lists: la, las, los are articles here (determiner), never the clitic pronouns; lo is a
 * pronoun; al and del (a + el, de + el) prepositions; que and como conjunctions; the 1909
 * spelling's á, ó, é as a, o, e; else other.
 */
export function coarsePosOfSpanish(word) {
  return CLASS_OF.get(word) ?? 8;
}

/** Words (letters, digits, an inner apostrophe) and the kept punctuation . , ; : ! ? ( ). */
const TOKEN = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}]+)*|[.,;:!?()]/gu;

/**
 * The sentences of Spanish `text` as [{ word, pos }]: lower-cased words and the punctuation
 * . , ; : ! ? ( ) as tokens (¿ ¡ and quotation marks dropped); a sentence ends at . ! or ?.
 * With `tagged`, pos is coarsePosOfSpanish's, else undefined.
 */
export function spanishSentences(text, tagged) {
  const sentences = [];
  let sentence = [];
  for (const token of text.toLowerCase().match(TOKEN) ?? []) {
    sentence.push({ word: token, pos: tagged ? coarsePosOfSpanish(token) : undefined });
    if (token === '.' || token === '!' || token === '?') {
      sentences.push(sentence);
      sentence = [];
    }
  }
  if (sentence.length > 0) sentences.push(sentence);
  return sentences;
}
