// A training run has an end (web/train/run-end.js, docs/training.md): the learning-rate schedule
// (warm-up, half a cosine to the floor at the budget), the criterion against the reference
// run's held-out loss, the step budget, and a tiny run on the real module and corpus that
// stops at the first held-out reading within the criterion, or at its budget.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADAM, READINGS, SCHEDULE, TrainSession, learningRateAt } from '../../web/train/train-session.js';
import { CRITERION, LEARNED, runEnd } from '../../web/train/run-end.js';
import { endText } from '../../web/train/train-controls.js';
import { moduleAndCorpus } from './helpers.js';

describe('the learning-rate schedule', () => {
  test('rises linearly over the warm-up, then falls along half a cosine to the floor at the budget', () => {
    const peak = 0.002;
    expect(SCHEDULE).toEqual({ warmup: 100, floor: 0.05 });
    expect(learningRateAt(0, 1200, { peak })).toBeCloseTo(peak / 100, 15);
    expect(learningRateAt(49, 1200, { peak })).toBeCloseTo(peak / 2, 15);
    expect(learningRateAt(99, 1200, { peak })).toBeCloseTo(peak, 15);
    expect(learningRateAt(100, 1200, { peak })).toBeCloseTo(peak, 15);
    // Half-way through the decay, cos(π/2) = 0: the mean of the peak and the floor.
    expect(learningRateAt(650, 1200, { peak })).toBeCloseTo(peak * (0.05 + 0.95 / 2), 15);
    expect(learningRateAt(1200, 1200, { peak })).toBeCloseTo(0.05 * peak, 15);
    expect(learningRateAt(5000, 1200, { peak })).toBeCloseTo(0.05 * peak, 15);
    expect(learningRateAt(100, 1200)).toBe(ADAM.learningRate);
    for (let s = 100; s < 1200; s += 50)
      expect(learningRateAt(s + 50, 1200, { peak })).toBeLessThan(learningRateAt(s, 1200, { peak }));
  });
});

