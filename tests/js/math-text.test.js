// The figures' math notation (web/render/math-text.js): parsed into sub- and superscripts, as
// captions (<sub>/<sup>), canvas notes and screen-reader labels typeset it.
import { describe, expect, test } from 'vitest';
import { parseMath, plainMath } from '../../web/render/math-text.js';

describe('math notation', () => {
  test('q_i, a^K_1, d_{model}, and text without notation', () => {
    expect(parseMath('q_i · k_j / √d_k')).toEqual([
      { text: 'q', level: 0 },
      { text: 'i', level: -1 },
      { text: ' · k', level: 0 },
      { text: 'j', level: -1 },
      { text: ' / √d', level: 0 },
      { text: 'k', level: -1 },
    ]);
    expect(parseMath('a^K_1…a^K_k')).toEqual([
      { text: 'a', level: 0 },
      { text: 'K', level: 1 },
      { text: '1', level: -1 },
      { text: '…a', level: 0 },
      { text: 'K', level: 1 },
      { text: 'k', level: -1 },
    ]);
    expect(parseMath('d_{model} = 8')).toEqual([
      { text: 'd', level: 0 },
      { text: 'model', level: -1 },
      { text: ' = 8', level: 0 },
    ]);
    expect(parseMath('|j − i| ≥ k, 1/n = 0.17')).toEqual([{ text: '|j − i| ≥ k, 1/n = 0.17', level: 0 }]);
  });

  test('labels for screen readers use Unicode sub- and superscripts', () => {
    expect(plainMath('q_i · a^K[clip(j − i, ±k)] / √d_k')).toBe('qᵢ · aᴷ[clip(j − i, ±k)] / √dₖ');
    expect(plainMath('a^K_1…a^K_k')).toBe('aᴷ₁…aᴷₖ');
  });
});
