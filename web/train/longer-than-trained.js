// "Longer than trained" in the schemes section: one click trains one small model per position
// scheme in the training worker (train-worker.js, its own WebAssembly with the training engine)
// on copy-offset at length L, the same batches and seed for each, and draws each model's held-out
// accuracy and loss at L, 2L, 4L and 8L (length-extrapolation.js). Loaded on the first click.
import { el } from './train-dom.js';
import { startTrainWorker } from './start-train-worker.js';
import { SERIES_COLOURS, drawLines } from './train-plots.js';
import { EXTRAPOLATION, evaluationLengths } from './length-extrapolation.js';

/** The schemes trained: every position scheme of createModel. */
export const EXTRAPOLATION_SCHEMES = ['shaw', 't5', 'alibi', 'rope', 'sinusoidal', 'absolute', 'none'];
const NAMES = {
  shaw: 'Shaw et al.',
  t5: 'T5 buckets',
  alibi: 'ALiBi',
  rope: 'RoPE',
  sinusoidal: 'sinusoidal',
  absolute: 'learned absolute',
  none: 'none',
};

/**
 * Runs the experiment into `box` (its status line, two plots and a table); `settings` overrides
 * EXTRAPOLATION (a test may train fewer steps). Resolves with the result once drawn.
 */
export function runLongerThanTrained(box, settings = {}) {
  const doc = box.ownerDocument;
  const s = { ...EXTRAPOLATION, ...settings };
  const lengths = evaluationLengths(s.length);
  const status = box.querySelector('.longer-status');
  let out = box.querySelector('.longer-result');
  if (!out) {
    out = el(doc, 'div', { className: 'longer-result' });
    box.append(out);
  }
  const accuracyWrap = el(doc, 'div', { className: 'longer-plot' });
  const lossWrap = el(doc, 'div', { className: 'longer-plot' });
  const accuracyCanvas = el(doc, 'canvas', { role: 'img', ariaLabel: 'Held-out accuracy against evaluation length' });
  const lossCanvas = el(doc, 'canvas', { role: 'img', ariaLabel: 'Held-out loss against evaluation length' });
  accuracyWrap.append(accuracyCanvas);
  lossWrap.append(lossCanvas);
  const table = el(doc, 'table', { className: 'longer-table' });
  const caption = el(doc, 'p', { className: 'longer-caption' });
  out.replaceChildren(
    el(doc, 'div', { className: 'longer-plots' }, [accuracyWrap, lossWrap]),
    caption,
    el(doc, 'div', { className: 'longer-table-wrap' }, [table]),
  );
  const rows = [];
  const draw = () => {
    const series = (key) =>
      rows.map((r) => ({
        label: NAMES[r.scheme],
        x: lengths,
        y: r[key],
        colour: SERIES_COLOURS[EXTRAPOLATION_SCHEMES.indexOf(r.scheme) % SERIES_COLOURS.length],
        dashed: r.scheme === 'none' || r.scheme === 'absolute',
      }));
    drawLines(accuracyCanvas, {
      series: series('accuracy'),
      xLabel: `evaluation length (trained at ${s.length})`,
      yLabel: 'held-out accuracy',
      yFromZero: true,
    });
    drawLines(lossCanvas, {
      series: [
        ...series('loss'),
        {
          label: `chance ln ${s.vocabSize}`,
          x: [lengths[0], lengths.at(-1)],
          y: [Math.log(s.vocabSize), Math.log(s.vocabSize)],
          colour: '#666',
          dashed: true,
        },
      ],
      xLabel: 'evaluation length',
      yLabel: 'held-out loss (nats)',
      yFromZero: true,
    });
    table.replaceChildren(
      el(doc, 'thead', {}, [
        el(
          doc,
          'tr',
          {},
          ['scheme', ...lengths.map((n) => `accuracy at ${n}`), 'trained in'].map((t) => el(doc, 'th', { text: t })),
        ),
      ]),
      el(
        doc,
        'tbody',
        {},
        rows.map((r) =>
          el(doc, 'tr', {}, [
            el(doc, 'td', { text: NAMES[r.scheme] }),
            ...r.accuracy.map((a) => el(doc, 'td', { text: a.toFixed(2) })),
            el(doc, 'td', { text: `${r.seconds.toFixed(1)} s` }),
          ]),
        ),
      ),
    );
    for (const [i, tr] of [...table.tBodies[0].rows].entries()) tr.dataset.scheme = rows[i].scheme;
  };
  // Redrawn at the new width when the page's width changes (the canvases have a fixed size).
  let width = out.clientWidth;
  new ResizeObserver(() => {
    if (out.clientWidth === width || !rows.length) return;
    width = out.clientWidth;
    draw();
  }).observe(out);
  return new Promise((resolve, reject) => {
    const worker = startTrainWorker();
    status.textContent = `Training ${EXTRAPOLATION_SCHEMES.length} small models (copy-offset, ${s.steps} steps at length ${s.length}) in a background worker…`;
    worker.onmessage = ({ data }) => {
      if (data.type === 'extrapolation-row') {
        rows.push(data.row);
        status.textContent = `Trained ${rows.length} of ${EXTRAPOLATION_SCHEMES.length} (${NAMES[data.row.scheme]}: ${data.row.seconds.toFixed(1)} s)…`;
        draw();
      } else if (data.type === 'extrapolation') {
        worker.terminate();
        status.textContent = `Done: ${rows.length} models, ${rows.reduce((t, r) => t + r.seconds, 0).toFixed(1)} s of training.`;
        caption.textContent = longerCaption(data, s);
        box.dataset.done = String(Number(box.dataset.done ?? 0) + 1);
        resolve(data);
      } else if (data.type === 'error') {
        worker.terminate();
        status.textContent = `The experiment failed: ${data.message}`;
        reject(new Error(data.message));
      }
    };
    worker.onerror = (event) => {
      status.textContent = `The experiment’s worker failed: ${event.message ?? 'unknown error'}`;
      reject(new Error(event.message));
    };
    worker.postMessage({ type: 'extrapolate', seq: 1, schemes: EXTRAPOLATION_SCHEMES, settings: s });
  });
}

