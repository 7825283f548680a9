// The skip link ("Skip to the figures") goes to the first figure on screen at every width: on a
// phone the panels' section has no box of its own (display: contents, style.css) and panel 2
// comes first, above the story (layout-order.js), so a jump to #panels would not move at all. It
// focuses that figure's heatmap (the canvas wrapper in the Tab order, panel-figure.js), so that
// the arrow keys read its cells at once.

/** The first of `figures` a reader meets: the highest shown, then the leftmost. */
function firstShownFigure(figures) {
  const shown = figures.filter((f) => f.getClientRects().length > 0);
  const place = (figure) => figure.getBoundingClientRect();
  return shown.sort((a, b) => place(a).top - place(b).top || place(a).left - place(b).left)[0] ?? null;
}

/** Makes `link` focus (and so scroll to) the first shown of `figures()`: its heatmap where it has one. */
export function wireSkipLink(link, figures) {
  link?.addEventListener('click', (event) => {
    const figure = firstShownFigure(figures());
    if (!figure) return; // nothing drawn yet: the link's own #panels
    event.preventDefault();
    const heatmap = figure.querySelector('[role="application"][tabindex="0"]');
    if (heatmap) {
      heatmap.focus();
      return;
    }
    figure.tabIndex = -1; // focusable from a script, not in the Tab order
    figure.focus();
  });
}
