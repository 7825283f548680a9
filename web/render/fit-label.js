// A label shortened with "…" to fit a width on a canvas, in a bounded number of measurements:
// at most MAX_LABEL_CHARS characters are ever measured, and the longest prefix that fits is
// found by bisection (a prefix is never wider than a longer one), so a token of thousands of
// characters costs about ten measurements, not one per character. And an axis title kept whole
// between two edges (fillTextWithin): moved, then condensed, never cut.

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
 * Draws `text` (an axis title: it must be read whole) centred at x, baseline as set, moved to
 * stay between `left` and `right` (CSS px), and condensed to that width where it is wider.
 * Returns the x range it takes, { left, right }.
 */
export function fillTextWithin(g, text, x, y, left, right) {
  const width = g.measureText(text).width;
  const room = Math.max(1, right - left);
  g.textAlign = 'center';
  if (width > room) {
    g.fillText(text, left + room / 2, y, room);
    return { left, right: left + room };
  }
  const centre = Math.min(Math.max(x, left + width / 2), right - width / 2);
  g.fillText(text, centre, y);
  return { left: centre - width / 2, right: centre + width / 2 };
}
