// Text in the figures' math notation (web/render/math-text.js) as DOM: <sub> and <sup>
// elements and text nodes, built with DOM calls only (nothing here parses HTML).
import { parseMath } from '../render/math-text.js';

/** Replaces the children of `element` with `text` typeset; nothing if it already shows it. */
export function setMathText(element, text) {
  if (element.dataset.math === text) return;
  element.dataset.math = text;
  const doc = element.ownerDocument;
  element.replaceChildren(
    ...parseMath(text).map(({ text: piece, level }) => {
      if (level === 0) return doc.createTextNode(piece);
      const node = doc.createElement(level > 0 ? 'sup' : 'sub');
      node.textContent = piece;
      return node;
    }),
  );
}
