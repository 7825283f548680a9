// "Longer than trained"'s caption from its numbers (web/train/longer-than-trained.js): the lead,
// one sentence of what to see (each model's change of loss from L to 8L, the highest alone only
// when it stands apart from the next by more than twice the standard error of their difference
// over the passages); each change with ± twice its standard error; what each scheme meets past L
// by construction and whether the measured changes split that way, never a split the spread does
// not support (the caveat beside the conclusion, with what the ± covers); the conclusion (which
// model clearly fails, None against the others that hold, and what its loss at L says); the set-up
// said plainly (a batch of 16 windows a step); the word-frequency baselines; which line the second
// panel leaves out; one full stop after a list ending in "et al.".
import { describe, expect, test } from 'vitest';
import { EXTRAPOLATION, EXTRAPOLATION_SCHEMES } from '../../web/train/length-extrapolation.js';
import {
  SCHEME_MARKS,
  ZOOM_SHARE,
  groupsText,
  lineDash,
  longerCaption,
  longerCaptionParts,
  longerCaveat,
  longerConclusion,
  longerLead,
  zoomLeavesOut,
} from '../../web/train/longer-than-trained.js';
import { MARKERS } from '../../web/render/point-markers.js';

// Four passages of 100 words each.
const COUNTS = [100, 100, 100, 100];
const result = (rows) => ({
  rows,
  lengths: [16, 32, 64, 128],
  settings: { ...EXTRAPOLATION, steps: 300 },
  corpus: 'some text',
  vocabSize: 502,
  words: 400,
  passageWords: COUNTS,
  unigram: 4.761,
  unigramTrain: 4.787,
  t5LastBucketFrom: 15,
});
const PLUS = [1, -1, 1, -1];
const MINUS = [-1, 1, -1, 1];
// A model's row: its loss at each length, and its passages' losses: the same as the row's at every
// length but 8L, where passage p is off by noise · pattern[p] (their mean unchanged). The change's
// per-passage values are then change ± noise; their sample standard deviation is
// sqrt(4 noise² / 3), over √4 passages a standard error of noise/√3: twice that is 2·noise/√3.
const row = (scheme, loss, noise = 0, pattern = PLUS) => ({
  scheme,
  loss,
  passageLoss: loss.map((v, i) => COUNTS.map((_, p) => (i === loss.length - 1 ? v + noise * pattern[p] : v))),
});
/** The noise that makes twice the standard error of one model's change `twoSe`. */
const noiseFor = (twoSe) => (twoSe * Math.sqrt(3)) / 2;

