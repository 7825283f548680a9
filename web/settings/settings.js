// The settings behind every figure: each control's default, bounds and short name (the URL
// parameter on the page, the attribute of the custom elements). Text from a URL, an attribute
// or an input is clamped or replaced by the default, with a note saying which.

import {
  EXAMPLE_CHOICES,
  EXAMPLE_DEFAULTS,
  LOCALITY_PROFILE_DEFAULTS,
  LOCALITY_TABLE_DEFAULTS,
  ROPE_DEFAULTS,
  ROPE_LAYOUTS,
} from '../api/defaults.js';
import { MAX_SEED } from '../api/limits.js';
import { withMinus } from '../render/number-text.js';
import { matchChoice, parseSwitch, unknownChoice } from './link-values.js';

/**
 * Where the page departs from the API's defaults (the handbook's settings), on purpose: the
 * stable draw, so a change re-draws only what it concerns, and the locality table with a bump
 * tall enough to see. Every other default is the API's.
 */
export const PAGE_CHOICES = Object.freeze({ draw: 'stable', table: 'locality', strength: 8 });

const example = { ...EXAMPLE_DEFAULTS, ...LOCALITY_TABLE_DEFAULTS, ...PAGE_CHOICES };
const profile = LOCALITY_PROFILE_DEFAULTS;

export const DEFAULT_SENTENCE = 'the cat sat on the mat';
/** The sentence view (and the elements) show at most this many positions… */
export const MAX_TOKENS = 64;
/** …and the page's long-sequence view this many. */
export const MAX_LONG = 2048;

/** What is said when a sentence has more words than the sentence view draws (`count` of them). */
export const tooManyWords = (count) =>
  `the sentence view draws at most ${MAX_TOKENS} words: the first ${MAX_TOKENS} of your ${count} are drawn`;
/**
 * The one main-thread cut-off, for the page and the elements alike: up to this many positions
 * a view is computed on the page's main thread (the five n × n panels in a few ms), above it on
 * the worker pool, so that no input waits on a long computation.
 */
export const MAIN_THREAD_POSITIONS = 384;

/** name -> { param, kind, default, min, max, step } */
export const CONTROLS = {
  draw: { param: 'draw', attribute: 'draw', kind: 'choice', default: example.draw, choices: EXAMPLE_CHOICES.draw },
  table: {
    param: 'table',
    attribute: 'table',
    kind: 'choice',
    default: example.table,
    choices: EXAMPLE_CHOICES.table,
  },
  sameQuery: { param: 'sameq', attribute: 'same-query', kind: 'bool', default: example.sameQuery },
  seqLen: { param: 'n', attribute: 'seq-len', kind: 'int', default: example.seqLen, min: 1, max: MAX_LONG },
  long: { param: 'long', attribute: null, kind: 'bool', default: false },
  dK: { param: 'dk', attribute: 'd-k', kind: 'int', default: example.dK, min: 1, max: 64 },
  maxDistance: { param: 'k', attribute: 'max-distance', kind: 'int', default: example.maxDistance, min: 0, max: 63 },
  seed: { param: 'seed', attribute: 'seed', kind: 'int', default: example.seed, min: 0, max: MAX_SEED },
  causal: { param: 'causal', attribute: 'causal', kind: 'bool', default: example.causal },
  tokens: { param: 'tokens', attribute: 'tokens', kind: 'text', default: DEFAULT_SENTENCE },
  profileSeed: { param: 'pseed', attribute: 'seed', kind: 'int', default: profile.seed, min: 0, max: MAX_SEED },
  profileDK: { param: 'pdk', attribute: 'd-k', kind: 'int', default: profile.dK, min: 1, max: 64 },
  profileMaxDistance: {
    param: 'pk',
    attribute: 'max-distance',
    kind: 'int',
    default: profile.maxDistance,
    min: 0,
    max: 32,
  },
  strength: { param: 'strength', attribute: 'strength', kind: 'number', default: example.strength, min: 0, max: 20 },
  noise: { param: 'noise', attribute: 'noise', kind: 'number', default: example.noise, min: 0, max: 2 },
  width: { param: 'width', attribute: 'width', kind: 'number', default: example.width, min: 0.1, max: 20 },
  asymmetry: { param: 'asym', attribute: 'asymmetry', kind: 'number', default: example.asymmetry, min: -0.9, max: 0.9 },
  // The weight panels' colours: one scale for both (shared) or each its own (panel); the page only.
  weightScale: { param: 'wscale', attribute: null, kind: 'choice', default: 'shared', choices: ['shared', 'panel'] },
  // The position schemes side by side (web/page/schemes-section.js): which columns, m for the
  // shift experiment, RoPE's pairing.
  schemes: { param: 'schemes', attribute: null, kind: 'text', default: 'shaw,t5,alibi,rope,sinusoidal' },
  shift: { param: 'shift', attribute: null, kind: 'int', default: 3, min: 1, max: 16 },
  ropeLayout: {
    param: 'rope',
    attribute: null,
    kind: 'choice',
    default: ROPE_DEFAULTS.layout,
    choices: ROPE_LAYOUTS,
  },
};

