// A label shortened with "…" to fit a width on a canvas, in a bounded number of measurements:
// at most MAX_LABEL_CHARS characters are ever measured, and the longest prefix that fits is
// found by bisection (a prefix is never wider than a longer one), so a token of thousands of
// characters costs about ten measurements, not one per character. And an axis title kept whole
// between two edges (textWithin, fillTextWithin): moved, then condensed, never cut.

/** The most characters of a label measured or drawn (no label room holds more). */
export const MAX_LABEL_CHARS = 200;

/** `text` as drawn in `width` CSS px with the context's font: itself, or its longest prefix that fits with "…". */
export function fitLabel(g, text, width) {
  const head = text.length > MAX_LABEL_CHARS ? text.slice(0, MAX_LABEL_CHARS) : text;
  if (head === text && g.measureText(text).width <= width) return text;
  const fits = (end) => g.measureText(`${head.slice(0, end)}…`).width <= width;
  let low = 1;
  let high = head.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  // Never half of a surrogate pair.
  const code = head.charCodeAt(low - 1);
  const end = low > 1 && code >= 0xd800 && code <= 0xdbff ? low - 1 : low;
  return `${head.slice(0, end)}…`;
}

/**
 * Where `text` (an axis title: it must be read whole) stands, centred at x, in the context's font:
 * moved to stay between `left` and `right` (CSS px), and condensed to that width where it is
 * wider. Returns { x: its centre, maxWidth: the width it is condensed to (undefined: its own),
 * left, right: the x range it takes }.
 */
export function textWithin(g, text, x, left, right) {
  const width = g.measureText(text).width;
  const room = Math.max(1, right - left);
  if (width > room) return { x: left + room / 2, maxWidth: room, left, right: left + room };
  const centre = Math.min(Math.max(x, left + width / 2), right - width / 2);
  return { x: centre, maxWidth: undefined, left: centre - width / 2, right: centre + width / 2 };
}

/** Draws `text` where textWithin places it, baseline as set. Returns the x range it takes, { left, right }. */
export function fillTextWithin(g, text, x, y, left, right) {
  const at = textWithin(g, text, x, left, right);
  g.textAlign = 'center';
  if (at.maxWidth === undefined) g.fillText(text, at.x, y);
  else g.fillText(text, at.x, y, at.maxWidth);
  return { left: at.left, right: at.right };
}
