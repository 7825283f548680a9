// ?theme=light|dark|auto: the page's colours, the iframe view's among them, whatever the reader's
// system (a course page that is dark frames a dark view). auto, the default, follows the reader's
// preference (prefers-color-scheme). Read once, at load: light or dark is set as data-theme on
// <html>, which the figure CSS selects on (../figures/figure-css.js); the address keeps it
// (url-writer.js) unless it is auto.
import { linkValue, matchChoice, unknownChoice } from '../settings/link-values.js';

export const THEME_PARAM = 'theme';
export const THEMES = ['light', 'dark', 'auto'];
const DEFAULT_THEME = 'auto';

/**
 * The theme a link asks for (`params`: its URLSearchParams), applied to the page; `note(text)` for
 * an unknown value (then auto) and a ?theme= given more than once (the first is read). Empty: auto.
 */
export function applyPageTheme(params, note) {
  const given = linkValue(params, THEME_PARAM, note)?.trim();
  let theme = given ? matchChoice(given, THEMES) : DEFAULT_THEME;
  if (theme === null) {
    note(unknownChoice(THEME_PARAM, given, THEMES, DEFAULT_THEME));
    theme = DEFAULT_THEME;
  }
  if (theme === DEFAULT_THEME) delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  return theme;
}
