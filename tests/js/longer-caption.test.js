// "Longer than trained"'s caption from its numbers: one full stop after a list ending in "et al.".
import { describe, expect, test } from 'vitest';
import { longerCaption } from '../../web/train/longer-than-trained.js';

const settings = { offset: -1, vocabSize: 8, causal: false, steps: 300, length: 16 };

describe('longerCaption', () => {
  test('a list of schemes that ends in “Shaw et al.” ends the sentence once', () => {
    const rows = [
      { scheme: 'alibi', accuracy: [1, 0.95] },
      { scheme: 'shaw', accuracy: [1, 0.97] },
    ];
    const text = longerCaption({ rows, lengths: [16, 128] }, settings);
    expect(text).toContain('Still at least 0.9 at 128: ALiBi, Shaw et al.');
    expect(text.endsWith('Shaw et al.')).toBe(true);
    expect(text).not.toContain('..');
  });
});
