// The DOM every figure shares: a <figure> with a (numbered) title and a caption, a canvas with
// role="img" in a wrapper, and a "Download PNG" button. Built with DOM calls and textContent
// only: nothing here parses HTML. Parts for ::part() styling: panel, title, caption, canvas,
// actions.
import { download } from '../files/download.js';
import { plainTextOf } from './math-dom.js';

export function createFigureShell({ id, title, number = null, pngLabel }) {
  const figure = document.createElement('figure');
  figure.className = 'relpos-panel';
  figure.setAttribute('part', 'panel');
  figure.id = id;

  const caption = document.createElement('figcaption');
  const heading = document.createElement('h2');
  heading.setAttribute('part', 'title');
  if (number !== null) {
    const badge = document.createElement('span');
    badge.className = 'relpos-number';
    badge.textContent = String(number);
    heading.append(badge, ' ');
  }
  heading.append(title);
  const text = document.createElement('p');
  text.className = 'relpos-caption';
  text.setAttribute('part', 'caption');
  caption.append(heading, text);

  const wrap = document.createElement('div');
  wrap.className = 'relpos-canvas-wrap';
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('part', 'canvas');
  wrap.append(canvas);

  const actions = document.createElement('div');
  actions.className = 'relpos-actions';
  actions.setAttribute('part', 'actions');
  const png = document.createElement('button');
  png.type = 'button';
  png.textContent = 'Download PNG';
  png.setAttribute('aria-label', `Download PNG: ${pngLabel}`);
  actions.append(png);

  figure.append(caption, wrap, actions);
  return { figure, caption: text, wrap, canvas, actions, png };
}

/**
 * Wires the shell's PNG button to save its canvas as `filename`: what is drawn, on the panel's
 * opaque background, with `title` and the caption shown above (figure-export.js, loaded then).
 */
export function savesCanvasFigure(parts, title, filename) {
  parts.png.addEventListener('click', async () => {
    const { canvasFigurePng } = await import('./figure-export.js');
    const caption = plainTextOf(parts.caption);
    download(filename, await canvasFigurePng(parts.canvas, { title, caption }));
  });
}
