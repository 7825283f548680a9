// Text in the figures' math notation (web/render/math-text.js) as DOM: <sub> and <sup>
// elements and text nodes, built with DOM calls only (nothing here parses HTML). A formula or a
// range (web/render/kept-together.js) is kept on one line: a span with white-space: nowrap
// (.relpos-nowrap, figure-css.js), the text itself unchanged.
import { keptTogether } from '../render/kept-together.js';
import { parseMath, plainMath } from '../render/math-text.js';

function typeset(doc, text, math) {
  if (!math) return [doc.createTextNode(text)];
  return parseMath(text).map(({ text: piece, level }) => {
    if (level === 0) return doc.createTextNode(piece);
    const node = doc.createElement(level > 0 ? 'sup' : 'sub');
    node.textContent = piece;
    return node;
  });
}

function setText(element, text, math) {
  const shows = `${math ? 'math' : 'text'}:${text}`;
  if (element.dataset.shows === shows) return;
  element.dataset.shows = shows;
  const doc = element.ownerDocument;
  element.replaceChildren(
    ...keptTogether(text).flatMap(({ text: piece, kept }) => {
      const nodes = typeset(doc, piece, math);
      if (!kept) return nodes;
      const span = doc.createElement('span');
      span.className = 'relpos-nowrap';
      span.append(...nodes);
      return [span];
    }),
  );
}

/** What `element` shows (set by setMathText or setKeptText) as plain text: sub- and superscripts as Unicode. */
export function plainTextOf(element) {
  const shows = element.dataset.shows ?? '';
  return shows.startsWith('math:') ? plainMath(shows.slice(5)) : shows.slice(5);
}

/** Replaces the children of `element` with `text` typeset; nothing if it already shows it. */
export function setMathText(element, text) {
  setText(element, text, true);
}

/** Replaces the children of `element` with plain `text` (no notation read); nothing if it already shows it. */
export function setKeptText(element, text) {
  setText(element, text, false);
}
