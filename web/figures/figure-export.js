// A matrix panel as a file for slides and papers: SVG (each cell a rect, every text as text) or
// PNG at a chosen scale (1×, 2×, 4×: the image is the panel's CSS size times the scale, whatever
// the screen's pixel density), on an opaque background in the chosen theme (as shown, light or
// dark), optionally with the title and caption above and a settings line below. The long view's
// panels (offset space) as PNG only.
import { drawHeatmap } from '../render/heatmap.js';
import { heatmapSvg } from '../render/heatmap-svg.js';
import { drawOffsetPanel, offsetCaption } from './offset-panel.js';
import { plainMath } from '../render/math-text.js';
import { measuringContext } from '../render/placed-text.js';
import { themeColours } from './theme-colours.js';
import { themeVariables } from './figure-css.js';

const TITLE_SIZE = 16;
const TEXT_SIZE = 12;

/** Canvas colours for a theme: 'light', 'dark', or 'current' (as `element` shows them). */
export function exportColours(theme, element) {
  if (theme !== 'light' && theme !== 'dark') return themeColours(element);
  const v = themeVariables(theme);
  return {
    fg: v['--relpos-fg'],
    muted: v['--relpos-muted'],
    panel: v['--relpos-panel'],
    masked: v['--relpos-masked'],
    outline: v['--relpos-outline'],
    outlineHalo: v['--relpos-outline-halo'],
    font: getComputedStyle(element).fontFamily,
  };
}

