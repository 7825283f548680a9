// When the colours a figure is drawn in may change without a resize: the system's colour scheme
// (prefers-color-scheme), or, inside a custom element, its theme (a new theme attribute, or with
// theme="inherit" a change of the page around it: the element dispatches SCHEME_CHANGE on its
// shadow root, web/elements/element-theme.js). The canvases read their colours from the CSS when
// drawn, so they draw again.

/** The event an element's shadow root receives when the scheme its figures are drawn in may have changed. */
export const SCHEME_CHANGE = 'relpos-scheme-change';

/**
 * Calls redraw() on either change for the figures in `node` (connected: the tree it is in, a
 * document or a shadow root, is the one listened to). Returns stop().
 */
export function onSchemeChange(node, redraw) {
  const doc = node.ownerDocument ?? node;
  const media = doc.defaultView?.matchMedia?.('(prefers-color-scheme: dark)');
  const root = node.getRootNode?.() ?? doc;
  media?.addEventListener('change', redraw);
  root.addEventListener(SCHEME_CHANGE, redraw);
  return () => {
    media?.removeEventListener('change', redraw);
    root.removeEventListener(SCHEME_CHANGE, redraw);
  };
}
