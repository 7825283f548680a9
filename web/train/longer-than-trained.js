// "Longer than trained" in the schemes section: one click trains one small causal model per
// position scheme in the training worker (train-worker.js, its own WebAssembly with the training
// engine) on next-word prediction over the training corpus at length L, the same windows, budget
// and seed for each, and draws how each model's held-out loss per word changes from L to 2L, 4L
// and 8L on the same words (length-extrapolation.js), with a sentence of what to see, one of what
// it means and its caveat, and the rest one click away. Loaded on the first click.
import { el, fmt, grouped, leadAndRest, listed, signed } from './train-dom.js';
import { TRAINER, openTrainPool } from './train-pool.js';
import { CORPUS_URL } from './corpus-url.js';
import { SERIES_COLOURS, drawLineChart } from '../render/line-chart.js';
import { fittedAxes } from '../render/fitted-axes.js';
import { DASHES } from '../render/plot-axes.js';
import { MARKERS } from '../render/point-markers.js';
import { END_LABELS } from '../render/end-labels.js';
import {
  EXTRAPOLATION,
  EXTRAPOLATION_SCHEMES,
  changeDifference,
  evaluationLengths,
  lossChange,
} from './length-extrapolation.js';
import { SCHEME_INFO } from '../views/schemes-view.js';
import { onSchemeChange } from '../figures/scheme-change.js';
import { formatSignificant } from '../render/number-text.js';

// What each box's last run listens to (its result's size and the theme): stop() ends both, so a
// new run's listeners replace the last run's (whose canvases are gone) instead of adding to them.
const stopListeningOf = new WeakMap();

/** A scheme's name on the page (the schemes' one table). */
const nameOf = (scheme) => SCHEME_INFO[scheme].name;

/**
 * Each scheme's colour (the plots' colours; None in the text's colour, black or white with the
 * theme) and marker (a name of point-markers.js's MARKERS), all different; its dash says what it
 * meets past L (lineDash).
 */
export const SCHEME_MARKS = Object.freeze({
  shaw: { colour: SERIES_COLOURS[0], marker: 'square' },
  t5: { colour: SERIES_COLOURS[1], marker: 'circle' },
  alibi: { colour: SERIES_COLOURS[2], marker: 'triangle' },
  rope: { colour: SERIES_COLOURS[3], marker: 'diamond' },
  sinusoidal: { colour: SERIES_COLOURS[4], marker: 'down' },
  absolute: { colour: SERIES_COLOURS[5], marker: 'cross' },
  none: { colour: 'fg', marker: 'plus' },
});

/** A line's dash (a name of DASHES) by what its scheme meets past L (pastTrained's seen): solid when nothing untrained, dashed when something, dotted for no position. */
export const lineDash = (seen) => (seen === null ? 'dotted' : seen ? 'solid' : 'dashed');

/** Whether the spread of a change is said as twice its standard error over the passages. */
const TWO_SE = 2;
/** The second panel leaves out the highest line when the others span less than this share of the first's range. */
export const ZOOM_SHARE = 1 / 3;

/** A model diverged when a held-out loss of it is not a number (its training broke down). */
const divergedRow = (row) => row.loss.some((v) => !Number.isFinite(v));

/** A loss or a perplexity in the table: its number, or "diverged" where the loss is not a number. */
const cellText = (loss, digits, value = loss) => (Number.isFinite(loss) ? fmt(value, digits) : 'diverged');

/** One row of the table: the scheme's name, its held-out loss at each length, the perplexity at 8L. */
export function longerTableRow(row) {
  const last = row.loss.at(-1);
  return [nameOf(row.scheme), ...row.loss.map((v) => cellText(v, 3)), cellText(last, 0, Math.exp(last))];
}

/** The line over the table: what its numbers are, and what "diverged" means when a row says it. */
export function longerTableKey(lengths, rows) {
  const key = `The table: held-out loss per word (nats) at each window length; ppl, the perplexity exp(loss) at ${lengths.at(-1)}.`;
  return rows.some(divergedRow)
    ? `${key} Diverged: the model’s training broke down, its held-out loss is NaN (not a number).`
    : key;
}

