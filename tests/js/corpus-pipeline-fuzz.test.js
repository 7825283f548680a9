// The corpus pipeline under property-based fuzzing (tests/js/fuzz/corpus-pipeline.js): corpus
// files through the bounded gunzip, the decoder and a training session, and text through the
// corpus tool; each a usable corpus that trains or a refusal with a message. `npm run fuzz:js`
// runs more.
import { expect, test } from 'vitest';
import { fuzzCorpusPipeline } from './fuzz/corpus-pipeline.js';

test('200 corpus files and 6 texts: each trains a step or is refused with a message', async () => {
  const counts = await fuzzCorpusPipeline({ files: 200, texts: 6, seed: 35 });
  expect(counts.files).toBe(200);
  expect(counts.texts).toBe(6);
  expect(counts.trainedFiles).toBeGreaterThan(20);
  expect(counts.refusedFiles).toBeGreaterThan(20);
  expect(counts.trainedTexts + counts.refusedTexts).toBe(6);
});
