// docs/page.md's table of the default sentence's weight within one position (|j − i| ≤ 1) for the
// locality and the random table, the same query in every row or the words' own queries, and
// content only: each percentage recomputed with the API on the page's default settings.
import { readFileSync } from 'node:fs';
import { beforeAll, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { ATTENTION_SETTINGS, defaultState, splitTokens } from '../../web/settings/settings.js';
import { computeAttentionView } from '../../web/views/view.js';

let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

// The share of each row's weight on keys within one position of the query, averaged over rows.
function nearShare(weights, n) {
  let sum = 0;
  for (let i = 0; i < n; i += 1) for (let j = 0; j < n; j += 1) if (Math.abs(j - i) <= 1) sum += weights[i * n + j];
  return sum / n;
}
const percent = (share) => `${Math.round(100 * share)} %`;

test('docs/page.md states the shares the page computes, each for its table and queries', () => {
  const defaults = defaultState();
  const base = Object.fromEntries(ATTENTION_SETTINGS.map((name) => [name, defaults[name]]));
  base.seqLen = splitTokens(base.tokens).length;
  const view = (table, sameQuery) => computeAttentionView(rp, { ...base, table, sameQuery });
  const row = (sameQuery) => {
    const locality = view('locality', sameQuery);
    const random = view('random', sameQuery);
    const { n } = locality;
    return [
      nearShare(locality.result.combinedWeights.data, n),
      nearShare(random.result.combinedWeights.data, n),
      nearShare(locality.result.contentWeights.data, n),
    ].map(percent);
  };
  const doc = readFileSync(new URL('../../docs/page.md', import.meta.url), 'utf8');
  expect(doc).toContain(`| the same query in every row | ${row(true).join(' | ')} |`);
  expect(doc).toContain(`| the words' own queries | ${row(false).join(' | ')} |`);
  // "2 of 6 point along the bump": queries whose first component (the bump's column) is positive.
  const own = view('locality', false);
  const { q } = own.result.inputs;
  let pointing = 0;
  for (let i = 0; i < q.rows; i += 1) if (q.data[i * q.cols] > 0) pointing += 1;
  expect(doc).toContain(`(${pointing} of ${q.rows} point along the bump at seed ${base.seed})`);
  // The words' own queries: the locality table keeps less near the query than a random one.
  const [locality, random] = row(false).map((p) => Number.parseInt(p, 10));
  expect(locality).toBeLessThan(random);
});
