// A caption that keeps the tallest height it has had while only its numbers change, so that a
// shorter sentence (a k dragged to n − 1, a seed whose numbers wrap on fewer lines) never moves
// what is below it; a new `room` (the width it was drawn at) starts afresh.

/**
 * For each { caption, room } (an element and the key of what sizes it): a new room clears its
 * min-height; then every height is read (one layout) and each caption's min-height raised to it.
 */
export function keepCaptionHeights(captions) {
  for (const { caption, room } of captions)
    if (caption.dataset.room !== room) {
      caption.dataset.room = room;
      caption.style.minHeight = '';
    }
  const heights = captions.map(({ caption }) => caption.getBoundingClientRect().height);
  captions.forEach(({ caption }, index) => {
    if (heights[index] > parseFloat(caption.style.minHeight || '0')) caption.style.minHeight = `${heights[index]}px`;
  });
}
