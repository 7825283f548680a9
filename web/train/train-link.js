// The training section's set-up in a link (docs/training.md, "A link to the section"):
// ?train=<task>&train-size=<size>&train-seed=<n> open the section on that task, model size and
// seed; while it is open the page's address keeps them (train-loader.js, through the page's one
// writer). A choice matches whatever its case; a value that is not one of the choices is
// corrected, with a note; an empty one is the default; a parameter given more than once is read
// from its first, with a note (../settings/link-values.js, as every parameter of the page). Pure.
import { MAX_SEED } from '../api/limits.js';
import { linkValue, matchChoice, unknownChoice } from '../settings/link-values.js';
import { DEFAULT_RUN, PRESETS, TASKS } from './train-session.js';
import { LOADER_PARAMS } from './loader-params.js';

/**
 * The set-up's parameters. The page's loader (train-loader.js, in the first load, without this
 * file) takes every train… parameter but its own (LOADER_PARAMS) for the section's.
 */
export const TRAIN_PARAMS = Object.freeze({ task: 'train', preset: 'train-size', seed: 'train-seed' });

/**
 * A seed as typed or linked: { value } an integer from 0 to MAX_SEED; a number outside that or
 * not whole is rounded and clamped, and a note says so; text that is no number is `fallback`,
 * with a note; nothing typed is `fallback`, without one. `label` names the field in the note.
 */
export function parseSeed(text, fallback, label = TRAIN_PARAMS.seed) {
  const typed = String(text ?? '').trim();
  if (typed === '') return { value: fallback };
  const number = Number(typed);
  const value = Number.isFinite(number) ? Math.min(MAX_SEED, Math.max(0, Math.round(number))) : fallback;
  return value === number
    ? { value }
    : { value, note: `${label} must be an integer from 0 to ${MAX_SEED}; using ${value}` };
}

/**
 * The set-up a link asks for (`params`: its URLSearchParams): { task, preset, seed }, the defaults
 * (DEFAULT_RUN) where it says nothing; `correct(note)` for each value corrected, and for each
 * train… parameter the section does not know (a misspelt name).
 */
export function setupFromLink(params, correct) {
  const names = Object.values(TRAIN_PARAMS);
  for (const name of new Set(params.keys()))
    if (/^train(-|$)/.test(name) && !names.includes(name) && !LOADER_PARAMS.includes(name))
      correct(`${name}: not a parameter of the training section; use ${names.join(', ')}`);
  const choose = (name, known, fallback) => {
    const given = linkValue(params, name, correct)?.trim();
    if (!given) return fallback;
    const choice = matchChoice(given, Object.keys(known));
    if (choice !== null) return choice;
    correct(unknownChoice(name, given, Object.keys(known), fallback));
    return fallback;
  };
  const task = choose(TRAIN_PARAMS.task, TASKS, DEFAULT_RUN.task);
  const preset = choose(TRAIN_PARAMS.preset, PRESETS, DEFAULT_RUN.preset);
  const seed = parseSeed(linkValue(params, TRAIN_PARAMS.seed, correct), DEFAULT_RUN.seed);
  if (seed.note) correct(seed.note);
  return { task, preset, seed: seed.value };
}

/**
 * The parameters that keep a set-up in the address ([[param, value]]): the task always (the
 * section is open), the size and the seed where they are not the defaults.
 */
export function linkOfSetup({ task, preset, seed }) {
  return [
    [TRAIN_PARAMS.task, task],
    ...(preset === DEFAULT_RUN.preset ? [] : [[TRAIN_PARAMS.preset, preset]]),
    ...(seed === DEFAULT_RUN.seed ? [] : [[TRAIN_PARAMS.seed, String(seed)]]),
  ];
}
