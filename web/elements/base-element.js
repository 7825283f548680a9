// What both custom elements share: a shadow root with the figure CSS, a visible message line
// for invalid attributes and errors, batching of attribute changes into one render, redrawing
// on resize and on a change of the system theme, and a 'relpos-render' event after each render.
import { onPrintChange } from '../figures/print-sharp.js';
import { onSchemeChange } from '../figures/scheme-change.js';
import { sharedRelPos } from '../figures/shared-relpos.js';
import { fitOptions } from '../views/fit-options.js';
import { upgradeProperties } from './reflect.js';
import { ElementTheme } from './element-theme.js';

const HOST_CSS = `
:host { display: block; font-family: inherit; color: var(--relpos-fg); }
:host([hidden]) { display: none; }
.relpos-message { margin: 0 0 8px; padding: 6px 10px; border-radius: 6px; font-size: 0.85rem;
  color: var(--relpos-note); border: 1px solid currentColor; }
.relpos-message[hidden] { display: none; }
.relpos-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, var(--relpos-panel-min-width, 320px)), 1fr));
  gap: var(--relpos-gap, 12px); }
`;

/** The fit settings' properties (reflect.js): each reads what the element uses (readFit). */
export const FIT_READERS = {
  fit: (element) => element.readFit().fit,
  'max-height': (element) => element.readFit().maxHeight,
  captions: (element) => element.readFit().captions,
  actions: (element) => element.readFit().actions,
};
/** …the two switches among them, on by default. */
export const FIT_SWITCHES = { captions: true, actions: true };

// Outside a browser (server-side rendering, Node) there is no HTMLElement: the classes are
// still defined, so importing is safe anywhere, and index.js defines no elements there.
const ElementBase = globalThis.HTMLElement ?? class {};

export class RelposBaseElement extends ElementBase {
  /** Subclasses: the fits the element offers, its default first (fit-options.js); null: none. */
  static fits = null;

  /** The theme attribute's colours (not `theme`: that is the attribute's reflecting property). */
  #theme;
  /** What captions, actions and fit="box" hide: rules written from fitOptions (readFit). */
  #shown = new CSSStyleSheet();

  constructor() {
    super();
    this.shadow = this.attachShadow({ mode: 'open' });
    // The figure CSS and the theme attribute, inherit included (element-theme.js); a change of
    // scheme reaches redraw() through onSchemeChange (connectedCallback).
    this.#theme = new ElementTheme(this, this.shadow);
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(HOST_CSS);
    this.shadow.adoptedStyleSheets = [...this.shadow.adoptedStyleSheets, sheet, this.#shown];
    this.message = document.createElement('p');
    this.message.className = 'relpos-message';
    this.message.setAttribute('part', 'message');
    this.message.setAttribute('role', 'status');
    this.message.hidden = true;
    this.shadow.append(this.message);
    this.pending = false;
    this.lastWidth = 0;
  }

  connectedCallback() {
    upgradeProperties(this, this.constructor.reflected ?? []);
    this.resizeObserver ??= new ResizeObserver(() => {
      // The width decides the figures' size; with fit="box" the height too.
      const height = this.readFit().fit === 'box' ? this.clientHeight : 0;
      if (this.clientWidth !== this.lastWidth || height !== this.lastHeight) {
        this.lastWidth = this.clientWidth;
        this.lastHeight = height;
        this.redraw();
      }
    });
    this.resizeObserver.observe(this);
    this.stopScheme?.();
    this.stopScheme = onSchemeChange(this.shadow, () => this.redraw()); // the system's, or the theme attribute's
    this.stopPrint = onPrintChange(() => this.redraw()); // sharp in print
    this.scheduleRender();
  }

  disconnectedCallback() {
    this.resizeObserver?.disconnect();
    this.stopScheme?.();
    this.stopScheme = null;
    this.stopPrint?.();
    this.#theme.stop();
  }

  attributeChangedCallback() {
    this.scheduleRender();
  }

  /** Several attribute changes in one task become one render. */
  scheduleRender() {
    if (this.pending || !this.isConnected) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      this.renderSafely();
    });
  }

  /**
   * The fit, max-height, captions and actions attributes as the element uses them (fitOptions:
   * one reading, the switches by their one rule), with the notes on invalid ones.
   */
  readFit() {
    return fitOptions((name) => this.getAttribute(name), { fits: this.constructor.fits });
  }

  /** readFit(), and the captions and buttons shown or hidden to match. */
  #applyFit() {
    const options = this.readFit();
    this.#shown.replaceSync(
      [
        options.captions ? '' : '.relpos-caption { display: none; }',
        options.actions ? '' : '.relpos-actions { display: none; }',
        options.fit === 'box' ? ':host { overflow: hidden; }' : '',
      ].join('\n'),
    );
    return options;
  }

  async renderSafely() {
    let notes;
    try {
      this.#theme.follow();
      const fit = this.#applyFit();
      const rp = await sharedRelPos();
      if (!this.isConnected) return;
      notes = await this.render(rp);
      if (notes === null) return; // a newer render is on its way
      notes = [...notes, ...fit.notes];
    } catch (error) {
      notes = [`relpos: ${error.message}`];
    }
    const text = notes.join(' · ');
    const moved = text !== this.message.textContent || this.message.hidden !== (notes.length === 0);
    this.message.textContent = text;
    this.message.hidden = notes.length === 0;
    // The figures were fitted to a height before the message took (or gave back) its room.
    const { fit, maxHeight } = this.readFit();
    if (moved && (fit === 'box' || maxHeight !== null)) this.redraw();
    this.dispatchEvent(new CustomEvent('relpos-render', { detail: { notes }, bubbles: true, composed: true }));
  }

  /** Subclasses: compute and draw; return (or resolve to) the notes to show, null when superseded. */
  render() {
    return [];
  }

  /** Subclasses: draw again with the same numbers (size or theme changed). */
  redraw() {}
}
