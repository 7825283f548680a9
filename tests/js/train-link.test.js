// The training section's set-up in a link (web/train/train-link.js): ?train=<task>&train-size=<size>
// &train-seed=<n> read with the corrections said, written back with only what differs from the
// defaults; and what the section says a seed changes (web/train/train-controls.js), checked
// against what a seed does to a session on the real module.
import { beforeAll, describe, expect, test } from 'vitest';
import { linkOfSetup, parseSeed, setupFromLink } from '../../web/train/train-link.js';
import { LOADER_PARAMS } from '../../web/train/loader-params.js';
import { resetText, seedText } from '../../web/train/train-controls.js';
import { TrainSession } from '../../web/train/train-session.js';
import { moduleAndCorpus } from './helpers.js';

const MAX_SEED = 2 ** 32 - 1; // numpy's legacy seeding: a 32-bit unsigned integer

/** setupFromLink on a query string: { setup, notes }. */
const read = (query) => {
  const notes = [];
  const setup = setupFromLink(new URLSearchParams(query), (note) => notes.push(note));
  return { setup, notes };
};

describe('a link’s set-up of the training section', () => {
  test('nothing asked: the default run (masked words, small, seed 1), nothing to say', () => {
    expect(read('')).toEqual({ setup: { task: 'masked', preset: 'small', seed: 1 }, notes: [] });
    // An empty value (?train, as a teacher writes "open the section") is the default too.
    expect(read('?train&train-size=&train-seed=')).toEqual({
      setup: { task: 'masked', preset: 'small', seed: 1 },
      notes: [],
    });
  });

  test('each choice as asked, the page’s own parameters beside them untouched', () => {
    expect(read('?n=4&train=copy&train-size=tiny&train-seed=7&k=2')).toEqual({
      setup: { task: 'copy', preset: 'tiny', seed: 7 },
      notes: [],
    });
    expect(read('?train=next&train-size=large&train-seed=%204294967295%20')).toEqual({
      setup: { task: 'next', preset: 'large', seed: MAX_SEED },
      notes: [],
    });
    expect(read('?train-seed=0').setup.seed).toBe(0);
    // The loader's own parameters are not the section's: no note for them.
    expect(read('?train-workers=1&longer-steps=100&train=copy').notes).toEqual([]);
    expect(LOADER_PARAMS).toEqual(['train-workers', 'longer-steps']);
  });

  test('a value that is not a choice: the default, and a note naming the choices; the rest applies', () => {
    expect(read('?train=poetry&train-size=tiny&train-seed=3')).toEqual({
      setup: { task: 'masked', preset: 'tiny', seed: 3 },
      notes: ['train: unknown poetry; choose from masked, next, copy; using masked'],
    });
    expect(read('?train=copy&train-size=huge')).toEqual({
      setup: { task: 'copy', preset: 'small', seed: 1 },
      notes: ['train-size: unknown huge; choose from tiny, small, large; using small'],
    });
    // An option's label is not its id (an id in any case is: below).
    expect(read('?train=copy-offset (synthetic)').notes).toEqual([
      'train: unknown copy-offset (synthetic); choose from masked, next, copy; using masked',
    ]);
  });

  test('a choice in any case is that choice, written back as the section writes it, with nothing to say', () => {
    expect(read('?train=COPY&train-size=Tiny')).toEqual({
      setup: { task: 'copy', preset: 'tiny', seed: 1 },
      notes: [],
    });
    expect(linkOfSetup(read('?train=Next&train-size=%20LARGE').setup)).toEqual([
      ['train', 'next'],
      ['train-size', 'large'],
    ]);
  });

  test('a parameter given more than once: the first is read, and a note says so', () => {
    expect(read('?train=copy&train=next')).toEqual({
      setup: { task: 'copy', preset: 'small', seed: 1 },
      notes: ['train is given 2 times (copy, next); the first is read'],
    });
    expect(read('?train=copy&train-size=tiny&train-size=large&train-seed=3&train-seed=4')).toEqual({
      setup: { task: 'copy', preset: 'tiny', seed: 3 },
      notes: [
        'train-size is given 2 times (tiny, large); the first is read',
        'train-seed is given 2 times (3, 4); the first is read',
      ],
    });
    // The first is read even where it is not a choice or is empty (the default): said after.
    expect(read('?train=poetry&train=copy').notes).toEqual([
      'train is given 2 times (poetry, copy); the first is read',
      'train: unknown poetry; choose from masked, next, copy; using masked',
    ]);
    expect(read('?train=&train=copy')).toEqual({
      setup: { task: 'masked', preset: 'small', seed: 1 },
      notes: ['train is given 2 times (empty, copy); the first is read'],
    });
  });

  test('a seed outside 0 … 2³² − 1 or not whole is rounded and clamped, text is the default; each said', () => {
    const say = (using) => `train-seed must be an integer from 0 to ${MAX_SEED}; using ${using}`;
    for (const [given, seed, note] of [
      ['2.5', 3, say(3)], // Math.round
      ['-3', 0, say(0)],
      ['5000000000', MAX_SEED, say(MAX_SEED)],
      ['seven', 1, say(1)],
      ['Infinity', 1, say(1)],
      ['12', 12, null],
      ['1e3', 1000, null], // a number as JavaScript reads one, and whole
    ]) {
      const { setup, notes } = read(`?train=copy&train-seed=${encodeURIComponent(given)}`);
      expect(setup, given).toEqual({ task: 'copy', preset: 'small', seed });
      expect(notes, given).toEqual(note ? [note] : []);
    }
    // The Seed box's own words, and nothing typed keeps the seed in use.
    expect(parseSeed('-1', 5, 'Seed')).toEqual({
      value: 0,
      note: `Seed must be an integer from 0 to ${MAX_SEED}; using 0`,
    });
    expect(parseSeed('  ', 5, 'Seed')).toEqual({ value: 5 });
    expect(parseSeed('9', 5, 'Seed')).toEqual({ value: 9 });
  });

  test('a misspelt train… parameter is said, with the section’s names', () => {
    expect(read('?train=copy&train-sise=tiny&train-seed=2')).toEqual({
      setup: { task: 'copy', preset: 'small', seed: 2 },
      notes: ['train-sise: not a parameter of the training section; use train, train-size, train-seed'],
    });
  });

  test('written back: the task always (the section is open), the size and seed where not the defaults', () => {
    expect(linkOfSetup({ task: 'masked', preset: 'small', seed: 1 })).toEqual([['train', 'masked']]);
    expect(linkOfSetup({ task: 'copy', preset: 'tiny', seed: 7 })).toEqual([
      ['train', 'copy'],
      ['train-size', 'tiny'],
      ['train-seed', '7'],
    ]);
    expect(linkOfSetup({ task: 'next', preset: 'small', seed: 0 })).toEqual([
      ['train', 'next'],
      ['train-seed', '0'],
    ]);
    // And read back to the same set-up, with nothing to correct, for every task and size.
    for (const task of ['masked', 'next', 'copy'])
      for (const preset of ['tiny', 'small', 'large'])
        for (const seed of [0, 1, 2, MAX_SEED]) {
          const setup = { task, preset, seed };
          expect(read(`?${new URLSearchParams(linkOfSetup(setup))}`)).toEqual({ setup, notes: [] });
        }
  });
});

