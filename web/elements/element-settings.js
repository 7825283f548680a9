// Reading an element's attributes into figure settings: every value is parsed like a URL
// parameter (web/settings/settings.js); what is wrong becomes a note shown in the element, and
// the default or clamped value is used. Nothing here throws.
import { CONTROLS, defaultState, parseControl, splitTokens } from '../settings/settings.js';
import { unknownChoice } from '../settings/link-values.js';

export const THEMES = ['light', 'dark', 'auto', 'inherit'];

/**
 * The theme an element draws in: its theme attribute, in any case (the figure CSS selects on it
 * with the `i` flag); 'auto' where absent or not one of THEMES (then, given `notes`, a note says so).
 */
export const themeOf = (element, notes = null) => {
  const theme = element.getAttribute('theme');
  if (theme === null) return 'auto';
  if (THEMES.includes(theme.toLowerCase())) return theme.toLowerCase();
  notes?.push(unknownChoice('theme', theme, THEMES, 'auto'));
  return 'auto';
};

/**
 * The longest sequence an element draws: up to MAIN_THREAD_POSITIONS (settings.js) it computes
 * on the main thread, above on the page's worker pool. Its square panels have n² cells: 512² is as fine as a
 * panel's pixels can show, and its six float64 panels take 12 MB.
 */
export const MAX_ELEMENT_TOKENS = 512;

/** Settings named in `names` from the element's attributes, with notes on invalid values. */
export function settingsFromAttributes(element, names) {
  const settings = defaultState();
  const notes = [];
  for (const name of names) {
    const { attribute } = CONTROLS[name];
    if (!element.hasAttribute(attribute)) continue;
    const text = element.getAttribute(attribute); // a bare boolean attribute, '', is on
    const max = name === 'seqLen' ? MAX_ELEMENT_TOKENS : CONTROLS[name].max;
    const { value, note } = parseControl(name, text, attribute, max);
    settings[name] = value;
    if (note) notes.push(note);
  }
  if (names.includes('tokens') && element.hasAttribute('tokens') && !element.hasAttribute('seq-len')) {
    settings.seqLen = Math.max(1, Math.min(MAX_ELEMENT_TOKENS, splitTokens(settings.tokens).length));
  }
  themeOf(element, notes);
  return { settings, notes };
}

export const attributesOf = (names) => names.map((name) => CONTROLS[name].attribute);
