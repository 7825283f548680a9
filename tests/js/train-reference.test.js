// The reference run the training section opens on (web/train/reference-run.js, written by
// npm run train:reference; docs/training.md): what can be recomputed from the shipped file is —
// its size budget, that it is the default run's on the shipped corpus, each seed's convergence
// from its own curve and what the section says of it, the criterion's loss, the verdicts against the rule's constants, and the
// claims' tally across seeds.
import { readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { decodeCorpus } from '../../web/train/corpus-format.js';
import { CLAIMS, HANDBOOK_CLAIMS, RULE } from '../../web/train/pos-verdicts.js';
import {
  REFERENCE_RECIPE,
  REFERENCE_RUN,
  acrossSeedsText,
  claimsAgainstReference,
  convergenceText,
  lastThirdFall,
  referenceAnalysis,
  referenceFor,
  referenceVerdict,
  runVerdict,
} from '../../web/train/reference.js';
import { verdictRows } from '../../web/train/train-figures.js';
import { DEFAULT_RUN, MAX_DISTANCE, PRESETS, SCHEDULE } from '../../web/train/train-session.js';

const FILE = new URL('../../web/train/reference-run.js', import.meta.url);
const corpus = decodeCorpus(gunzipSync(readFileSync(new URL('../../dist/training-corpus.bin', import.meta.url))));
const shipped = { source: corpus.header.source, train: corpus.train.length, heldOut: corpus.heldOut.length };

describe('the reference run', () => {
  test('its recipe: three seeds of 10000 steps at a peak rate of 0.002, the curve every 100 steps, converged at a fall of at most 1 % over the last third', () => {
    expect(REFERENCE_RECIPE).toEqual({
      seeds: [1, 2, 3],
      steps: 10000,
      peak: 0.002,
      curveEvery: 100,
      lastThirdFall: 0.01,
    });
    expect(REFERENCE_RUN.peakLearningRate).toBe(REFERENCE_RECIPE.peak);
    // 10000 steps: the readings from step 6700 (nearest two thirds) to 10000, 34 of them. On a
    // straight line from 4.04 to 4.00 the fall is (4.04 − 4.00) / 4.00 = 1 %, whatever comes before.
    const line = Array.from({ length: 100 }, (_, i) => {
      const step = 100 * (i + 1);
      return { step, heldOut: step < 6700 ? 9 - i / 100 : 4.0 + (0.04 * (10000 - step)) / 3300 };
    });
    expect(lastThirdFall(line, 10000)).toBeCloseTo(0.01, 12);
    // One reading 3 % low at the end of a flat curve moves the line, not the criterion: by hand,
    // slope −0.12 · 1650 / Σ(x − 8350)² with Σ = 100² · 34 · (34² − 1) / 12, the line's ends 4 − 0.12/34 ± 1650 · slope.
    const flat = Array.from({ length: 100 }, (_, i) => ({ step: 100 * (i + 1), heldOut: i === 99 ? 3.88 : 4.0 }));
    const slope = (-0.12 * 1650) / ((100 ** 2 * 34 * (34 ** 2 - 1)) / 12);
    const [start, end] = [4 - 0.12 / 34 - 1650 * slope, 4 - 0.12 / 34 + 1650 * slope];
    expect(lastThirdFall(flat, 10000)).toBeCloseTo((start - end) / end, 12);
    expect(lastThirdFall(flat, 10000)).toBeLessThan(0.006);
    expect(() => lastThirdFall(line.slice(0, 50), 10000)).toThrow(RangeError);
  });

  test('fits its budget of 64 KiB, and is the default run on the shipped corpus, with today’s schedule', () => {
    expect(statSync(FILE).size).toBeLessThanOrEqual(64 * 1024);
    expect(REFERENCE_RUN.task).toBe(DEFAULT_RUN.task);
    expect(REFERENCE_RUN.preset).toBe(DEFAULT_RUN.preset);
    expect(REFERENCE_RUN.corpus).toEqual(shipped);
    expect(REFERENCE_RUN.schedule).toEqual({ ...SCHEDULE });
    expect(REFERENCE_RUN.kernels).toBe('plain');
    expect(referenceFor({ task: 'masked', preset: 'small', corpus: shipped })).toBe(REFERENCE_RUN);
    // Another task, size or corpus has no reference.
    expect(referenceFor({ task: 'next', preset: 'small', corpus: shipped })).toBeNull();
    expect(referenceFor({ task: 'masked', preset: 'tiny', corpus: shipped })).toBeNull();
    expect(referenceFor({ task: 'masked', preset: 'small', corpus: { ...shipped, train: 1000 } })).toBeNull();
  });

  test('three seeds, each one’s convergence read from its own curve and said as it is; the criterion’s loss is the mean of their final losses', () => {
    const seeds = REFERENCE_RUN.seeds;
    expect(seeds.map((s) => s.seed)).toEqual([1, 2, 3]);
    for (const s of seeds) {
      expect(s.steps).toBe(REFERENCE_RUN.convergence.steps);
      expect(s.curve.map((p) => p.step)).toEqual(Array.from({ length: s.steps / 100 }, (_, i) => 100 * (i + 1)));
      expect(s.heldOut).toBe(s.curve.at(-1).heldOut);
      // The least-squares line through the readings from the one nearest two thirds of the steps
      // to the last, by the normal equations: its fall from there to the end, over its end.
      const twoThirds = 100 * Math.round(s.steps / 150);
      const points = s.curve.filter((p) => p.step >= twoThirds);
      const n = points.length;
      const [sx, sy] = [points.reduce((a, p) => a + p.step, 0), points.reduce((a, p) => a + p.heldOut, 0)];
      const sxx = points.reduce((a, p) => a + p.step * p.step, 0);
      const sxy = points.reduce((a, p) => a + p.step * p.heldOut, 0);
      const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
      const intercept = (sy - slope * sx) / n;
      const fall = (slope * (twoThirds - s.steps)) / (intercept + slope * s.steps);
      expect(n).toBe(34);
      expect(s.change).toBeCloseTo(fall, 3);
      expect(lastThirdFall(s.curve, s.steps)).toBeCloseTo(fall, 9);
      expect(s.converged).toBe(fall <= REFERENCE_RUN.convergence.lastThirdFall);
    }
    const falls = seeds.map((s) => `${(100 * s.change).toFixed(1)} %`);
    const text = convergenceText(REFERENCE_RUN);
    if (seeds.every((s) => s.converged)) expect(text).toMatch(/: converged$/);
    else {
      expect(text).toMatch(/: not converged$/);
      expect(text).toContain(`${seeds.filter((s) => !s.converged).length} of 3 seeds`);
    }
    for (const fall of [falls.sort()[0], falls.sort().at(-1)]) expect(text).toContain(fall);
    expect(text).toContain('(a straight line through its 34 held-out readings)');
    // The schedule over that third, by hand: 0.05 + 0.95 · (1 + cos(π · (step − 100) / (steps − 100))) / 2 of the peak.
    const steps = REFERENCE_RUN.convergence.steps;
    const rate = (step) => 0.05 + (0.95 * (1 + Math.cos((Math.PI * (step - 100)) / (steps - 100)))) / 2;
    const twoThirds = 100 * Math.round(steps / 150);
    expect(text).toContain(`the learning rate falling from ${Math.round(100 * rate(twoThirds))} % to 5 % of its peak`);
    const mean = seeds.reduce((sum, s) => sum + s.heldOut, 0) / seeds.length;
    expect(REFERENCE_RUN.heldOut).toBeCloseTo(mean, 4);
  });

  test('every head’s readings are whole, and every verdict is the rule applied to its numbers', () => {
    for (const s of REFERENCE_RUN.seeds) {
      expect(s.heads).toHaveLength(PRESETS.small.layers * PRESETS.small.heads);
      for (const h of s.heads) {
        expect(h.profile).toHaveLength(2 * MAX_DISTANCE + 1);
        expect(h.profileLow).toHaveLength(2 * MAX_DISTANCE + 1);
        expect(h.left + h.self + h.right).toBeCloseTo(1, 3);
        h.profileLow.forEach((low, c) => expect(low).toBeLessThanOrEqual(h.profileHigh[c]));
        for (const name of Object.keys(CLAIMS)) {
          const v = h.verdicts[name];
          // The file's numbers are rounded (to 4 decimals, or 6): one that rounds onto a threshold
          // may have been just under it, so there both verdicts are the rule's.
          const rule = (e) => {
            const shows = v.low > 0 && v.ratio >= RULE.minRatio && v.effect >= RULE.minEffect - e;
            const opposite = v.high < 0 && v.ratio <= 1 / RULE.minRatio && v.effect <= -RULE.minEffect + e;
            return shows ? 'shows' : opposite ? 'opposite' : 'unclear';
          };
          const onThreshold = Math.abs(Math.abs(v.effect) - RULE.minEffect) <= 5e-5;
          const allowed = onThreshold ? [rule(-1e-4), rule(1e-4)] : [rule(0)];
          expect(allowed, `seed ${s.seed} layer ${h.layer} head ${h.head} ${name}`).toContain(v.verdict);
          expect(v.low).toBeLessThanOrEqual(v.high);
          expect(v.effect).toBeCloseTo(v.claimed - v.baseline, 3);
        }
      }
    }
  });

  test('the claims across seeds: a claim holds in a seed when one of its heads shows it', () => {
    const text = acrossSeedsText(REFERENCE_RUN);
    for (const name of HANDBOOK_CLAIMS) {
      const holds = REFERENCE_RUN.seeds.filter((s) => s.heads.some((h) => h.verdicts[name].verdict === 'shows')).length;
      expect(text).toContain(`${CLAIMS[name].short} holds in ${holds} of 3 seeds`);
    }
    const analysis = referenceAnalysis(REFERENCE_RUN);
    expect(analysis).toMatchObject({ step: REFERENCE_RUN.seeds[0].steps, seed: 1, causal: false });
    expect(analysis.heads).toBe(REFERENCE_RUN.seeds[0].heads);
  });

  test('a run against the reference, claim by claim: the majority of the seeds against any head of the run', () => {
    // Heads with chosen verdicts; the other claims' verdicts do not matter.
    const head = (d, v) => ({
      verdicts: { determinerToFollowingNoun: { verdict: d }, verbToPrecedingSubject: { verdict: v } },
    });
    const run = (...heads) => ({ heads });
    const reference = {
      convergence: { steps: 100 },
      seeds: [
        run(head('shows', 'opposite'), head('unclear', 'unclear')),
        run(head('unclear', 'opposite'), head('unclear', 'unclear')),
        run(head('shows', 'unclear'), head('opposite', 'shows')),
      ],
    };
    expect(referenceVerdict(reference, 'determinerToFollowingNoun')).toEqual({
      verdict: 'holds',
      holds: 2,
      opposite: 1,
      of: 3,
      short: 'determiners → following nouns',
    });
    expect(referenceVerdict(reference, 'verbToPrecedingSubject')).toMatchObject({
      verdict: 'opposite',
      holds: 1,
      opposite: 2,
    });
    // One seed in three is no majority.
    expect(
      referenceVerdict(
        { seeds: reference.seeds.slice(2).concat(run(head('unclear', 'unclear'))) },
        'determinerToFollowingNoun',
      ).verdict,
    ).toBe('not shown');
    // A head showing it wins over one showing the opposite; all untestable is untestable.
    expect(runVerdict([head('opposite', 'unclear'), head('shows', 'unclear')], 'determinerToFollowingNoun')).toBe(
      'holds',
    );
    expect(runVerdict([head('opposite', 'unclear'), head('unclear', 'unclear')], 'determinerToFollowingNoun')).toBe(
      'opposite',
    );
    expect(runVerdict([head('untestable', 'unclear')], 'determinerToFollowingNoun')).toBe('untestable');
    expect(runVerdict([head('untestable', 'unclear'), head('unclear', 'unclear')], 'determinerToFollowingNoun')).toBe(
      'not shown',
    );
    const against = claimsAgainstReference([head('unclear', 'unclear')], reference);
    expect(against.map((c) => [c.name, c.run, c.agrees])).toEqual([
      ['determinerToFollowingNoun', 'not shown', false],
      ['verbToPrecedingSubject', 'not shown', false],
    ]);
    expect(claimsAgainstReference(null, reference).every((c) => c.run === null && c.agrees === null)).toBe(true);
  });

  test('the verdict card: the shipped reference at open, a run against it once trained', () => {
    const expectedReference = HANDBOOK_CLAIMS.map((name) => {
      const holds = REFERENCE_RUN.seeds.filter((s) => s.heads.some((h) => h.verdicts[name].verdict === 'shows')).length;
      const opposite = REFERENCE_RUN.seeds.filter((s) =>
        s.heads.some((h) => h.verdicts[name].verdict === 'opposite'),
      ).length;
      if (2 * holds > 3) return `holds in ${holds} of 3 seeds`;
      if (2 * opposite > 3) return `the opposite holds in ${opposite} of 3 seeds`;
      return `not shown (holds in ${holds} of 3 seeds${opposite ? `, the opposite in ${opposite}` : ''})`;
    });
    const atOpen = verdictRows({
      reference: REFERENCE_RUN,
      analysis: referenceAnalysis(REFERENCE_RUN),
      showing: 'reference',
    });
    expect(atOpen.head).toEqual([
      'the handbook says',
      `the reference: 3 seeds × ${REFERENCE_RUN.convergence.steps} steps`,
      'this run',
      'agree?',
    ]);
    expect(atOpen.rows).toEqual(
      HANDBOOK_CLAIMS.map((name, i) => [CLAIMS[name].short, expectedReference[i], 'not trained yet: press Train', '–']),
    );
    // A run whose heads are seed 2's, provisional at step 500: compared claim by claim.
    const heads = REFERENCE_RUN.seeds[1].heads;
    const live = verdictRows({ reference: REFERENCE_RUN, analysis: { step: 500, heads }, showing: 'live', end: null });
    expect(live.head[2]).toBe('this run, step 500, provisional');
    for (const [i, name] of HANDBOOK_CLAIMS.entries()) {
      const showing = heads.filter((h) => h.verdicts[name].verdict === 'shows');
      const best = showing.sort((a, b) => b.verdicts[name].effect - a.verdicts[name].effect)[0];
      if (best) expect(live.rows[i][2]).toMatch(new RegExp(`^holds: layer ${best.layer} head ${best.head}, [+−]`));
      const runSays = best
        ? 'holds'
        : heads.some((h) => h.verdicts[name].verdict === 'opposite')
          ? 'opposite'
          : 'not shown';
      const referenceSays = expectedReference[i].startsWith('holds')
        ? 'holds'
        : expectedReference[i].startsWith('the opposite')
          ? 'opposite'
          : 'not shown';
      expect(live.rows[i][3]).toBe(runSays === referenceSays ? 'agrees' : 'differs');
    }
    const agreeing = live.rows.filter((r) => r[3] === 'agrees').length;
    expect(live.caption).toContain(`This run agrees with the reference on ${agreeing} of 2 claims so far`);
  });
});
