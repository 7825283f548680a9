// The cells the panels outline with a selected cell (i, j): every cell of its clipped offset
// c = clip(j − i, ±k), the cells that read the same row of aᴷ and aⱽ (a diagonal; at c = ±k
// every offset beyond too; at k = 0 every cell); and the words that say so.
import { withMinus } from '../render/number-text.js';
import { clippedOffset } from './view.js';

/** The cells outlined with a selected cell (i, j) at k, in words: "every cell with clip(j − i, ±k) = +1". */
export function offsetGroupText(i, j, k) {
  const c = clippedOffset(i, j, k);
  return `every cell with clip(j − i, ±k) = ${c > 0 ? '+' : ''}${withMinus(c)}`;
}

/** A panel's caption on its outline: "Outlined: the selected cell (2, 3) and every cell with clip(j − i, ±k) = +1." */
export const outlinedGroupText = (i, j, k) =>
  `Outlined: the selected cell (${i}, ${j}) and ${offsetGroupText(i, j, k)}.`;