/** The text with one full stop at its end (a list may already end in “et al.”). */
const endSentence = (text) => (text.endsWith('.') ? text : `${text}.`);

/** What the run shows, from its numbers: who holds up at 8L, who falls to chance. */
export function longerCaption({ rows, lengths }, s) {
  const chance = 1 / s.vocabSize;
  const at = (r, i) => r.accuracy[i];
  const last = lengths.length - 1;
  const learned = rows.filter((r) => at(r, 0) >= 0.9);
  const holds = learned.filter((r) => at(r, last) >= 0.9).map((r) => NAMES[r.scheme]);
  const falls = learned
    .filter((r) => at(r, last) < 0.9)
    .map((r) => `${NAMES[r.scheme]} ${at(r, 0).toFixed(2)} → ${at(r, last).toFixed(2)}`);
  const never = rows.filter((r) => at(r, 0) < 0.9).map((r) => `${NAMES[r.scheme]} (${at(r, 0).toFixed(2)})`);
  const parts = [
    `Copy-offset: the target at i is the token at i ${s.offset < 0 ? '−' : '+'} ${Math.abs(s.offset)}, ${s.vocabSize} symbols (chance accuracy ${chance.toFixed(3)}), ${s.causal ? 'causal, ' : ''}each model trained ${s.steps} steps at length ${s.length} with the same batches and seed, then read on held-out sequences ${lengths.join(', ')} long.`,
    holds.length
      ? endSentence(`Still at least 0.9 at ${lengths[last]}: ${holds.join(', ')}`)
      : `No scheme stays at 0.9 or more at ${lengths[last]}.`,
    falls.length ? `Learned at ${s.length} but lost at longer lengths: ${falls.join('; ')}.` : '',
    never.length ? `Not learned at ${s.length} in ${s.steps} steps: ${never.join(', ')}.` : '',
  ];
  return parts.filter(Boolean).join(' ');
}
