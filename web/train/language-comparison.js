// The comparison of languages (docs/verdicts.md, "Word order"): does the asymmetry the model learns
// follow the language's word order, as the handbook explains it? Pure: computed from the shipped
// readings (language-readings.js) by the training section and by its test.
import { formatPercent, formatSignedPoints } from '../render/number-text.js';
import { SYMMETRIC_BAND, sideOf } from '../views/left-right.js';
import { ADPOSITION_CLAIMS } from './adposition-claims.js';
import { OVERFIT_RISE } from './run-end.js';
import { listed } from './train-dom.js';

/**
 * The peak learning rate of the languages' runs (npm run train:languages passes it to
 * scripts/train-reference.mjs): Adam's default 0.002, at which all four corpora were trained.
 */
export const LANGUAGES_PEAK = 0.002;
/** The shipped readings' size budget (bytes of language-readings.js); the script and a test hold it. */
export const LANGUAGE_READINGS_BUDGET = 80 * 1024;

/**
 * The corpora compared (build/corpora/<id>.bin; the English Bible is the shipped corpus): each
 * language's word order, in short (order) and as the answer says what the language puts where (puts).
 */
export const LANGUAGES = Object.freeze([
  {
    id: 'bible',
    name: 'English',
    text: 'the World English Bible',
    order: 'head-initial: subject, verb, object; prepositions',
    puts: 'the verb before its object and prepositions before their nouns',
  },
  {
    id: 'reina-valera',
    name: 'Spanish',
    text: 'the Reina-Valera 1909',
    order: 'head-initial: subject, verb, object; prepositions',
    puts: 'the verb before its object and prepositions before their nouns',
  },
  {
    id: 'debian-reference-en',
    name: 'English',
    text: 'the Debian Reference',
    order: 'head-initial: subject, verb, object; prepositions',
    puts: 'the verb before its object and prepositions before their nouns',
  },
  {
    id: 'debian-reference-ja',
    name: 'Japanese',
    text: 'the Debian Reference',
    order: 'head-final: subject, object, verb; postpositions',
    puts: 'the verb after its object and postpositions after their nouns',
  },
]);

/**
 * The comparisons the reader picks from: each language against English in the same register, and
 * what the handbook's explanation predicts for it ('different' asymmetry for a head-final
 * language, 'similar' for a head-initial one). `choice` is the menu's option, short enough to show
 * whole in the closed menu on a phone; `label` says it all, in the line under the menu.
 */
export const COMPARISONS = Object.freeze([
  {
    id: 'ja',
    choice: 'Japanese against English',
    label: 'Japanese (head-final) against English: the Debian Reference, a technical manual in both',
    english: 'debian-reference-en',
    other: 'debian-reference-ja',
    register: 'the Debian Reference, a technical manual, in both languages',
    predicts: 'different',
  },
  {
    id: 'es',
    choice: 'Spanish against English',
    label: 'Spanish (head-initial) against English: the Bible in both',
    english: 'bible',
    other: 'reina-valera',
    register: 'the Bible in both languages',
    predicts: 'similar',
  },
]);

/**
 * Where a run's held-out loss ended against its own lowest: `levels` are its held-out levels (each
 * the mean of the readings of 1000 steps, heldOutLevels in reference.js); the lowest, the step its
 * block ends at, the final level and how far above the lowest it ended (final / lowest − 1). The
 * language runs are not given the principal reference's longer runs: this is what says whether a
 * run was still falling (lowest at its end) or had turned (lowest earlier, final above it).
 */
export function runPlateau(levels, every = 1000) {
  const lowest = Math.min(...levels);
  const final = levels.at(-1);
  return { lowest, lowestStep: (levels.indexOf(lowest) + 1) * every, final, above: final / lowest - 1 };
}

/** What runPlateau says of each seed of a language's readings, as a clause of the corpora's line. */
export function plateauText(readings) {
  const plateaus = readings.seeds.map((s) => runPlateau(s.levels));
  return `each seed's held-out loss (its mean over 1000 steps) ended ${plateaus
    .map((p) => formatPercent(p.above))
    .join(', ')} above its lowest (reached by step ${plateaus.map((p) => p.lowestStep).join(', ')})`;
}

/** The share of a head's off-diagonal weight on keys before the query: left / (left + right). */
export const leftShare = ({ left, right }) => left / (left + right);

const mean = (values) => values.reduce((s, v) => s + v, 0) / values.length;
const range = (values) => [Math.min(...values), Math.max(...values)];

/**
 * Per layer of one language's readings: { layer, share (mean over seeds of the layer's mean left
 * share over its heads), seeds: [min, max] over seeds, perSeed }.
 */
