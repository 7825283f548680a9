// "Longer than trained" in the schemes section: one click trains one small causal model per
// position scheme in the training worker (train-worker.js, its own WebAssembly with the training
// engine) on next-word prediction over the training corpus at length L, the same windows, budget
// and seed for each, and draws each model's held-out loss per word at L, 2L, 4L and 8L on the
// same words (length-extrapolation.js). Loaded on the first click.
import { el, grouped, signed } from './train-dom.js';
import { TRAINER, openTrainPool } from './train-pool.js';
import { CORPUS_URL } from './corpus-url.js';
import { SERIES_COLOURS, drawLines } from './train-plots.js';
import { EXTRAPOLATION, EXTRAPOLATION_SCHEMES, SCHEME_NAMES, evaluationLengths } from './length-extrapolation.js';

/** Each scheme's line: the plots' colours, grey for none (the palette's black is lost on a dark page). */
const schemeColour = (scheme) =>
  scheme === 'none' ? '#7f7f7f' : SERIES_COLOURS[EXTRAPOLATION_SCHEMES.indexOf(scheme) % SERIES_COLOURS.length];

/** A change of loss from L to 8L smaller than this (nats per word) is called "about the same". */
export const SAME_LOSS = 0.02;

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
  out.replaceChildren(
    el(doc, 'div', { className: 'longer-plots' }, [lossWrap]),
    caption,
    el(doc, 'p', {
      className: 'longer-table-key',
      text: `The table: held-out loss per word (nats) at each window length; ppl, the perplexity exp(loss) at ${lengths.at(-1)}.`,
    }),
    el(doc, 'div', { className: 'longer-table-wrap' }, [table]),
  );
  const rows = [];
  const draw = () => {
    drawLines(lossCanvas, {
      series: rows.map((r) => ({
        label: SCHEME_NAMES[r.scheme],
        x: lengths,
        y: r.loss,
        colour: schemeColour(r.scheme),
        dashed: r.scheme === 'none' || r.scheme === 'absolute',
      })),
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
          el(doc, 'tr', {}, [
            el(doc, 'td', { text: SCHEME_NAMES[r.scheme] }),
            ...r.loss.map((v) => el(doc, 'td', { text: v.toFixed(3) })),
            el(doc, 'td', { text: Math.exp(r.loss.at(-1)).toFixed(0) }),
          ]),
        ),
      ),
    );
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
    status.textContent = `Trained ${rows.length} of ${count} (${SCHEME_NAMES[row.scheme]}: ${row.seconds.toFixed(1)} s)…`;
    draw();
  };
  return pool
    .run('extrapolate', [EXTRAPOLATION_SCHEMES, s, corpusUrl], { worker: TRAINER, long: true, onProgress })
    .then(
      (result) => {
        status.textContent = `Done: ${rows.length} models, ${rows.reduce((t, r) => t + r.seconds, 0).toFixed(1)} s of training.`;
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
 * What each scheme meets past the trained length L by construction: an offset is covered when
 * training used the value it reads (Shaw's clipped rows when k < L, T5's last bucket when it
 * starts before L) or it reads nothing learned (ALiBi's fixed penalty).
 */
export function constructionText(s, lengths, t5LastBucketFrom) {
  const L = lengths[0];
  const last = lengths.at(-1);
  const shaw = `Shaw et al.’s table (offsets clipped at ±${s.maxDistance})`;
  const t5 = `T5’s buckets (${s.numBuckets} one-way buckets with max distance L = ${L}: every distance from ${t5LastBucketFrom} on shares the last one)`;
  const covered = [
    ...(s.maxDistance < L ? [shaw] : []),
    ...(t5LastBucketFrom < L ? [t5] : []),
    'ALiBi’s fixed penalty',
  ];
  const unseen = [
    `sinusoidal positions past ${L - 1}`,
    `RoPE rotations for distances past ${L - 1}`,
    ...(s.maxDistance < L ? [] : [`Shaw et al.’s rows for offsets past ±${L - 1} (clipped at ±${s.maxDistance})`]),
    ...(t5LastBucketFrom < L
      ? []
      : [`T5’s buckets for distances past ${L - 1} (the last one from ${t5LastBucketFrom} on)`]),
  ];
  return (
    `By construction: the learned absolute table’s rows past position ${L - 1} were never trained (they keep their random start), so it cannot extrapolate; ` +
    `training never showed the models ${listed(unseen)}; ${listed(covered)} give every offset up to ${last - 1} a value training used or that needs none; none has no position to extend.`
  );
}

/**
 * What the run shows, from its numbers (lengthExtrapolation's result): the set-up, the losses at
 * L, which schemes' loss rises, stays or falls from L to 8L, and what each scheme meets past L by
 * construction.
 */
export function longerCaption({ rows, lengths, settings: s, corpus, vocabSize, words, unigram, t5LastBucketFrom }) {
  const L = lengths[0];
  const last = lengths.at(-1);
  const name = (r) => SCHEME_NAMES[r.scheme];
  const change = (r) => r.loss.at(-1) - r.loss[0];
  const byLoss = [...rows].sort((a, b) => a.loss[0] - b.loss[0]);
  const rises = rows.filter((r) => change(r) >= SAME_LOSS).sort((a, b) => change(b) - change(a));
  const falls = rows.filter((r) => change(r) <= -SAME_LOSS).sort((a, b) => change(a) - change(b));
  const same = rows.filter((r) => Math.abs(change(r)) < SAME_LOSS);
  const withChange = (list) => listed(list.map((r) => `${name(r)} ${signed(change(r), 2)}`));
  const parts = [
    `Next word, causal: each model (vocabulary ${vocabSize}, d ${s.dModel}, ${s.heads} heads, ${s.layers} layer${s.layers > 1 ? 's' : ''}) trained ${s.steps} steps on windows of ${L} words of ${corpus}, ${s.batchSize} a step, the same windows and seed for each; then each read the same ${grouped(words)} held-out words in windows of ${listed(lengths.map(String))}.`,
    byLoss.length
      ? endSentence(
          `At ${L}, the trained length, losses run from ${byLoss[0].loss[0].toFixed(2)} (${name(byLoss[0])}) to ${byLoss.at(-1).loss[0].toFixed(2)} (${name(byLoss.at(-1))}) nats per word; knowing only the words’ frequencies gives ${unigram.toFixed(2)}`,
        )
      : '',
    rises.length ? endSentence(`From ${L} to ${last} the loss rises for ${withChange(rises)}`) : '',
    falls.length ? endSentence(`It falls (more text before most words) for ${withChange(falls)}`) : '',
    same.length ? endSentence(`It stays within ${SAME_LOSS} for ${listed(same.map(name))}`) : '',
    constructionText(s, lengths, t5LastBucketFrom),
  ];
  return parts.filter(Boolean).join(' ');
}
