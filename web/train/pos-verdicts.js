// Verdicts on the handbook's part-of-speech claims, tested as effects of the part of speech
// (docs/verdicts.md). A claim "queries of part of speech P attend to keys of parts of speech T at
// offsets from…to" is read on held-out windows as
//   claimed  = mean over P-queries of the weight on the T-keys at those offsets,
//   baseline = what queries of every other part of speech put on T-keys at the same offsets
//              (offset by offset, weighted by how many such keys each P-query has),
//   effect   = claimed − baseline,
// so that a head reading the previous word for every query, or reading nouns for every query,
// has no effect: only what is specific to P counts. The interval is a bootstrap over the windows
// (resampled with the project's seeded generator). Pure: no DOM; runs in the worker and in Node.
import { seededRandom } from '../api/seeded-random.js';
import { POS_NAMES } from './corpus-format.js';
import { SYMMETRIC_BAND, sideOf } from '../views/left-right.js';
import { kthSmallest } from '../views/panel-extents.js';
import { formatFixed, formatSigned as signed } from '../render/number-text.js';

/** The claims, by part-of-speech names (the corpus format's names); offsets j − i. */
export const CLAIMS = Object.freeze({
  determinerToFollowingNoun: {
    query: 'determiner',
    keys: ['noun'],
    from: 1,
    to: 3,
    text: 'determiners → following nouns (offsets +1…+3)',
    short: 'determiners → following nouns',
  },
  determinerToPrecedingNoun: {
    query: 'determiner',
    keys: ['noun'],
    from: -3,
    to: -1,
    text: 'determiners → preceding nouns (−3…−1)',
    short: 'determiners → preceding nouns',
  },
  verbToPrecedingSubject: {
    query: 'verb',
    keys: ['noun', 'pronoun'],
    from: -3,
    to: -1,
    text: 'verbs → preceding nouns or pronouns (subjects; −3…−1)',
    short: 'verbs → preceding subjects',
  },
  verbToFollowingNoun: {
    query: 'verb',
    keys: ['noun', 'pronoun'],
    from: 1,
    to: 3,
    text: 'verbs → following nouns or pronouns (objects; +1…+3)',
    short: 'verbs → following objects',
  },
});
/** The two claims the handbook makes (the other two are their mirror images, for contrast). */
export const HANDBOOK_CLAIMS = Object.freeze(['determinerToFollowingNoun', 'verbToPrecedingSubject']);

/**
 * The rule, in numbers: a 95 % interval clear of 0, at least 1.5× the other words' weight and at
 * least 0.03 more (about one key's share of uniform attention over 32 keys).
 */
export const RULE = Object.freeze({
  level: 0.95,
  minRatio: 1.5,
  minEffect: 0.03,
  minQueries: 20,
  resamples: 300,
  seed: 23,
});
const percent = Math.round(100 * RULE.level);
export const RULE_TEXT = `A head shows a claim when the claimed queries put at least ${RULE.minRatio}× the weight, and at least ${RULE.minEffect} more, than the queries of all other parts of speech together put on the same kind of word at the same offsets, and the ${percent} % bootstrap interval of that difference (${RULE.resamples} resamples of the held-out windows) lies wholly above 0; it shows the opposite when the interval lies wholly below 0, the ratio is at most 1/${RULE.minRatio} and the difference at most −${RULE.minEffect}; with fewer than ${RULE.minQueries} claimed queries, or under a causal mask for a claim about following words, the claim cannot be tested.`;
/** Where a claim counts as shown, in a few words (the figures of effects over training say it). */
export const SHOWN_WHEN = `a head shows a claim where the band lies wholly above 0, the claimed queries put at least ${RULE.minRatio}× the other words’ weight there and the difference is at least ${RULE.minEffect} (the rule under the claims’ table)`;

/** A claim with its part-of-speech codes (indices into `posNames`). */
function resolveClaim(claim, posNames) {
  const code = (name) => {
    const c = posNames.indexOf(name);
    if (c < 0) throw new RangeError(`claim: the corpus has no part of speech "${name}"`);
    return c;
  };
  return { ...claim, queryCode: code(claim.query), keyCodes: claim.keys.map(code) };
}

