// A legend's labels laid out in rows across a plot (wrapping when a row is full): where each label
// starts, and the baseline of the last row (the plot grows by the rows past the first).

/** [x, y] of each label (each a swatch and its text, 26 px apart), measured in `context`'s font. */
export function legendRows(context, labels, left, width) {
  const places = [];
  let lx = left;
  let ly = 14;
  for (const label of labels) {
    const w = context.measureText(label).width + 26;
    if (lx + w > width - 4 && lx > left) {
      lx = left;
      ly += 16;
    }
    places.push([lx, ly]);
    lx += w;
  }
  return { places, ly };
}
