// The verdict rule on constructed attention where the answer is known (web/train/pos-verdicts.js):
// a head that reads the previous word for every query, or nouns for every query, shows no
// verb-specific effect although verbs often follow nouns; a head built to be verb-specific does;
// under a causal mask a claim about following words cannot be tested; the summary sentence says what
// the numbers say, and the head shown by default is the summary's strongest; claims across seeds.
import { describe, expect, test } from 'vitest';
import { seededRandom } from '../../web/api/seeded-random.js';
import { POS_NAMES } from '../../web/train/corpus-format.js';
import {
  CLAIMS,
  claimTally,
  claimVerdict,
  claimsAcrossRuns,
  clearestHead,
  structureText,
  headVerdicts,
  quantileOfSorted,
  quantileOfUnsorted,
  RULE,
  RULE_TEXT,
  SHOWN_WHEN,
  leftRightCell,
  summariseRun,
} from '../../web/train/pos-verdicts.js';

const N = 32;
const [DET, NOUN, VERB, , , PREP, PRON] = [0, 1, 2, 3, 4, 5, 6];
expect(POS_NAMES[VERB]).toBe('verb');
expect(POS_NAMES[PRON]).toBe('pronoun');

/** Windows of tags from a chain where a verb follows a noun or pronoun half the time. */
function taggedWindows(count, seed) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const pos = new Uint8Array(N);
    for (let i = 0; i < N; i += 1) {
      const prev = i ? pos[i - 1] : PREP;
      const r = random();
      if (prev === NOUN || prev === PRON) pos[i] = r < 0.5 ? VERB : r < 0.8 ? PREP : Math.floor(random() * 9);
      else if (prev === DET) pos[i] = r < 0.8 ? NOUN : 3;
      else pos[i] = r < 0.3 ? DET : r < 0.5 ? NOUN : r < 0.6 ? PRON : Math.floor(random() * 9);
    }
    return pos;
  });
}

/** Row-stochastic weights: `row(i, pos)` gives { [j]: weight } before normalising. */
function weightsOf(pos, row, causal = false) {
  const w = new Float64Array(N * N);
  for (let i = 0; i < N; i += 1) {
    const r = row(i, pos);
    let sum = 0;
    for (let j = 0; j < N; j += 1) {
      if (causal && j > i) continue;
      w[i * N + j] = r[j] ?? 0;
      sum += w[i * N + j];
    }
    for (let j = 0; j < N; j += 1) w[i * N + j] /= sum;
  }
  return w;
}
const uniformRow = () => Object.fromEntries(Array.from({ length: N }, (_, j) => [j, 1]));
const previousWord = (i) => (i ? { [i - 1]: 1 } : { 0: 1 });
/** The nearest noun or pronoun within 3 words before i gets `share`, the rest spread evenly. */
const nearestSubject = (i, pos, share) => {
  const row = uniformRow();
  for (let c = 1; c <= 3 && i - c >= 0; c += 1)
    if (pos[i - c] === NOUN || pos[i - c] === PRON) {
      for (const j of Object.keys(row)) row[j] = (1 - share) / N;
      row[i - c] += share;
      break;
    }
  return row;
};

function verdictsFor(row, { causal = false, windows = 96, seed = 5 } = {}) {
  const tallies = taggedWindows(windows, seed).map((pos) =>
    claimTally(pos, weightsOf(pos, row, causal), N, { causal }),
  );
  return headVerdicts(tallies, { causal });
}

/** The former rule's ratio: weight on the claimed targets against uniform attention's there. */
function ratioToUniform(row, claim) {
  let weight = 0;
  let uniform = 0;
  for (const pos of taggedWindows(96, 5)) {
    const w = weightsOf(pos, row);
    for (let i = 0; i < N; i += 1) {
      if (pos[i] !== VERB) continue;
      for (let c = claim.from; c <= claim.to; c += 1) {
        const j = i + c;
        if (j < 0 || j >= N || ![NOUN, PRON].includes(pos[j])) continue;
        weight += w[i * N + j];
        uniform += 1 / N;
      }
    }
  }
  return weight / uniform;
}

