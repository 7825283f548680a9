// The page's state in its address (web/page/url-state.js): a link reproduces the view it was
// written from, and a sentence's word count sets n as the sentence box does; a value with a fixed
// set of choices is read in any case and written back in the page's, and a parameter given more
// than once is read from its first, with a note (web/settings/link-values.js).
import { describe, expect, test } from 'vitest';
import { settingsText } from '../../web/page/export.js';
import { queryFromState, stateFromQuery } from '../../web/page/url-state.js';
import { CONTROLS, defaultState } from '../../web/settings/settings.js';
import { settingsFromAttributes } from '../../web/elements/element-settings.js';
import { fitOptions } from '../../web/views/fit-options.js';
import { parsePanelList } from '../../web/views/panels.js';

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

describe('a link’s choices and repeated parameters', () => {
  test('a choice or a switch in any case is that choice, written back in the page’s case, with nothing to say', () => {
    const { state, notes } = stateFromQuery(
      '?draw=HANDBOOK&table=Random&wscale=Panel&rope=%20HALF%20&causal=TRUE&sameq=True&long=False',
    );
    expect(notes).toEqual([]);
    expect(state).toMatchObject({
      draw: 'handbook',
      table: 'random',
      weightScale: 'panel',
      ropeLayout: 'half',
      causal: true,
      sameQuery: true,
      long: false,
    });
    expect(queryFromState(state)).toBe('?draw=handbook&table=random&sameq=1&causal=1&wscale=panel&rope=half');
    // What is no choice in any case is still corrected, with the choices named.
    expect(stateFromQuery('?draw=handbooks&causal=maybe').notes).toEqual([
      'draw: unknown handbooks; choose from handbook, stable; using stable',
      'causal: unknown maybe; choose from 1, true, on, yes, 0, false, off, no; using off',
    ]);
    // An empty value is named as such, not as "unknown ".
    expect(stateFromQuery('?table=%20').notes).toEqual(['table: empty; choose from random, locality; using locality']);
  });

  test('one switch rule: a link, an element’s attribute and the fit options read the same words alike', () => {
    // Written out here, not taken from link-values.js: what a reader may type.
    const words = {
      '': true,
      1: true,
      true: true,
      ON: true,
      ' Yes ': true,
      0: false,
      False: false,
      off: false,
      NO: false,
    };
    for (const [word, on] of Object.entries(words)) {
      const link = stateFromQuery(`?causal=${encodeURIComponent(word)}&sameq=${encodeURIComponent(word)}`);
      expect([link.state.causal, link.state.sameQuery, link.notes], word).toEqual([on, on, []]);
      const attributes = { causal: word, 'same-query': word };
      const element = { hasAttribute: (a) => a in attributes, getAttribute: (a) => attributes[a] ?? null };
      const read = settingsFromAttributes(element, ['causal', 'sameQuery']);
      expect([read.settings.causal, read.settings.sameQuery, read.notes], word).toEqual([on, on, []]);
      const fit = fitOptions((a) => (a === 'captions' || a === 'actions' ? word : null), { fits: ['width'] });
      expect([fit.captions, fit.actions, fit.notes], word).toEqual([on, on, []]);
    }
    // ?causal with no value is on, as a bare attribute is; a word that is none is the default, said.
    expect(stateFromQuery('?causal').state.causal).toBe(true);
    expect(stateFromQuery('?causal=y').notes).toEqual([
      'causal: unknown y; choose from 1, true, on, yes, 0, false, off, no; using off',
    ]);
  });
  test('a control named in another case (?dK=8, ?K=2) is left out, and said', () => {
    const { state, notes } = stateFromQuery('?dK=8&K=2&Seed=7&seed=5');
    expect([state.dK, state.maxDistance, state.seed]).toEqual([4, 3, 5]); // the defaults; seed as written
    expect(notes).toEqual([
      'dK: not a parameter, names are read as written (did you mean dk?); it is left out',
      'K: not a parameter, names are read as written (did you mean k?); it is left out',
      'Seed: not a parameter, names are read as written (did you mean seed?); it is left out',
    ]);
    expect(stateFromQuery('?dk=8&k=2').notes).toEqual([]);
  });

  test('a parameter given more than once: the first is read, a note says so, and the address keeps it alone', () => {
    expect(stateFromQuery('?n=4&n=8')).toMatchObject({
      state: { seqLen: 4 },
      notes: ['n is given 2 times (4, 8); the first is read'],
    });
    expect(stateFromQuery('?draw=handbook&draw=stable').state.draw).toBe('handbook');
    expect(queryFromState(stateFromQuery('?draw=handbook&draw=stable').state)).toBe('?draw=handbook');
    // The first is read even where it is wrong, and its own correction follows.
    const k = stateFromQuery('?k=99&k=2&k=');
    expect(k.state.maxDistance).toBe(63);
    expect(k.notes).toEqual([
      'k is given 3 times (99, 2, empty); the first is read',
      'k must be an integer from 0 to 63; using 63',
    ]);
    // A first value that is no number: the default is used, and the note says which.
    expect(stateFromQuery('?k=x&k=2')).toMatchObject({
      state: { maxDistance: CONTROLS.maxDistance.default },
      notes: [
        'k is given 2 times (x, 2); the first is read',
        `k must be a number from 0 to 63; using ${CONTROLS.maxDistance.default}`,
      ],
    });
  });

  test('the iframe view’s panels: a name in any case, kebab-case or not', () => {
    const known = ['contentScores', 'positionBiases', 'offsets'];
    expect(parsePanelList('OFFSETS, Position-Biases contentscores', known)).toEqual({ ids: known, note: null });
    expect(parsePanelList('offsets heat', known)).toEqual({
      ids: ['offsets'],
      note: 'panels: unknown heat; choose from contentScores, positionBiases, offsets',
    });
    // Nothing understood: every panel is shown, and the note says so.
    expect(parsePanelList('heat', known)).toEqual({
      ids: known,
      note: 'panels: unknown heat; choose from contentScores, positionBiases, offsets; using all',
    });
  });

  test('a wrong fit, max-height, captions or actions names what is used instead', () => {
    const given = { fit: 'sideways', 'max-height': '50', captions: 'maybe', actions: 'nope' };
    const options = fitOptions((name) => given[name] ?? null, { fits: ['frame', 'width'], actions: false });
    expect(options).toEqual({
      fit: 'frame',
      maxHeight: null,
      captions: true,
      actions: false,
      notes: [
        'fit: unknown sideways; choose from frame, width; using frame',
        'max-height: expected a number of px ≥ 100, got 50; using no maximum',
        'captions: unknown maybe; choose from 1, true, on, yes, 0, false, off, no; using on',
        'actions: unknown nope; choose from 1, true, on, yes, 0, false, off, no; using off',
      ],
    });
  });
});

describe('the settings line of an export (web/page/export.js settingsText)', () => {
  // Each name=value of the line, against what the link set.
  const pairs = (text) => Object.fromEntries(text.split(', ').map((pair) => pair.split('=')));
  test('the sentence view names its sentence; the long view names itself and leaves the sentence out', () => {
    const sentence = pairs(settingsText(stateFromQuery('?tokens=the+cat+sat&k=2').state));
    expect(sentence.tokens).toBe('"the cat sat"');
    expect(sentence.k).toBe('2');
    expect(sentence.n).toBe('3');
    expect(sentence.long).toBeUndefined();
    const long = pairs(settingsText(stateFromQuery('?long=1&n=400&k=20&tokens=the+cat+sat').state));
    expect(long.long).toBe('1');
    expect(long.n).toBe('400');
    expect(long.k).toBe('20');
    expect(long.tokens).toBeUndefined();
  });
});