export function layerShares(readings) {
  const layers = [...new Set(readings.seeds[0].heads.map((h) => h.layer))];
  return layers.map((layer) => {
    const perSeed = readings.seeds.map((s) => mean(s.heads.filter((h) => h.layer === layer).map(leftShare)));
    return { layer, share: mean(perSeed), seeds: range(perSeed), perSeed };
  });
}

/**
 * The symmetric band of sideOf as shares on earlier words, left / (left + right): a left/right
 * ratio r is a share r / (1 + r), so 0.8 to 1.25 is 44.4 % to 55.6 %.
 */
export const SYMMETRIC_SHARES = Object.freeze({
  low: SYMMETRIC_BAND.low / (1 + SYMMETRIC_BAND.low),
  high: SYMMETRIC_BAND.high / (1 + SYMMETRIC_BAND.high),
});

/**
 * Which way a layer leans (a layerShares entry): 'back' when every seed's share on earlier words
 * is above the symmetric band, 'ahead' when every seed's is below it, else 'neither'.
 */
export function layerLean({ seeds: [low, high] }) {
  if (low > SYMMETRIC_SHARES.high) return 'back';
  if (high < SYMMETRIC_SHARES.low) return 'ahead';
  return 'neither';
}

/** How many heads over all seeds look back, ahead, or neither (sideOf): { back, ahead, symmetric, of }. */
export function sideCounts(readings) {
  const counts = { back: 0, ahead: 0, symmetric: 0, of: 0 };
  for (const s of readings.seeds)
    for (const h of s.heads) {
      counts[sideOf(h)] += 1;
      counts.of += 1;
    }
  return counts;
}

/** Whether a claim's parts of speech are all tagged in this corpus (taggedPos; all when absent). */
export function claimTagged(readings, claim) {
  const tagged = readings.corpus.taggedPos;
  return !tagged || [claim.query, ...claim.keys].every((name) => tagged.includes(name));
}

/**
 * For each adposition claim: { name, tagged, holds (seeds where a head shows it), opposite (seeds
 * where a head shows the opposite and none shows it), of, strongest ({ seed, layer, head, effect,
 * low, high } or null) }.
 */
export function adpositionTally(readings) {
  return Object.entries(ADPOSITION_CLAIMS).map(([name, claim]) => {
    const tagged = claimTagged(readings, claim);
    let holds = 0;
    let opposite = 0;
    let strongest = null;
    for (const s of readings.seeds) {
      const verdicts = s.heads.map((h) => h.adpositions[name]);
      if (verdicts.some((v) => v.verdict === 'shows')) holds += 1;
      else if (verdicts.some((v) => v.verdict === 'opposite')) opposite += 1;
      s.heads.forEach((h) => {
        const v = h.adpositions[name];
        if (v.verdict === 'shows' && (!strongest || v.effect > strongest.effect))
          strongest = { seed: s.seed, layer: h.layer, head: h.head, effect: v.effect, low: v.low, high: v.high };
      });
    }
    return tagged
      ? { name, claim, tagged, holds, opposite, of: readings.seeds.length, strongest }
      : { name, claim, tagged, holds: 0, opposite: 0, of: readings.seeds.length, strongest: null };
  });
}

/**
 * One comparison (COMPARISONS entry) on the readings ([language readings], by id): per layer the
 * two languages' left shares and whether they differ: the two seed ranges apart (then every
 * seed's difference has the same sign), the heads' sides, the adposition
 * tallies, and whether the outcome is what the handbook's explanation predicts.
 */
export function compareLanguages(comparison, allReadings) {
  const byId = (id) => {
    const r = allReadings.find((x) => x.id === id);
    if (!r) throw new RangeError(`compareLanguages: no readings for "${id}"`);
    return r;
  };
  const english = byId(comparison.english);
  const other = byId(comparison.other);
  const en = layerShares(english);
  const ot = layerShares(other);
  const layers = en.map((e, index) => {
    const o = ot[index];
    const differences = e.perSeed.map((share, s) => o.perSeed[s] - share);
    const apart = o.seeds[0] > e.seeds[1] || o.seeds[1] < e.seeds[0];
    const oneSign = differences.every((d) => d > 0) || differences.every((d) => d < 0);
    return {
      layer: e.layer,
      english: e,
      other: o,
      difference: mean(differences),
      differences,
      differs: apart && oneSign,
    };
  });
  const differs = layers.some((l) => l.differs);
  return {
    comparison,
    english,
    other,
    layers,
    sides: { english: sideCounts(english), other: sideCounts(other) },
    adpositions: { english: adpositionTally(english), other: adpositionTally(other) },
    differs,
    asPredicted: comparison.predicts === 'different' ? differs : !differs,
  };
}

