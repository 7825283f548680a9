// The controls: their limits (settings.js's CONTROLS), an edit read into the next state, and the
// state written back into the form.
import {
  CONTROLS,
  MAX_LONG,
  MAX_TOKENS,
  defaultState,
  maxDistanceLimit,
  parseControl,
  splitTokens,
  tooManyWords,
} from '../settings/settings.js';
import { setMathText } from '../figures/math-dom.js';
import { withMinus } from '../render/number-text.js';
import { keepRangeWhenScrolled } from './range-touch.js';

const $ = (id) => document.getElementById(id);

/** What the numbers are, for the current draw (under the controls; math notation of render/math-text.js). */
const DRAW_EXPLAIN = {
  stable:
    'Stable numbers: each word’s embedding (d_{model} = 8), the weights W_Q, W_K, W_V and each offset’s rows of a^K and a^V are drawn from a numpy stream of their own, seeded by the seed and what they stand for. A word has the same vectors wherever it stands, and changing k only adds or removes table rows. Rows are query positions i, columns key positions j; offsets are j − i, so negative offsets look back.',
  handbook:
    'The handbook’s numbers: X, W_Q, W_K, W_V, a^K and a^V are drawn in that order from np.random.seed(seed) (d_{model} = 8), exactly as the handbook does, so any change re-draws every number; the words only name the positions. (With the locality table, a^K is the handbook’s simulated table, from its own np.random.seed(seed).) Rows are query positions i, columns key positions j; offsets are j − i, so negative offsets look back.',
};

/** What the Tokens box's words are under each draw (the label's note). */
const TOKENS_DRAW = {
  stable: '(with stable numbers, each word has its own vectors)',
  handbook: '(with the handbook’s numbers, the words only name the positions)',
};

/** The controls under "More settings", and how the summary line names a value that is not the default. */
const MORE_SETTINGS = {
  seqLen: (v) => `n = ${v}`,
  dK: (v) => `d_k = ${v}`,
  seed: (v) => `seed ${v}`,
  draw: () => 'the handbook’s numbers',
  weightScale: () => 'each weight panel its own colours',
  long: () => 'long sequences',
  table: (v) => `${v} table`,
  strength: (v) => `bump height ${v}`,
  width: (v) => `σ ${v}`,
  asymmetry: (v) => `asymmetry ${withMinus(v)}`,
  noise: (v) => `noise ${v}`,
};

/** What "More settings" holds that is not the default (n only when the words do not set it), or ''. */
export function moreSettingsSummary(state) {
  const defaults = defaultState();
  const changed = Object.entries(MORE_SETTINGS).filter(([name]) => {
    if (name === 'seqLen') return state.long || state.seqLen !== Math.min(MAX_TOKENS, splitTokens(state.tokens).length);
    if (state.table === 'random' && LOCALITY_CONTROLS.includes(name)) return false; // ignored
    return state[name] !== defaults[name];
  });
  return changed.map(([name, text]) => text(state[name])).join(', ');
}

/** The shape controls a random table ignores. */
const LOCALITY_CONTROLS = ['strength', 'width', 'asymmetry', 'noise'];

/** The form's inputs, one a control (<relpos-profile>'s own settings have no control here). */
function controlInputs() {
  return Object.keys(CONTROLS)
    .map((name) => $(name))
    .filter(Boolean);
}

function setLimits(input) {
  const c = CONTROLS[input.name];
  if (c.kind !== 'int' && c.kind !== 'number') return;
  input.min = String(c.min);
  input.max = String(c.max);
  if (c.kind === 'int') input.step = '1';
}

/** The state after an edit of `input`, and its notes; null mid-edit (a number box left empty). */
export function stateAfterEdit(input, state) {
  const raw = input.type === 'checkbox' ? (input.checked ? '1' : '0') : input.value;
  const limit = input.name === 'maxDistance' ? maxDistanceLimit(state) : undefined;
  const { value, note } = parseControl(input.name, raw, undefined, limit);
  if (note && input.type === 'number' && input.value === '') return null; // wait for a number
  const words = (text) => splitTokens(text).length;
  let next = state;
  // A new word count sets n (an empty box keeps it); other edits keep a slider-chosen n.
  if (input.name === 'tokens' && words(value) > 0 && words(value) !== words(state.tokens))
    next = { ...next, seqLen: Math.min(MAX_TOKENS, words(value)) };
  next = { ...next, [input.name]: value };
  if (input.name === 'long' && !value) next.seqLen = Math.min(next.seqLen, MAX_TOKENS);
  if (input.name === 'seqLen' && !next.long) next.seqLen = Math.min(next.seqLen, MAX_TOKENS);
  next.maxDistance = Math.min(next.maxDistance, maxDistanceLimit(next));
  const notes = note ? [note] : [];
  // More words than the sentence view draws: said, not dropped in silence.
  if (input.name === 'tokens' && words(value) > MAX_TOKENS) notes.push(`${tooManyWords(words(value))}.`);
  return { state: next, notes };
}

// The writers below write only what differs: a write of the same value still invalidates style or
// layout, which the panels' width reads in the same task then have to bring up to date.

