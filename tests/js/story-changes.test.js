// The line a story step writes under its button (what it changed, and nothing it did not), and
// panel 2's caption in the one-token state.
import { describe, expect, test } from 'vitest';
import { changedSettings } from '../../web/page/story.js';
import { PANELS } from '../../web/views/panels.js';

describe('changedSettings', () => {
  test('n is said with the words when the page showed fewer words than it held', () => {
    expect(
      changedSettings({ tokens: 'the cat sat on the mat', seqLen: 1 }, { tokens: 'the on cat the mat sat', seqLen: 6 }),
    ).toBe('the words “the on cat the mat sat” (was “the cat sat on the mat”), n = 6 (was 1)');
  });
  test('n follows the words when both states show all of theirs', () => {
    expect(changedSettings({ tokens: 'a b c', seqLen: 3 }, { tokens: 'the cat sat', seqLen: 3 })).toBe(
      'the words “the cat sat” (was “a b c”)',
    );
    expect(changedSettings({ tokens: 'a b', seqLen: 2 }, { tokens: 'a b c', seqLen: 3 })).toBe(
      'the words “a b c” (was “a b”)',
    );
  });
  test('nothing changed: an empty line', () => {
    expect(changedSettings({ tokens: 'a', seqLen: 1, causal: true }, { tokens: 'a', seqLen: 1, causal: true })).toBe(
      '',
    );
  });
});

describe('panel 2’s caption', () => {
  test('with one token it speaks of one cell, not of rows and diagonals', () => {
    const caption = PANELS.find((panel) => panel.id === 'positionBiases').caption({ n: 1 });
    expect(caption).toContain('one cell, offset 0');
    expect(caption).not.toContain('row to row');
  });
});
