// The API's boundary under property-based fuzzing (tests/js/fuzz/api-boundary.js): a bounded
// run of attacked calls, each against the same call with plain arguments; `npm run fuzz:js`
// runs many more.
import { expect, test } from 'vitest';
import { fuzzBoundary } from './fuzz/api-boundary.js';

test('300 attacked calls: each refused as its plain twin is, or bit-identical to it; nothing else touched', async () => {
  const counts = await fuzzBoundary({ numRuns: 300, seed: 25 });
  expect(counts.cases).toBe(300);
  // Both outcomes are exercised: calls refused and calls that return.
  expect(counts.refused).toBeGreaterThan(40);
  expect(counts.returned).toBeGreaterThan(40);
});