describe('what the section says a seed changes', () => {
  let rp;
  let corpus;
  beforeAll(async () => {
    ({ rp, corpus } = await moduleAndCorpus());
  });

  /** Two tiny sessions of `task` with seeds 1 and 2: their initial parameters and first batches. */
  const twoSeeds = (task) =>
    [1, 2].map((seed) => {
      const session = new TrainSession(rp, corpus, { task, preset: 'tiny', seed });
      const parameters = Array.from(session.model.parameterVector());
      const batch = session.batch();
      const seen = { parameters, tokens: Array.from(batch.tokens), targets: Array.from(batch.targets) };
      session.dispose();
      return seen;
    });

  test('the words', () => {
    expect(resetText('masked', 7)).toBe(
      'A new model from step 0, with the same seed as before (7): it trains the same way again. Another seed gives other initial weights and other training batches.',
    );
    expect(resetText('copy', 7)).toBe(
      'A new model from step 0, with the same seed as before (7): it trains the same way again. Another seed gives other initial weights (the copy task’s batches are the same for every seed).',
    );
    expect(seedText('next', 2, 1)).toBe('Seed 2: other initial weights and other training batches than seed 1.');
    expect(seedText('copy', 2, 1)).toBe(
      'Seed 2: other initial weights than seed 1 (the copy task’s batches are the same for every seed).',
    );
  });

  test('masked and next word: other initial weights and other batches; copy: other weights, the same batches', () => {
    for (const task of ['masked', 'next']) {
      const [one, two] = twoSeeds(task);
      expect(two.parameters, task).not.toEqual(one.parameters);
      expect(two.tokens, task).not.toEqual(one.tokens);
    }
    const [one, two] = twoSeeds('copy');
    expect(two.parameters).not.toEqual(one.parameters);
    expect(two.tokens).toEqual(one.tokens);
    expect(two.targets).toEqual(one.targets);
  });

  test('the same seed: the same start and the same batches, so the run again', () => {
    const [a, b] = [3, 3].map((seed) => {
      const session = new TrainSession(rp, corpus, { task: 'masked', preset: 'tiny', seed });
      const losses = [0, 1, 2].map(() => session.step());
      session.dispose();
      return losses;
    });
    expect(b).toEqual(a);
  });
});
