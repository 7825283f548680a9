// How much of a weight matrix's weight stays within one position of the query (|j − i| ≤ 1): the
// locality step's numbers (web/page/story.js) and the figure that draws them
// (web/figures/locality-contrast.js) both come from here.
import { formatPercent } from '../render/number-text.js';

/** The share of each row's weight within one position of the query, averaged over rows. */
export function nearShare(weights, n) {
  let share = 0;
  for (let i = 0; i < n; i += 1)
    for (let j = Math.max(0, i - 1); j <= Math.min(n - 1, i + 1); j += 1) share += weights[i * n + j];
  return share / n;
}

/** nearShare of uniform attention over the keys a row sees (all n, or j ≤ i under the causal mask). */
export function uniformNearShare(n, causal) {
  let share = 0;
  for (let i = 0; i < n; i += 1) {
    const seen = causal ? i + 1 : n;
    const near = causal ? Math.min(i, 1) + 1 : Math.min(n - 1, i + 1) - Math.max(0, i - 1) + 1;
    share += near / seen;
  }
  return share / n;
}

/** A share as the reveal and its figure print it: a whole percentage, "74 %". */
export const sharePercent = (share) => formatPercent(share, 0);