const signedPoints = (v) => `${formatSignedPoints(v)} points`;
const nameOf = (readings) => LANGUAGES.find((l) => l.id === readings.id);

/** What an adposition tally says, in a few words. */
function tallyText(t) {
  if (!t.tagged) return 'not tagged';
  const base = `${t.holds} of ${t.of} seeds`;
  return t.opposite ? `${base} (the opposite in ${t.opposite})` : base;
}

/**
 * The computed statement next to the handbook's sentence: what the comparison shows, whatever it
 * shows, in three sentences (sides by layer, adpositions, the outcome against the prediction).
 */
export function comparisonStatement(result) {
  const en = nameOf(result.english);
  const ot = nameOf(result.other);
  const layerText = result.layers
    .map(
      (l) =>
        `layer ${l.layer}: ${en.name} ${formatPercent(l.english.share)} (seeds ${formatPercent(l.english.seeds[0])}–${formatPercent(l.english.seeds[1])}), ${ot.name} ${formatPercent(l.other.share)} (${formatPercent(l.other.seeds[0])}–${formatPercent(l.other.seeds[1])}), ${l.differs ? `a difference of ${signedPoints(l.difference)}, the seeds’ ranges apart` : 'the seeds’ ranges overlapping'}`,
    )
    .join('; ');
  const [following, preceding] = [0, 1].map((i) => ({
    en: result.adpositions.english[i],
    ot: result.adpositions.other[i],
  }));
  const adpositionText = `Adpositions → following nouns holds in ${tallyText(following.en)} in ${en.name} and ${tallyText(following.ot)} in ${ot.name}; adpositions → preceding nouns in ${tallyText(preceding.en)} and ${tallyText(preceding.ot)}.`;
  const predicted =
    result.comparison.predicts === 'different'
      ? `The explanation predicts a different left share in ${ot.name} (${ot.order}) than in ${en.name}`
      : `The explanation predicts the same left share in ${ot.name} (${ot.order}) as in ${en.name}`;
  const seeds = result.english.seeds.length;
  const outcome = result.differs
    ? `the models differ in ${result.layers
        .filter((l) => l.differs)
        .map((l) => `layer ${l.layer}`)
        .join(' and ')}`
    : 'the two languages’ seed ranges overlap in every layer';
  return `Share of each layer’s off-diagonal attention on earlier words (mean over its heads and ${seeds} seed${seeds === 1 ? '' : 's'}, on held-out text: ${result.comparison.register}): ${layerText}. ${adpositionText} ${predicted}: ${outcome}, ${result.asPredicted ? 'as predicted' : 'not as predicted'}.`;
}

/** A language's layers' shares, said: "49.5 % (layer 0) and 50.9 % (layer 1)". */
const sharesText = (sides) => listed(sides.map((l) => `${formatPercent(l.share)} (layer ${l.layer})`));

/** The layers of a language that lean (layerLean), said, or '' when none does. */
function leaningText(sides) {
  const band = {
    back: `above ${formatPercent(SYMMETRIC_SHARES.high)}`,
    ahead: `below ${formatPercent(SYMMETRIC_SHARES.low)}`,
  };
  return listed(
    sides
      .filter((l) => layerLean(l) !== 'neither')
      .map((l) => `layer ${l.layer} leans ${layerLean(l)} (every seed ${band[layerLean(l)]})`),
  );
}

/**
 * The comparison's answer, shown above its figures, in three or four sentences: where the English
 * models' attention goes (each layer's share on earlier words, and whether it leans: every seed
 * outside the symmetric band), so that "the same" is never read as a shared asymmetry that the
 * numbers do not show; the prediction with the reason, the word order; the other language's
 * shares and the outcome; then the adposition claim whose tallies differ most between the two
 * languages (none when both are equal or a corpus has no noun tags).
 */