describe('verdicts on constructed heads', () => {
  test('a head that reads the previous word for every query shows no verb-specific effect', () => {
    const claim = CLAIMS.verbToPrecedingSubject;
    // What the former rule read as "shows it": far above uniform, and more than on the right.
    expect(ratioToUniform(previousWord, claim)).toBeGreaterThan(1.5);
    const v = verdictsFor(previousWord).verbToPrecedingSubject;
    expect(v.claimed).toBeGreaterThan(0.4); // verbs do put weight on preceding nouns…
    expect(v.effect).toBeCloseTo(0, 12); // …exactly as much as every other word puts there
    expect(v.verdict).not.toBe('shows');
    expect(v.low).toBeLessThanOrEqual(0);
    expect(v.high).toBeGreaterThanOrEqual(0);
  });

  test('a head that reads the nearest preceding noun for every query does not show a verb-specific effect', () => {
    const v = verdictsFor((i, pos) => nearestSubject(i, pos, 0.6)).verbToPrecedingSubject;
    expect(v.claimed).toBeGreaterThan(0.3);
    expect(v.verdict).not.toBe('shows');
    // Verbs follow nouns more often than other words do, so their nearest subject is nearer and
    // the offset-by-offset baseline is, if anything, above what they put there.
    expect(v.effect).toBeLessThan(0.05);
  });

  test('a head built to be verb-specific shows it, clear of its interval; the other claims do not', () => {
    const row = (i, pos) => (pos[i] === VERB ? nearestSubject(i, pos, 0.6) : uniformRow());
    const all = verdictsFor(row);
    const v = all.verbToPrecedingSubject;
    expect(v.verdict).toBe('shows');
    expect(v.low).toBeGreaterThan(0);
    expect(v.low).toBeLessThan(v.effect);
    expect(v.high).toBeGreaterThan(v.effect);
    expect(v.ratio).toBeGreaterThan(5);
    // The effect, derived independently: verbs put ~0.6 on a preceding subject where one exists,
    // every other query 1/32 per key.
    expect(v.effect).toBeGreaterThan(0.3);
    expect(v.effect).toBeLessThan(0.6);
    expect(all.determinerToFollowingNoun.verdict).not.toBe('shows');
    expect(all.verbToFollowingNoun.verdict).not.toBe('shows');
  });

  test('a head that avoids preceding subjects for verbs shows the opposite', () => {
    const row = (i, pos) => {
      const r = uniformRow();
      if (pos[i] === VERB) for (let c = 1; c <= 3; c += 1) if ([NOUN, PRON].includes(pos[i - c])) r[i - c] = 0.01;
      return r;
    };
    expect(verdictsFor(row).verbToPrecedingSubject.verdict).toBe('opposite');
  });

  test('causal mask: claims about following words cannot be tested; preceding ones can', () => {
    const row = (i, pos) => (pos[i] === VERB ? nearestSubject(i, pos, 0.6) : uniformRow());
    const all = verdictsFor(row, { causal: true });
    expect(all.determinerToFollowingNoun).toMatchObject({ verdict: 'untestable', reason: 'causal' });
    expect(all.verbToFollowingNoun).toMatchObject({ verdict: 'untestable', reason: 'causal' });
    expect(all.verbToPrecedingSubject.verdict).toBe('shows');
  });

  test('too few claimed queries: untestable', () => {
    const pos = new Uint8Array(N).fill(NOUN);
    pos[5] = VERB;
    const t = claimTally(pos, weightsOf(pos, uniformRow), N);
    expect(claimVerdict([t.verbToPrecedingSubject], CLAIMS.verbToPrecedingSubject)).toMatchObject({
      verdict: 'untestable',
      reason: 'too few',
      queries: 1,
    });
  });

  test('the interval is repeatable (seeded) and narrows with more windows', () => {
    const row = (i, pos) => (pos[i] === VERB ? nearestSubject(i, pos, 0.3) : uniformRow());
    const a = verdictsFor(row, { windows: 32 }).verbToPrecedingSubject;
    expect(verdictsFor(row, { windows: 32 }).verbToPrecedingSubject).toEqual(a);
    const b = verdictsFor(row, { windows: 256 }).verbToPrecedingSubject;
    expect(b.high - b.low).toBeLessThan(0.7 * (a.high - a.low));
  });
});

