// Every element's theme, one path for all (base-element.js, relpos-train.js): the figure CSS with
// its light and dark variables (theme="light", "dark", "auto": the system's), and with
// theme="inherit" the page's scheme (a `dark` custom state the CSS selects on) and the page's own
// --relpos-* variables (host-theme.js), watched while inherit lasts. When the scheme may have
// changed, the element's shadow root gets SCHEME_CHANGE: its figures, listening with
// onSchemeChange (../figures/scheme-change.js), draw again in the new colours.
import { adoptFigureCss } from '../figures/figure-css.js';
import { SCHEME_CHANGE } from '../figures/scheme-change.js';
import { hostScheme, hostVariables, watchHost } from './host-theme.js';

export class ElementTheme {
  #element;
  #shadow;
  #internals;
  #hostSheet = new CSSStyleSheet();
  #stopWatching = null;

  /** For `element` (in its constructor), whose figures are in `shadow`. */
  constructor(element, shadow) {
    this.#element = element;
    this.#shadow = shadow;
    adoptFigureCss(shadow, ':host');
    this.#internals = element.attachInternals();
    shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, this.#hostSheet];
  }

  /** Reads the theme attribute: with inherit, takes the page's scheme and variables and watches them (else stops). */
  follow() {
    const inherit = this.#element.getAttribute('theme')?.toLowerCase() === 'inherit';
    if (!inherit) {
      this.stop();
      this.#hostSheet.replaceSync('');
      this.#internals.states.delete('dark');
      return;
    }
    if (hostScheme(this.#element) === 'dark') this.#internals.states.add('dark');
    else this.#internals.states.delete('dark');
    const variables = hostVariables(this.#element);
    this.#hostSheet.replaceSync(variables ? `:host([theme='inherit' i][theme][theme]) { ${variables} }` : '');
    this.#stopWatching ??= watchHost(this.#element, () => {
      this.follow();
      this.changed(); // the canvases' labels and colours too
    });
  }

  /** The scheme may have changed (the page around, or the theme attribute): the figures draw again. */
  changed() {
    this.#shadow.dispatchEvent(new Event(SCHEME_CHANGE));
  }

  /** Stops watching the page (disconnected, or no longer inherit). */
  stop() {
    this.#stopWatching?.();
    this.#stopWatching = null;
  }
}
