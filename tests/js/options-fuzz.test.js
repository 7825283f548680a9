// Every entry point's options under property-based fuzzing (tests/js/fuzz/options-getters.js):
// getters that spoil the other arguments, answer differently later or call the instance, each
// call against its plain twin; `npm run fuzz:js` runs more.
import { expect, test } from 'vitest';
import { fuzzOptions } from './fuzz/options-getters.js';

test('400 calls with attacked options: each refused as its plain twin is, or bit-identical to it', async () => {
  const counts = await fuzzOptions({ numRuns: 400, seed: 35 });
  expect(counts.cases).toBe(400);
  expect(counts.returned).toBeGreaterThan(50);
  expect(counts.refused).toBeGreaterThan(50);
});
