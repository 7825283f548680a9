// The reference run the training section opens on (web/train/reference-run.js, written by
// npm run train:reference; docs/training.md): what can be recomputed from the shipped file is —
// its size budget, that it is the default run's on the shipped corpus, each seed's convergence
// from its own curve and what the section says of it, the criterion's loss, the verdicts against the rule's constants, and the
// claims' tally across seeds.
import { statSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { CLAIMS, HANDBOOK_CLAIMS, RULE } from '../../web/train/pos-verdicts.js';
import {
  REFERENCE_RECIPE,
  REFERENCE_RUN,
  acrossSeedsText,
  claimsAgainstReference,
  convergenceText,
  heldOutLevels,
  longerRunGain,
  referenceAnalysis,
  referenceFor,
  referenceVerdict,
  runVerdict,
} from '../../web/train/reference.js';
import { claimWeightLabels, claimsCaption, verdictRows, verdictText } from '../../web/train/train-figures.js';
import { DEFAULT_RUN, MAX_DISTANCE, PRESETS, SCHEDULE } from '../../web/train/train-session.js';
import { trainingCorpus } from './helpers.js';

const FILE = new URL('../../web/train/reference-run.js', import.meta.url);
const corpus = trainingCorpus();
const shipped = { source: corpus.header.source, train: corpus.train.length, heldOut: corpus.heldOut.length };

describe('the reference run', () => {
  test('its recipe: three seeds of 10000 steps at the default run’s peak rate (0.004), the curve every 100 steps, checked against the same seeds trained 30000 steps', () => {
    expect(REFERENCE_RECIPE).toEqual({
      seeds: [1, 2, 3],
      steps: 10000,
      peak: 0.004,
      curveEvery: 100,
      longer: 30000,
      levelReadings: 10,
      longerGain: 0.01,
    });
    expect(REFERENCE_RUN.peakLearningRate).toBe(REFERENCE_RECIPE.peak);
    // The reference trains what a reader's default run trains: the same peak as the default size's.
    expect(REFERENCE_RECIPE.peak).toBe(PRESETS[DEFAULT_RUN.preset].peak);
    // Levels are means of 10 readings; the gain is the final level over the longer run's lowest.
    const curve = Array.from({ length: 20 }, (_, i) => ({
      step: 100 * (i + 1),
      heldOut: i < 10 ? 5 : 4 + (i % 2) * 0.2,
    }));
    expect(heldOutLevels(curve)).toEqual([5, 4.1]);
    expect(() => heldOutLevels(curve.slice(0, 15))).toThrow(RangeError);
    const check = longerRunGain([5, 4.1], [5, 4.05, 4.0, 4.2]);
    expect(check.gain).toBeCloseTo(0.1 / 4.1, 12);
    expect(check).toMatchObject({ lowest: 4.0, lowestStep: 3000 });
    expect(check.rise).toBeCloseTo(0.05, 12);
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

  test('three seeds, each one’s convergence checked against the same seed trained 30000 steps and said as it is; the criterion’s loss is the mean of their final losses', () => {
    const seeds = REFERENCE_RUN.seeds;
    expect(seeds.map((s) => s.seed)).toEqual([1, 2, 3]);
    expect(REFERENCE_RUN.convergence).toEqual({ steps: 10000, longer: 30000, longerGain: 0.01, levelSteps: 1000 });
    for (const s of seeds) {
      expect(s.steps).toBe(REFERENCE_RUN.convergence.steps);
      expect(s.curve.map((p) => p.step)).toEqual(Array.from({ length: s.steps / 100 }, (_, i) => 100 * (i + 1)));
      expect(s.heldOut).toBe(s.curve.at(-1).heldOut);
      // The final level: the mean of the last 10 readings (steps 9100–10000), by hand.
      const final = s.curve.slice(-10).reduce((a, p) => a + p.heldOut, 0) / 10;
      const { levels } = s.longer;
      expect(s.longer.steps).toBe(30000);
      expect(levels).toHaveLength(30);
      const lowest = Math.min(...levels);
      expect(s.longer.lowest).toBeCloseTo(lowest, 4);
      expect(s.longer.lowestStep).toBe(1000 * (levels.indexOf(lowest) + 1));
      expect(s.longer.gain).toBeCloseTo((final - lowest) / final, 3);
      expect(s.longer.rise).toBeCloseTo((levels.at(-1) - lowest) / lowest, 3);
      expect(s.converged).toBe(s.longer.gain <= REFERENCE_RUN.convergence.longerGain);
      // The same claims at 30000 steps: the ones some head shows at 10000.
      const held = HANDBOOK_CLAIMS.filter((name) => s.heads.some((h) => h.verdicts[name].verdict === 'shows')).join(
        ',',
      );
      expect(s.longer.sameClaims).toBe(s.longer.claims === held);
    }
    const text = convergenceText(REFERENCE_RUN);
    const unconverged = seeds.filter((s) => !s.converged).length;
    if (unconverged === 0) expect(text).toContain(': within the convergence criterion of 1.0\u00a0%, converged;');
    else
      expect(text).toContain(
        `: more than the convergence criterion’s 1.0\u00a0% in ${unconverged} of 3 seeds, not converged;`,
      );
    // The longer runs' lowest against this run's end, lowest first, signed (− below).
    const differences = seeds.map((s) => -s.longer.gain).sort((x, y) => x - y);
    const say = (v) => `${v < 0 ? '−' : '+'}${(100 * Math.abs(v)).toFixed(1)}\u00a0%`;
    expect(text).toContain(
      `${say(differences[0])} to ${say(differences[2])} of their own held-out loss at 10000 steps (a mean over the last 1000)`,
    );
    expect(text).toContain(`by step ${Math.max(...seeds.map((s) => s.longer.lowestStep))})`);
    // Per claim, the seeds holding it at 30000 steps (some head of the longer run shows it) and at 10000.
    const perClaim = HANDBOOK_CLAIMS.map((name) => {
      const atLonger = seeds.filter((s) => s.longer.claims.split(',').includes(name)).length;
      const atSteps = seeds.filter((s) => s.heads.some((h) => h.verdicts[name].verdict === 'shows')).length;
      return `${CLAIMS[name].short} in ${atLonger} of 3 (at 10000: ${atSteps})`;
    }).join(', ');
    expect(
      text.endsWith(
        `the handbook’s claims hold in the same seeds as at 10000 in ${seeds.filter((s) => s.longer.sameClaims).length} of 3: ${perClaim}`,
      ),
    ).toBe(true);
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
      const opposite = REFERENCE_RUN.seeds.filter((s) =>
        s.heads.some((h) => h.verdicts[name].verdict === 'opposite'),
      ).length;
      // A seed where one head shows a claim and another its opposite is said as such.
      const also = opposite ? ` (in ${opposite}, ${holds ? 'another' : 'a'} head shows the opposite)` : '';
      expect(text).toContain(`${CLAIMS[name].short} holds in ${holds} of 3 seeds${also}`);
    }
    expect(text).not.toContain('the opposite shows in');
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
      // The same seeds trained 30000 steps, where they hold it in another number of seeds.
      const longer = REFERENCE_RUN.seeds.filter((s) => s.longer.claims.split(',').includes(name)).length;
      const after = longer === holds ? '' : ` (${longer} of 3 trained on to 30000 steps)`;
      if (2 * holds > 3) return `holds in ${holds} of 3 seeds${after}`;
      if (2 * opposite > 3) return `the opposite holds in ${opposite} of 3 seeds${after}`;
      return `not in most seeds (holds in ${holds} of 3 seeds${opposite ? `, the opposite in ${opposite}` : ''})${after}`;
    });
    const atOpen = verdictRows({
      reference: REFERENCE_RUN,
      analysis: referenceAnalysis(REFERENCE_RUN),
      showing: 'reference',
    });
    expect(atOpen.head).toEqual(['the handbook says', 'reference (3 seeds)', 'this run', 'agree?']);
    expect(atOpen.rows).toEqual(
      HANDBOOK_CLAIMS.map((name, i) => [CLAIMS[name].short, expectedReference[i], 'not trained yet', '–']),
    );
    expect(atOpen.caption).toContain(
      `the reference (3 seeds of ${REFERENCE_RUN.convergence.steps} steps) takes the majority`,
    );
    // A tally at 30000 steps in a cell is explained under the card, only when one is shown.
    const explained = '“Trained on to 30000 steps”: the same seeds trained on past their lowest held-out loss';
    expect(atOpen.caption.includes(explained)).toBe(expectedReference.some((cell) => cell.includes('trained on to')));
    expect(expectedReference.some((cell) => cell.includes('trained on to'))).toBe(true);
    const convergedCount = REFERENCE_RUN.seeds.filter((s) => s.converged === true).length;
    expect(atOpen.caption).toContain(
      convergedCount === 3
        ? 'takes the majority of its seeds (converged:'
        : `takes the majority of its seeds (${convergedCount} of 3 seeds converged:`,
    );
    // A run whose heads are seed 2's, provisional at step 500: compared claim by claim.
    const heads = REFERENCE_RUN.seeds[1].heads;
    const live = verdictRows({ reference: REFERENCE_RUN, analysis: { step: 500, heads }, showing: 'live', end: null });
    expect(live.head[2]).toBe('this run, step 500, provisional');
    // On a narrow screen each cell is read after a short label, ending in one colon or one "?",
    // and what the labels stand for is said once.
    expect(live.labels).toEqual(['the handbook says', 'reference:', 'this run:', 'agree?']);
    expect(live.columns).toBe('reference: 3 seeds; this run: step 500, provisional');
    expect(atOpen.columns).toBe('reference: 3 seeds');
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
    // A causal run: a claim about following words cannot be tested, and the card says why.
    const causalHeads = heads.map((h) => ({
      ...h,
      verdicts: { ...h.verdicts, determinerToFollowingNoun: { verdict: 'untestable', reason: 'causal' } },
    }));
    const causal = verdictRows({
      reference: null,
      analysis: { step: 300, heads: causalHeads },
      showing: 'live',
      end: null,
    });
    expect(causal.rows[0]).toEqual(['determiners → following nouns', 'cannot be tested with a causal mask']);
    const agreeing = live.rows.filter((r) => r[3] === 'agrees').length;
    expect(live.caption).toContain(`This run agrees with the reference on ${agreeing} of 2 claims so far`);
  });

  test('the claims table on a narrow screen: each weight named for its words and keys', () => {
    expect(claimWeightLabels(CLAIMS.determinerToFollowingNoun)).toEqual([
      'determiners’ weight on nouns there:',
      'other words’ weight on nouns there:',
    ]);
    expect(claimWeightLabels(CLAIMS.verbToPrecedingSubject)).toEqual([
      'verbs’ weight on nouns or pronouns there:',
      'other words’ weight on nouns or pronouns there:',
    ]);
  });

  test('the verdict card with no reference: no verdict before the first step, provisional during the run, final at its end', () => {
    const heads = REFERENCE_RUN.seeds[1].heads;
    const card = (state) => verdictRows({ reference: null, showing: 'live', end: null, loaded: false, ...state });
    const waiting = {
      head: ['the handbook says', 'this run'],
      rows: [
        ['determiners → following nouns', 'not trained yet'],
        ['verbs → preceding subjects', 'not trained yet'],
      ],
    };
    // Before Train: no reading yet, then the new model's reading at step 0, which tests no claim.
    for (const before of [card({ analysis: null }), card({ analysis: { step: 0, heads } })]) {
      expect({ head: before.head, rows: before.rows }).toEqual(waiting);
      expect(before.caption).toMatch(
        /nothing to compare with\. The claims will be read from this run once it trains\.$/,
      );
      expect(JSON.stringify(before)).not.toMatch(/provisional|step 0/);
    }
    // A model loaded from a file was trained, though its step count starts at 0: its heads are read,
    // under its steps before loading.
    const loaded = card({ analysis: { step: 0, heads }, loaded: true, loadedSteps: 3000 });
    expect(loaded.head).toEqual(['the handbook says', 'this run, loaded after 3000 steps, step 0 here']);
    const onFromLoaded = card({ analysis: { step: 200, heads }, loaded: true, loadedSteps: 3000 });
    expect(onFromLoaded.head[1]).toBe('this run, loaded after 3000 steps, step 200 here, provisional');
    expect(loaded.rows[0][1]).not.toBe('not trained yet');
    // During the run, and at its end (the step budget: no reference, no criterion).
    const during = card({ analysis: { step: 300, heads } });
    expect(during.head).toEqual(['the handbook says', 'this run, step 300, provisional']);
    expect(during.caption).not.toContain('once it trains');
    for (const [i, name] of HANDBOOK_CLAIMS.entries())
      expect(during.rows[i][1]).toMatch(
        heads.some((h) => h.verdicts[name].verdict === 'shows')
          ? /^holds: layer \d head \d, [+−]/
          : /^(no head shows it|the opposite holds: layer \d head \d, −)/,
      );
    // Where the opposite holds, the head showing it most strongly is named with its effect.
    const flipped = heads.map((h, j) => ({
      ...h,
      verdicts: {
        ...h.verdicts,
        determinerToFollowingNoun:
          j < 2
            ? { verdict: 'opposite', effect: j ? -0.08 : -0.05, low: -0.1, high: -0.03, ratio: 0.5, reason: null }
            : { verdict: 'unclear', effect: 0, low: -0.01, high: 0.01, ratio: 1, reason: null },
      },
    }));
    expect(card({ analysis: { step: 300, heads: flipped } }).rows[0][1]).toBe(
      `the opposite holds: layer ${flipped[1].layer} head ${flipped[1].head}, −0.080`,
    );
    const ended = card({ analysis: { step: 600, heads }, end: { steps: 600, reason: 'budget', gap: NaN } });
    expect(ended.head).toEqual(['the handbook says', 'this run, step 600, the run’s end at its step budget']);
    expect(ended.caption).not.toContain('once it trains');
  });

  test('a head that does not show a claim says which of the rule’s tests it fails', () => {
    const v = (effect, low, high, ratio) => ({ verdict: 'unclear', reason: null, effect, low, high, ratio });
    // The interval is above 0, but 1.39× and +0.012 are under the rule's 1.5× and +0.03.
    expect(verdictText(v(0.012, 0.008, 0.017, 0.043 / 0.031))).toBe(
      'does not show it (1.39×, under the rule’s 1.5×; +0.012, under the rule’s +0.03)',
    );
    expect(verdictText(v(0.04, -0.002, 0.08, 1.8))).toBe('does not show it (its interval reaches 0)');
    expect(verdictText(v(-0.012, -0.015, -0.007, 0.77))).toBe(
      'does not show it (less weight there than other words put)',
    );
    // The rule's own constants (a test of the words against RULE, not a copy of them).
    expect(verdictText(v(0.1, 0.05, 0.15, RULE.minRatio - 0.01))).toContain(`under the rule’s ${RULE.minRatio}×`);
    expect(verdictText({ verdict: 'shows' })).toBe('shows it');
    // A value under the bar is never rounded up to it: 1.497× is not "1.50×, under 1.5×".
    expect(verdictText(v(0.0299, 0.01, 0.05, 1.497))).toBe(
      'does not show it (1.497×, under the rule’s 1.5×; +0.0299, under the rule’s +0.03)',
    );
  });

  test('the part-of-speech caption gives no verdict before the first step: its numbers, and "not trained yet"', () => {
    const heads = REFERENCE_RUN.seeds[1].heads;
    const h = heads[0];
    const state = (analysis, more = {}) => ({
      reference: null,
      showing: 'live',
      end: null,
      loaded: false,
      layer: h.layer,
      head: h.head,
      corpus: null,
      analysis,
      ...more,
    });
    const before = claimsCaption(h, state({ step: 0, heads }));
    for (const [name, said] of [
      ['determinerToFollowingNoun', 'determiners attend to following nouns'],
      ['verbToPrecedingSubject', 'verbs attend to preceding subjects'],
    ]) {
      const v = h.verdicts[name];
      // The head's numbers are said as they are, the verdict is not.
      expect(before).toContain(`${said}: this head is not trained yet — ${v.claimed.toFixed(3)} of their attention`);
    }
    expect(before).not.toMatch(/shows it|does not show it|shows the opposite/);
    // At step 300 (and for a loaded model at its step 0) the verdicts are given.
    for (const after of [
      claimsCaption(h, state({ step: 300, heads })),
      claimsCaption(h, state({ step: 0, heads }, { loaded: true })),
    ])
      expect(after).toMatch(
        /determiners attend to following nouns: this head (shows it|does not show it \([^)]+\)|shows the opposite) — /,
      );
  });
});
