// The DOM of one matrix panel: the figure shell (figure-shell.js) whose canvas wrapper takes
// keyboard focus, so that the arrow keys move a highlighted cell.
import { createFigureShell } from './figure-shell.js';

export function createPanelFigure(panel, number) {
  const parts = createFigureShell({ id: `figure-${panel.id}`, title: panel.title, number, pngLabel: panel.title });
  parts.figure.dataset.panel = panel.id;
  parts.png.dataset.png = panel.id;
  parts.wrap.tabIndex = 0;
  parts.wrap.setAttribute('role', 'application');
  parts.wrap.setAttribute('aria-roledescription', 'heatmap');
  parts.wrap.setAttribute('aria-label', `${panel.title}: use the arrow keys to read the cells`);
  return parts;
}