// The claims resolved once per (claims, posNames) pair: a reading tallies every window of every head.
const resolvedClaims = new WeakMap();
function resolve(claims, posNames) {
  let byNames = resolvedClaims.get(claims);
  if (!byNames) resolvedClaims.set(claims, (byNames = new WeakMap()));
  let resolved = byNames.get(posNames);
  if (!resolved) {
    resolved = Object.entries(claims).map(([name, claim]) => [name, resolveClaim(claim, posNames)]);
    byNames.set(posNames, resolved);
  }
  return resolved;
}

/**
 * One window's sums for every claim (plain numbers, so they cross to the page and add up):
 * { [claim]: { queries, claimedSum[c], claimedPairs[c], otherSum[c], otherPairs[c] } } with
 * c = offset − from; "pairs" count (query, target key) pairs, "sums" their weights.
 * pos: the window's part-of-speech codes; weights: n × n row-major, a row per query.
 */
export function claimTally(pos, weights, n, { causal = false, posNames = POS_NAMES, claims = CLAIMS } = {}) {
  const out = {};
  for (const [name, claim] of resolve(claims, posNames)) {
    const span = claim.to - claim.from + 1;
    const t = {
      queries: 0,
      claimedSum: new Array(span).fill(0),
      claimedPairs: new Array(span).fill(0),
      otherSum: new Array(span).fill(0),
      otherPairs: new Array(span).fill(0),
    };
    for (let i = 0; i < n; i += 1) {
      const mine = pos[i] === claim.queryCode;
      if (mine) t.queries += 1;
      for (let c = claim.from; c <= claim.to; c += 1) {
        const j = i + c;
        if (j < 0 || j >= n || (causal && j > i) || !claim.keyCodes.includes(pos[j])) continue;
        const w = weights[i * n + j];
        if (mine) {
          t.claimedSum[c - claim.from] += w;
          t.claimedPairs[c - claim.from] += 1;
        } else {
          t.otherSum[c - claim.from] += w;
          t.otherPairs[c - claim.from] += 1;
        }
      }
    }
    out[name] = t;
  }
  return out;
}

// Tallies as rows of one Float64Array, each [queries, claimedSum[0…span), claimedPairs[…],
// otherSum[…], otherPairs[…]], so that a bootstrap resample sums rows without allocating.
const field = (span) => ({ claimedSum: 1, claimedPairs: 1 + span, otherSum: 1 + 2 * span, otherPairs: 1 + 3 * span });

function tallyRows(tallies) {
  const span = tallies[0].claimedSum.length;
  const stride = 1 + 4 * span;
  const at = field(span);
  const rows = new Float64Array(tallies.length * stride);
  tallies.forEach((t, w) => {
    const row = w * stride;
    rows[row] = t.queries;
    for (let c = 0; c < span; c += 1) {
      rows[row + at.claimedSum + c] = t.claimedSum[c];
      rows[row + at.claimedPairs + c] = t.claimedPairs[c];
      rows[row + at.otherSum + c] = t.otherSum[c];
      rows[row + at.otherPairs + c] = t.otherPairs[c];
    }
  });
  return { rows, span, stride };
}

/** The rows at the indices `pick`, summed in that order into `total` (a row, emptied first). */
function sumTallies({ rows, stride }, pick, total) {
  total.fill(0);
  for (const index of pick) {
    const row = index * stride;
    for (let f = 0; f < stride; f += 1) total[f] += rows[row + f];
  }
  return total;
}

/** claimed, baseline and effect (per claimed query) from a row of summed tallies; null if not defined. */
function effectOf(total, span) {
  const queries = total[0];
  if (queries === 0) return null;
  const at = field(span);
  let claimed = 0;
  let baseline = 0;
  for (let c = 0; c < span; c += 1) {
    claimed += total[at.claimedSum + c];
    if (total[at.claimedPairs + c] === 0) continue;
    if (total[at.otherPairs + c] === 0) return null;
    baseline += total[at.claimedPairs + c] * (total[at.otherSum + c] / total[at.otherPairs + c]);
  }
  claimed /= queries;
  baseline /= queries;
  return { claimed, baseline, effect: claimed - baseline };
}

/** The q-quantile of sorted numbers (linear between order statistics). */
export function quantileOfSorted(sorted, q) {
  if (!sorted.length) return NaN;
  const at = q * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (at - lo) * (sorted[hi] - sorted[lo]);
}

