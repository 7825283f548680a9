// "Longer than trained"'s caption from its numbers (web/train/longer-than-trained.js): which
// schemes' loss rises, falls or stays from L to 8L, each with its change; what each scheme meets
// past L by construction, and each group's measured change, never a claim the numbers contradict;
// the word-frequency baselines on the held-out words and on the training text; one full stop after
// a list ending in "et al.".
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
  unigramTrain: 4.787,
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
    expect(text).toContain('losses run from 3.90 (Sinusoidal) to 3.95 (None) nats per word');
    expect(text).toContain(
      'knowing only the training text’s word frequencies gives 4.76 on these held-out words (4.79 on the training text itself, what the training section’s unigram line measures).',
    );
    expect(text).toContain('From 16 to 128 the loss rises for Sinusoidal +0.40.');
    expect(text).toContain('It falls (more text before most words) for ALiBi −0.05.');
    expect(text).toContain(`It stays within ${SAME_LOSS} for None.`);
  });

  test('a list of schemes that ends in “Shaw et al.” ends the sentence once', () => {
    const text = longerCaption(
      result([
        { scheme: 'alibi', loss: [3.9, 3.9, 3.9, 3.9] },
        { scheme: 'shaw', loss: [3.8, 3.8, 3.8, 3.8] },
      ]),
    );
    expect(text).toContain(`It stays within ${SAME_LOSS} for ALiBi and Shaw et al. By construction`);
    expect(text).toContain(
      'Measured from 16 to 128: of those that meet nothing untrained from +0.00 (ALiBi) to +0.00 (Shaw et al.).',
    );
    expect(text).not.toContain('..');
    expect(text).not.toMatch(/rises|falls/);
  });

  // The review's case, the page's numbers (docs/schemes.md §7, seed 1): the learned absolute table
  // rose +0.064 from 16 to 128, less than RoPE's +0.072: the caption says what was measured and
  // never that it "cannot extrapolate".
  const measured = [
    ['shaw', 3.89, 3.901],
    ['t5', 3.88, 3.93],
    ['alibi', 3.9, 3.927],
    ['rope', 3.884, 3.956],
    ['sinusoidal', 3.909, 4.277],
    ['absolute', 3.907, 3.971],
    ['none', 3.912, 3.947],
  ].map(([scheme, atL, at8L]) => ({ scheme, loss: [atL, atL, at8L, at8L] }));

  test('the rises most to least; each group of the construction with its measured change', () => {
    const text = longerCaption(result(measured));
    expect(text).not.toContain('cannot extrapolate');
    expect(text).toContain(
      'From 16 to 128 the loss rises, most to least, for Sinusoidal +0.37, RoPE +0.07, Learned absolute +0.06, T5 buckets +0.05, None +0.04 and ALiBi +0.03.',
    );
    expect(text).toContain(`It stays within ${SAME_LOSS} for Shaw et al.`);
    expect(text).toContain(
      'By construction, past the trained length 16: RoPE (rotations for longer distances), Sinusoidal (later positions) and Learned absolute (rows of later positions, never trained) meet values training never showed; Shaw et al. (offsets clipped at ±8), T5 buckets (16 one-way buckets, the last from distance 15 on) and ALiBi (a fixed penalty) give every offset up to 127 a value training used or one that needs none; None reads no position.',
    );
    expect(text).toContain(
      'Measured from 16 to 128: the loss of those that meet something untrained changed from +0.06 (Learned absolute) to +0.37 (Sinusoidal); of those that meet nothing untrained from +0.01 (Shaw et al.) to +0.05 (T5 buckets).',
    );
    expect(text).not.toContain('..');
  });

  test('a run of some schemes says only theirs; one scheme in a group is said alone', () => {
    const text = longerCaption(result(measured.filter((r) => ['rope', 'alibi'].includes(r.scheme))));
    expect(text).toContain(
      'By construction, past the trained length 16: RoPE (rotations for longer distances) meets values training never showed; ALiBi (a fixed penalty) gives every offset up to 127',
    );
    expect(text).not.toMatch(/Shaw|T5|absolute|None|inusoidal/);
    expect(text).toContain(
      'Measured from 16 to 128: the loss of those that meet something untrained changed +0.07 (RoPE); of those that meet nothing untrained +0.03 (ALiBi).',
    );
  });
});