describe('the summary sentence', () => {
  const verdict = (v, effect = 0, low = -0.01, high = 0.01) => ({ verdict: v, effect, low, high, reason: null });
  const untested = { verdict: 'untestable', reason: 'causal' };
  const head = (layer, h, left, right, near, verdicts) => ({
    layer,
    head: h,
    left,
    right,
    near,
    nearUniform: 0.1,
    verdicts,
  });
  const none = {
    determinerToFollowingNoun: verdict('unclear'),
    verbToPrecedingSubject: verdict('unclear'),
  };
  test('follows the numbers', () => {
    const analysis = {
      step: 1200,
      causal: false,
      heads: [
        head(0, 0, 0.45, 0.45, 0.12, none),
        head(0, 1, 0.44, 0.46, 0.13, none),
        head(1, 0, 0.7, 0.2, 0.5, none),
        head(1, 1, 0.6, 0.3, 0.4, {
          ...none,
          verbToPrecedingSubject: verdict('shows', 0.081, 0.032, 0.129),
        }),
      ],
    };
    expect(summariseRun(analysis, { label: 'Step 1200, final' })).toBe(
      'Step 1200, final: layer 0 is neither local nor lopsided (left/right 0.96–1.00) and layer 1 is local and asymmetric, looking back (left/right 2.00–3.50); determiners → following nouns: no head shows a determiner-specific effect; verbs → preceding subjects: 1 of 4 heads shows it (strongest layer 1 head 1: +0.081, 95 % interval +0.032 … +0.129).',
    );
    // Change the numbers: the sentence changes with them.
    analysis.heads[3].right = 0.6;
    analysis.heads[3].verdicts = none;
    analysis.heads[1].verdicts = { ...none, determinerToFollowingNoun: verdict('opposite', -0.1, -0.2, -0.05) };
    expect(summariseRun(analysis)).toBe(
      'Step 1200, provisional: layer 0 is neither local nor lopsided (left/right 0.96–1.00) and layer 1 is local and mixed (1 looks back, 1 is symmetric; left/right 1.00–3.50); determiners → following nouns: no head shows a determiner-specific effect (1 of 4 show the opposite); verbs → preceding subjects: no head shows a verb-specific effect.',
    );
  });
  test('symmetric only within left/right 0.8–1.25: 0.68 and 0.53 look ahead, 1.3 looks back', () => {
    const layerOf = (ratios, near = 0.5) => ({
      step: 100,
      causal: false,
      heads: ratios.map((r, h) => head(1, h, r / (1 + r), 1 / (1 + r), near, none)),
    });
    expect(summariseRun(layerOf([0.51, 0.53, 0.68, 0.79]))).toContain(
      'layer 1 is local and asymmetric, looking ahead (left/right 0.51–0.79)',
    );
    expect(summariseRun(layerOf([0.68, 0.85, 1.2, 1.3]))).toContain(
      'layer 1 is local and mixed (1 looks back, 1 looks ahead, 2 are symmetric; left/right 0.68–1.30)',
    );
    expect(summariseRun(layerOf([0.53, 1.0], 0.1))).toContain(
      'layer 1 is not local, its heads mixed (1 looks ahead, 1 is symmetric; left/right 0.53–1.00)',
    );
    expect(summariseRun(layerOf([2, 3], 0.1))).toContain(
      'layer 1 is not local but asymmetric, looking back (left/right 2.00–3.00)',
    );
  });
  test('a head with no weight to the right has no left/right ratio: said in words, never "Infinity" or "NaN"', () => {
    const layerOf = (masses) => ({
      step: 100,
      causal: false,
      heads: masses.map(([left, right], h) => head(1, h, left, right, 0.5, none)),
    });
    // One head with every weight on the left (right = 0), beside heads with ratios 0.7/0.2 = 3.5 and 0.6/0.3 = 2.
    const some = summariseRun(
      layerOf([
        [0.7, 0.2],
        [0.9, 0],
        [0.6, 0.3],
      ]),
    );
    expect(some).toContain(
      'layer 1 is local and asymmetric, looking back (left/right 2.00–3.50; 1 head with all its weight leftward)',
    );
    // Every head so: no ratio at all.
    expect(
      summariseRun(
        layerOf([
          [0.9, 0],
          [0.8, 0],
        ]),
      ),
    ).toContain('layer 1 is local and asymmetric, looking back (all weight leftward in both heads)');
    expect(summariseRun(layerOf([[0.9, 0]]))).toContain(
      'layer 1 is local and asymmetric, looking back (all weight leftward)',
    );
    // No weight on either side (every query on itself): sideOf counts it symmetric; the words say why.
    expect(
      summariseRun(
        layerOf([
          [0.45, 0.45],
          [0, 0],
        ]),
      ),
    ).toContain('layer 1 is local and symmetric (left/right 1.00; 1 head with no weight either side)');
    // One head's masses not numbers (a diverged model): said so, not printed.
    expect(
      summariseRun(
        layerOf([
          [0.45, 0.45],
          [NaN, NaN],
        ]),
      ),
    ).toContain('left/right 1.00; 1 head with no reading (its weights are not numbers)');
    for (const masses of [
      [[0.9, 0]],
      [
        [0.7, 0.2],
        [0.9, 0],
      ],
      [[0, 0]],
      [[NaN, NaN]],
      [[0.2, NaN]],
    ])
      expect(summariseRun(layerOf(masses))).not.toMatch(/Infinity|NaN/);
  });
  test('the asymmetry table’s left/right cell: the ratio, or in words where a head has none', () => {
    expect(leftRightCell({ left: 0.7, right: 0.2 })).toBe('3.50');
    expect(leftRightCell({ left: 0, right: 0.5 })).toBe('0.00');
    expect(leftRightCell({ left: 0.9, right: 0 })).toBe('all leftward');
    expect(leftRightCell({ left: 0, right: 0 })).toBe('none either side');
    expect(leftRightCell({ left: NaN, right: 0.2 })).toBe('no reading');
  });
  test('causal: says the following-word claim cannot be tested', () => {
    const s = summariseRun({
      step: 300,
      causal: true,
      heads: [
        head(0, 0, 0.9, 0, 0.5, { determinerToFollowingNoun: untested, verbToPrecedingSubject: verdict('unclear') }),
      ],
    });
    expect(s).toBe(
      'Step 300, provisional: layer 0 is local (the causal mask hides every key to the right); determiners → following nouns: cannot be tested with a causal mask; verbs → preceding subjects: no head shows a verb-specific effect.',
    );
  });
  test('untrained: a claim that could be tested is not judged, one that cannot be is still said', () => {
    const heads = [
      head(0, 0, 0.9, 0, 0.5, {
        determinerToFollowingNoun: untested,
        verbToPrecedingSubject: verdict('shows', 0.08, 0.03, 0.13),
      }),
    ];
    expect(summariseRun({ step: 0, causal: true, heads }, { label: 'Step 0, before training', untrained: true })).toBe(
      'Step 0, before training: layer 0 is local (the causal mask hides every key to the right); determiners → following nouns: cannot be tested with a causal mask; verbs → preceding subjects: read from this run once it trains.',
    );
  });
});

