// The line a story step writes under its button (what it changed, and nothing it did not), and
// panel 2's caption in the one-token state.
import { describe, expect, test } from 'vitest';
import { changedSettings, staleText } from '../../web/page/story.js';
import { outlinedGroupText } from '../../web/views/offset-group.js';
import { PANELS } from '../../web/views/panels.js';

describe('changedSettings', () => {
  test("a reader's words are isolated (a right-to-left sentence keeps its order and the line's) and their ^ and _ are not scripts", () => {
    expect(changedSettings({ tokens: 'x_1 y^2', seqLen: 2 }, { tokens: 'القط جلس', seqLen: 2 })).toBe(
      'the words “\u2068القط جلس\u2069” (was “\u2068xˍ1 yˆ2\u2069”)',
    );
  });
  test('n is said with the words when the page showed fewer words than it held', () => {
    expect(
      changedSettings({ tokens: 'the cat sat on the mat', seqLen: 1 }, { tokens: 'the on cat the mat sat', seqLen: 6 }),
    ).toBe('the words “\u2068the on cat the mat sat\u2069” (was “\u2068the cat sat on the mat\u2069”), n = 6 (was 1)');
  });
  test('n follows the words when both states show all of theirs', () => {
    expect(changedSettings({ tokens: 'a b c', seqLen: 3 }, { tokens: 'the cat sat', seqLen: 3 })).toBe(
      'the words “\u2068the cat sat\u2069” (was “\u2068a b c\u2069”)',
    );
    expect(changedSettings({ tokens: 'a b', seqLen: 2 }, { tokens: 'a b c', seqLen: 3 })).toBe(
      'the words “\u2068a b c\u2069” (was “\u2068a b\u2069”)',
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

describe('staleText', () => {
  const step = { tokens: 'the cat sat on the mat', seqLen: 6, maxDistance: 1, causal: false, long: false };
  test('nothing while the page has the step’s settings (a setting that does not shape the panels aside)', () => {
    expect(staleText(step, { ...step, weightScale: 'panel' }, 'Set k = 1')).toBeNull();
  });
  test('names each change, now and then, and the button that brings the step back', () => {
    expect(staleText(step, { ...step, maxDistance: 2 }, 'Set k = 1')).toEqual({
      line: 'You have changed the settings since.',
      notice:
        'Out of date: this Reveal is for the step’s settings, and you have changed k = 2 (was 1) since. Press “Set k = 1” again to see it on the panels.',
    });
    expect(staleText(step, { ...step, long: true, causal: true }, 'On my sentence').notice).toBe(
      'Out of date: this Reveal is for the step’s settings, and you have changed causal mask on (was off), long sequences on (was off) since. Press “On my sentence” again to see it on the panels.',
    );
  });
});

describe('the outline a selected cell draws, in words', () => {
  test('its clipped offset, with a sign: one diagonal inside ±k, every offset beyond at ±k, every cell at k = 0', () => {
    const cases = [
      [2, 3, 3, '+1'],
      [3, 1, 3, '−2'],
      [1, 1, 3, '0'],
      [0, 5, 3, '+3'],
      [5, 0, 2, '−2'],
      [4, 1, 0, '0'],
    ];
    for (const [i, j, k, c] of cases)
      expect(outlinedGroupText(i, j, k)).toBe(
        `Outlined: the selected cell (${i}, ${j}) and every cell with clip(j − i, ±k) = ${c}.`,
      );
  });
});
