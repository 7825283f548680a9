// "Longer than trained"'s caption from its numbers (web/train/longer-than-trained.js): which
// schemes' loss rises, falls or stays from L to 8L, each with its change; one full stop after a
// list ending in "et al.".
import { describe, expect, test } from 'vitest';
import { EXTRAPOLATION } from '../../web/train/length-extrapolation.js';
import { SAME_LOSS, longerCaption } from '../../web/train/longer-than-trained.js';

const result = (rows) => ({
  rows,
  lengths: [16, 32, 64, 128],
  settings: { ...EXTRAPOLATION, steps: 300 },
  corpus: 'some text',
  vocabSize: 502,
  words: 2541,
  unigram: 4.761,
  t5LastBucketFrom: 15,
});

describe('longerCaption', () => {
  test('each scheme is put where its change from L to 8L says, with the change', () => {
    const text = longerCaption(
      result([
        { scheme: 'sinusoidal', loss: [3.9, 4.0, 4.1, 4.3] },
        { scheme: 'alibi', loss: [3.9, 3.9, 3.88, 3.85] },
        { scheme: 'none', loss: [3.95, 3.95, 3.95, 3.95 + SAME_LOSS / 2] },
      ]),
    );
    expect(text).toContain('trained 300 steps on windows of 16 words of some text, 16 a step');
    expect(text).toContain('the same 2 541 held-out words in windows of 16, 32, 64 and 128.');
    expect(text).toContain('losses run from 3.90 (sinusoidal) to 3.95 (none) nats per word');
    expect(text).toContain('knowing only the words’ frequencies gives 4.76.');
    expect(text).toContain('From 16 to 128 the loss rises for sinusoidal +0.40.');
    expect(text).toContain('It falls (more text before most words) for ALiBi −0.05.');
    expect(text).toContain(`It stays within ${SAME_LOSS} for none.`);
  });

  test('a list of schemes that ends in “Shaw et al.” ends the sentence once', () => {
    const text = longerCaption(
      result([
        { scheme: 'alibi', loss: [3.9, 3.9, 3.9, 3.9] },
        { scheme: 'shaw', loss: [3.8, 3.8, 3.8, 3.8] },
      ]),
    );
    expect(text).toContain(`It stays within ${SAME_LOSS} for ALiBi and Shaw et al. By construction`);
    expect(text).not.toContain('..');
    expect(text).not.toMatch(/rises|falls/);
  });
});
