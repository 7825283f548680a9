// "Longer than trained" in the schemes section: one click trains one small causal model per
// position scheme in the training worker (train-worker.js, its own WebAssembly with the training
// engine) on next-word prediction over the training corpus at length L, the same windows, budget
// and seed for each, and draws each model's held-out loss per word at L, 2L, 4L and 8L on the
// same words (length-extrapolation.js). Loaded on the first click.
import { el, fmt, grouped, signed } from './train-dom.js';
import { TRAINER, openTrainPool } from './train-pool.js';
import { CORPUS_URL } from './corpus-url.js';
import { SERIES_COLOURS, drawLineChart } from '../render/line-chart.js';
import { fittedAxes } from '../render/fitted-axes.js';
import { EXTRAPOLATION, EXTRAPOLATION_SCHEMES, evaluationLengths } from './length-extrapolation.js';
import { SCHEME_INFO } from '../views/schemes-view.js';

/** A scheme's name on the page (the schemes' one table). */
const nameOf = (scheme) => SCHEME_INFO[scheme].name;

/** Each scheme's line: the plots' colours, grey for none (the palette's black is lost on a dark page). */
const schemeColour = (scheme) =>
  scheme === 'none' ? '#7f7f7f' : SERIES_COLOURS[EXTRAPOLATION_SCHEMES.indexOf(scheme) % SERIES_COLOURS.length];

/** A change of loss from L to 8L smaller than this (nats per word) is called "about the same". */
export const SAME_LOSS = 0.02;

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

/**
 * Runs the experiment into `box` (its status line, a plot, a caption and a table); `settings`
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
  const lossWrap = el(doc, 'div', { className: 'longer-plot' });
  const lossCanvas = el(doc, 'canvas', {
    role: 'img',
    ariaLabel: 'Held-out loss per word against the length of the windows read',
  });
  lossWrap.append(lossCanvas);
  const table = el(doc, 'table', { className: 'longer-table' });
  const caption = el(doc, 'p', { className: 'longer-caption' });
  const tableKey = el(doc, 'p', { className: 'longer-table-key', text: longerTableKey(lengths, []) });
  out.replaceChildren(
    el(doc, 'div', { className: 'longer-plots' }, [lossWrap]),
    caption,
    tableKey,
    el(doc, 'div', { className: 'longer-table-wrap' }, [table]),
  );
  const rows = [];
  const draw = () => {
    drawLineChart(lossCanvas, {
      series: rows.map((r) => ({
        label: divergedRow(r) ? `${nameOf(r.scheme)} (diverged)` : nameOf(r.scheme),
        x: lengths,
        y: r.loss,
        colour: schemeColour(r.scheme),
        dashed: r.scheme === 'none' || r.scheme === 'absolute',
      })),
      axes: fittedAxes({ xTicks: lengths }),
      xLabel: `window length, words (trained at ${s.length})`,
      yLabel: 'held-out loss (nats/word)',
    });
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
  // in the new colours when the theme changes.
  let width = out.clientWidth;
  new ResizeObserver(() => {
    if (out.clientWidth === width || !rows.length) return;
    width = out.clientWidth;
    draw();
  }).observe(out);
  doc.defaultView?.matchMedia?.('(prefers-color-scheme: dark)').addEventListener('change', () => rows.length && draw());
  const count = EXTRAPOLATION_SCHEMES.length;
  status.textContent = `Training ${count} small models (next word, ${s.steps} steps at length ${s.length}) in a background worker…`;
  const pool = openTrainPool({
    onLost: (error) => (status.textContent = `The experiment’s worker failed: ${error.message}`),
  });
  const onProgress = (row) => {
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
        caption.textContent = longerCaption(result);
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

/** "a, b and c". */
const listed = (items) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The text with one full stop at its end (a list may already end in “et al.”). */
const endSentence = (text) => (text.endsWith('.') ? text : `${text}.`);

/**
 * What each scheme meets past the trained length L by construction (its entry's pastTrained), and
 * how much each group's loss changed from L to 8L when the run's rows are given: whether training
 * showed it every value it reads there (Shaw's clipped rows when k < L, T5's last bucket when it
 * starts before L) or it reads nothing learned (ALiBi's fixed penalty), or not.
 */