/**
 * quantileOfSorted(values sorted, q) without sorting them: values (a scratch array of finite
 * numbers) is reordered in place.
 */
export function quantileOfUnsorted(values, q) {
  if (!values.length) return NaN;
  const at = q * (values.length - 1);
  const lo = Math.floor(at);
  const hi = Math.min(values.length - 1, lo + 1);
  kthSmallest(values, values.length, lo); // and the larger ones after it
  let next = values[lo];
  if (hi > lo) {
    next = values[hi];
    for (let i = hi + 1; i < values.length; i += 1) if (values[i] < next) next = values[i];
  }
  return values[lo] + (at - lo) * (next - values[lo]);
}

/**
 * The verdict on one claim from its per-window tallies (claimTally's entries, one per window):
 * { verdict: 'shows' | 'opposite' | 'unclear' | 'untestable', reason, claimed, baseline, effect,
 *   ratio, low, high, queries }. `causal`: the model's mask.
 */
export function claimVerdict(tallies, claim, { causal = false, rule = RULE } = {}) {
  const untestable = (reason, extra = {}) => ({
    verdict: 'untestable',
    reason,
    claimed: NaN,
    baseline: NaN,
    effect: NaN,
    ratio: NaN,
    low: NaN,
    high: NaN,
    queries: 0,
    ...extra,
  });
  if (causal && claim.from > 0) return untestable('causal');
  if (!tallies.length) return untestable('no queries');
  const rows = tallyRows(tallies);
  const total = sumTallies(
    rows,
    tallies.map((_, w) => w),
    new Float64Array(rows.stride),
  );
  const queries = total[0];
  const point = effectOf(total, rows.span);
  if (queries < rule.minQueries || !point) return untestable('too few', { queries });
  const random = seededRandom(rule.seed);
  const draws = [];
  const pick = new Array(tallies.length);
  const resampled = new Float64Array(rows.stride);
  for (let b = 0; b < rule.resamples; b += 1) {
    for (let w = 0; w < tallies.length; w += 1) pick[w] = Math.floor(random() * tallies.length);
    const e = effectOf(sumTallies(rows, pick, resampled), rows.span);
    if (e) draws.push(e.effect);
  }
  draws.sort((a, b) => a - b);
  const tail = (1 - rule.level) / 2;
  const low = quantileOfSorted(draws, tail);
  const high = quantileOfSorted(draws, 1 - tail);
  const ratio = point.baseline > 0 ? point.claimed / point.baseline : point.claimed > 0 ? Infinity : 1;
  let verdict = 'unclear';
  if (low > 0 && ratio >= rule.minRatio && point.effect >= rule.minEffect) verdict = 'shows';
  else if (high < 0 && ratio <= 1 / rule.minRatio && point.effect <= -rule.minEffect) verdict = 'opposite';
  return { verdict, reason: null, ...point, ratio, low, high, queries };
}

/** Every claim's verdict for one head: { [claim]: claimVerdict(…) }. */
export function headVerdicts(windowTallies, { causal = false, rule = RULE, claims = CLAIMS } = {}) {
  return Object.fromEntries(
    Object.entries(claims).map(([name, claim]) => [
      name,
      claimVerdict(
        windowTallies.map((t) => t[name]),
        claim,
        { causal, rule },
      ),
    ]),
  );
}

export { SYMMETRIC_BAND, sideOf };

/** What is said of a claim, for a model that has not trained yet. */
export const READ_ONCE_TRAINED = 'read from this run once it trains';

const list = (items) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/**
 * One head's left/right mass ratio as its table cell: the ratio to 2 decimals, or in words where it
 * has none: "all leftward" (no weight to the right), "none either side", "no reading" (masses
 * that are not numbers).
 */
export function leftRightCell({ left, right }) {
  if (!Number.isFinite(left) || !Number.isFinite(right)) return 'no reading';
  if (right > 0) return formatFixed(left / right, 2);
  return left > 0 ? 'all leftward' : 'none either side';
}

/**
 * A layer's heads' left/right mass ratios in words: their range ("left/right 2.00–3.50", one
 * number when one head has a ratio), and the heads that have no ratio said as what they are: all their
 * weight leftward (none to the right), no weight either side, or no reading (masses that are not
 * numbers, from a model that diverged).
 */