/** What each scheme meets past L by construction ({ seen, note }, its entry's pastTrained) for the run's settings. */
export function pastTrained(scheme, s, lengths, t5LastBucketFrom) {
  const { pastTrained: entry } = SCHEME_INFO[scheme];
  const c = { L: lengths[0], maxDistance: s.maxDistance, numBuckets: s.numBuckets, t5LastBucketFrom };
  return typeof entry === 'function' ? entry(c) : entry;
}

/** Each model's loss at each length minus its own loss at L: the lines drawn. */
export const lossChanges = (row) => row.loss.map((v) => v - row.loss[0]);

/**
 * The scheme the second panel leaves out, or null (no second panel): the highest line, when the
 * other lines (of models that did not diverge) span less than ZOOM_SHARE of the range the first
 * panel draws (every line and 0), so that on the first they would be squeezed together.
 */
export function zoomLeavesOut(rows) {
  const kept = rows.filter((r) => !divergedRow(r));
  if (kept.length < 3) return null;
  const top = kept.reduce((a, b) => (Math.max(...lossChanges(b)) > Math.max(...lossChanges(a)) ? b : a));
  const span = (list) => {
    const values = list.flatMap(lossChanges);
    return Math.max(...values) - Math.min(...values);
  };
  return span(kept.filter((r) => r !== top)) < ZOOM_SHARE * span(kept) ? top.scheme : null;
}

/** "a, b and c". */

/** The text with one full stop at its end (a list may already end in “et al.”). */
const endSentence = (text) => (text.endsWith('.') ? text : `${text}.`);

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const counted = (n) => NUMBER_WORDS[n] ?? String(n);

/** A change said with its direction: "rises by 0.37", "falls by 0.02", "changes by +0.00" (2 decimals). */
const moves = (v) =>
  v >= 0.005 ? `rises by ${fmt(v, 2)}` : v <= -0.005 ? `falls by ${fmt(-v, 2)}` : `changes by ${signed(v, 2)}`;

/** A range of changes ([{ r, change }], ascending), each end named: "rises by 0.01 (Shaw et al.) to 0.07 (RoPE)". */
function movesRange(list) {
  const [lo, hi] = [list[0], list.at(-1)];
  const name = (x) => nameOf(x.r.scheme);
  if (lo.change >= 0.005) return `rises by ${fmt(lo.change, 2)} (${name(lo)}) to ${fmt(hi.change, 2)} (${name(hi)})`;
  if (hi.change <= -0.005) return `falls by ${fmt(-hi.change, 2)} (${name(hi)}) to ${fmt(-lo.change, 2)} (${name(lo)})`;
  return `changes by ${signed(lo.change, 2)} (${name(lo)}) to ${signed(hi.change, 2)} (${name(hi)})`;
}

/** A size (≥ 0) to 2 decimals, or to one significant digit when not 0 but it would read 0.00 (0.004, not 0.00). */
const size = (v) => (v !== 0 && Math.abs(v) < 0.005 ? formatSignificant(v, 1) : fmt(v, 2));

/** A spread said: twice the standard error, to 2 decimals (3 when it would read 0.00). */
const plusMinus = (se) => `± ${fmt(TWO_SE * se, TWO_SE * se < 0.005 ? 3 : 2)}`;

/**
 * The changes of the models that did not diverge, highest first: { r (the row), change, se }, and
 * whether the highest stands apart from the next (their paired difference over the passages more
 * than twice its standard error).
 */
export function rankedChanges({ rows, passageWords }) {
  const ranked = rows
    .filter((r) => !divergedRow(r))
    .map((r) => ({ r, ...lossChange(r, passageWords) }))
    .sort((a, b) => b.change - a.change);
  const gap = ranked.length > 1 ? changeDifference(ranked[0].r, ranked[1].r, passageWords) : null;
  return { ranked, apart: Boolean(gap && gap.difference > TWO_SE * gap.se), gap };
}