/** The limits and the explanations that depend on the state (n's range, k's, the long view). */
function syncLimits(state) {
  const max = String(state.long ? MAX_LONG : MAX_TOKENS);
  if ($('seqLen').max !== max) $('seqLen').max = max;
  const end = String(kTrackEnd(state));
  if ($('maxDistance').max !== end) $('maxDistance').max = end;
  if ($('tokens').disabled !== state.long) $('tokens').disabled = state.long;
  if ($('long-explain').hidden === state.long) $('long-explain').hidden = !state.long;
  if ($('long-orientation').hidden === state.long) $('long-orientation').hidden = !state.long;
  if ($('computing').hidden === state.long) $('computing').hidden = !state.long;
  setMathText($('draw-explain'), DRAW_EXPLAIN[state.draw]);
  if ($('tokens-draw').textContent !== TOKENS_DRAW[state.draw]) $('tokens-draw').textContent = TOKENS_DRAW[state.draw];
  const summary = moreSettingsSummary(state);
  const summaryLine = $('more-settings-summary');
  if (summaryLine.dataset.text !== summary) {
    summaryLine.dataset.text = summary;
    setMathText(summaryLine, summary ? `(in force: ${summary})` : '');
  }
  const random = state.table === 'random';
  for (const name of LOCALITY_CONTROLS) if ($(name).disabled !== random) $(name).disabled = random;
  const drawn = drawnWordsText(state);
  if ($('tokens-n').textContent !== drawn) $('tokens-n').textContent = drawn;
}

/**
 * Where k's slider ends: in the sentence view at n − 1 (a larger k clips no offset, so every
 * step of the track changes the panels), at least 1; in the long view at its limit, n − 1 or 63.
 * A larger k in force (kept from a longer sentence, or a link's, up to 63) stays in force and is
 * what the slider's number and its spoken value say, the thumb at the track's end.
 */
export function kTrackEnd(state) {
  if (state.long) return maxDistanceLimit(state);
  return Math.min(maxDistanceLimit(state), Math.max(1, state.seqLen - 1));
}

/** What the panels draw of the typed words: all of them, the first n, or them and positions #i without a word. */
export function drawnWordsText({ long, seqLen: n, tokens }) {
  const count = splitTokens(tokens).length;
  const these = (m) => (m === 1 ? 'this one word' : `these ${m} words`);
  if (long) return `n = ${n}: the long view draws positions, not words.`;
  if (n === count) return `n = ${n}: the panels draw ${these(n)}.`;
  if (n < count) return `n = ${n}: the panels draw the first ${n === 1 ? 'word' : n} of ${these(count)}.`;
  // A position without a typed word is the word "#i", with vectors of its own.
  const made = (from) => (n - from === 1 ? `position #${from}` : `positions #${from}–#${n - 1}`);
  if (count === 0) return `n = ${n}: the panels draw ${made(0)}, each with vectors of its own.`;
  return `n = ${n}: the panels draw ${these(count)}, then ${made(count)} with vectors of ${n - count === 1 ? 'its' : 'their'} own.`;
}

/** Room for the longest of drawnWordsText's sentences (hidden, stacked under the one shown). */
function reserveDrawnWordsRoom() {
  const longest = [
    { long: false, seqLen: MAX_TOKENS - 1, tokens: 'w '.repeat(888) },
    { long: false, seqLen: MAX_TOKENS, tokens: 'w '.repeat(MAX_TOKENS - 10) },
    { long: false, seqLen: MAX_TOKENS, tokens: '' },
    { long: true, seqLen: MAX_LONG, tokens: '' },
  ];
  for (const state of longest) {
    const room = document.createElement('span');
    room.setAttribute('aria-hidden', 'true');
    room.textContent = drawnWordsText(state);
    $('tokens-n').after(room);
  }
}

/** Each input's value (not the one being typed in) and its printed value. */
function syncValues(inputs, state) {
  for (const input of inputs) {
    const value = state[input.name];
    if (input.type === 'checkbox') {
      if (input.checked !== value) input.checked = value;
    } else if ((document.activeElement !== input || input.type === 'range') && input.value !== String(value))
      input.value = String(value);
    const out = $(`${input.name}-out`);
    if (out && out.textContent !== String(value)) out.textContent = String(value);
    // A range whose value is past its track's end (k above n − 1) says the value in force.
    if (input.type === 'range' && input.getAttribute('aria-valuetext') !== String(value))
      input.setAttribute('aria-valuetext', String(value));
  }
}

/**
 * Wires the form: each edit, and Reset, hands `onEdit({ state, notes })` the next state.
 * Returns sync(state), which writes a state into the form.
 */
export function wireControls({ getState, onEdit }) {
  const inputs = controlInputs();
  reserveDrawnWordsRoom();
  for (const input of inputs) {
    setLimits(input);
    const edited = () => {
      const edit = stateAfterEdit(input, getState());
      if (edit) onEdit(edit);
    };
    input.addEventListener('input', edited);
    input.addEventListener('change', edited);
    if (input.type === 'range') keepRangeWhenScrolled(input);
  }
  $('reset').addEventListener('click', () => onEdit({ state: defaultState(), notes: [] }));
  return (state) => {
    syncLimits(state);
    syncValues(inputs, state);
  };
}