describe('longerLead', () => {
  test('the highest change said alone when it stands apart from the next; the others as a range with their ends named', () => {
    // Sinusoidal +0.40 and None +0.01 move alike in every passage (the same pattern and noise):
    // their paired difference is 0.39 in each, its standard error 0, so they stand apart.
    const rows = [
      row('sinusoidal', [3.9, 4.0, 4.1, 4.3], 0.01),
      row('alibi', [3.9, 3.9, 3.88, 3.85], 0.01),
      row('none', [3.95, 3.95, 3.95, 3.96], 0.01),
    ];
    expect(longerLead(result(rows))).toBe(
      'From windows of 16 words, the length trained on, to 128, the held-out loss of Sinusoidal rises by 0.40 nats per word and that of the other two changes by −0.05 (ALiBi) to +0.01 (None).',
    );
    // All the others rise: said as a rise, without signs.
    const rising = [rows[0], row('rope', [3.9, 3.92, 3.95, 3.97], 0.01), row('shaw', [3.9, 3.9, 3.9, 3.91], 0.01)];
    expect(longerLead(result(rising))).toBe(
      'From windows of 16 words, the length trained on, to 128, the held-out loss of Sinusoidal rises by 0.40 nats per word and that of the other two rises by 0.01 (Shaw et al.) to 0.07 (RoPE).',
    );
  });

  test('no model singled out when the highest is within twice the standard error of the next', () => {
    // Sinusoidal +0.05 and RoPE +0.04 move oppositely by 0.03 in each passage: their paired
    // difference is 0.01 ± 0.06 in turn, a standard error of 0.06/√3 = 0.035: not apart.
    const rows = [
      row('sinusoidal', [3.9, 3.91, 3.93, 3.95], 0.03, PLUS),
      row('rope', [3.9, 3.91, 3.92, 3.94], 0.03, MINUS),
      row('shaw', [3.9, 3.9, 3.91, 3.92], 0.03),
    ];
    expect(longerLead(result(rows))).toBe(
      'From windows of 16 words, the length trained on, to 128, the held-out loss of the three models rises by 0.02 (Shaw et al.) to 0.05 (Sinusoidal) nats per word.',
    );
    // One model: its change alone.
    expect(longerLead(result([rows[2]]))).toBe(
      'From windows of 16 words, the length trained on, to 128, the held-out loss of Shaw et al. rises by 0.02 nats per word.',
    );
  });

  test('a model that diverged is named at the end of the lead and nowhere in its numbers', () => {
    const rows = [
      row('sinusoidal', [3.9, 4.0, 4.1, 4.3], 0.01),
      row('alibi', [NaN, NaN, NaN, NaN]),
      row('none', [3.95, 3.95, 3.95, 3.96], 0.01),
      row('shaw', [3.9, 3.9, 3.9, 3.92], 0.01),
    ];
    expect(longerLead(result(rows))).toBe(
      'From windows of 16 words, the length trained on, to 128, the held-out loss of Sinusoidal rises by 0.40 nats per word and that of the other two rises by 0.01 (None) to 0.02 (Shaw et al.); ALiBi diverged (no loss to compare).',
    );
  });
});

// The review's case, the page's numbers (docs/schemes.md §7, seed 1): T5's loss rose +0.050 and
// the learned absolute table's +0.064: the groups by construction are 0.014 apart at their
// closest, which the passages' spread does not support as a split.
const MEASURED = [
  ['shaw', 3.89, 3.901],
  ['t5', 3.88, 3.93],
  ['alibi', 3.9, 3.927],
  ['rope', 3.884, 3.956],
  ['sinusoidal', 3.909, 4.277],
  ['absolute', 3.907, 3.971],
  ['none', 3.912, 3.947],
];
// Those that meet something untrained off one way in each passage, the others the other way:
// every paired difference across the groups has a standard error of 2·noise/√3.
const UNSEEN = ['rope', 'sinusoidal', 'absolute'];
const measured = (noise) =>
  MEASURED.map(([scheme, atL, at8L]) =>
    row(scheme, [atL, atL, at8L, at8L], noise, UNSEEN.includes(scheme) ? PLUS : MINUS),
  );

