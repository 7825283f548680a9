// A placed text (placed-text.js) as an SVG <text> on its alphabetic baseline, found by the
// canvas's own measure of the font (SVG readers place dominant-baseline each their own way, some
// not at all): the SVG export's half of placed-text.js, loaded with the export only.

export const escapeXml = (text) =>
  String(text).replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c],
  );

/** A number for an SVG attribute: three decimals at most. */
export const svgNumber = (v) => Math.round(v * 1000) / 1000;

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