function leftRightText(heads) {
  const numbers = heads.filter((h) => Number.isFinite(h.left) && Number.isFinite(h.right));
  const ratios = numbers.filter((h) => h.right > 0).map((h) => h.left / h.right);
  const kinds = [
    ['all its weight leftward', 'all weight leftward', numbers.filter((h) => !(h.right > 0) && h.left > 0).length],
    ['no weight either side', 'no weight either side', numbers.filter((h) => !(h.right > 0) && !(h.left > 0)).length],
    ['no reading (its weights are not numbers)', 'no reading (weights not numbers)', heads.length - numbers.length],
  ];
  const parts = [];
  if (ratios.length) {
    const [low, high] = [formatFixed(Math.min(...ratios), 2), formatFixed(Math.max(...ratios), 2)];
    parts.push(`left/right ${ratios.length === 1 ? low : `${low}–${high}`}`);
  }
  for (const [some, every, count] of kinds) {
    if (!count) continue;
    if (count < heads.length)
      parts.push(
        `${count} ${count === 1 ? 'head' : 'heads'} with ${some.replace('its', count === 1 ? 'its' : 'their')}`,
      );
    else parts.push(count === 1 ? every : `${every} in ${count === 2 ? 'both heads' : `all ${count} heads`}`);
  }
  return parts.join('; ');
}

/**
 * One sentence over the whole model, from the numbers: each layer's side (every head's
 * left/right ratio), whether its heads are local (near weight ≥ 2× uniform's there), and for the
 * handbook's two claims which heads show them. analysis: { step, causal, heads: [{ layer, head,
 * left, right, near, nearUniform, verdicts }] }; label: what the sentence opens with (default
 * "Step N, provisional": a reading before the run's end); untrained: the model has not trained yet,
 * so each claim that could be tested is said to be read once it trains, not judged.
 */
export function summariseRun(analysis, { label = `Step ${analysis.step}, provisional`, untrained = false } = {}) {
  const { heads, causal } = analysis;
  const layers = [...new Set(heads.map((h) => h.layer))];
  const layerParts = layers.map((layer) => {
    const mine = heads.filter((h) => h.layer === layer);
    const local = mine.filter((h) => h.near >= 2 * h.nearUniform).length;
    const where =
      local === mine.length ? 'local' : local === 0 ? 'not local' : `local in ${local} of ${mine.length} heads`;
    if (causal) return `layer ${layer} is ${where}`;
    const sides = mine.map(sideOf);
    const range = leftRightText(mine);
    const count = (s) => sides.filter((x) => x === s).length;
    let side;
    if (count('symmetric') === mine.length) side = 'symmetric';
    else if (count('back') === mine.length) side = 'asymmetric, looking back';
    else if (count('ahead') === mine.length) side = 'asymmetric, looking ahead';
    else {
      const parts = [
        ['back', 'look back'],
        ['ahead', 'look ahead'],
        ['symmetric', 'are symmetric'],
      ]
        .filter(([s]) => count(s))
        .map(([s, say]) => `${count(s)} ${count(s) === 1 ? say.replace(/^are/, 'is').replace(/^look/, 'looks') : say}`);
      return `layer ${layer} is ${where === 'not local' ? 'not local, its heads' : `${where} and`} mixed (${parts.join(', ')}; ${range})`;
    }
    if (where === 'not local')
      return `layer ${layer} is ${side === 'symmetric' ? 'neither local nor lopsided' : `not local but ${side}`} (${range})`;
    return `layer ${layer} is ${where} and ${side} (${range})`;
  });
  const claimParts = heads[0]?.verdicts
    ? HANDBOOK_CLAIMS.map((name) => {
        const claim = CLAIMS[name];
        const v = heads.map((h) => ({ h, v: h.verdicts[name] }));
        if (v.every((x) => x.v.verdict === 'untestable'))
          return `${claim.short}: ${v[0].v.reason === 'causal' ? 'cannot be tested with a causal mask' : 'too few queries to test'}`;
        if (untrained) return `${claim.short}: ${READ_ONCE_TRAINED}`;
        const showing = v.filter((x) => x.v.verdict === 'shows');
        if (!showing.length) {
          const opposite = v.filter((x) => x.v.verdict === 'opposite').length;
          return `${claim.short}: no head shows a ${claim.query}-specific effect${opposite ? ` (${opposite} of ${heads.length} show the opposite)` : ''}`;
        }
        const best = strongestShowing(heads, name);
        return `${claim.short}: ${showing.length} of ${heads.length} heads ${showing.length === 1 ? 'shows' : 'show'} it (strongest layer ${best.h.layer} head ${best.h.head}: ${signed(best.v.effect)}, 95 % interval ${signed(best.v.low)} … ${signed(best.v.high)})`;
      })
    : [];
  const sentence = `${label}: ${list(layerParts)}${causal ? ' (the causal mask hides every key to the right)' : ''}`;
  return claimParts.length ? `${sentence}; ${claimParts.join('; ')}.` : `${sentence}.`;
}

