// The file readers under property-based fuzzing (tests/js/fuzz/model-files.js): bounded runs
// of mutated and hostile .npy, .npz and JSON model files and corpora; `npm run fuzz:js` runs
// many more.
import { expect, test } from 'vitest';
import { fuzzFiles } from './fuzz/model-files.js';

test('150 hostile files of each kind: each read as a well-formed result or refused naming the file', async () => {
  const counts = await fuzzFiles({ numRuns: 150, seed: 25 });
  for (const [kind, { cases, read, refused }] of Object.entries(counts)) {
    expect(cases, kind).toBe(150);
    // Both outcomes are exercised: files read and files refused.
    expect(read, kind).toBeGreaterThan(0);
    expect(refused, kind).toBeGreaterThan(50);
  }
});
