// openCheckpoint under property-based fuzzing (tests/js/fuzz/safetensors.js): a bounded run of
// files with repeated names, empty tensors, overlapping ranges and near-limit headers, each
// against an independent oracle, within a time and memory budget; `npm run fuzz:js` runs more.
import { expect, test } from 'vitest';
import { fuzzSafetensors } from './fuzz/safetensors.js';

test('300 fuzzed safetensors files: well-formed ones read back their bytes, the rest are refused naming the file', async () => {
  const counts = await fuzzSafetensors({ numRuns: 300, seed: 35 });
  expect(counts.cases).toBe(300);
  // Both outcomes are exercised.
  expect(counts.opened).toBeGreaterThan(30);
  expect(counts.refused).toBeGreaterThan(30);
});
