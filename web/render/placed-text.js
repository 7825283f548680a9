// A text placed as a canvas draws it, by which a figure's canvas and its SVG file put every label,
// title and number in the same place: { text, x, y (CSS px), align ('left' | 'center' |
// 'right'), baseline (a canvas textBaseline), rotate (radians anticlockwise about (x, y); 0 by
// default), maxWidth (condensed to this width; undefined: its own) }, in the font of the moment.
// fillPlacedText draws it on a canvas; placed-text-svg.js writes it into the SVG export (loaded
// with the export only).

/** A 2D context to measure text with: an OffscreenCanvas's, else (Safari before 16.4) a document canvas's. */
export function measuringContext() {
  const canvas = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1) : document.createElement('canvas');
  return canvas.getContext('2d');
}

/** Draws `placed` with g's font and fill. */
export function fillPlacedText(g, { text, x, y, align, baseline, rotate = 0, maxWidth }) {
  g.textAlign = align;
  g.textBaseline = baseline;
  const fill = (at, down) =>
    maxWidth === undefined ? g.fillText(text, at, down) : g.fillText(text, at, down, maxWidth);
  if (!rotate) {
    fill(x, y);
    return;
  }
  g.save();
  g.translate(x, y);
  g.rotate(-rotate);
  fill(0, 0);
  g.restore();
}
