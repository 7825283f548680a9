// Small DOM helpers of the training section: an element from a tag, properties and children;
// number formats.
import { formatFixed } from '../render/number-text.js';

/** An element: `text` sets its text, aria*, data-*, role, for and part become attributes. */
export const el = (doc, tag, props = {}, children = []) => {
  const node = doc.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else if (key.startsWith('aria') || key.startsWith('data-') || key === 'role' || key === 'for' || key === 'part')
      node.setAttribute(
        key.replace(/^aria([A-Z])/, (m, c) => `aria-${c.toLowerCase()}`),
        value,
      );
    else node[key] = value;
  }
  node.append(...children);
  return node;
};
export { formatPercent as pct } from '../render/number-text.js';
/** To `d` decimals, with a true minus; '–' when not finite. */
export const fmt = (v, d = 3) => (Number.isFinite(v) ? formatFixed(v, d) : '–');
export { formatSigned as signed } from '../render/number-text.js';
export { formatSignedPercent as signedPct } from '../render/number-text.js';
export { formatGrouped as grouped } from '../render/number-text.js';
/** ['a', 'b', 'c'] → "a, b and c". */
export const listed = (items) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/**
 * A caption that leads with what to see (one sentence, p.<prefix>-lead) and keeps the rest one
 * click away (details.<prefix>-how, "How to read it"; the rest a text or a list of paragraphs,
 * each a p.<prefix>-rest): the training section's figures and "Longer than trained".
 */
export function leadAndRest(doc, caption, lead, rest, prefix = 'train') {
  caption.replaceChildren(
    el(doc, 'p', { className: `${prefix}-lead`, text: lead }),
    el(doc, 'details', { className: `${prefix}-how` }, [
      el(doc, 'summary', { text: 'How to read it' }),
      ...[rest].flat().map((text) => el(doc, 'p', { className: `${prefix}-rest`, text })),
    ]),
  );
}
