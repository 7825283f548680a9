// The figures' look, shared by the page (on :root) and the custom elements (on :host): theme
// colours as CSS custom properties (--relpos-*), light and dark, and the styles of a panel, its
// caption, buttons, tooltip and readout. Override any --relpos-* property to restyle
// (--relpos-tip-scale, the tooltip's type scale, is the present view's: cell-tip.js).

const LIGHT = `
  --relpos-bg: #f6f6f4;
  --relpos-fg: #1b1b1f;
  --relpos-muted: #55555c;
  --relpos-panel: #ffffff;
  --relpos-border: #d6d6dc;
  --relpos-accent: #1f5fae;
  --relpos-accent-fg: #ffffff;
  --relpos-grid: #e4e4e9;
  --relpos-line: #1f5fae;
  --relpos-outline: #111114;
  --relpos-outline-halo: #ffffff;
  --relpos-note: #8a4b00;
  --relpos-masked: #bdbdc4;
  color-scheme: light;`;

const DARK = `
  --relpos-bg: #131316;
  --relpos-fg: #ececf1;
  --relpos-muted: #a9a9b3;
  --relpos-panel: #1c1c21;
  --relpos-border: #36363e;
  --relpos-accent: #8ab8f5;
  --relpos-accent-fg: #0d1420;
  --relpos-grid: #2e2e35;
  --relpos-line: #8ab8f5;
  --relpos-outline: #ffffff;
  --relpos-outline-halo: #000000;
  --relpos-note: #ffc27a;
  --relpos-masked: #4a4a52;
  color-scheme: dark;`;

/** A theme's variables as { '--relpos-fg': '#…', … } ('light' or 'dark'). */
export function themeVariables(name) {
  return Object.fromEntries(
    [...(name === 'dark' ? DARK : LIGHT).matchAll(/(--relpos-[a-z-]+): ([^;]+);/g)].map((m) => [m[1], m[2]]),
  );
}

/** Every colour variable a host may set (README: "Colours"). */
export const COLOUR_VARIABLES = [...LIGHT.matchAll(/(--relpos-[a-z-]+):/g)].map((m) => m[1]);