/**
 * The caption's lead, one sentence of what to see: how much each model's held-out loss changed
 * from L to 8L, the highest said alone when it stands apart from the next (rankedChanges), the
 * others as a range with its ends named; models that diverged named at its end.
 */
export function longerLead(result) {
  const L = result.lengths[0];
  const last = result.lengths.at(-1);
  const { ranked, apart } = rankedChanges(result);
  const diverged = result.rows.filter(divergedRow).map((r) => nameOf(r.scheme));
  const from = `From windows of ${L} words, the length trained on, to ${last}`;
  const tail = diverged.length ? `; ${listed(diverged)} diverged (no loss to compare)` : '';
  if (!ranked.length) return `${from}: every model diverged (no loss to compare).`;
  if (ranked.length === 1)
    return endSentence(
      `${from}, the held-out loss of ${nameOf(ranked[0].r.scheme)} ${moves(ranked[0].change)} nats per word${tail}`,
    );
  const ascending = [...ranked].reverse();
  if (!apart)
    return endSentence(
      `${from}, the held-out loss of the ${counted(ranked.length)} models ${movesRange(ascending)} nats per word${tail}`,
    );
  const [top, ...others] = ranked;
  const rest =
    others.length === 1
      ? `that of ${nameOf(others[0].r.scheme)} ${moves(others[0].change)}`
      : `that of the other ${counted(others.length)} ${movesRange(ascending.slice(0, -1))}`;
  return endSentence(
    `${from}, the held-out loss of ${nameOf(top.r.scheme)} ${moves(top.change)} nats per word and ${rest}${tail}`,
  );
}

/**
 * What each scheme meets past the trained length L by construction (its entry's pastTrained),
 * with the line style that says it on the plot: whether training showed it every value it reads
 * there (Shaw's clipped rows when k < L, T5's last bucket when it starts before L) or it reads
 * nothing learned (ALiBi's fixed penalty), or not.
 */
export function constructionText(s, lengths, t5LastBucketFrom, schemes = EXTRAPOLATION_SCHEMES) {
  const L = lengths[0];
  const last = lengths.at(-1);
  const entries = schemes.map((scheme) => ({ scheme, ...pastTrained(scheme, s, lengths, t5LastBucketFrom) }));
  const group = (seen) => entries.filter((e) => e.seen === seen);
  const said = (seen) => listed(group(seen).map((e) => `${nameOf(e.scheme)} (${e.note})`));
  const plural = (seen, one, many) => (group(seen).length > 1 ? many : one);
  const parts = [
    group(false).length
      ? `${said(false)} ${plural(false, 'meets', 'meet')} values training never showed (${plural(false, 'a dashed line', 'dashed lines')})`
      : '',
    group(true).length
      ? `${said(true)} ${plural(true, 'gives', 'give')} every offset up to ${last - 1} a value training used or one that needs none (solid)`
      : '',
    ...group(null).map((e) => `${nameOf(e.scheme)} reads ${e.note} (dotted)`),
  ].filter(Boolean);
  return `By construction, past the trained length ${L}: ${parts.join('; ')}.`;
}

/**
 * Whether the measured changes split as the construction groups them (the plot's dashed lines
 * against its solid ones): every model that meets something untrained past L against every one
 * that meets nothing untrained, each pair's paired difference over the passages against twice its
 * standard error. Said with the pair that decides it: the closest when every pair is apart, else
 * the one most out of line. Shown beside the conclusion: it names what the lines' dashes mean.
 */
