// The skip link ("Skip to the figures") goes to the first figure on screen at every width: on a
// phone the panels' section has no box of its own (display: contents, style.css) and panel 2
// comes first, so a jump to #panels would not move at all.

/** The first figure of `container` a reader meets: the highest shown, then the leftmost. */
function firstShownFigure(container) {
  const shown = [...container.querySelectorAll(':scope > figure')].filter((f) => f.getClientRects().length > 0);
  const place = (figure) => figure.getBoundingClientRect();
  return shown.sort((a, b) => place(a).top - place(b).top || place(a).left - place(b).left)[0] ?? null;
}

/** Makes `link` focus (and so scroll to) the first shown figure of `container`. */
export function wireSkipLink(link, container) {
  link?.addEventListener('click', (event) => {
    const figure = firstShownFigure(container);
    if (!figure) return; // nothing drawn yet: the link's own #panels
    event.preventDefault();
    figure.tabIndex = -1; // focusable from a script, not in the Tab order
    figure.focus();
  });
}