describe('longerCaption', () => {
  test('the set-up said plainly; the losses at L; each change with ± twice its standard error, highest first', () => {
    const noise = noiseFor(0.03);
    const text = longerCaption(
      result([
        row('sinusoidal', [3.9, 4.0, 4.1, 4.3], noise),
        row('alibi', [3.9, 3.9, 3.88, 3.85], noise),
        row('none', [3.95, 3.95, 3.95, 3.96], noise),
      ]),
    );
    expect(text).toContain(
      'trained 300 steps on windows of 16 words of some text, each step a batch of 16 windows, the same windows and seed for each;',
    );
    expect(text).not.toContain('16 a step');
    expect(text).toContain(
      'the same 400 held-out words (4 passages) in windows of 16, 32, 64 and 128: only the text before each word changes.',
    );
    expect(text).toContain('losses run from 3.90 (Sinusoidal) to 3.95 (None) nats per word');
    expect(text).toContain(
      'knowing only the training text’s word frequencies gives 4.76 on these held-out words (4.79 on the training text itself, what the training section’s unigram line measures).',
    );
    expect(text).toContain(
      'From 16 to 128, each change ± twice its standard error over the 4 passages (how much the choice of held-out text moves it): Sinusoidal +0.40 ± 0.03, None +0.01 ± 0.03 and ALiBi −0.05 ± 0.03.',
    );
    // The change is said once with its number: not again as "rises", "falls" or "stays" lists.
    expect(text).not.toMatch(/rises|falls|stays within/);
    expect(text).toContain(
      'Each line: a model’s held-out loss at each window length minus its own loss at 16, in nats per word (above 0: worse than at the length it was trained on); the second panel leaves out Sinusoidal,',
    );
    expect(text).toContain('and zooms in on the other two.');
  });

  test('a list of schemes that ends in “Shaw et al.” ends the sentence once', () => {
    const text = longerCaption(result([row('alibi', [3.9, 3.9, 3.9, 3.95]), row('shaw', [3.8, 3.8, 3.8, 3.8])]));
    expect(text).toContain('ALiBi +0.05 ± 0.000 and Shaw et al. +0.00 ± 0.000.');
    expect(text).not.toContain('et al..');
    expect(text).not.toContain('..');
    expect(longerLead(result([row('shaw', [3.8, 3.8, 3.8, 3.9])]))).not.toContain('..');
  });

  test('the groups by construction overlap when their closest pair is within twice its standard error', () => {
    const text = longerCaption(result(measured(noiseFor(0.02))));
    expect(text).not.toContain('cannot extrapolate');
    expect(text).toContain(
      'Sinusoidal +0.37 ± 0.02, RoPE +0.07 ± 0.02, Learned absolute +0.06 ± 0.02, T5 buckets +0.05 ± 0.02, None +0.04 ± 0.02, ALiBi +0.03 ± 0.02 and Shaw et al. +0.01 ± 0.02.',
    );
    expect(text).toContain(
      'By construction, past the trained length 16: RoPE (rotations for longer distances), Sinusoidal (later positions) and Learned absolute (rows of later positions, never trained) meet values training never showed (dashed lines); Shaw et al. (offsets clipped at ±8), T5 buckets (16 one-way buckets, the last from distance 15 on) and ALiBi (a fixed penalty) give every offset up to 127 a value training used or one that needs none (solid); None reads no position (dotted).',
    );
    // The split by construction is the caveat beside the conclusion, in view, not in the rest.
    expect(text).not.toContain('Measured');
    // Learned absolute − T5: 0.014, its paired standard error 2·noise/√3 = 0.02: within noise.
    expect(longerCaveat(result(measured(noiseFor(0.02))))).toBe(
      'Measured, the dashed lines (something untrained past 16) and the solid ones (nothing untrained) overlap: T5 buckets (solid, +0.05) and Learned absolute (dashed, +0.06) differ by 0.01 ± 0.04: within noise (the gap is no larger than its ±). The ± is twice the standard error over the 4 held-out passages: it covers only which held-out text was read; a model trained from another seed lands elsewhere too, which one run does not measure.',
    );
    // No two groups said apart by a range each (the old caption's "+0.06 (Learned absolute) to … ; … to +0.05 (T5 buckets)").
    expect(text).not.toMatch(/changed from|nothing untrained from/);
    expect(text).not.toContain('..');
  });

  test('the groups said apart only when every pair across them is, with the closest pair; the other way round, said so', () => {
    // No spread at all: every pair across the groups is apart (Learned absolute − T5 = 0.014 > 0).
    expect(groupsText(result(measured(0)))).toBe(
      'Measured, the dashed lines (something untrained past 16) and the solid ones (nothing untrained) split as built: every dashed line rose more than every solid one; the closest, T5 buckets (solid, +0.05) and Learned absolute (dashed, +0.06), differ by 0.01 ± 0.000.',
    );
    // A pair across the groups apart from the others but against the construction: said as it is.
    const reversed = measured(0).map((r) =>
      r.scheme === 'absolute' ? row('absolute', [3.907, 3.907, 3.93, 3.937]) : r,
    );
    expect(groupsText(result(reversed))).toBe(
      'Measured, the dashed lines (something untrained past 16) and the solid ones (nothing untrained) do not split as built: Learned absolute (dashed, +0.03) rose less than T5 buckets (solid, +0.05), by 0.02 ± 0.000.',
    );
    // One group only: nothing to compare.
    expect(groupsText(result(measured(0).filter((r) => ['rope', 'none'].includes(r.scheme))))).toBe('');
    // A gap under 0.005 is said to one significant digit, not as "0.00": Learned absolute's change
    // 3.96 − 3.907 = 0.053 against T5's 0.05.
    const close = measured(noiseFor(0.02)).map((r) =>
      r.scheme === 'absolute' ? row('absolute', [3.907, 3.907, 3.96, 3.96], noiseFor(0.02), PLUS) : r,
    );
    const said = groupsText(result(close));
    expect(said).toContain('T5 buckets (solid, +0.05) and Learned absolute (dashed, +0.05) differ by 0.003 ± 0.04');
    expect(said).not.toContain('0.00 ±');
  });

  test('a run of some schemes says only theirs; one scheme in a group is said alone', () => {
    const text = longerCaption(result(measured(0).filter((r) => ['rope', 'alibi'].includes(r.scheme))));
    expect(text).toContain(
      'By construction, past the trained length 16: RoPE (rotations for longer distances) meets values training never showed (a dashed line); ALiBi (a fixed penalty) gives every offset up to 127',
    );
    expect(text).not.toMatch(/Shaw|T5|absolute|None|inusoidal/);
    // +0.072 − +0.027: 0.0449… in floating point, 0.04.
    expect(groupsText(result(measured(0).filter((r) => ['rope', 'alibi'].includes(r.scheme))))).toBe(
      'Measured, the dashed lines (something untrained past 16) and the solid ones (nothing untrained) split as built: every dashed line rose more than every solid one; the closest, ALiBi (solid, +0.03) and RoPE (dashed, +0.07), differ by 0.04 ± 0.000.',
    );
    // Two lines: no second panel, and the caption says none.
    expect(text).not.toContain('second panel');
  });
});