export function groupsText(result, ranked = rankedChanges(result).ranked) {
  const { settings: s, lengths, t5LastBucketFrom, passageWords } = result;
  const L = lengths[0];
  const seenOf = (x) => pastTrained(x.r.scheme, s, lengths, t5LastBucketFrom).seen;
  const unseen = ranked.filter((x) => seenOf(x) === false);
  const seen = ranked.filter((x) => seenOf(x) === true);
  if (!unseen.length || !seen.length) return '';
  const pairs = unseen
    .flatMap((a) => seen.map((b) => ({ a, b, ...changeDifference(a.r, b.r, passageWords) })))
    .sort((x, y) => x.difference - y.difference);
  const failing = pairs.filter((p) => !(p.difference > TWO_SE * p.se));
  const { a, b, difference, se } = failing[0] ?? pairs[0];
  const A = `${nameOf(a.r.scheme)} (dashed, ${signed(a.change, 2)})`;
  const B = `${nameOf(b.r.scheme)} (solid, ${signed(b.change, 2)})`;
  const by = `${size(Math.abs(difference))} ${plusMinus(se)}`;
  const kinds = `the dashed lines (something untrained past ${L}) and the solid ones (nothing untrained)`;
  if (!failing.length)
    return `Measured, ${kinds} split as built: every dashed line rose more than every solid one; the closest, ${B} and ${A}, differ by ${by}.`;
  if (difference < -TWO_SE * se) return `Measured, ${kinds} do not split as built: ${A} rose less than ${B}, by ${by}.`;
  return `Measured, ${kinds} overlap: ${B} and ${A} differ by ${by}: within noise (the gap is no larger than its ±).`;
}

/** What the ± of the caption covers, and what it does not (the seed), over `passages` passages. */
const spreadText = (passages) =>
  `The ± is twice the standard error over the ${passages} held-out passages: it covers only which held-out text was read; a model trained from another seed lands elsewhere too, which one run does not measure.`;

/**
 * The conclusion under the lead, from the run's numbers: which model clearly fails past L (its
 * change above every other model's, each paired difference more than twice its standard error),
 * or none; then None, the model with no position at all, against the others that hold (within
 * the noise of its change, above it or below it), and its loss at L against the best model's: a
 * gap no larger than the largest change of those that hold says that this small model gets little
 * from position, so that the run can show a scheme that breaks but cannot rank those that hold.
 */
