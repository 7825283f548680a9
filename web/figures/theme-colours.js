// The colours and font a figure draws with: the theme's CSS variables, read from the element.

/** Colours for the canvases, from the CSS custom properties in force at `element`. */
export function themeColours(element) {
  const style = getComputedStyle(element);
  const v = (name) => style.getPropertyValue(name).trim();
  return {
    fg: v('--relpos-fg'),
    muted: v('--relpos-muted'),
    panel: v('--relpos-panel'),
    masked: v('--relpos-masked'),
    outline: v('--relpos-outline'),
    outlineHalo: v('--relpos-outline-halo'),
    font: style.fontFamily,
  };
}
