// The page's state in its address (web/page/url-state.js): a link reproduces the view it was
// written from, and a sentence's word count sets n as the sentence box does.
import { describe, expect, test } from 'vitest';
import { queryFromState, stateFromQuery } from '../../web/page/url-state.js';
import { defaultState } from '../../web/settings/settings.js';

describe('the address', () => {
  test('a sentence sets n to its word count unless the link gives n', () => {
    expect(stateFromQuery('?tokens=a+b+c').state.seqLen).toBe(3);
    expect(stateFromQuery('?tokens=a+b+c&n=5').state.seqLen).toBe(5);
  });
  test('an empty sentence keeps n, as emptying the box does (it gave n = 1)', () => {
    const { state, notes } = stateFromQuery('?tokens=');
    expect(state.tokens).toBe('');
    expect(state.seqLen).toBe(defaultState().seqLen);
    expect(notes).toEqual([]);
  });
  test('the box emptied at any n: the link it writes opens the same state', () => {
    for (const seqLen of [1, 2, defaultState().seqLen, 17, 64]) {
      const state = { ...defaultState(), tokens: '', seqLen };
      expect(stateFromQuery(queryFromState(state)).state, `n = ${seqLen}`).toEqual(state);
    }
  });
  test('a sentence with a chosen n: the link keeps that n (its word count would set another)', () => {
    for (const [tokens, seqLen] of [
      ['a b c', defaultState().seqLen],
      ['a b c', 3],
      ['a b c', 40],
      [defaultState().tokens, 3],
    ]) {
      const state = { ...defaultState(), tokens, seqLen };
      expect(stateFromQuery(queryFromState(state)).state, `${tokens}, n = ${seqLen}`).toEqual(state);
    }
  });
});
