// On a phone (style.css, up to 640 px) panel 2 stands between the idea and the equations, above
// the story and the inputs. The figure is moved there in the document as well, so that the
// keyboard's order (Tab, a screen reader's reading) is the order seen; wider, it goes back
// between panels 1 and 3.

/** The phone layout's media query (style.css's `@media (max-width: 640px)`). */
export const PHONE_LAYOUT = '(max-width: 640px)';

/**
 * Puts `node` into `parent` before `next` (null: at the end) keeping its state: moveBefore keeps
 * focus, and with it a cell read in the panel (a phone turned with a cell read). Where the browser
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
 * Keeps `figure` after `idea` while `PHONE_LAYOUT` matches and at its own place otherwise (before
 * the sibling it had when this was called).
 */
export function followPhoneOrder(figure, idea) {
  if (!figure || !idea) return;
  const home = figure.parentNode;
  const next = figure.nextSibling;
  const phone = matchMedia(PHONE_LAYOUT);
  const place = () => {
    if (phone.matches) {
      if (idea.nextSibling !== figure) moveInto(idea.parentNode, figure, idea.nextSibling);
    } else if (figure.parentNode !== home) moveInto(home, figure, next?.parentNode === home ? next : null);
  };
  phone.addEventListener('change', place);
  place();
}
