// The adposition claims of the comparison of languages (docs/verdicts.md, "Word order"): a
// preposition's noun follows it (English, Spanish), a postposition's precedes it (Japanese). Read
// by word-order-readings.js with the rule of pos-verdicts.js; named by language-comparison.js.

/** Adpositions and their nouns, by part-of-speech names (the corpus format's); offsets j − i. */
export const ADPOSITION_CLAIMS = Object.freeze({
  adpositionToFollowingNoun: {
    query: 'preposition',
    keys: ['noun', 'pronoun'],
    from: 1,
    to: 3,
    text: 'adpositions → following nouns or pronouns (+1…+3)',
    short: 'adpositions → following nouns',
  },
  adpositionToPrecedingNoun: {
    query: 'preposition',
    keys: ['noun', 'pronoun'],
    from: -3,
    to: -1,
    text: 'adpositions → preceding nouns or pronouns (−3…−1)',
    short: 'adpositions → preceding nouns',
  },
});