// Text broken into lines no wider than `width` CSS px in `font`.
function wrap(text, width, font) {
  const g = measuringContext();
  g.font = font;
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && g.measureText(next).width > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

const lineHeight = (line) => Math.round(line.size * 1.35);

/**
 * The panel's file as a Blob. options: { format: 'png' | 'svg', scale: 1 | 2 | 4 (PNG; default
 * 2), theme: 'current' | 'light' | 'dark', title, caption (booleans, default true), settings
 * (a line of text, or null) }.
 */
export async function exportPanel(figure, panelId, options = {}) {
  const { format = 'png', scale = 2, theme = 'current', title = true, caption = true, settings = null } = options;
  if (![1, 2, 3, 4].includes(Number(scale))) throw new RangeError(`scale must be 1, 2, 3 or 4, got ${scale}`);
  if (!['current', 'light', 'dark'].includes(theme))
    throw new RangeError(`theme must be current, light or dark, got ${theme}`);
  const panel = figure.panels.find((p) => p.id === panelId);
  const spec = figure.specs.get(panelId);
  const shown = figure.layouts.get(panelId);
  if (!panel || !spec || !shown)
    throw new RangeError(`panel ${panelId} is not drawn here (drawn: ${[...figure.specs.keys()].join(', ')})`);
  // The long view (offset space): a PNG, drawn by drawOffsetPanel as on screen; no SVG.
  const offset = Boolean(spec.offsetSpace);
  if (offset && format !== 'png') throw new RangeError(`the long view exports as PNG only, not ${format}`);
  const element = figure.canvasOf(panelId);
  const colours = exportColours(theme, element);
  const family = colours.font || 'sans-serif';
  const width = shown.width;
  // The long view's plot first: its caption says how its cells with no key show at the file's scale.
  const plot = document.createElement('canvas');
  const offsetLayout = offset
    ? drawOffsetPanel(plot, panel, figure.view, { ...spec, colours, pixelRatio: Number(scale), selection: null })
    : null;
  const header = [];
  if (title)
    header.push(
      ...wrap(panel.title, width - 8, `bold ${TITLE_SIZE}px ${family}`).map((text) => ({
        text,
        size: TITLE_SIZE,
        weight: 'bold',
      })),
    );
  if (caption)
    header.push(
      ...wrap(
        plainMath(
          offset
            ? offsetCaption(panel, figure.view, offsetLayout)
            : // As on screen, a note the figure cuts short ("…") read whole first; no page control
              // named ("tick it to see"): the file has none.
              `${shown.noteCut && spec.note ? `${spec.note} ` : ''}${panel.caption(figure.view, { ...figure.captionContext, controls: false })}`,
        ),
        width - 8,
        `${TEXT_SIZE}px ${family}`,
      ).map((text) => ({
        text,
        size: TEXT_SIZE,
        colour: colours.muted,
      })),
    );
  const footer = settings
    ? wrap(settings, width - 8, `${TEXT_SIZE}px ${family}`).map((text) => ({
        text,
        size: TEXT_SIZE,
        colour: colours.muted,
      }))
    : [];
  const exportSpec = { ...spec, colours, highlight: null };

  if (format === 'svg') {
    const svg = heatmapSvg(exportSpec, { background: colours.panel, header, footer });
    return new Blob([svg], { type: 'image/svg+xml' });
  }
  if (format !== 'png') throw new RangeError(`format must be png or svg, got ${format}`);
  // The heatmap at `scale` device pixels per CSS pixel, then composed with the text.
  const layout = offsetLayout ?? drawHeatmap(plot, { ...exportSpec, pixelRatio: Number(scale) });
  return pngWithText(plot, layout, Number(scale), { header, footer, colours });
}

/**
 * `plot` (a canvas of `size` CSS px, { width, height }, at `scale` pixels per CSS px) under the
 * `header` lines and over the `footer` ones, on an opaque background in `colours`, as a PNG Blob.
 */
function pngWithText(plot, size, scale, { header, footer = [], colours }) {
  const family = colours.font || 'sans-serif';
  const headerHeight = header.reduce((sum, line) => sum + lineHeight(line), header.length ? 8 : 0);
  const footerHeight = footer.reduce((sum, line) => sum + lineHeight(line), footer.length ? 8 : 0);
  const cssHeight = headerHeight + size.height + footerHeight;
  const out = new OffscreenCanvas(Math.round(size.width * scale), Math.round(cssHeight * scale));
  const g = out.getContext('2d', { alpha: false });
  g.scale(scale, scale);
  g.fillStyle = colours.panel || '#ffffff';
  g.fillRect(0, 0, size.width, cssHeight);
  g.textBaseline = 'alphabetic';
  let y = 4;
  const text = (line, fallback) => {
    y += lineHeight(line);
    g.font = `${line.weight === 'bold' ? 'bold ' : ''}${line.size}px ${family}`;
    g.fillStyle = line.colour ?? fallback;
    g.fillText(line.text, 4, y - 4);
  };
  for (const line of header) text(line, colours.fg);
  g.drawImage(plot, 0, headerHeight, size.width, size.height);
  y = headerHeight + size.height;
  for (const line of footer) text(line, colours.muted);
  return out.convertToBlob({ type: 'image/png' });
}

/**
 * A figure drawn on one canvas (the locality profile, the tables) as a PNG Blob: its pixels as
 * drawn (the screen's density), on the panel's opaque background, its title and caption above
 * as the matrix panels' files have them.
 */
export function canvasFigurePng(canvas, { title, caption }) {
  // caption: plain text (math-text.js's plainMath of a caption in its notation)
  const colours = themeColours(canvas);
  const family = colours.font || 'sans-serif';
  const width = canvas.clientWidth || canvas.width;
  const size = { width, height: (canvas.height * width) / canvas.width };
  const header = [
    ...wrap(title, width - 8, `bold ${TITLE_SIZE}px ${family}`).map((text) => ({
      text,
      size: TITLE_SIZE,
      weight: 'bold',
    })),
    ...wrap(caption, width - 8, `${TEXT_SIZE}px ${family}`).map((text) => ({
      text,
      size: TEXT_SIZE,
      colour: colours.muted,
    })),
  ];
  return pngWithText(canvas, size, canvas.width / width, { header, colours });
}