describe('the head shown by default and the summary', () => {
  const verdict = (v, effect, low, high) => ({ verdict: v, effect, low, high, reason: null });
  const head = (
    layer,
    h,
    verdicts,
    offsetWeights = [0.1, 0.2, 0.4, 0.2, 0.1],
    offsetUniform = [0.2, 0.2, 0.2, 0.2, 0.2],
  ) => ({
    layer,
    head: h,
    left: 0.4,
    right: 0.4,
    near: 0.3,
    nearUniform: 0.1,
    offsetWeights,
    offsetUniform,
    verdicts,
  });
  const unclear = verdict('unclear', 0.01, -0.01, 0.03);
  test('is the strongest head showing a claim, the one the summary names, even when another head has more structure', () => {
    const heads = [
      // The most structured head (0.9 on offset +1) shows no claim.
      head(0, 0, { determinerToFollowingNoun: unclear, verbToPrecedingSubject: unclear }, [0, 0, 0.05, 0.9, 0.05]),
      head(0, 1, { determinerToFollowingNoun: verdict('shows', 0.05, 0.02, 0.08), verbToPrecedingSubject: unclear }),
      head(1, 0, { determinerToFollowingNoun: verdict('shows', 0.12, 0.07, 0.17), verbToPrecedingSubject: unclear }),
      head(1, 1, { determinerToFollowingNoun: unclear, verbToPrecedingSubject: verdict('shows', 0.09, 0.04, 0.14) }),
    ];
    const best = clearestHead(heads);
    expect(best).toEqual({
      layer: 1,
      head: 0,
      claim: 'determinerToFollowingNoun',
      effect: 0.12,
      low: 0.07,
      high: 0.17,
    });
    const summary = summariseRun({ step: 1000, causal: false, heads });
    expect(summary).toContain('determiners → following nouns: 2 of 4 heads show it (strongest layer 1 head 0: +0.120');
    expect(summary).toContain('verbs → preceding subjects: 1 of 4 heads shows it (strongest layer 1 head 1: +0.090');
    // The shown head shows the claim the summary names it for.
    expect(heads.find((h) => h.layer === best.layer && h.head === best.head).verdicts[best.claim].verdict).toBe(
      'shows',
    );
  });
  test('with no head showing a claim, the head with the most weight on one offset other than 0 beyond an even spread', () => {
    const none = { determinerToFollowingNoun: unclear, verbToPrecedingSubject: unclear };
    const heads = [
      head(0, 0, none, [0, 0.7, 0.3, 0, 0]),
      head(0, 1, none, [0, 0, 0.95, 0.05, 0]),
      // More weight on offset −2 (0.75) than head 0 puts on −1, but an even spread there is 0.5 (a causal start).
      head(1, 0, none, [0.75, 0.05, 0.2, 0, 0], [0.5, 0.3, 0.2, 0, 0]),
    ];
    const best = clearestHead(heads);
    expect(best).toEqual({ layer: 0, head: 0, offset: -1, weight: 0.7, uniform: 0.2 });
    expect(structureText(best)).toBe(
      'the clearest learned structure: 0.700 of its weight on offset −1, on average over the held-out queries (3.5× the 0.200 of an even spread)',
    );
    // Under twice an even spread, no structure is claimed: 0.04 against 0.03 is not one.
    expect(structureText({ offset: -2, weight: 0.04, uniform: 0.031 })).toBe(
      'no offset stands out; the most is 0.040 of its weight on offset −2, on average over the held-out queries (1.3× the 0.031 of an even spread)',
    );
    // The reference run's readings have no offsetUniform: their weight alone picks the head.
    const { offsetUniform, ...shipped } = head(0, 0, none, [0, 0.1, 0.3, 0.6, 0]);
    expect(offsetUniform).toHaveLength(5);
    expect(clearestHead([shipped])).toEqual({ layer: 0, head: 0, offset: 1, weight: 0.6, uniform: undefined });
    expect(structureText({ offset: 3, weight: 0.05, uniform: 0.031 }, { before: true })).toBe(
      'before training, the random start puts 0.050 of its weight on offset +3, on average over the held-out queries (1.6× the 0.031 of an even spread)',
    );
  });
});

