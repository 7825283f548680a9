// The comparison of languages (docs/verdicts.md, "Word order"), recomputed from the shipped
// readings (web/train/language-readings.js, written by npm run train:languages): its size budget,
// the same run within each comparison, every head's masses and verdicts against the rule, each
// layer's left share and difference computed here by hand, and the statement's numbers.
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { LANGUAGE_READINGS } from '../../web/train/language-readings.js';
import {
  COMPARISONS,
  LANGUAGES,
  LANGUAGES_PEAK,
  LANGUAGE_READINGS_BUDGET,
  compareLanguages,
  comparisonAnswer,
  comparisonCaveat,
  comparisonStatement,
  comparisonTableRow,
  plateauText,
  runPlateau,
} from '../../web/train/language-comparison.js';
import { ADPOSITION_CLAIMS } from '../../web/train/adposition-claims.js';
import { OVERFIT_RISE } from '../../web/train/run-end.js';
import { HANDBOOK_CLAIMS, RULE } from '../../web/train/pos-verdicts.js';

const FILE = new URL('../../web/train/language-readings.js', import.meta.url);
const byId = (id) => LANGUAGE_READINGS.find((r) => r.id === id);
// A percentage as the page writes it: its "%" after a no-break space, never alone on a line.
const pct = (v) => `${(100 * v).toFixed(1)}\u00a0%`;
// docs/verdicts.md is Markdown: it and the page's text are compared with every no-break space
// read as a space.
const spaced = (text) => text.replaceAll('\u00a0', ' ');