describe('longerConclusion', () => {
  // The page's numbers (MEASURED): None +0.035, at 16 words 3.912 against the best, T5's 3.88.
  const noneChange = (3.947 - 3.912).toFixed(2);
  const gapAtL = (3.912 - 3.88).toFixed(2);
  test('the one model that rises above every other by more than the noise fails; None against the six others; its loss at L', () => {
    // Twice the standard error of a paired difference: 0 within a pattern (the same passages move
    // alike), 4·noise/√3 = 0.04 across (RoPE, Learned absolute and Sinusoidal against None). RoPE
    // − None = 0.037 and Learned absolute − None = 0.029: within; T5 − None = 0.015, ALiBi − None
    // = −0.008, Shaw − None = −0.024, same pattern: apart. None alone: 2·noise/√3 = 0.02 < 0.035.
    expect(longerConclusion(result(measured(noiseFor(0.02))))).toBe(
      `So only Sinusoidal clearly fails past the trained length: it rises more than every other model, each by more than the noise. None, with no position at all, rises by ${noneChange} (less than T5 buckets; within the noise of RoPE and Learned absolute; more than ALiBi and Shaw et al.): reading longer windows costs even a model without positions. At 16 words None is only ${gapAtL} worse than the best (T5 buckets): this small model gets little from position, so the run can show a scheme that breaks, not rank those that hold.`,
    );
    // No spread: every pair apart, none within None's noise.
    expect(longerConclusion(result(measured(0)))).toContain(
      `None, with no position at all, rises by ${noneChange} (less than RoPE, Learned absolute and T5 buckets; more than ALiBi and Shaw et al.): reading`,
    );
  });

  test('no model said to fail when the highest is within the noise of another; None’s gap at L said without a reading when larger than every change', () => {
    // Sinusoidal +0.05 and RoPE +0.04 move oppositely by 0.03 in each passage: within noise.
    const rows = [
      row('sinusoidal', [3.9, 3.91, 3.93, 3.95], 0.03, PLUS),
      row('rope', [3.9, 3.91, 3.92, 3.94], 0.03, MINUS),
      row('none', [4.2, 4.2, 4.2, 4.21], 0.03, MINUS),
    ];
    const text = longerConclusion(result(rows));
    expect(text).toMatch(
      /^So no model clearly fails past the trained length: Sinusoidal’s rise, the highest, is within the noise of RoPE’s\. None, with no position at all, rises by 0\.01 \(/,
    );
    // None 0.30 worse at L than the best, more than any change (0.05): no "little" said.
    expect(text).toMatch(/ At 16 words None is 0\.30 worse than the best \((Sinusoidal|RoPE)\)\.$/);
    expect(text).not.toContain('little');
    // A model that diverged is compared with nothing, and is never the best at L.
    const diverged = [...measured(0), row('t5', [NaN, NaN, NaN, NaN])].filter(
      (r, i, all) => r.scheme !== 't5' || i === all.length - 1,
    );
    const said = longerConclusion(result(diverged));
    expect(said).not.toContain('T5');
    expect(said).toContain('worse than the best (RoPE)');
    // One model, or a run without None: nothing about None.
    expect(longerConclusion(result([rows[1]]))).toBe('');
    expect(longerConclusion(result(rows.slice(0, 2)))).not.toContain('None');
    // None 3.884 − 3.88 = 0.004 worse than T5 at L: said as that, not as "only 0.00 worse".
    const near = measured(noiseFor(0.02)).map((r) =>
      r.scheme === 'none' ? row('none', [3.884, 3.884, 3.919, 3.919], noiseFor(0.02), MINUS) : r,
    );
    const nearText = longerConclusion(result(near));
    expect(nearText).toContain('At 16 words None is only 0.004 worse than the best (T5 buckets)');
    expect(nearText).not.toContain('0.00 worse');
  });
});

describe('longerCaptionParts', () => {
  test('three paragraphs: the lines and what each scheme meets past L; the set-up; what was measured', () => {
    const parts = longerCaptionParts(result(measured(noiseFor(0.02))));
    expect(parts).toHaveLength(3);
    expect(parts[0]).toMatch(/^Each line: .* By construction, past the trained length 16: .* \(dotted\)\.$/);
    expect(parts[1]).toMatch(/^Next word, causal: .* unigram line measures\)\.$/);
    expect(parts[2]).toMatch(
      /^From 16 to 128, each change ± twice its standard error over the 4 passages .* Shaw et al\. \+0\.01 ± 0\.02\.$/,
    );
    expect(parts.join(' ')).toBe(longerCaption(result(measured(noiseFor(0.02)))));
  });
});

