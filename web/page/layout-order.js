// The page's blocks in the order they are seen, in the document too, so that the keyboard's order
// (Tab, a screen reader's reading) is the order seen at every width (style.css places them):
// on a phone (up to 640 px) panel 2 stands between the idea and the equations, above the story;
// on a tablet (641–1099 px) the inputs come first, then the panels, then the story. Wider, each
// block is where index.html puts it.

/** The layouts' media queries (style.css's). */
export const PHONE_LAYOUT = '(max-width: 640px)';
export const TABLET_LAYOUT = '(min-width: 641px) and (max-width: 1099px)';
/** From 1100 px: the story and the inputs in a column of their own beside the figures. */
export const SIDE_COLUMN_LAYOUT = '(min-width: 1100px)';

/**
 * Puts `node` into `parent` before `next` (null: at the end) keeping its state: moveBefore keeps
 * focus, and with it a cell read in a panel (a phone turned with a cell read). Where the browser
 * has no moveBefore, the focus is given back after the move.
 */
function moveInto(parent, node, next) {
  if (typeof parent.moveBefore === 'function') {
    parent.moveBefore(node, next);
    return;
  }
  const focused = node.contains(document.activeElement) ? document.activeElement : null;
  parent.insertBefore(node, next);
  focused?.focus({ preventScroll: true });
}

/**
 * Keeps `node` right after `anchor` while `layout` (a media query) matches, and at its own place
 * otherwise (before the sibling it had when this was called).
 */
export function keepAfterIn(layout, node, anchor) {
  if (!node || !anchor) return;
  const home = node.parentNode;
  const next = node.nextSibling;
  const query = matchMedia(layout);
  const place = () => {
    if (query.matches) {
      if (anchor.nextSibling !== node) moveInto(anchor.parentNode, node, anchor.nextSibling);
    } else if (node.parentNode !== home) moveInto(home, node, next?.parentNode === home ? next : null);
  };
  query.addEventListener('change', place);
  place();
}

/** The page's moves: panel 2 after the idea on a phone, the story after the panels on a tablet. */
export function followLayoutOrder(doc = document) {
  keepAfterIn(PHONE_LAYOUT, doc.getElementById('figure-positionBiases'), doc.querySelector('.page-header .idea'));
  keepAfterIn(TABLET_LAYOUT, doc.getElementById('story'), doc.getElementById('panels'));
}