export function comparisonAnswer(result) {
  const en = nameOf(result.english);
  const ot = nameOf(result.other);
  const englishSides = result.layers.map((l) => l.english);
  const otherSides = result.layers.map((l) => l.other);
  const band = `${formatPercent(SYMMETRIC_SHARES.low)}–${formatPercent(SYMMETRIC_SHARES.high)}`;
  const englishLean = leaningText(englishSides);
  const otherLean = leaningText(otherSides);
  const english = `The ${en.name} models put ${sharesText(englishSides)} of their attention to other words on earlier ones: ${
    englishLean || `no lean either way (a lean would put every seed outside ${band})`
  }.`;
  const same = en.puts === ot.puts;
  const prediction = `Word order predicts ${
    result.comparison.predicts === 'different' ? 'a different share' : 'the same share'
  } in ${ot.name}, which, ${same ? 'like' : 'unlike'} ${en.name}, puts ${ot.puts}.`;
  const differing = result.layers.filter((l) => l.differs);
  const within = result.layers.filter((l) => !l.differs);
  const layerList = (list) => listed(list.map((l) => `layer ${l.layer}`));
  const outcome = differing.length
    ? `its seeds’ range apart from ${en.name}’s in ${listed(differing.map((l) => `layer ${l.layer} (${signedPoints(l.difference)})`))}${
        within.length ? `, overlapping it in ${layerList(within)}` : ''
      }`
    : `its seeds’ range overlapping ${en.name}’s in every layer`;
  const other = `Its models put ${sharesText(otherSides)}${otherLean ? ` (${otherLean})` : ''}, ${outcome}: ${
    result.asPredicted ? 'as predicted' : 'not as predicted'
  }.`;
  // "The same" with no lean on either side is a shared balance, not a shared asymmetry: said so.
  const balance =
    result.asPredicted && !result.differs && !englishLean && !otherLean
      ? ' But neither language’s models lean either way: what the two share is a balance, not an asymmetry.'
      : '';
  const gaps = [0, 1]
    .map((i) => ({ en: result.adpositions.english[i], ot: result.adpositions.other[i] }))
    .filter((t) => t.en.tagged && t.ot.tagged && t.en.holds !== t.ot.holds)
    .sort((a, b) => Math.abs(b.ot.holds - b.en.holds) - Math.abs(a.ot.holds - a.en.holds));
  const adposition = gaps.length
    ? ` Adpositions do differ: ${gaps[0].en.claim.text} holds in ${gaps[0].ot.holds} of ${gaps[0].ot.of} seeds in ${ot.name}, ${gaps[0].en.holds} of ${gaps[0].en.of} in ${en.name}.`
    : '';
  return `${english} ${prediction} ${other}${balance}${adposition}`;
}

/**
 * The caveat beside the answer, or '' when none is due: the runs of a language whose held-out
 * loss ended more than OVERFIT_RISE above its lowest in some seed over-fit their training text,
 * and the shares compared are those of the over-fitted models at the end of the run. Says each
 * seed's step of its lowest and how far above it the run ended (runPlateau).
 */
export function comparisonCaveat(result) {
  const over = [result.english, result.other]
    .map((readings) => ({ readings, plateaus: readings.seeds.map((s) => runPlateau(s.levels)) }))
    .filter(({ plateaus }) => plateaus.some((p) => p.above > OVERFIT_RISE));
  if (!over.length) return '';
  const steps = (plateaus) => {
    const at = [...new Set(plateaus.map((p) => p.lowestStep))];
    return at.length === 1 ? `step ${at[0]}` : `steps ${listed(plateaus.map((p) => String(p.lowestStep)))}`;
  };
  const runs = over.map(
    ({ readings, plateaus }) =>
      `each ${nameOf(readings).name} seed’s held-out loss was lowest by ${steps(plateaus)} and ended ${listed(plateaus.map((p) => formatPercent(p.above)))} above it at step ${readings.steps}`,
  );
  const who = over.length === 2 ? 'both languages’ models' : `the ${nameOf(over[0].readings).name} models`;
  return `Caveat: ${who} over-fit their training text: ${runs.join('; ')}. The shares above are those of the over-fitted models at the end, not of the models at their best.`;
}

/**
 * One comparison as a row of docs/verdicts.md's table (Markdown): per layer both languages' left
 * shares with their seed ranges (and, where the layer leans, the paired differences), the heads'
 * sides, and the two adposition tallies. scripts/compare-languages.mjs prints the rows; a test
 * checks that the document holds them.
 */
export function comparisonTableRow(result) {
  const en = nameOf(result.english);
  const ot = nameOf(result.other);
  const share = (s) => `${formatPercent(s.share)} (${formatPercent(s.seeds[0])}–${formatPercent(s.seeds[1])})`;
  const layers = result.layers.map(
    (l) =>
      `${share(l.english)} / ${share(l.other)}; paired differences ${l.differences.map((v) => formatSignedPoints(v)).join(', ')} points`,
  );
  const sides = (c) => `${c.back} / ${c.ahead} / ${c.symmetric}`;
  const tallies = [0, 1].map(
    (i) =>
      `${en.name} ${tallyText(result.adpositions.english[i])}; ${ot.name} ${tallyText(result.adpositions.other[i])}`,
  );
  const of = result.sides.english.of;
  return `| ${ot.name} against ${en.name}, ${en.text === ot.text ? `${en.text}` : `${ot.text} and ${en.text}`} | ${layers.join(' | ')} | ${en.name} ${sides(result.sides.english)}; ${ot.name} ${sides(result.sides.other)} (of ${of}) | ${tallies.join(' | ')} |`;
}
