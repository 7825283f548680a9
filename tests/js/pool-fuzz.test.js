// relpos-wasm/worker's pool under property-based fuzzing on real threads (tests/js/fuzz/pool.js):
// a bounded run of interleaved calls, cancellations, hostile `work` values, slow workers and
// terminations, each call against the same call on one instance; `npm run fuzz:js` runs more.
import { expect, test } from 'vitest';
import { fuzzPool } from './fuzz/pool.js';

test('25 interleavings: every call settles, equal bit for bit to one instance’s, refused, aborted or terminated', async () => {
  const counts = await fuzzPool({ numRuns: 25, seed: 35 });
  expect(counts.cases).toBe(25);
  expect(counts.equal).toBeGreaterThan(20);
  expect(counts.refused + counts.aborted + counts.terminated).toBeGreaterThan(3);
});
