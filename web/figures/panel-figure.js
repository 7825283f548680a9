// The DOM of one matrix panel: a <figure> with a (numbered) title and caption, a focusable
// wrapper (arrow keys move a highlighted cell) around a canvas with role="img", and a PNG
// button. Built with DOM calls and textContent only: nothing here parses HTML. Parts for
// ::part() styling: panel, title, caption, canvas, actions.

export function createPanelFigure(panel, number) {
  const figure = document.createElement('figure');
  figure.className = 'relpos-panel';
  figure.setAttribute('part', 'panel');
  figure.id = `figure-${panel.id}`;
  figure.dataset.panel = panel.id;

  const caption = document.createElement('figcaption');
  const title = document.createElement('h2');
  title.setAttribute('part', 'title');
  if (number !== null) {
    const badge = document.createElement('span');
    badge.className = 'relpos-number';
    badge.textContent = String(number);
    title.append(badge, ' ');
  }
  title.append(panel.title);
  const text = document.createElement('p');
  text.className = 'relpos-caption';
  text.setAttribute('part', 'caption');
  caption.append(title, text);

  const wrap = document.createElement('div');
  wrap.className = 'relpos-canvas-wrap';
  wrap.tabIndex = 0;
  wrap.setAttribute('role', 'application');
  wrap.setAttribute('aria-roledescription', 'heatmap');
  wrap.setAttribute('aria-label', `${panel.title}: use the arrow keys to read the cells`);
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('part', 'canvas');
  wrap.append(canvas);

  const actions = document.createElement('div');
  actions.className = 'relpos-actions';
  actions.setAttribute('part', 'actions');
  const png = document.createElement('button');
  png.type = 'button';
  png.dataset.png = panel.id;
  png.textContent = 'Download PNG';
  png.setAttribute('aria-label', `Download PNG: ${panel.title}`);
  actions.append(png);

  figure.append(caption, wrap, actions);
  return { figure, canvas, wrap, caption: text, png };
}