const FIGURES = `
.relpos-panel { margin: 0; padding: 12px 14px; display: flex; flex-direction: column; min-width: 0;
  background: var(--relpos-panel); color: var(--relpos-fg); border: 1px solid var(--relpos-border); border-radius: 10px; }
.relpos-panel h2 { display: flex; align-items: baseline; gap: 8px; font-size: 1.05rem; margin: 0 0 4px; }
.relpos-number { display: inline-grid; place-items: center; min-width: 1.5em; height: 1.5em; border-radius: 50%;
  background: var(--relpos-accent); color: var(--relpos-accent-fg); font-size: 0.76em; } /* of its title: large with it in the present view */
/* The title, then the figure, then its caption: the matrices of one row start level below their
   one-line titles, whatever their captions' lengths (the caption's length only moves what is under it). */
.relpos-panel > figcaption { display: contents; }
.relpos-caption { order: 2; margin: 8px 0 0; font-size: 0.88rem; color: var(--relpos-muted); }
.relpos-canvas-wrap { order: 1; width: 100%; border-radius: 4px; }
.relpos-panel > :not(figcaption, .relpos-canvas-wrap) { order: 3; }
.relpos-panel > .relpos-actions { margin-top: auto; padding-top: 8px; }
.relpos-canvas-wrap:focus-visible { outline: 3px solid var(--relpos-accent); outline-offset: 2px; }
.relpos-panel canvas { display: block; margin: 0 auto; touch-action: pan-y; font-family: inherit; }
.relpos-actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.relpos-actions button { font: inherit; font-size: 0.88rem; padding: 5px 12px; border-radius: 6px; cursor: pointer;
  color: var(--relpos-fg); background: var(--relpos-bg); border: 1px solid var(--relpos-border); }
.relpos-actions button:hover { border-color: var(--relpos-accent); }
.relpos-actions button:focus-visible { outline: 3px solid var(--relpos-accent); outline-offset: 1px; }
.relpos-tooltip { position: fixed; left: 0; top: 0; z-index: 20; pointer-events: none; width: max-content; max-width: min(28em, 92vw);
  background: var(--relpos-panel); color: var(--relpos-fg); border: 1px solid var(--relpos-border); border-radius: 8px;
  padding: 8px 10px; font-size: calc(0.85rem * var(--relpos-tip-scale, 1)); box-shadow: 0 4px 18px rgb(0 0 0 / 0.18); display: grid; gap: 2px; }
.relpos-tooltip[hidden] { display: none; }
.relpos-tooltip div { display: flex; justify-content: space-between; gap: 14px; }
/* Where the tooltip is narrower than its rows (a 320 px phone), the labels wrap first: a value stays
   on one line while it can (it may still wrap between words, never past the box). */
.relpos-tip-label { color: var(--relpos-muted); flex: 1 1 0; min-width: 50%; }
.relpos-tip-value { font-variant-numeric: tabular-nums; font-weight: 600; overflow-wrap: break-word; text-align: right; flex: 0 1 auto; }
/* A sentence (why a weight fell) under its label, across the tooltip, rather than beside a label
   squeezed to a word a line. */
.relpos-tooltip div.relpos-tip-prose { display: block; }
.relpos-tip-prose .relpos-tip-value { display: block; text-align: left; }
/* The present view (present-view.js): one panel over the whole window, large type: the matrix
   under its title, the caption under the matrix (on a landscape screen beside it, so that the
   matrix gets the full height). */
/* Its height said, not left to inset: on a phone (Chromium's, emulated) the fixed box stopped 16 px
   short of the window's foot, the page showing under Leave. Its padding inside that height, in an
   element's shadow root too (where no page style sets border-box: Leave stood 29 px below 720). */
.relpos-panel.relpos-presenting { position: fixed; inset: 0; height: 100vh; height: 100dvh; box-sizing: border-box; z-index: 15; margin: 0; border: 0; border-radius: 0;
  padding: clamp(8px, 2vh, 24px) clamp(10px, 2.5vw, 40px); overflow: hidden; display: grid; gap: 4px 28px;
  grid-template-columns: minmax(0, 1fr); grid-template-rows: auto minmax(0, 1fr) auto auto;
  grid-template-areas: 'title' 'plot' 'text' 'actions'; }
.relpos-presenting figcaption { display: contents; }
.relpos-presenting h2 { grid-area: title; font-size: clamp(1.2rem, 3.4vh, 2.2rem); margin: 0; }
.relpos-presenting .relpos-caption { grid-area: text; font-size: clamp(0.95rem, 2.3vh, 1.5rem); min-height: 0; line-height: 1.4; margin: 0; }
.relpos-presenting .relpos-canvas-wrap { grid-area: plot; min-height: 0; overflow: hidden; margin: 0; }
.relpos-presenting .relpos-actions { grid-area: actions; justify-content: flex-end; margin: 0; }
.relpos-presenting .relpos-actions button { font-size: clamp(0.88rem, 1.8vh, 1.1rem); }
@media (min-aspect-ratio: 5/4) {
  .relpos-panel.relpos-presenting { grid-template-columns: minmax(0, 1fr) minmax(14em, 30%); grid-template-rows: auto minmax(0, 1fr) auto;
    grid-template-areas: 'title title' 'plot text' 'plot actions'; }
  .relpos-presenting .relpos-caption { align-self: center; }
  .relpos-presenting .relpos-canvas-wrap > canvas { margin: 0 0 0 auto; } /* the matrix beside its caption */
}
.relpos-caption sub, .relpos-caption sup { line-height: 0; }
/* A formula or a range, on one line (math-dom.js). */
.relpos-nowrap { white-space: nowrap; }
.relpos-visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }
`;

/**
 * The CSS for figures in a document (scope ':root'; data-theme="light" or "dark" on <html>, as the
 * page's ?theme= sets it, wins over the system's scheme) or in a custom element (scope ':host').
 */
export function figureCss(scope) {
  const theme =
    scope === ':host'
      ? `:host { ${LIGHT} }
:host([theme='dark' i]) { ${DARK} }
@media (prefers-color-scheme: dark) { :host(:not([theme='light' i]):not([theme='inherit' i])) { ${DARK} } }
:host([theme='inherit' i]:state(dark)) { ${DARK} }`
      : `:root { ${LIGHT} }
@media (prefers-color-scheme: dark) { :root:not([data-theme='light']) { ${DARK} } }
:root[data-theme='dark'] { ${DARK} }`;
  return `${theme}\n${FIGURES}`;
}

/** Adds the figure CSS to a document or shadow root, once. */
export function adoptFigureCss(root, scope) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(figureCss(scope));
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
