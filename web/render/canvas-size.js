// Sizes a canvas's backing store to its CSS box times a pixel ratio (devicePixelRatio unless
// given), so that drawing in CSS pixels is crisp on any screen. Returns the 2D context (scaled
// to CSS pixels) and the box.
export function fitCanvas(canvas, cssWidth, cssHeight, ratio = globalThis.devicePixelRatio || 1) {
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