describe('the shipped readings of the other languages', () => {
  test(`fit their budget of ${LANGUAGE_READINGS_BUDGET / 1024} KiB, one entry per language, with its corpus, tagger and checksum`, () => {
    expect(statSync(FILE).size).toBeLessThanOrEqual(LANGUAGE_READINGS_BUDGET);
    expect(LANGUAGE_READINGS.map((r) => r.id).sort()).toEqual(LANGUAGES.map((l) => l.id).sort());
    for (const r of LANGUAGE_READINGS) {
      expect(r.corpus.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(r.corpus.tagger.length).toBeGreaterThan(0);
      expect(r.corpus.terms.length).toBeGreaterThan(0);
    }
    expect(byId('debian-reference-ja').corpus.language).toBe('ja');
    expect(byId('reina-valera').corpus.taggedPos).toEqual(['determiner', 'preposition', 'pronoun', 'conjunction']);
  });

  test('within each comparison: the same task, size, steps, peak learning rate and seeds', () => {
    // Every language at LANGUAGES_PEAK, which npm run train:languages passes to each run.
    for (const r of LANGUAGE_READINGS) expect(r.peakLearningRate, r.id).toBe(LANGUAGES_PEAK);
    expect(readFileSync(new URL('../../scripts/train-languages.sh', import.meta.url), 'utf8')).toMatch(
      /m\.LANGUAGES_PEAK[\s\S]*--peak "\$peak"/,
    );
    for (const c of COMPARISONS) {
      const [a, b] = [byId(c.english), byId(c.other)];
      expect([a.task, a.preset, a.steps, a.peakLearningRate]).toEqual([b.task, b.preset, b.steps, b.peakLearningRate]);
      expect(a.seeds.map((s) => s.seed)).toEqual(b.seeds.map((s) => s.seed));
      expect(a.seeds.length).toBeGreaterThanOrEqual(2);
    }
  });

  test('every head: left + self + right = 1, its window interval around its masses, its verdicts by the rule', () => {
    for (const r of LANGUAGE_READINGS)
      for (const s of r.seeds)
        for (const h of s.heads) {
          expect(h.left + h.self + h.right).toBeCloseTo(1, 3);
          const [leftLow, leftHigh, rightLow, rightHigh] = h.sides;
          expect(leftLow).toBeLessThanOrEqual(h.left + 1e-4);
          expect(leftHigh).toBeGreaterThanOrEqual(h.left - 1e-4);
          expect(rightLow).toBeLessThanOrEqual(h.right + 1e-4);
          expect(rightHigh).toBeGreaterThanOrEqual(h.right - 1e-4);
          const verdicts = { ...h.claims, ...h.adpositions };
          expect(Object.keys(verdicts).sort()).toEqual([...HANDBOOK_CLAIMS, ...Object.keys(ADPOSITION_CLAIMS)].sort());
          for (const v of Object.values(verdicts)) {
            if (v.verdict === 'shows') {
              expect(v.low).toBeGreaterThan(0);
              expect(v.effect).toBeGreaterThanOrEqual(RULE.minEffect - 1e-4);
              expect(v.ratio).toBeGreaterThanOrEqual(RULE.minRatio - 1e-3);
            }
            if (v.verdict === 'opposite') {
              expect(v.high).toBeLessThan(0);
              expect(v.effect).toBeLessThanOrEqual(-RULE.minEffect + 1e-4);
            }
          }
        }
  });

  test.each(COMPARISONS.map((c) => [c.id, c]))(
    '%s: each layer’s left share and difference, recomputed here, and the statement',
    (id, c) => {
      const result = compareLanguages(c, LANGUAGE_READINGS);
      const statement = comparisonStatement(result);
      const [a, b] = [byId(c.english), byId(c.other)];
      const layers = [...new Set(a.seeds[0].heads.map((h) => h.layer))];
      let anyDiffers = false;
      for (const layer of layers) {
        const perSeed = (r) =>
          r.seeds.map((s) => {
            const heads = s.heads.filter((h) => h.layer === layer);
            return heads.reduce((sum, h) => sum + h.left / (h.left + h.right), 0) / heads.length;
          });
        const [ea, eb] = [perSeed(a), perSeed(b)];
        const mean = (v) => v.reduce((x, y) => x + y, 0) / v.length;
        const got = result.layers.find((l) => l.layer === layer);
        expect(got.english.share).toBeCloseTo(mean(ea), 12);
        expect(got.other.share).toBeCloseTo(mean(eb), 12);
        const diffs = eb.map((v, i) => v - ea[i]);
        const apart = Math.min(...eb) > Math.max(...ea) || Math.max(...eb) < Math.min(...ea);
        const sameSign = diffs.every((d) => d > 0) || diffs.every((d) => d < 0);
        expect(got.differs).toBe(apart && sameSign);
        anyDiffers ||= apart && sameSign;
        expect(statement).toContain(`layer ${layer}: English ${pct(mean(ea))}`);
        expect(statement).toContain(pct(mean(eb)));
      }
      expect(result.differs).toBe(anyDiffers);
      expect(result.asPredicted).toBe(c.predicts === 'different' ? anyDiffers : !anyDiffers);
      expect(statement).toMatch(result.asPredicted ? /, as predicted\.$/ : /, not as predicted\.$/);
      // The adposition claims, counted here: a seed holds a claim when one of its heads shows it.
      const gaps = [];
      for (const [index, name] of Object.keys(ADPOSITION_CLAIMS).entries()) {
        const counted = {};
        for (const [side, r] of [
          ['english', a],
          ['other', b],
        ]) {
          const tally = result.adpositions[side][index];
          const tagged = !r.corpus.taggedPos || r.corpus.taggedPos.includes('noun');
          expect(tally.tagged).toBe(tagged);
          const holds = r.seeds.filter((s) => s.heads.some((h) => h.adpositions[name].verdict === 'shows')).length;
          expect(tally.holds).toBe(tagged ? holds : 0);
          counted[side] = tagged ? holds : null;
        }
        if (counted.english !== null && counted.other !== null && counted.english !== counted.other)
          gaps.push({ name, ...counted, size: Math.abs(counted.other - counted.english) });
      }
      if (c.id === 'es') expect(statement).toContain('not tagged');
      // The answer above the figures, every number recomputed here: the English layers' shares
      // and whether any leans (every seed outside the symmetric band, left/right 0.8 to 1.25:
      // shares 0.8/1.8 to 1.25/2.25), the prediction with its reason (the word order), the other
      // language's shares against the prediction, and the adposition claim whose tallies differ most.
      const answer = comparisonAnswer(result);
      const [bandLow, bandHigh] = [0.8 / 1.8, 1.25 / 2.25];
      const shares = (r) =>
        layers.map((layer) => {
          const perSeed = r.seeds.map((s) => {
            const heads = s.heads.filter((h) => h.layer === layer);
            return heads.reduce((sum, h) => sum + h.left / (h.left + h.right), 0) / heads.length;
          });
          const mean = perSeed.reduce((x, y) => x + y, 0) / perSeed.length;
          const lean = Math.min(...perSeed) > bandHigh ? 'back' : Math.max(...perSeed) < bandLow ? 'ahead' : null;
          return { layer, mean, lean, low: Math.min(...perSeed), high: Math.max(...perSeed) };
        });
      const [en, ot] = [shares(a), shares(b)];
      const said = (list) =>
        list
          .map(
            (l, i) =>
              `${pct(l.mean)} (layer ${l.layer})${i < list.length - 2 ? ',' : i === list.length - 2 ? ' and' : ''}`,
          )
          .join(' ');
      const opening = `The English models put ${said(en)} of their attention to other words on earlier ones: `;
      expect(answer.slice(0, opening.length)).toBe(opening);
      const leans = [...en, ...ot].some((l) => l.lean);
      if (!en.some((l) => l.lean))
        expect(answer).toContain(
          `: no lean either way (a lean would put every seed outside ${pct(bandLow)}–${pct(bandHigh)}).`,
        );
      const other = LANGUAGES.find((l) => l.id === c.other).name;
      expect(answer).toContain(
        c.id === 'es'
          ? 'Word order predicts the same share in Spanish, which, like English, puts the verb before its object and prepositions before their nouns.'
          : 'Word order predicts a different share in Japanese, which, unlike English, puts the verb after its object and postpositions after their nouns.',
      );
      expect(answer).toContain(`Its models put ${said(ot)}`);
      // Overlapping or apart, as the seeds' ranges of the two languages are in each layer (a
      // share outside English's range once read "within the seeds' spread of English's").
      const overlapping = en.filter((e, i) => ot[i].low <= e.high && ot[i].high >= e.low).map((e) => e.layer);
      if (overlapping.length === en.length) expect(answer).toContain('overlapping English’s in every layer');
      else if (overlapping.length > 0)
        expect(answer).toContain(`overlapping it in layer ${overlapping.join(' and layer ')}`);
      else expect(answer).not.toContain('overlapping');
      if (anyDiffers)
        for (const l of result.layers.filter((x) => x.differs)) expect(answer).toContain(`layer ${l.layer} (`);
      else
        expect(answer).toContain(
          `its seeds’ range overlapping English’s in every layer: ${result.asPredicted ? 'as' : 'not as'} predicted.`,
        );
      // "The same" with neither language leaning is a shared balance, and the answer says so.
      expect(answer.includes('what the two share is a balance, not an asymmetry')).toBe(
        result.asPredicted && !anyDiffers && !leans,
      );
      // Every percentage in the answer is one of those recomputed here, in order.
      const percents = [...en, ...(leans ? [] : [{ mean: bandLow }, { mean: bandHigh }]), ...ot].map((l) =>
        pct(l.mean),
      );
      expect(answer.match(/\d+\.\d\u00a0%/g)).toEqual(leans ? expect.any(Array) : percents);
      const widest = gaps.sort((x, y) => y.size - x.size)[0];
      if (widest) {
        const seeds = a.seeds.length;
        expect(answer).toContain(
          `${ADPOSITION_CLAIMS[widest.name].text} holds in ${widest.other} of ${seeds} seeds in ${other}, ${widest.english} of ${seeds} in English.`,
        );
      } else expect(answer).not.toContain('Adpositions');
    },
  );
});

describe('the caveat beside the answer', () => {
  test('said when a run over-fits (a seed ended more than 5 % above its lowest level), with every seed’s numbers', () => {
    expect(OVERFIT_RISE).toBe(0.05);
    for (const c of COMPARISONS) {
      const caveat = comparisonCaveat(compareLanguages(c, LANGUAGE_READINGS));
      const over = [byId(c.english), byId(c.other)]
        .map((r) => {
          const ends = r.seeds.map((s) => {
            const lowest = Math.min(...s.levels);
            return { above: s.levels.at(-1) / lowest - 1, step: 1000 * (s.levels.indexOf(lowest) + 1) };
          });
          return { r, ends };
        })
        .filter(({ ends }) => ends.some((e) => e.above > 0.05));
      if (!over.length) {
        expect(caveat, c.id).toBe('');
        continue;
      }
      for (const { r, ends } of over) {
        const steps = [...new Set(ends.map((e) => e.step))];
        const percents = ends.map((e) => pct(e.above));
        expect(caveat).toContain(
          `each ${LANGUAGES.find((l) => l.id === r.id).name} seed’s held-out loss was lowest by step${steps.length > 1 ? 's' : ''} ${steps.join(', ')} and ended ${percents.slice(0, -1).join(', ')} and ${percents.at(-1)} above it at step ${r.steps}`,
        );
      }
      expect(caveat).toMatch(/^Caveat: .* over-fit their training text: /);
      expect(caveat).toMatch(
        /The shares above are those of the over-fitted models at the end, not of the models at their best\.$/,
      );
    }
    // The shipped readings: the manuals' runs over-fit, the Bibles' do not.
    expect(
      comparisonCaveat(
        compareLanguages(
          COMPARISONS.find((c) => c.id === 'ja'),
          LANGUAGE_READINGS,
        ),
      ),
    ).toMatch(/^Caveat: both languages’ models over-fit/);
  });

  test('a layer whose every seed is past the band is said to lean, and no shared balance is claimed', () => {
    const result = compareLanguages(
      COMPARISONS.find((c) => c.id === 'es'),
      LANGUAGE_READINGS,
    );
    const leaning = {
      ...result,
      layers: result.layers.map((l) => (l.layer === 1 ? { ...l, english: { ...l.english, seeds: [0.6, 0.7] } } : l)),
    };
    const answer = comparisonAnswer(leaning);
    expect(answer).toContain(`on earlier ones: layer 1 leans back (every seed above ${pct(1.25 / 2.25)}).`);
    expect(answer).not.toContain('no lean');
    expect(answer).not.toContain('balance');
  });
});

describe('where each language run ended against its own lowest held-out loss', () => {
  test('runPlateau: the lowest level, the step its block ends at, the final level and how far above it', () => {
    expect(runPlateau([5, 4, 3, 3.3])).toEqual({ lowest: 3, lowestStep: 3000, final: 3.3, above: 3.3 / 3 - 1 });
    expect(runPlateau([5, 4, 3])).toEqual({ lowest: 3, lowestStep: 3000, final: 3, above: 0 });
  });

  test('every seed carries one level per 1000 steps, the last near its final held-out reading', () => {
    for (const r of LANGUAGE_READINGS)
      for (const s of r.seeds) {
        expect(s.levels).toHaveLength(r.steps / 1000);
        // The last level is the mean of the last 10 readings, the final one among them.
        expect(Math.abs(s.levels.at(-1) - s.heldOut) / s.heldOut).toBeLessThan(0.05);
      }
  });

  test('the corpora line says each seed’s distance above its lowest, computed here from the levels', () => {
    for (const r of LANGUAGE_READINGS) {
      const above = r.seeds.map((s) => {
        const lowest = Math.min(...s.levels);
        return pct(s.levels.at(-1) / lowest - 1);
      });
      const steps = r.seeds.map((s) => 1000 * (s.levels.indexOf(Math.min(...s.levels)) + 1));
      expect(plateauText(r)).toBe(
        `each seed's held-out loss (its mean over 1000 steps) ended ${above.join(', ')} above its lowest (reached by step ${steps.join(', ')})`,
      );
    }
  });
});

describe('docs/verdicts.md states the shipped readings', () => {
  const doc = spaced(readFileSync(new URL('../../docs/verdicts.md', import.meta.url), 'utf8'));
  test.each(COMPARISONS.map((c) => [c.id, c]))('%s: its table row is the one computed from the readings', (id, c) => {
    const result = compareLanguages(c, LANGUAGE_READINGS);
    const row = comparisonTableRow(result);
    // The row's layer cells hold the shares the statement (checked above) says.
    for (const l of result.layers) expect(row).toContain(pct(l.english.share));
    expect(doc).toContain(spaced(row));
  });

  test('each language’s final held-out losses and where they ended against their lowest', () => {
    for (const r of LANGUAGE_READINGS) {
      expect(doc).toContain(r.seeds.map((s) => s.heldOut.toFixed(3)).join(', '));
      expect(doc).toContain(
        spaced(plateauText(r)).replace(/^each seed's held-out loss \(its mean over 1000 steps\) /, ''),
      );
    }
  });
});
