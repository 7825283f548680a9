// The page's URL state and the render API's labels and sizes under property-based fuzzing in
// headless Chromium (tests/page/fuzz/url-render.js), bounded; `npm run fuzz:js` runs more.
import { expect, test } from 'vitest';
import { fuzzPage } from './fuzz/url-render.js';

test('6 fuzzed URLs and 30 fuzzed heatmaps: drawn or refused by name, each label measured a bounded number of times', async () => {
  const counts = await fuzzPage({ numRuns: 6, seed: 35 });
  expect(counts.urls).toBe(6);
  expect(counts.heatmaps + counts.refused).toBe(30);
  expect(counts.heatmaps).toBeGreaterThan(5);
  expect(counts.refused).toBeGreaterThan(0);
}, 300_000);
