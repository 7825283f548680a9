// The training section's caption leads (web/train/train-figures.js): the sentence each figure opens
// with, its numbers recomputed here from the readings they come from.
import { describe, expect, test } from 'vitest';
import { REFERENCE_RUN, referenceAnalysis } from '../../web/train/reference.js';
import {
  historyCaption,
  lossCaption,
  lossLead,
  lossZoom,
  lossZoomText,
  posLead,
} from '../../web/train/train-figures.js';
import { CRITERION } from '../../web/train/run-end.js';
import { learningRateAt } from '../../web/train/train-session.js';

describe('caption leads', () => {
  test('the part-of-speech figure leads with the largest weight on one offset other than 0, for each shipped head', () => {
    for (const h of referenceAnalysis(REFERENCE_RUN).heads) {
      let best = { w: -1 };
      for (const [name, { weights }] of Object.entries(h.byPos))
        for (let c = 0; c < 17; c += 1)
          if (c !== 8 && weights[c] > best.w) best = { name, w: weights[c], offset: c - 8 };
      const lead = posLead(h);
      const sign = best.offset > 0 ? '+' : '−';
      expect(lead).toContain(
        `${best.name}s put the most weight on one offset, ${best.w.toFixed(2)} on ${sign}${Math.abs(best.offset)}`,
      );
      expect(lead).toContain(best.offset > 0 ? ' ahead)' : ' back)');
      // Offset 0 (the word itself) is left out, and the sentence says so: its line may peak there.
      expect(lead).toContain('besides the word itself (offset 0), ');
      expect(lead).toContain('spread evenly over the 32 words would put 0.03 on each');
      expect(posLead(h, true)).not.toContain('spread evenly');
    }
  });

  test('the zoomed loss plot spans the lowest loss drawn to 10 % above the end line (or the lowest held-out loss)', () => {
    const losses = [
      { step: 100, train: 7.5, heldOut: 7.6 },
      { step: 200, train: 3.5, heldOut: 4.0 },
      { step: 300, train: 3.4, heldOut: 4.2 },
    ];
    // No reference: 10 % above the lowest held-out loss (4.0 → 4.4), down to the lowest training loss 3.4 less 6 % of the span.
    const own = lossZoom({ losses, reference: null });
    expect(own.high).toBeCloseTo(4.4, 12);
    expect(own.low).toBeCloseTo(3.4 - 0.06 * (4.4 - 3.4), 12);
    expect(own.of).toBe('the run’s lowest held-out loss');
    // With the reference: 10 % above its loss within the criterion; its curve's readings count among the lows.
    const end = REFERENCE_RUN.heldOut * (1 + CRITERION.within);
    const lowest = Math.min(3.4, ...REFERENCE_RUN.seeds[0].curve.map((p) => p.heldOut));
    const withRef = lossZoom({ losses: losses.slice(0, 2), reference: REFERENCE_RUN });
    expect(4.0).toBeLessThan(end * 1.1); // the last held-out loss is under the top
    expect(withRef.high).toBeCloseTo(end * 1.1, 12);
    const lowestOfTwo = Math.min(3.5, ...REFERENCE_RUN.seeds[0].curve.map((p) => p.heldOut));
    expect(withRef.low).toBeCloseTo(lowestOfTwo - 0.06 * (end * 1.1 - lowestOfTwo), 12);
    // A held-out loss risen from its lowest (4.0) over the top (4.5) raises the top to just above it;
    // one that has not yet come down (7.6 at the first reading) does not.
    const up = [...losses.slice(0, 2), { step: 300, train: 3.4, heldOut: 4.5 }];
    expect(4.5).toBeGreaterThan(end * 1.1);
    expect(lossZoom({ losses: up, reference: REFERENCE_RUN }).high).toBeCloseTo(4.5 + 0.02 * (4.5 - lowest), 12);
    expect(lossZoom({ losses: losses.slice(0, 1), reference: REFERENCE_RUN }).high).toBeCloseTo(end * 1.1, 12);
    expect(lossZoom({ losses: [], reference: null })).toBeNull();
    // A held-out loss risen past the top stays in view: the top is just above it (4.0 lowest, 4.8 last).
    const risen = [...losses, { step: 400, train: 3.0, heldOut: 4.8 }];
    const over = lossZoom({ losses: risen, reference: null });
    expect(over.high).toBeCloseTo(4.8 + 0.02 * (4.8 - 3.0), 12);
    expect(over.last).toBe(4.8);
    expect(own.last).toBeNull();
  });

  test('the zoomed plot says when only the reference run’s curve is in it: this run’s readings all above its top', () => {
    const top = REFERENCE_RUN.heldOut * (1 + CRITERION.within) * 1.1;
    const early = [{ step: 100, train: top + 1, heldOut: top + 0.9 }];
    const state = { losses: early, reference: REFERENCE_RUN };
    const zoom = lossZoom(state);
    expect(lossZoomText(state, zoom)).toBe(
      `Zoomed: from ${zoom.low.toFixed(2)} to ${top.toFixed(2)} nats (10.0\u00a0% above the line where the run ends), where only the reference run’s curve is yet: this run’s come in once its loss falls below ${top.toFixed(2)}.`,
    );
    // One training reading inside the window: the same curves, as before the run (no readings).
    const later = {
      losses: [...early, { step: 200, train: top - 0.01, heldOut: top + 0.2 }],
      reference: REFERENCE_RUN,
    };
    expect(lossZoomText(later, lossZoom(later))).toMatch(/^Zoomed: the same curves from /);
    const none = { losses: [], reference: REFERENCE_RUN };
    expect(lossZoomText(none, lossZoom(none))).toMatch(/^Zoomed: the same curves from /);
  });

  test('a held-out loss more than 5 % above its lowest reading is said to over-fit, with both numbers', () => {
    const losses = [
      { step: 100, train: 6, heldOut: 6.2 },
      { step: 600, train: 4.1, heldOut: 4.41 },
      { step: 4800, train: 2.2, heldOut: 5.121 },
    ];
    // 5.121 / 4.41 − 1 = 16.1 %.
    expect(lossLead({ losses, reference: null, budget: 4800, end: null })).toBe(
      'Held-out loss 5.121 at step 4800; lower is better. It is 16.1\u00a0% above its lowest, 4.410 at step 600: the model fits its training windows better and unseen text worse (it over-fits). The run ends at step 4800.',
    );
    // 4.6 is 4.3 % above 4.41: noise, not said.
    const near = [...losses.slice(0, 2), { step: 4800, train: 3, heldOut: 4.6 }];
    expect(lossLead({ losses: near, reference: null, budget: 4800, end: null })).not.toContain('over-fits');
  });

  test('the profiles over training name the steps of the rows drawn, and what a learned head looks like on the task', () => {
    const rows = (...steps) => steps.map((step) => ({ step, profiles: [] }));
    expect(historyCaption({ layer: 1, task: 'copy', history: rows(0, 100) }, 0.5)).toBe(
      'Layer 1: each row is one reading of the run’s mean profile (at steps 0 and 100, first at the top), each column an offset; blue below 0, red above, on one scale to ±0.50. A head that learns the offset it copies from shows red at that offset, growing down the rows.',
    );
    const long = historyCaption(
      { layer: 0, task: 'masked', history: rows(0, 600, 1200, 1800, 2400, 3000, 3600) },
      1.234,
    );
    expect(long).toContain('(7 readings from step 0 to step 3600, first at the top)');
    expect(long).toContain('near offset 0 growing down the rows');
    expect(historyCaption({ layer: 0, task: 'masked', history: [] }, 1)).toContain(
      '(none yet: the rows grow as a run trains)',
    );
  });

  test('the copy task: its run ends once it has learned the task, and its two baselines are one', () => {
    const copy = { task: 'copy', losses: [], reference: null, budget: 4800, end: null };
    expect(lossLead(copy)).toBe(
      'Lower is better. The run ends at step 4800, or once its held-out loss is 0.01 or less (the task learned).',
    );
    expect(
      lossLead({
        ...copy,
        losses: [{ step: 275, heldOut: 0.0062 }],
        end: { steps: 275, reason: 'learned', gap: NaN, heldOut: 0.0062 },
      }),
    ).toBe(
      'Held-out loss 0.006 at step 275; lower is better. This run ended at step 275: the task is learned (held-out loss 0.006, at most 0.01).',
    );
    const V = 16;
    const caption = lossCaption({
      ...copy,
      config: { vocabSize: V },
      baselines: { uniform: Math.log(V), unigram: Math.log(V) },
    });
    expect(caption).toContain(
      'Dashed: ln V = ln 16 = 2.77, what a model that knows nothing scores (every id equally likely); the symbols are equally frequent, so knowing how often each is scores the same.',
    );
    expect(caption).not.toContain('unigram entropy of the training targets');
  });

  test('the loss caption says when the reference’s curve drawn has this run’s seed, and how the two runs differ', () => {
    const drawn = REFERENCE_RUN.seeds[0].seed;
    const state = { losses: [], reference: REFERENCE_RUN, budget: 4800, end: null, modelSeed: drawn };
    const steps = REFERENCE_RUN.convergence.steps;
    expect(lossCaption(state)).toContain(
      `The reference’s seed-${drawn} curve is another run than this one, though this one has seed ${drawn} too: the reference’s learning rate reaches its floor at step ${steps}, this run’s at step 4800.`,
    );
    // Each schedule reaches its floor (5 % of the peak) at its budget, not before.
    const peak = REFERENCE_RUN.peakLearningRate;
    for (const budget of [steps, 4800]) {
      expect(learningRateAt(budget, budget, { peak })).toBeCloseTo(peak * REFERENCE_RUN.schedule.floor, 12);
      expect(learningRateAt(budget - 100, budget, { peak })).toBeGreaterThan(
        peak * REFERENCE_RUN.schedule.floor * 1.001,
      );
    }
    // Another seed: the curve's label names its seed, and nothing more is said.
    expect(lossCaption({ ...state, modelSeed: drawn + 6 })).not.toContain('another run than this one');
    // How the run ended, against the reference's loss (each "%" held to its number).
    expect(lossCaption({ ...state, end: { steps: 3800, reason: 'criterion', gap: 0.0171 } })).toContain(
      'This run reached it at step 3800 (+1.7\u00a0% from the reference’s loss).',
    );
    expect(lossCaption({ ...state, end: { steps: 4800, reason: 'budget', gap: 0.0712 } })).toContain(
      'This run stopped at its step budget, step 4800, +7.1\u00a0% from the reference’s loss.',
    );
  });

  test('the loss figure leads with the held-out loss now and where the run ends', () => {
    const state = { losses: [{ step: 25, heldOut: 5.1234 }], reference: REFERENCE_RUN, budget: 2700, end: null };
    const target = (REFERENCE_RUN.heldOut * (1 + CRITERION.within)).toFixed(3);
    expect(lossLead(state)).toBe(
      `Held-out loss 5.123 at step 25; lower is better. The run ends at the dashed line, ${target} (within ${(100 * CRITERION.within).toFixed(1)}\u00a0% of the reference’s ${REFERENCE_RUN.heldOut.toFixed(3)}), or at step 2700.`,
    );
    expect(lossLead({ losses: [], reference: null, budget: 600, end: null })).toBe(
      'Lower is better. The run ends at step 600.',
    );
    const ended = { ...state, end: { steps: 2700, reason: 'budget', gap: 0.0712 } };
    expect(lossLead(ended)).toContain(
      'This run ended at its step budget, step 2700 (+7.1\u00a0% from the reference’s loss).',
    );
    const atCriterion = { ...state, end: { steps: 3800, reason: 'criterion', gap: 0.0171 } };
    expect(lossLead(atCriterion)).toContain(
      `This run ended at step 3800, within ${(100 * CRITERION.within).toFixed(1)}\u00a0% of the reference’s held-out loss (+1.7\u00a0% from the reference’s loss).`,
    );
  });
});