describe('the plot', () => {
  test('the second panel leaves out the highest line only when the others span less than a third of the first panel', () => {
    const rows = measured(0);
    expect(zoomLeavesOut(rows)).toBe('sinusoidal');
    // The others' changes span 0 … +0.072 (RoPE), all seven 0 … +0.368: under a third.
    expect(0.072).toBeLessThan(ZOOM_SHARE * 0.368);
    // Without Sinusoidal, RoPE's +0.072 against the rest's 0 … +0.064: no second panel.
    expect(zoomLeavesOut(rows.filter((r) => r.scheme !== 'sinusoidal'))).toBeNull();
    // A diverged model is not drawn, so it is never the one left out.
    const nan = rows.map((r) => (r.scheme === 'sinusoidal' ? { ...r, loss: r.loss.map(() => NaN) } : r));
    expect(zoomLeavesOut(nan)).toBeNull();
  });

  test('every scheme its own colour and its own marker; the dash says what it meets past L', () => {
    const marks = Object.values(SCHEME_MARKS);
    expect(Object.keys(SCHEME_MARKS).sort()).toEqual([...EXTRAPOLATION_SCHEMES].sort());
    expect(new Set(marks.map((m) => m.colour)).size).toBe(marks.length);
    expect(new Set(marks.map((m) => m.marker)).size).toBe(marks.length);
    for (const m of marks) expect(Object.keys(MARKERS)).toContain(m.marker);
    expect([true, false, null].map(lineDash)).toEqual(['solid', 'dashed', 'dotted']);
  });
});
