// Sizes a canvas's backing store to its CSS box times a pixel ratio, so that drawing in CSS
// pixels is crisp on any screen. Returns the 2D context (scaled to CSS pixels) and the box.
// The ratio (pixelRatio) is the screen's devicePixelRatio times the scale a CSS transform or
// zoom around the canvas applies (a reveal.js slide scaled up to 1920 × 1080), and while
// printing at least PRINT_RATIO, so that a printed figure is not a 96 ppi bitmap.

/** Device pixels per CSS pixel used while printing (about 300 ppi). */
export const PRINT_RATIO = 3;
let printing = false;

/** Set while printing (figures/print-sharp.js): canvases are drawn at PRINT_RATIO or more. */
export function setPrinting(on) {
  printing = Boolean(on);
}

/**
 * The on-screen scale of `element`: its bounding box (after transforms and zoom) over its
 * layout width; 1 when it has no layout.
 */
export function screenScale(element) {
  const layoutWidth = element?.offsetWidth;
  if (!layoutWidth) return 1;
  const scale = element.getBoundingClientRect().width / layoutWidth;
  return Number.isFinite(scale) && scale > 0 ? scale : 1;
}

/**
 * Device pixels per CSS pixel for a canvas inside `element`: devicePixelRatio × the on-screen
 * scale when that enlarges it (never less than devicePixelRatio), at least PRINT_RATIO while
 * printing; rounded to 1/8 so that sub-pixel jitter of the box does not redraw.
 */
export function pixelRatio(element) {
  const base = (globalThis.devicePixelRatio || 1) * Math.max(1, screenScale(element));
  return Math.round(Math.max(base, printing ? PRINT_RATIO : 0) * 8) / 8;
}

/**
 * Sizes `canvas` to `cssWidth` × `cssHeight` CSS px with a backing store of `ratio` device px per
 * CSS px (by default pixelRatio of its parent: the screen's, zoom's and paper's), and returns its
 * 2D context, scaled to CSS px, with the size.
 */
export function fitCanvas(canvas, cssWidth, cssHeight, ratio = pixelRatio(canvas.parentElement)) {
  const width = Math.max(1, Math.round(cssWidth * ratio));
  const height = Math.max(1, Math.round(cssHeight * ratio));
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  // Only when they change: a style write makes the next layout read expensive.
  if (canvas.style.width !== `${cssWidth}px`) canvas.style.width = `${cssWidth}px`;
  if (canvas.style.height !== `${cssHeight}px`) canvas.style.height = `${cssHeight}px`;
  const context = canvas.getContext('2d');
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { context, width: cssWidth, height: cssHeight };
}