export function longerConclusion(result) {
  const { ranked } = rankedChanges(result);
  if (ranked.length < 2) return '';
  const { passageWords, lengths } = result;
  const L = lengths[0];
  const name = (x) => nameOf(x.r.scheme);
  const against = (x, y) => changeDifference(x.r, y.r, passageWords);
  const above = (x, y) => {
    const d = against(x, y);
    return d.difference > TWO_SE * d.se;
  };
  const [top, ...others] = ranked;
  const fails = others.every((x) => above(top, x));
  const holding = fails ? others : ranked;
  const first = fails
    ? `So only ${name(top)} clearly fails past the trained length: it rises more than every other model, each by more than the noise.`
    : `So no model clearly fails past the trained length: ${name(top)}’s rise, the highest, is within the noise of ${name(others.find((x) => !above(top, x)))}’s.`;
  const none = holding.find((x) => x.r.scheme === 'none');
  if (!none) return first;
  const rest = holding.filter((x) => x !== none);
  const compared = rest.map((x) => ({ x, ...against(x, none) }));
  const names = (list) => listed(list.map((v) => name(v.x)));
  const more = compared.filter((v) => v.difference > TWO_SE * v.se);
  const less = compared.filter((v) => v.difference < -TWO_SE * v.se);
  const same = compared.filter((v) => !more.includes(v) && !less.includes(v));
  const where = [
    more.length ? `less than ${names(more)}` : '',
    same.length ? `within the noise of ${names(same)}` : '',
    less.length ? `more than ${names(less)}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  const rose = none.change > TWO_SE * none.se;
  const kept = result.rows.filter((r) => !divergedRow(r));
  const best = kept.reduce((x, y) => (y.loss[0] < x.loss[0] ? y : x));
  const gap = none.r.loss[0] - best.loss[0];
  const largest = Math.max(...holding.map((x) => Math.abs(x.change)));
  const atL =
    best === none.r
      ? `At ${L} words None is the best model of all`
      : `At ${L} words None is ${gap <= largest ? 'only ' : ''}${size(gap)} worse than the best (${nameOf(best.scheme)})`;
  const little =
    gap <= largest
      ? ': this small model gets little from position, so the run can show a scheme that breaks, not rank those that hold'
      : '';
  const costs = rose ? ': reading longer windows costs even a model without positions' : '';
  return `${first} None, with no position at all, ${moves(none.change)}${where ? ` (${where})` : ''}${costs}. ${atL}${little}.`;
}

/**
 * The caveat beside the conclusion: whether the lines split as built (groupsText) and what the ±
 * covers; '' with no change to compare.
 */
export function longerCaveat(result) {
  const { ranked } = rankedChanges(result);
  if (!ranked.length) return '';
  const passages = result.passageWords.filter((c) => c > 0).length;
  return [groupsText(result, ranked), spreadText(passages)].filter(Boolean).join(' ');
}

/** The models whose held-out loss is not a number, said as diverged, with the lengths where it is not (all: "at every length"). */
function divergedText(rows, lengths) {
  if (!rows.length) return '';
  const one = rows.length === 1;
  const where = (r) => {
    const at = lengths.filter((_, i) => !Number.isFinite(r.loss[i]));
    return at.length === lengths.length ? 'at every length' : `at ${listed(at.map(String))}`;
  };
  const places = [...new Set(rows.map(where))];
  const at = places.length === 1 ? places[0] : listed(rows.map((r) => `${where(r)} (${nameOf(r.scheme)})`));
  return `${listed(rows.map((r) => nameOf(r.scheme)))} diverged: ${one ? 'its' : 'their'} training broke down and ${one ? 'its' : 'their'} held-out loss is NaN (not a number) ${at}, so ${one ? 'it is' : 'they are'} left out of the comparisons below.`;
}

/**
 * The rest of the caption, one click away ("How to read it"), from the run's numbers
 * (lengthExtrapolation's result), in three paragraphs: what the lines are and what each scheme
 * meets past L by construction (the lines' dashes); the set-up and the losses at L against the
 * word-frequency model; each model's change from L to 8L with its spread over the passages
 * (whether the changes split as the construction groups them, and what the spread leaves out,
 * are the caveat beside the conclusion, in view). A model whose loss is not a number is said to
 * have diverged and is left out of every comparison.
 */
export function longerCaptionParts(result) {
  const { rows: allRows, lengths, settings: s, corpus, vocabSize, words, unigram, unigramTrain } = result;
  const L = lengths[0];
  const last = lengths.at(-1);
  const name = (r) => nameOf(r.scheme);
  // A diverged model (a loss that is not a number) is said so once, and compared with nothing.
  const diverged = allRows.filter(divergedRow);
  const rows = allRows.filter((r) => !divergedRow(r));
  const byLoss = [...rows].sort((a, b) => a.loss[0] - b.loss[0]);
  const { ranked } = rankedChanges(result);
  const zoom = zoomLeavesOut(allRows);
  const passages = result.passageWords.filter((c) => c > 0).length;
  const lines = [
    `Each line: a model’s held-out loss at each window length minus its own loss at ${L}, in nats per word (above 0: worse than at the length it was trained on)${
      zoom
        ? `; the second panel leaves out ${nameOf(zoom)}, whose line would squeeze the others into under a third of the height, and zooms in on the other ${counted(rows.length - 1)}`
        : ''
    }.`,
    constructionText(
      s,
      lengths,
      result.t5LastBucketFrom,
      allRows.map((r) => r.scheme),
    ),
  ];
  const setUp = [
    `Next word, causal: each model (vocabulary ${vocabSize}, d ${s.dModel}, ${s.heads} heads, ${s.layers} layer${s.layers > 1 ? 's' : ''}) trained ${s.steps} steps on windows of ${L} words of ${corpus}, each step a batch of ${s.batchSize} windows, the same windows and seed for each; then each read the same ${grouped(words)} held-out words (${passages} passages) in windows of ${listed(lengths.map(String))}: only the text before each word changes.`,
    divergedText(diverged, lengths),
    byLoss.length
      ? endSentence(
          `At ${L}, the trained length, ${byLoss.length === 1 ? `the loss is ${fmt(byLoss[0].loss[0], 2)} (${name(byLoss[0])})` : `losses run from ${fmt(byLoss[0].loss[0], 2)} (${name(byLoss[0])}) to ${fmt(byLoss.at(-1).loss[0], 2)} (${name(byLoss.at(-1))})`} nats per word; knowing only the training text’s word frequencies gives ${fmt(unigram, 2)} on these held-out words (${fmt(unigramTrain, 2)} on the training text itself, what the training section’s unigram line measures)`,
        )
      : '',
  ];
  const measured = ranked.length
    ? [
        endSentence(
          `From ${L} to ${last}, each change ± twice its standard error over the ${passages} passages (how much the choice of held-out text moves it): ${listed(ranked.map((x) => `${name(x.r)} ${signed(x.change, 2)} ${plusMinus(x.se)}`))}`,
        ),
      ]
    : [];
  return [lines, setUp, measured].map((p) => p.filter(Boolean).join(' ')).filter(Boolean);
}

/** The rest of the caption as one text (longerCaptionParts' paragraphs, joined). */
export const longerCaption = (result) => longerCaptionParts(result).join(' ');

/**
 * Runs the experiment into `box` (its status line, two plots, a caption and a table); `settings`
 * overrides EXTRAPOLATION (a test may train fewer steps). Resolves with the result once drawn.
 */
export function runLongerThanTrained(box, settings = {}, corpusUrl = CORPUS_URL) {
  const doc = box.ownerDocument;
  const s = { ...EXTRAPOLATION, ...settings };
  const lengths = evaluationLengths(s.length);
  const status = box.querySelector('.longer-status');
  let out = box.querySelector('.longer-result');
  if (!out) {
    out = el(doc, 'div', { className: 'longer-result' });
    box.append(out);
  }
  const panel = (title, label) => {
    const heading = el(doc, 'p', { className: 'longer-plot-title', text: title });
    const canvas = el(doc, 'canvas', { role: 'img', ariaLabel: label });
    const wrap = el(doc, 'div', { className: 'longer-plot' }, [heading, el(doc, 'div', {}, [canvas])]);
    return { wrap, heading, canvas };
  };
  const full = panel(
    `Each model’s held-out loss minus its loss at ${s.length}`,
    `Each model’s held-out loss minus its own loss at ${s.length}, against the length of the windows read`,
  );
  const zoomed = panel('', '');
  zoomed.wrap.hidden = true;
  const table = el(doc, 'table', { className: 'longer-table' });
  const caption = el(doc, 'div', { className: 'longer-caption' });
  const tableKey = el(doc, 'p', { className: 'longer-table-key', text: longerTableKey(lengths, []) });
  out.replaceChildren(
    el(doc, 'div', { className: 'longer-plots' }, [full.wrap, zoomed.wrap]),
    caption,
    tableKey,
    el(doc, 'div', { className: 'longer-table-wrap' }, [table]),
  );
  const rows = [];
  let run = null;
  const draw = () => {
    const series = rows.map((r) => ({
      scheme: r.scheme,
      label: divergedRow(r) ? `${nameOf(r.scheme)} (diverged)` : nameOf(r.scheme),
      x: lengths,
      y: lossChanges(r),
      colour: SCHEME_MARKS[r.scheme].colour,
      marker: MARKERS[SCHEME_MARKS[r.scheme].marker],
      dash: DASHES[lineDash(run ? pastTrained(r.scheme, s, lengths, run.t5LastBucketFrom).seen : true)],
    }));
    // Each panel names its lines one way: the first by its legend (and at their ends too when it is
    // the only panel), the second, where the lines come apart, at their ends.
    const chart = (canvas, shown, legend, endLabels) =>
      drawLineChart(canvas, {
        series: shown,
        axes: fittedAxes({ xTicks: lengths, xLog: true }),
        xLabel: `window length, words (trained at ${s.length})`,
        yLabel: `change from ${s.length} (nats/word)`,
        height: 240,
        legend,
        endLabels: endLabels ? END_LABELS : null,
      });
    const zoom = zoomLeavesOut(rows);
    chart(full.canvas, series, true, !zoom);
    zoomed.wrap.hidden = !zoom;
    if (zoom) {
      zoomed.heading.textContent = `Without ${nameOf(zoom)}, zoomed in`;
      zoomed.canvas.setAttribute('aria-label', `The same without ${nameOf(zoom)}, zoomed in on the other lines`);
      chart(
        zoomed.canvas,
        series.filter((x) => x.scheme !== zoom),
        false,
        true,
      );
    }
    table.replaceChildren(
      el(doc, 'thead', {}, [
        el(
          doc,
          'tr',
          {},
          ['scheme', ...lengths.map(String), 'ppl'].map((t) => el(doc, 'th', { text: t })),
        ),
      ]),
      el(
        doc,
        'tbody',
        {},
        rows.map((r) =>
          el(
            doc,
            'tr',
            {},
            longerTableRow(r).map((text) => el(doc, 'td', { text })),
          ),
        ),
      ),
    );
    tableKey.textContent = longerTableKey(lengths, rows);
    for (const [i, tr] of [...table.tBodies[0].rows].entries()) tr.dataset.scheme = rows[i].scheme;
  };
  // Redrawn at the new width when the page's width changes (the canvases have a fixed size), and
  // in the new colours when the theme changes; one observer and one listener per box, this run's.
  stopListeningOf.get(box)?.();
  let width = out.clientWidth;
  const resize = new ResizeObserver(() => {
    if (out.clientWidth === width || !rows.length) return;
    width = out.clientWidth;
    draw();
  });
  resize.observe(out);
  const stopScheme = onSchemeChange(out, () => rows.length && draw());
  stopListeningOf.set(box, () => {
    resize.disconnect();
    stopScheme();
  });
  const count = EXTRAPOLATION_SCHEMES.length;
  status.textContent = `Training ${count} small models (next word, ${s.steps} steps at length ${s.length}) in a background worker…`;
  const pool = openTrainPool({
    onLost: (error) => (status.textContent = `The experiment’s worker failed: ${error.message}`),
  });
  const onProgress = ({ row, run: header }) => {
    run = header;
    rows.push(row);
    status.textContent = `Trained ${rows.length} of ${count} (${nameOf(row.scheme)}: ${fmt(row.seconds, 1)} s)…`;
    draw();
  };
  return pool
    .run('extrapolate', [EXTRAPOLATION_SCHEMES, s, corpusUrl], { worker: TRAINER, long: true, onProgress })
    .then(
      (result) => {
        status.textContent = `Done: ${rows.length} models, ${fmt(
          rows.reduce((t, r) => t + r.seconds, 0),
          1,
        )} s of training.`;
        leadAndRest(doc, caption, longerLead(result), longerCaptionParts(result), 'longer');
        // What the numbers mean and what qualifies it, in view under the lead.
        caption.querySelector('.longer-lead').after(
          ...[
            ['longer-conclusion', longerConclusion(result)],
            ['longer-caveat', longerCaveat(result)],
          ]
            .filter(([, text]) => text)
            .map(([className, text]) => el(doc, 'p', { className, text })),
        );
        box.dataset.done = String(Number(box.dataset.done ?? 0) + 1);
        return result;
      },
      (error) => {
        status.textContent = `The experiment failed: ${error.message}`;
        throw error;
      },
    )
    .finally(() => pool.terminate());
}