describe('the end of a run', () => {
  test('the criterion: held-out loss at most (1 + within) × the reference’s; else the budget; else it goes on', () => {
    expect(CRITERION.within).toBe(0.02);
    const reference = 4;
    // 4 × 1.02 = 4.08: at it the run ends; just above it, and at 3 % above (4.12), it goes on.
    expect(runEnd({ steps: 300, budget: 1200, heldOut: 4.08, referenceLoss: reference })).toMatchObject({
      ended: true,
      reason: 'criterion',
    });
    const near = runEnd({ steps: 300, budget: 1200, heldOut: 4.081, referenceLoss: reference });
    expect(near).toMatchObject({ ended: false, reason: null });
    expect(near.gap).toBeCloseTo(0.081 / 4, 12);
    expect(runEnd({ steps: 300, budget: 1200, heldOut: 4.12, referenceLoss: reference })).toMatchObject({
      ended: false,
    });
    expect(runEnd({ steps: 1200, budget: 1200, heldOut: 4.5, referenceLoss: reference })).toMatchObject({
      ended: true,
      reason: 'budget',
    });
    // No reference (another task, size or corpus): only the budget ends it.
    expect(runEnd({ steps: 1175, budget: 1200, heldOut: 0.1 })).toMatchObject({ ended: false });
    expect(runEnd({ steps: 1200, budget: 1200, heldOut: 0.1 })).toMatchObject({ ended: true, reason: 'budget' });
  });

  test('a task learned: held-out loss at most 0.01 ends a run before its budget, after the criterion', () => {
    expect(LEARNED.heldOut).toBe(0.01);
    expect(runEnd({ steps: 300, budget: 4800, heldOut: 0.01 })).toMatchObject({
      ended: true,
      reason: 'learned',
      heldOut: 0.01,
    });
    expect(runEnd({ steps: 300, budget: 4800, heldOut: 0.0101 })).toMatchObject({ ended: false, reason: null });
    expect(runEnd({ steps: 4800, budget: 4800, heldOut: 0.5 })).toMatchObject({ ended: true, reason: 'budget' });
    // Within the criterion of a reference is said first; learned where the reference is out of reach.
    expect(runEnd({ steps: 300, budget: 4800, heldOut: 0.004, referenceLoss: 0.004 }).reason).toBe('criterion');
    expect(runEnd({ steps: 300, budget: 4800, heldOut: 0.005, referenceLoss: 0.004 }).reason).toBe('learned');
    expect(endText({ reason: 'learned', heldOut: 0.00421, gap: NaN })).toBe(
      'ended: the task is learned (held-out loss at most 0.01)',
    );
    // The criterion (within 2 %) and the budget say the run's distance from the reference's loss,
    // each "%" held to its number by a no-break space.
    expect(endText({ reason: 'criterion', gap: 0.0171 })).toBe(
      'ended: held-out loss within 2.0\u00a0% of the reference run’s (+1.7\u00a0%)',
    );
    expect(endText({ reason: 'budget', gap: -0.0712 })).toBe(
      'ended at its step budget, −7.1\u00a0% from the reference run’s held-out loss',
    );
    expect(endText({ reason: 'budget', gap: NaN })).toBe('ended at its step budget');
  });

  describe('a tiny run on the real module and corpus', () => {
    let rp;
    let corpus;
    beforeAll(async () => {
      ({ rp, corpus } = await moduleAndCorpus());
    });
    afterAll(() => rp.dispose());
    test('the default size trains at its own peak rate (0.004), the others at Adam’s (0.002); a peak given wins', () => {
      for (const [preset, peak] of [
        ['small', 0.004],
        ['tiny', ADAM.learningRate],
        ['small', 0.001],
      ]) {
        const session = new TrainSession(rp, corpus, { preset, ...(peak === 0.001 ? { peak } : {}) });
        expect(session.peak).toBe(peak);
        expect(session.learningRate).toBeCloseTo(peak / SCHEDULE.warmup, 15);
        session.dispose();
      }
      expect(ADAM.learningRate).toBe(0.002);
    });
    /** Trains as the worker does (a held-out reading every READINGS.loss steps) until runEnd says so. */
    const trainToEnd = (referenceLoss, budget) => {
      const session = new TrainSession(rp, corpus, { preset: 'tiny', seed: 5, budget });
      const readings = [];
      for (;;) {
        session.step();
        if (session.steps % READINGS.loss !== 0) continue;
        const heldOut = session.heldOut().loss;
        readings.push({ step: session.steps, heldOut });
        const end = runEnd({ steps: session.steps, budget, heldOut, referenceLoss });
        if (end.ended) {
          const { steps } = session;
          session.dispose();
          return { end, readings, steps };
        }
      }
    };
    test('stops at its budget when the reference is out of reach, and at the first reading within it otherwise', () => {
      const full = trainToEnd(0.01, 100);
      expect(full.steps).toBe(100);
      expect(full.end.reason).toBe('budget');
      expect(full.readings.map((r) => r.step)).toEqual([25, 50, 75, 100]);
      expect(full.readings.at(-1).heldOut).toBeLessThan(full.readings[0].heldOut);
      // A reference the step-75 loss is within the criterion of: the same run (same seed) stops at
      // the first reading at or below (1 + within) × it, which is step 75 or earlier.
      const reference = full.readings[2].heldOut / (1 + CRITERION.within);
      const first = full.readings.find((r) => r.heldOut <= reference * (1 + CRITERION.within));
      const stopped = trainToEnd(reference, 100);
      expect(stopped.end.reason).toBe('criterion');
      expect(stopped.steps).toBe(first.step);
      expect(stopped.readings).toEqual(full.readings.slice(0, full.readings.indexOf(first) + 1));
    });
  });
});
