// A text placed as a canvas draws it, by which a figure's canvas and its SVG file put every label,
// title and number in the same place: { text, x, y (CSS px), align ('left' | 'center' |
// 'right'), baseline (a canvas textBaseline), rotate (radians anticlockwise about (x, y); 0 by
// default), maxWidth (condensed to this width; undefined: its own) }, in the font of the moment.
// fillPlacedText draws it on a canvas; placedTextSvg writes it as an SVG <text> on its alphabetic
// baseline, found by the canvas's own measure of the font (SVG readers place dominant-baseline
// each their own way, some not at all).

export const escapeXml = (text) =>
  String(text).replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c],
  );

/** A number for an SVG attribute: three decimals at most. */
export const svgNumber = (v) => Math.round(v * 1000) / 1000;

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

/**
 * CSS px from the line a canvas textBaseline names down to the alphabetic baseline, in g's font:
 * the difference of how high an H's ink reaches above each (actualBoundingBoxAscent, in every
 * browser the page runs in; TextMetrics' own baselines came to Firefox only in 116).
 */
function alphabeticBelow(g, baseline) {
  const inkAbove = (line) => {
    g.textBaseline = line;
    return g.measureText('H').actualBoundingBoxAscent;
  };
  const below = inkAbove('alphabetic') - inkAbove(baseline);
  g.textBaseline = 'alphabetic';
  return below;
}

const ANCHORS = { left: 'start', center: 'middle', right: 'end' };

/**
 * `placed` as an SVG <text>, `dy` px lower, its baseline where g (in the text's font) puts it;
 * text-anchor written where it differs from `align`, the enclosing group's; `attributes` added.
 */
export function placedTextSvg(g, placed, { dy = 0, align = 'left', attributes = '' } = {}) {
  const { text, x, y, rotate = 0, maxWidth } = placed;
  const below = alphabeticBelow(g, placed.baseline);
  const at = rotate
    ? `transform="translate(${svgNumber(x + below * Math.sin(rotate))} ${svgNumber(y + dy + below * Math.cos(rotate))}) rotate(${svgNumber((-rotate * 180) / Math.PI)})"`
    : `x="${svgNumber(x)}" y="${svgNumber(y + dy + below)}"`;
  const anchor = placed.align === align ? '' : ` text-anchor="${ANCHORS[placed.align]}"`;
  const condensed =
    maxWidth === undefined ? '' : ` textLength="${svgNumber(maxWidth)}" lengthAdjust="spacingAndGlyphs"`;
  const more = attributes ? ` ${attributes}` : '';
  return `<text ${at}${anchor}${condensed}${more}>${escapeXml(text)}</text>`;
}
