// The page's state: every control, its default and bounds, and its URL parameter. The URL keeps
// the state (history.replaceState), so a shared link reproduces the view. Values from a URL are
// clamped or replaced by the default, with a note saying which.

export const DEFAULT_SENTENCE = 'the cat sat on the mat';
export const MAX_TOKENS = 64;

/** name -> { param, kind, default, min, max, step } */
export const CONTROLS = {
  seqLen: { param: 'n', kind: 'int', default: 6, min: 1, max: MAX_TOKENS },
  dK: { param: 'dk', kind: 'int', default: 4, min: 1, max: 64 },
  maxDistance: { param: 'k', kind: 'int', default: 3, min: 0, max: 63 },
  seed: { param: 'seed', kind: 'int', default: 42, min: 0, max: 4294967295 },
  causal: { param: 'causal', kind: 'bool', default: false },
  tokens: { param: 'tokens', kind: 'text', default: DEFAULT_SENTENCE },
  profileSeed: { param: 'pseed', kind: 'int', default: 42, min: 0, max: 4294967295 },
  profileDK: { param: 'pdk', kind: 'int', default: 4, min: 1, max: 64 },
  profileMaxDistance: { param: 'pk', kind: 'int', default: 5, min: 0, max: 32 },
  noise: { param: 'noise', kind: 'number', default: 0.1, min: 0, max: 2 },
  width: { param: 'width', kind: 'number', default: 1, min: 0.1, max: 20 },
  asymmetry: { param: 'asym', kind: 'number', default: 0, min: -0.9, max: 0.9 },
};

export function defaultState() {
  return Object.fromEntries(Object.entries(CONTROLS).map(([name, c]) => [name, c.default]));
}

/**
 * A control's value from text (a URL parameter or an input): returns { value, note }, where note
 * says what was wrong when the text was not a valid value (the value is then clamped or the
 * default).
 */
export function parseControl(name, text) {
  const c = CONTROLS[name];
  if (c.kind === 'text') {
    const clean = String(text).replace(/\s+/g, ' ').trim();
    return { value: clean.slice(0, 2000) };
  }
  if (c.kind === 'bool') {
    if (text === '1' || text === 'true') return { value: true };
    if (text === '0' || text === 'false') return { value: false };
    return { value: c.default, note: `${c.param} must be 0 or 1` };
  }
  const number = Number(String(text).trim());
  if (String(text).trim() === '' || !Number.isFinite(number)) {
    return { value: c.default, note: `${c.param} must be a number from ${c.min} to ${c.max}` };
  }
  let value = c.kind === 'int' ? Math.round(number) : number;
  value = Math.min(c.max, Math.max(c.min, value));
  return value === number ? { value } : { value, note: `${c.param} must be ${c.kind === 'int' ? 'an integer' : 'a number'} from ${c.min} to ${c.max}; using ${value}` };
}

/** The state from a query string, and the notes on anything that had to be corrected. */
export function stateFromQuery(search) {
  const params = new URLSearchParams(search);
  const state = defaultState();
  const notes = [];
  for (const [name, c] of Object.entries(CONTROLS)) {
    if (!params.has(c.param)) continue;
    const { value, note } = parseControl(name, params.get(c.param));
    state[name] = value;
    if (note) notes.push(note);
  }
  if (params.has('tokens') && !params.has('n')) state.seqLen = Math.max(1, Math.min(MAX_TOKENS, splitTokens(state.tokens).length));
  return { state, notes };
}

/** The query string for a state: only what differs from the defaults. */
export function queryFromState(state) {
  const params = new URLSearchParams();
  for (const [name, c] of Object.entries(CONTROLS)) {
    if (state[name] === c.default) continue;
    params.set(c.param, c.kind === 'bool' ? (state[name] ? '1' : '0') : String(state[name]));
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

export function splitTokens(text) {
  return text.split(' ').filter(Boolean);
}

/** n labels: the sentence's words in order, then "·7", "·8", … where the words run out. */
export function tokenLabels(text, n) {
  const words = splitTokens(text);
  return Array.from({ length: n }, (_, i) => words[i] ?? `·${i}`);
}