export function constructionText(s, lengths, t5LastBucketFrom, schemes = EXTRAPOLATION_SCHEMES, rows = []) {
  const L = lengths[0];
  const last = lengths.at(-1);
  const c = { L, maxDistance: s.maxDistance, numBuckets: s.numBuckets, t5LastBucketFrom };
  const entries = schemes.map((scheme) => {
    const { pastTrained } = SCHEME_INFO[scheme];
    return { scheme, ...(typeof pastTrained === 'function' ? pastTrained(c) : pastTrained) };
  });
  const group = (seen) => entries.filter((e) => e.seen === seen);
  const said = (seen) => listed(group(seen).map((e) => `${nameOf(e.scheme)} (${e.note})`));
  const plural = (seen, one, many) => (group(seen).length > 1 ? many : one);
  const parts = [
    group(false).length ? `${said(false)} ${plural(false, 'meets', 'meet')} values training never showed` : '',
    group(true).length
      ? `${said(true)} ${plural(true, 'gives', 'give')} every offset up to ${last - 1} a value training used or one that needs none`
      : '',
    ...group(null).map((e) => `${nameOf(e.scheme)} reads ${e.note}`),
  ].filter(Boolean);
  const change = (scheme) => {
    const row = rows.find((r) => r.scheme === scheme);
    return row ? { scheme, change: row.loss.at(-1) - row.loss[0] } : null;
  };
  const spread = (seen) => {
    const found = group(seen)
      .map((e) => change(e.scheme))
      .filter(Boolean);
    found.sort((a, b) => a.change - b.change);
    const at = (f) => `${signed(f.change, 2)} (${nameOf(f.scheme)})`;
    if (found.length === 0) return null;
    return found.length === 1 ? at(found[0]) : `from ${at(found[0])} to ${at(found.at(-1))}`;
  };
  const unseen = spread(false);
  const seen = spread(true);
  const measured = [
    unseen ? `the loss of those that meet something untrained changed ${unseen}` : '',
    seen ? `of those that meet nothing untrained ${seen}` : '',
  ].filter(Boolean);
  return (
    `By construction, past the trained length ${L}: ${parts.join('; ')}.` +
    (measured.length ? ` Measured from ${L} to ${last}: ${measured.join('; ')}.` : '')
  );
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
 * What the run shows, from its numbers (lengthExtrapolation's result): the set-up, the losses at
 * L against the word-frequency model, which schemes' loss rises, stays or falls from L to 8L, and
 * what each scheme meets past L by construction with how much each group's loss changed; a model
 * whose loss is not a number is said to have diverged and is left out of every comparison.
 */
export function longerCaption({
  rows: allRows,
  lengths,
  settings: s,
  corpus,
  vocabSize,
  words,
  unigram,
  unigramTrain,
  t5LastBucketFrom,
}) {
  const L = lengths[0];
  const last = lengths.at(-1);
  const name = (r) => nameOf(r.scheme);
  const change = (r) => r.loss.at(-1) - r.loss[0];
  // A diverged model (a loss that is not a number) is said so once, and compared with nothing.
  const diverged = allRows.filter(divergedRow);
  const rows = allRows.filter((r) => !divergedRow(r));
  const byLoss = [...rows].sort((a, b) => a.loss[0] - b.loss[0]);
  const rises = rows.filter((r) => change(r) >= SAME_LOSS).sort((a, b) => change(b) - change(a));
  const falls = rows.filter((r) => change(r) <= -SAME_LOSS).sort((a, b) => change(a) - change(b));
  const same = rows.filter((r) => Math.abs(change(r)) < SAME_LOSS);
  const withChange = (list) => listed(list.map((r) => `${name(r)} ${signed(change(r), 2)}`));
  const parts = [
    `Next word, causal: each model (vocabulary ${vocabSize}, d ${s.dModel}, ${s.heads} heads, ${s.layers} layer${s.layers > 1 ? 's' : ''}) trained ${s.steps} steps on windows of ${L} words of ${corpus}, ${s.batchSize} a step, the same windows and seed for each; then each read the same ${grouped(words)} held-out words in windows of ${listed(lengths.map(String))}.`,
    divergedText(diverged, lengths),
    byLoss.length
      ? endSentence(
          `At ${L}, the trained length, ${byLoss.length === 1 ? `the loss is ${fmt(byLoss[0].loss[0], 2)} (${name(byLoss[0])})` : `losses run from ${fmt(byLoss[0].loss[0], 2)} (${name(byLoss[0])}) to ${fmt(byLoss.at(-1).loss[0], 2)} (${name(byLoss.at(-1))})`} nats per word; knowing only the training text’s word frequencies gives ${fmt(unigram, 2)} on these held-out words (${fmt(unigramTrain, 2)} on the training text itself, what the training section’s unigram line measures)`,
        )
      : '',
    rises.length
      ? endSentence(
          `From ${L} to ${last} the loss rises${rises.length > 1 ? ', most to least,' : ''} for ${withChange(rises)}`,
        )
      : '',
    falls.length ? endSentence(`It falls (more text before most words) for ${withChange(falls)}`) : '',
    same.length ? endSentence(`It stays within ${SAME_LOSS} for ${listed(same.map(name))}`) : '',
    constructionText(
      s,
      lengths,
      t5LastBucketFrom,
      allRows.map((r) => r.scheme),
      rows,
    ),
  ];
  return parts.filter(Boolean).join(' ');
}
