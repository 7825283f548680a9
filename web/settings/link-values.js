// How every reader of the page's address (and of an element's attributes) takes a value: one with
// a fixed set of choices matches whatever its case, and is used as the choices write it (so the
// address is written back in that case); a parameter given more than once is read from its first,
// and a note says so. The readers: web/page/url-state.js (the page's controls), ?present= and the
// iframe view's ?panels= and ?fit=, the training section's ?train= and ?train-size=
// (web/train/train-link.js).

/**
 * The note for a value that is none of a fixed set of choices, one wording for every link
 * parameter and attribute: "name: unknown value; choose from a, b, c; using fallback" (`value`
 * may list several, "heat, warmth"; an empty value reads "name: empty; …"; no "using" part when
 * `using` is null).
 */
export function unknownChoice(name, value, choices, using = null) {
  const given = String(value ?? '').trim() === '' ? 'empty' : `unknown ${value}`;
  return `${name}: ${given}; choose from ${choices.join(', ')}${using === null ? '' : `; using ${using}`}`;
}

/** A switch's words, whatever their case: these turn it on (the empty text too: a bare attribute or `?name`)… */
const SWITCH_ON = ['1', 'true', 'on', 'yes'];
/** …and these off. One rule for every switch: the page's address, the elements' attributes, fit-options. */
const SWITCH_OFF = ['0', 'false', 'off', 'no'];
/** The words a note offers for a switch, on first then off. */
export const SWITCH_WORDS = Object.freeze([...SWITCH_ON, ...SWITCH_OFF]);

/** A switch from its text: true, false, or null when the text is neither (or null: absent). */
export function switchFromText(text) {
  if (text === null || text === undefined) return null;
  const word = String(text).trim().toLowerCase();
  if (word === '' || SWITCH_ON.includes(word)) return true;
  return SWITCH_OFF.includes(word) ? false : null;
}

/**
 * A boolean setting named `name`: `fallback` when absent (null or undefined), else its text by
 * switchFromText; unreadable text gives `fallback` and pushes a note onto `notes` that says so.
 */
export function parseSwitch(name, text, fallback, notes) {
  if (text === null || text === undefined) return fallback;
  const value = switchFromText(text);
  if (value !== null) return value;
  notes.push(unknownChoice(name, text, SWITCH_WORDS, fallback ? 'on' : 'off'));
  return fallback;
}

/** `text` as one of `choices` whatever its case and the spaces around it: that choice as written, or null. */
export function matchChoice(text, choices) {
  const asked = String(text ?? '')
    .trim()
    .toLowerCase();
  return choices.find((choice) => choice.toLowerCase() === asked) ?? null;
}

/**
 * Parameter `name` of a link (`params`: its URLSearchParams): its first value, null where it is
 * absent; where it is given more than once, `note(text)` says how often, with what, and that the
 * first is read.
 */
export function linkValue(params, name, note) {
  const values = params.getAll(name);
  if (values.length > 1) {
    const shown = values.map((value) => (value.trim() === '' ? 'empty' : value));
    note(`${name} is given ${values.length} times (${shown.join(', ')}); the first is read`);
  }
  return values[0] ?? null;
}
