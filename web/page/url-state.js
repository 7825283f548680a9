// The page's state in its URL (history.replaceState), so that a shared link reproduces the view.
import {
  CONTROLS,
  MAX_TOKENS,
  defaultState,
  maxDistanceLimit,
  parseControl,
  splitTokens,
  tooManyWords,
} from '../settings/settings.js';
import { linkValue } from '../settings/link-values.js';

/**
 * The state from a query string, and the notes on anything that had to be corrected (a parameter
 * given more than once is read from its first: link-values.js).
 */
export function stateFromQuery(search) {
  const params = new URLSearchParams(search);
  const state = defaultState();
  const notes = [];
  const given = (param) => linkValue(params, param, (note) => notes.push(note));
  // A control's name in another case (?dK=8) is not read as it (names are read as written): said.
  const names = new Map(Object.values(CONTROLS).map((c) => [c.param.toLowerCase(), c.param]));
  for (const name of new Set(params.keys())) {
    const meant = names.get(name.toLowerCase());
    if (meant && meant !== name)
      notes.push(`${name}: not a parameter, names are read as written (did you mean ${meant}?); it is left out`);
  }
  for (const [name, c] of Object.entries(CONTROLS)) {
    if (!params.has(c.param) || name === 'maxDistance') continue; // k: below, its limit depends on n
    const { value, note } = parseControl(name, given(c.param));
    state[name] = value;
    if (note) notes.push(note);
  }
  const words = splitTokens(state.tokens).length;
  if (params.has('tokens') && !params.has(CONTROLS.seqLen.param)) state.seqLen = nOfSentence(state.tokens);
  if (params.has('tokens') && words > MAX_TOKENS) notes.push(`tokens: ${tooManyWords(words)}`);
  if (state.seqLen > MAX_TOKENS) state.long = true; // a long sequence opens the long-sequence view
  if (params.has(CONTROLS.maxDistance.param)) {
    const { value, note } = parseControl(
      'maxDistance',
      given(CONTROLS.maxDistance.param),
      undefined,
      maxDistanceLimit(state),
    );
    state.maxDistance = value;
    if (note) notes.push(note);
  }
  return { state, notes };
}

/**
 * The n a sentence gives where the link names none, as the sentence box sets it: its word count (at
 * most MAX_TOKENS); an empty sentence keeps the default n.
 */
const nOfSentence = (tokens) => {
  const words = splitTokens(tokens).length;
  return words ? Math.min(MAX_TOKENS, words) : CONTROLS.seqLen.default;
};

/** The query string for a state: only what differs from the defaults, and n where the sentence would not give it. */
export function queryFromState(state) {
  const params = new URLSearchParams();
  for (const [name, c] of Object.entries(CONTROLS)) {
    const implied =
      name === 'seqLen' && state.tokens !== CONTROLS.tokens.default ? nOfSentence(state.tokens) : c.default;
    if (state[name] === implied) continue;
    params.set(c.param, c.kind === 'bool' ? (state[name] ? '1' : '0') : String(state[name]));
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}