/**
 * The largest clipping distance k for a state: 63 in the sentence view (and the elements); in
 * the long view n − 1 (at least 63), where the offset-space panels show 2k + 1 columns.
 */
export function maxDistanceLimit(state) {
  return state.long ? Math.max(CONTROLS.maxDistance.max, state.seqLen - 1) : CONTROLS.maxDistance.max;
}

/** The settings of the attention panels (the locality table's shape among them)… */
export const ATTENTION_SETTINGS = [
  'draw',
  'table',
  'sameQuery',
  'seqLen',
  'dK',
  'maxDistance',
  'seed',
  'causal',
  'tokens',
  'strength',
  'noise',
  'width',
  'asymmetry',
];
/** …and of <relpos-profile>, the handbook's figure on its own. */
export const PROFILE_SETTINGS = ['profileSeed', 'profileDK', 'profileMaxDistance', 'noise', 'width', 'asymmetry'];

export function defaultState() {
  return Object.fromEntries(Object.entries(CONTROLS).map(([name, c]) => [name, c.default]));
}

/**
 * A control's value from text (a URL parameter or an input): returns { value, note }, where note
 * says what was wrong when the text was not a valid value (the value is then clamped or the
 * default). A choice matches whatever its case; a switch is read by link-values.js's switchFromText.
 */
export function parseControl(name, text, label = CONTROLS[name].param, max = CONTROLS[name].max) {
  const c = { ...CONTROLS[name], param: label, max };
  if (c.kind === 'text') {
    const clean = String(text).replace(/\s+/g, ' ').trim();
    return { value: clean.slice(0, 2000) };
  }
  if (c.kind === 'choice') {
    const choice = matchChoice(text, c.choices);
    if (choice !== null) return { value: choice };
    return { value: c.default, note: unknownChoice(c.param, text, c.choices, c.default) };
  }
  if (c.kind === 'bool') {
    const notes = [];
    const value = parseSwitch(c.param, text, c.default, notes);
    return notes.length ? { value, note: notes[0] } : { value };
  }
  const number = Number(String(text).trim());
  if (String(text).trim() === '' || !Number.isFinite(number)) {
    return {
      value: c.default,
      note: `${c.param} must be a number from ${withMinus(c.min)} to ${c.max}; using ${withMinus(c.default)}`,
    };
  }
  let value = c.kind === 'int' ? Math.round(number) : number;
  value = Math.min(c.max, Math.max(c.min, value));
  return value === number
    ? { value }
    : {
        value,
        note: `${c.param} must be ${c.kind === 'int' ? 'an integer' : 'a number'} from ${withMinus(c.min)} to ${c.max}; using ${withMinus(value)}`,
      };
}

export function splitTokens(text) {
  return text.split(' ').filter(Boolean);
}

/** n tokens: the sentence's words in order, then '' where the words run out. */
export function tokenLabels(text, n) {
  const words = splitTokens(text);
  return Array.from({ length: n }, (_, i) => words[i] ?? '');
}