describe('the rule in words', () => {
  test("the rule and the figure of effects over training state the rule's own constants", () => {
    for (const text of [RULE_TEXT, SHOWN_WHEN]) {
      expect(text).toContain(`at least ${RULE.minRatio}×`);
      expect(text).toContain(`${RULE.minEffect}`);
    }
    expect(SHOWN_WHEN).toBe(
      'a head shows a claim where the band lies wholly above 0, the claimed queries put at least 1.5× the other words’ weight there and the difference is at least 0.03 (the rule under the claims’ table)',
    );
    expect(RULE_TEXT).toContain('95 % bootstrap interval of that difference (300 resamples');
    expect(RULE_TEXT).toContain('with fewer than 20 claimed queries');
  });
  test('a band above 0 is not enough: +0.052 [+0.024, +0.079] with a ratio under 1.5 does not show it', () => {
    // One claimed query per window puts 0.052 more than the others, who put 0.12 (ratio 1.43).
    const tallies = Array.from({ length: 40 }, (_, w) => {
      const jitter = ((w % 5) - 2) * 0.01;
      return {
        queries: 1,
        claimedSum: [0.172 + jitter, 0, 0],
        claimedPairs: [1, 0, 0],
        otherSum: [0.12 * 10, 0, 0],
        otherPairs: [10, 0, 0],
      };
    });
    const v = claimVerdict(tallies, CLAIMS.determinerToFollowingNoun);
    expect(v.low).toBeGreaterThan(0);
    expect(v.effect).toBeCloseTo(0.052, 9);
    expect(v.ratio).toBeLessThan(RULE.minRatio);
    expect(v.verdict).toBe('unclear');
  });
});