/** The head showing a claim with the largest effect: { h, v } (its verdict), or null if none shows it. */
export function strongestShowing(heads, name) {
  let best = null;
  for (const h of heads) {
    const v = h.verdicts?.[name];
    if (v?.verdict === 'shows' && (!best || v.effect > best.v.effect)) best = { h, v };
  }
  return best;
}

/** The head showing the opposite of a claim with the most negative effect: { h, v }, or null. */
export function strongestOpposite(heads, name) {
  let best = null;
  for (const h of heads) {
    const v = h.verdicts?.[name];
    if (v?.verdict === 'opposite' && (!best || v.effect < best.v.effect)) best = { h, v };
  }
  return best;
}

/**
 * The head the section shows until the reader picks one: the head with the clearest effect on the
 * handbook's claims, that is the strongest head showing one (the summary's "strongest", so the two
 * never disagree; of two claims, the larger effect); if no head shows either, the head with the
 * clearest learned structure: the most mean weight on one offset other than 0 beyond what attention
 * spread evenly puts there (offsetWeights − offsetUniform).
 * Returns { layer, head, claim, effect, low, high } or { layer, head, offset, weight, uniform }.
 */
export function clearestHead(heads) {
  let shown = null;
  for (const name of HANDBOOK_CLAIMS) {
    const best = strongestShowing(heads, name);
    if (best && (!shown || best.v.effect > shown.effect))
      shown = {
        layer: best.h.layer,
        head: best.h.head,
        claim: name,
        effect: best.v.effect,
        low: best.v.low,
        high: best.v.high,
      };
  }
  if (shown) return shown;
  let best = null;
  for (const h of heads) {
    const k = (h.offsetWeights.length - 1) / 2;
    // The reference run's readings (reference-run.js) have no offsetUniform: their weight alone.
    const beyond = (weight, uniform) => weight - (uniform ?? 0);
    h.offsetWeights.forEach((weight, c) => {
      const uniform = h.offsetUniform?.[c];
      if (c !== k && (!best || beyond(weight, uniform) > beyond(best.weight, best.uniform)))
        best = { layer: h.layer, head: h.head, offset: c - k, weight, uniform };
    });
  }
  return best;
}

/**
 * A head's clearest offset in words (clearestHead's { offset, weight, uniform }): a structure where
 * the weight there is at least twice an even spread's, as the summary calls a layer local.
 */
export function structureText({ offset, weight, uniform }, { before = false } = {}) {
  const times =
    uniform > 0 ? ` (${formatFixed(weight / uniform, 1)}× the ${formatFixed(uniform, 3)} of an even spread)` : '';
  const where = `${formatFixed(weight, 3)} of its weight on offset ${signed(offset, 0)}, on average over the held-out queries${times}`;
  const clear = uniform > 0 ? weight >= 2 * uniform : weight > 0;
  if (before) return `before training, the random start puts ${where}`;
  return clear ? `the clearest learned structure: ${where}` : `no offset stands out; the most is ${where}`;
}

/**
 * For each of the handbook's claims, over several runs (seeds) of one model, each { heads } with
 * verdicts: in how many some head shows it (the claim holds in that run) and in how many some head
 * shows the opposite. Returns { [claim]: { holds, opposite, of, short } }.
 */
export function claimsAcrossRuns(runs) {
  const count = (name, verdict) => runs.filter((r) => r.heads.some((h) => h.verdicts[name].verdict === verdict)).length;
  return Object.fromEntries(
    HANDBOOK_CLAIMS.map((name) => [
      name,
      { holds: count(name, 'shows'), opposite: count(name, 'opposite'), of: runs.length, short: CLAIMS[name].short },
    ]),
  );
}