describe('claims across seeds', () => {
  const run = (det, verb) => ({
    heads: [
      { verdicts: { determinerToFollowingNoun: { verdict: det[0] }, verbToPrecedingSubject: { verdict: verb[0] } } },
      { verdicts: { determinerToFollowingNoun: { verdict: det[1] }, verbToPrecedingSubject: { verdict: verb[1] } } },
    ],
  });
  test('a claim holds in a seed when one of its heads shows it', () => {
    const runs = [
      run(['shows', 'unclear'], ['unclear', 'unclear']),
      run(['shows', 'shows'], ['opposite', 'unclear']),
      run(['unclear', 'unclear'], ['unclear', 'shows']),
    ];
    expect(claimsAcrossRuns(runs)).toEqual({
      determinerToFollowingNoun: { holds: 2, opposite: 0, of: 3, short: 'determiners → following nouns' },
      verbToPrecedingSubject: { holds: 1, opposite: 1, of: 3, short: 'verbs → preceding subjects' },
    });
  });
});

describe('quantiles without sorting', () => {
  test('quantileOfUnsorted equals quantileOfSorted of the sorted copy, bit for bit, on 2000 random arrays', () => {
    const random = seededRandom(5);
    for (let trial = 0; trial < 2000; trial += 1) {
      const length = 1 + Math.floor(random() * (trial % 10 === 0 ? 3000 : 40));
      // Few distinct values in some arrays (ties), many in others; negative and positive.
      const distinct = 1 + Math.floor(random() * (trial % 3 === 0 ? 4 : 1e6));
      const values = Float64Array.from({ length }, () => (Math.floor(random() * distinct) - distinct / 2) / 7);
      const sorted = values.slice().sort();
      for (const q of [0, 0.1, 0.25, 0.5, 0.9, 1, random()]) {
        const scratch = values.slice();
        expect(quantileOfUnsorted(scratch, q)).toBe(quantileOfSorted(sorted, q));
        // Reordered, not changed: the same numbers are there (compared here, not by a deep toEqual of
        // 14 000 arrays, which took most of this test's time).
        const resorted = scratch.slice().sort();
        const firstDifference = resorted.findIndex((v, i) => !Object.is(v, sorted[i]));
        expect(firstDifference, `trial ${trial}, q ${q}`).toBe(-1);
      }
    }
    expect(quantileOfUnsorted(new Float64Array(0), 0.5)).toBeNaN();
  });
});
