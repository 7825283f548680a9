// The training section's figures: the summary sentence, the loss with its baselines, what each
// head learned (mean and spread over held-out queries), the handbook's profile, the profiles over
// training, left/right mass, part-of-speech profiles with the verdicts and how they moved, and
// the trained model on a sentence. Builds the DOM and draws a state; knows nothing of the worker.
import { AttentionFigure } from '../figures/attention-figure.js';
import { PANELS } from '../views/panels.js';
import { el, fmt, leadAndRest as leadWithRest, listed, pct, signed, signedPct } from './train-dom.js';
import { SERIES_COLOURS, drawLineChart } from '../render/line-chart.js';
import { fittedAxes } from '../render/fitted-axes.js';
import { drawHistory } from './history-heatmaps.js';
import { POS_NAMES } from './corpus-format.js';
import {
  CLAIMS,
  HANDBOOK_CLAIMS,
  READ_ONCE_TRAINED,
  RULE,
  RULE_TEXT,
  SHOWN_WHEN,
  leftRightCell,
  strongestOpposite,
  strongestShowing,
  summariseRun,
} from './pos-verdicts.js';
import { acrossSeedsText, claimsAgainstReference, convergenceText, runVerdict } from './reference.js';
import { CRITERION, LEARNED, OVERFIT_RISE } from './run-end.js';
import { HELD_OUT_WINDOWS, PROFILE_POS, READINGS, SCHEDULE, SEQ_LEN } from './train-session.js';

const PROFILE_TITLE = 'What each head learned about offsets, now';

/** The columns of the shown head's table of the handbook's claims. */
/** The most words of the reader's sentence the model reads (the rest are left out, which is said). */
export const SENTENCE_WORDS = 32;
const CLAIM_COLUMNS = [
  'claim',
  'its words’ weight on those keys',
  'other words’ weight there',
  'difference [95 % interval]',
  'verdict',
];
/** A claim's weight columns named for its words, where each number is read after its label: "determiners’ weight on nouns there:". */
export const claimWeightLabels = (claim) => {
  const keys = claim.keys.map((key) => `${key}s`).join(' or ');
  return [`${claim.query}s’ weight on ${keys} there:`, `other words’ weight on ${keys} there:`];
};
export const DEFAULT_SENTENCE = 'the old man saw a small dog in the park';

const VERDICT_WORDS = {
  shows: 'shows it',
  unclear: 'does not show it',
  opposite: 'shows the opposite',
  untestable: 'cannot be tested',
};
/** What a cell or caption says of a claim before the first training step, instead of a verdict. */
const NOT_TRAINED = 'not trained yet';
/** A head's verdict on a claim in words; before the first training step none is given. */
const judged = (v, state) => (beforeTraining(state) && v.verdict !== 'untestable' ? NOT_TRAINED : verdictText(v));

/** A verdict in words, with why it cannot be tested, and which of the rule's tests a head that does not show it fails. */
export function verdictText(v) {
  if (v.verdict === 'unclear') return `${VERDICT_WORDS.unclear}${shortfall(v)}`;
  if (v.verdict !== 'untestable') return VERDICT_WORDS[v.verdict];
  if (v.reason === 'causal') return 'cannot be tested with a causal mask';
  return `cannot be tested (${v.queries} such queries)`;
}

/** The decimals (from `digits`) that show a value under `bar` as under it: 1.497 is "1.497", not "1.50". */
const under = (value, bar, digits) => {
  while (digits < 6 && Number(value.toFixed(digits)) >= bar) digits += 1;
  return digits;
};

/** The tests of the rule (pos-verdicts.js RULE) a difference above 0 fails: " (1.39×, under the rule’s 1.5×)". */
function shortfall({ effect, ratio, low }) {
  if (!Number.isFinite(effect)) return '';
  if (effect <= 0) return ' (less weight there than other words put)';
  const failed = [];
  if (!(low > 0)) failed.push('its interval reaches 0');
  if (!(ratio >= RULE.minRatio))
    failed.push(`${fmt(ratio, under(ratio, RULE.minRatio, 2))}×, under the rule’s ${RULE.minRatio}×`);
  if (!(effect >= RULE.minEffect))
    failed.push(`${signed(effect, under(effect, RULE.minEffect, 3))}, under the rule’s +${RULE.minEffect}`);
  return failed.length ? ` (${failed.join('; ')})` : '';
}

export function buildFigures(doc) {
  const figure = (id, title, { wide = false } = {}) => {
    const caption = el(doc, 'div', { className: 'train-caption' });
    const wrap = el(doc, 'div', { className: 'train-canvas-wrap' });
    const f = el(doc, 'figure', { id, className: wide ? 'train-wide' : '' }, [
      el(doc, 'h3', { text: title }),
      wrap,
      caption,
    ]);
    return { figure: f, wrap, caption, heading: f.querySelector('h3') };
  };
  // A caption that leads with what to see (a sentence), the rest one click away ("How to read it").
  const leadAndRest = (caption, lead, rest) => leadWithRest(doc, caption, lead, rest);
  const canvasIn = (wrap, label) => {
    const canvas = el(doc, 'canvas', { role: 'img', ariaLabel: label });
    wrap.append(canvas);
    return canvas;
  };
  const grid = el(doc, 'div', { className: 'train-grid' });
  // The whole reading in words (summariseRun), one click away under the verdict card that answers first.
  const summary = el(doc, 'p', {
    id: 'train-summary',
    className: 'train-summary',
    role: 'status',
    hidden: true,
  });

  // The answer first: each handbook claim, the reference's seeds against this run (verdictRows()).
  const card = figure('train-verdicts', 'Does the model learn what the handbook says?', { wide: true });
  const verdictsTable = el(doc, 'table', { id: 'train-verdicts-table' });
  // On a narrow screen, where the rows stack under short labels, the columns' full names once.
  const cardColumns = el(doc, 'p', { className: 'train-card-columns' });
  card.wrap.append(cardColumns, el(doc, 'div', { className: 'train-table-wrap' }, [verdictsTable]));
  card.figure.classList.add('train-card');
  card.figure.append(
    el(doc, 'details', { className: 'train-how', id: 'train-summary-box' }, [
      el(doc, 'summary', { text: 'In words: each layer and each claim, for the reading shown' }),
      summary,
    ]),
  );

  const loss = figure('train-loss', 'Loss, training and held-out');
  const lossCanvas = canvasIn(loss.wrap, 'Loss curves');
  // The same curves near the line where the run ends: on the whole run's axis (from ln V) the end is flat.
  const zoomLabel = el(doc, 'p', { className: 'train-zoom-label' });
  const zoomWrap = el(doc, 'div', { className: 'train-canvas-wrap' });
  loss.wrap.after(zoomLabel, zoomWrap);
  const zoomCanvas = canvasIn(zoomWrap, 'Loss curves near the end line, zoomed');

  const layerSelect = el(doc, 'select', { id: 'train-layer' });
  const headSelect = el(doc, 'select', { id: 'train-head' });
  const chosen = el(doc, 'p', { id: 'train-chosen', className: 'train-chosen' });
  const selectors = el(doc, 'div', { className: 'train-sentence-controls train-wide' }, [
    el(doc, 'label', {}, ['Layer', layerSelect]),
    el(doc, 'label', {}, ['Head (part-of-speech profiles, verdicts, sentence)', headSelect]),
    chosen,
  ]);

  const profile = figure('train-profile', PROFILE_TITLE);
  const profileCanvas = canvasIn(profile.wrap, 'Learned position profile per head: mean and spread over queries');
  const handbook = figure('train-handbook', 'The handbook’s simulated profile');
  const handbookCanvas = canvasIn(handbook.wrap, 'The handbook’s simulated profile');
  handbook.caption.textContent =
    'The handbook’s simulated table, as the handbook draws it (k = 5, dₖ = 4, noise 0.1, a Gaussian bump of width 1 on the first column of aᴷ, seed 42), read by the uniform query u = (1, …, 1)/√dₖ as the handbook prints it: u·aᴷ[c] (the panels’ biases divide once more by √dₖ). A symmetric bump plus noise, by construction. Compare its shape, not its scale, with the learned profiles.';
  const history = figure('train-history', 'Profiles over training (steps × offset)', { wide: true });
  const historyCanvas = canvasIn(history.wrap, 'Learned profile of each head over training');
  const asymmetry = figure('train-asymmetry', 'Left or right? Attention mass per head (held-out)');
  const asymmetryTable = el(doc, 'table', { id: 'train-asymmetry-table', className: 'train-stack' });
  asymmetry.figure.classList.add('train-stack-box');
  asymmetry.wrap.append(el(doc, 'div', { className: 'train-table-wrap' }, [asymmetryTable]));
  const pos = figure('train-pos', 'Profiles by part of speech of the query, and the handbook’s claims', { wide: true });
  const posCanvas = canvasIn(pos.wrap, 'Mean combined weight at each offset, by part of speech of the query');
  const claimsTable = el(doc, 'table', { id: 'train-claims', className: 'train-stack' });
  pos.figure.classList.add('train-stack-box');
  const rule = el(doc, 'p', { id: 'train-rule', className: 'train-rule', text: `The rule: ${RULE_TEXT}` });
  pos.figure.append(el(doc, 'div', { className: 'train-table-wrap' }, [claimsTable]), rule);
  const moved = figure('train-verdict-history', 'How the verdicts moved during training', { wide: true });
  const movedCanvas = canvasIn(moved.wrap, 'Each claim’s effect and its 95 % interval over training');
  const sentence = figure('train-sentence', 'The trained model on your sentence', { wide: true });
  // A box that wraps (a sentence of up to SENTENCE_WORDS words shows whole, on a phone too).
  const sentenceInput = el(doc, 'textarea', { id: 'train-sentence-input', rows: 2, value: DEFAULT_SENTENCE });
  sentence.wrap.append(
    el(doc, 'div', { className: 'train-sentence-controls' }, [
      el(doc, 'label', {}, [`Sentence (up to ${SENTENCE_WORDS} words)`, sentenceInput]),
    ]),
  );
  const panelsBox = el(doc, 'div', { className: 'train-panels' });
  sentence.wrap.append(panelsBox);
  // The figures a first look needs (the loss, what each head learned, the claims tested, the
  // trained panels) open; the others one click away, drawn again when opened (train-section.js).
  const more = el(doc, 'details', { id: 'train-more', className: 'train-more train-wide' }, [
    el(doc, 'summary', {
      text: 'More figures: the handbook’s simulated profile, profiles over training, left or right per head, how the verdicts moved',
    }),
    el(doc, 'div', { className: 'train-grid' }, [handbook.figure, history.figure, asymmetry.figure, moved.figure]),
  ]);
  grid.append(card.figure, selectors, pos.figure, profile.figure, loss.figure, sentence.figure, more);
  const attention = new AttentionFigure({
    container: panelsBox,
    panelIds: PANELS.map((p) => p.id),
    numbered: false,
    controls: false, // the section has no causal or same-query controls: its captions do not name them
  });
  for (const figureEl of panelsBox.querySelectorAll('figure')) figureEl.id = `train-${figureEl.id}`;

  const offsets = (state) =>
    Array.from({ length: 2 * state.config.maxDistance + 1 }, (_, c) => c - state.config.maxDistance);
  const headsOfLayer = (state) => state.analysis.heads.filter((h) => h.layer === state.layer);
  const selectedHead = (state) =>
    state.analysis.heads.find((x) => x.layer === state.layer && x.head === state.head) ?? null;

  const drawLoss = (state) => {
    const L = state.losses;
    const series = [
      { label: 'training', x: L.map((p) => p.step), y: L.map((p) => p.train) },
      { label: 'held-out', x: L.map((p) => p.step), y: L.map((p) => p.heldOut) },
    ];
    const ref = state.reference;
    const shown = ref && ref.seeds[0];
    // Steps run from the first reading to the last (or the reference's end); with no reading yet,
    // or one, over the whole run to come (its budget), so that the axis reads whole steps.
    const first = L[0]?.step ?? 0;
    let last = Math.max(L.at(-1)?.step ?? 0, shown ? shown.steps : 0);
    if (last <= first) last = Math.max(first + 1, state.budget ?? 0);
    const xs = [first, last];
    if (ref) {
      series.push(
        {
          label: `reference run, seed ${shown.seed} (held-out)`,
          x: shown.curve.map((p) => p.step),
          y: shown.curve.map((p) => p.heldOut),
          colour: SERIES_COLOURS[3],
          dashed: true,
        },
        {
          label: `the run ends at ${fmt(ref.heldOut * (1 + CRITERION.within), 2)}`,
          x: xs,
          y: [ref.heldOut * (1 + CRITERION.within), ref.heldOut * (1 + CRITERION.within)],
          colour: SERIES_COLOURS[4],
          dashed: true,
        },
      );
    }
    const b = state.baselines;
    // Random symbols (the copy task) are equally frequent: one line is both baselines.
    if (b && b.unigram === b.uniform)
      series.push({
        label: `ln V = unigram entropy = ${fmt(b.uniform, 2)}`,
        x: xs,
        y: [b.uniform, b.uniform],
        colour: '#888',
        dashed: true,
      });
    else if (b) {
      series.push(
        { label: `ln V = ${fmt(b.uniform, 2)}`, x: xs, y: [b.uniform, b.uniform], colour: '#888', dashed: true },
        {
          label: `unigram entropy ${fmt(b.unigram, 2)}`,
          x: xs,
          y: [b.unigram, b.unigram],
          colour: SERIES_COLOURS[2],
          dashed: true,
        },
      );
    }
    // The legend names only the lines drawn: before the first reading, no training or held-out curve.
    const drawnSeries = series.filter((s) => s.x.length > 0);
    drawLineChart(lossCanvas, { series: drawnSeries, xLabel: 'step', yLabel: 'loss (nats)', axes: fittedAxes() });
    const zoom = lossZoom(state);
    zoomLabel.hidden = zoomWrap.hidden = !zoom;
    if (zoom) {
      zoomLabel.textContent = lossZoomText(state, zoom);
      drawLineChart(zoomCanvas, {
        series,
        xLabel: 'step',
        yLabel: 'loss (nats)',
        axes: fittedAxes({ yRange: [zoom.low, zoom.high] }),
        legend: false,
        height: 170,
      });
    }
    leadAndRest(loss.caption, lossLead(state), lossCaption(state));
  };

  const drawProfileLines = (state) => {
    const x = offsets(state);
    drawLineChart(profileCanvas, {
      series: headsOfLayer(state).map((h) => ({
        label: `head ${h.head}`,
        x,
        y: Array.from(h.profile),
        low: Array.from(h.profileLow),
        high: Array.from(h.profileHigh),
      })),
      xLabel: 'offset j − i (negative: looks back)',
      yLabel: 'q·aᴷ / √dₖ',
      axes: fittedAxes({ xInteger: true }),
    });
    // At step 0 nothing is learned yet: the title says what the lines are then.
    profile.heading.textContent =
      state.analysis.step === 0 ? 'Each head’s bias for each offset, before training' : PROFILE_TITLE;
    leadAndRest(
      profile.caption,
      state.analysis.step === 0
        ? 'Before training (step 0): each head’s bias for each offset comes from its random starting weights, nothing learned yet; Train, and watch the lines move.'
        : 'Each head’s learned bias for each offset: higher, the head prefers that offset; a wide band, the bias depends on the query.',
      `Layer ${state.layer}, step ${state.analysis.step}: for each head, the position bias qᵢ·aᴷ[c]/√dₖ that offset c adds to a score before the softmax, over the held-out queries whose key i + c exists: the line is the mean, the band the 10th to 90th percentile. A wide band: the bias depends on the query, as the six panels of “The trained model on your sentence” below show, one query to a row. Higher: the head prefers that offset.`,
    );
  };

  const drawHandbook = (state) => {
    if (!state.handbookProfile) return;
    drawLineChart(handbookCanvas, {
      series: [
        {
          label: 'handbook (simulated)',
          x: state.handbookProfile.map((_, c) => c - (state.handbookProfile.length - 1) / 2),
          y: state.handbookProfile,
          colour: '#888', // a grey that reads on light and dark backgrounds
          dashed: true,
        },
      ],
      xLabel: 'offset j − i',
      yLabel: 'u·aᴷ[c]',
      axes: fittedAxes({ xInteger: true }),
    });
  };

  const drawHistoryFigure = (state) => {
    const indices = headsOfLayer(state).map((h) => state.analysis.heads.indexOf(h));
    const m = drawHistory(historyCanvas, {
      history: state.history,
      heads: indices,
      maxDistance: state.config.maxDistance,
      titles: indices.map((i) => `head ${state.analysis.heads[i].head}`),
    });
    history.caption.textContent = historyCaption(state, m);
  };

  const drawAsymmetry = (state) => {
    const rows = state.analysis.heads.map((h) =>
      el(doc, 'tr', {}, [
        // Each cell names its column (data-label), read on a narrow screen where the rows stack.
        el(doc, 'td', { text: `layer ${h.layer}, head ${h.head}` }),
        el(doc, 'td', { text: pct(h.left), 'data-label': 'left:' }),
        el(doc, 'td', { text: pct(h.self), 'data-label': 'self:' }),
        el(doc, 'td', { text: pct(h.right), 'data-label': 'right:' }),
        el(doc, 'td', { text: leftRightCell(h), 'data-label': 'left / right:' }),
      ]),
    );
    asymmetryTable.replaceChildren(
      el(doc, 'thead', {}, [
        el(
          doc,
          'tr',
          {},
          ['head', 'left', 'self', 'right', 'left / right'].map((t) => el(doc, 'th', { text: t })),
        ),
      ]),
      el(doc, 'tbody', {}, rows),
    );
    asymmetry.caption.textContent = state.analysis.causal
      ? 'For each head, the mean over held-out queries of the combined weight on keys before the query (left), on the query itself, and after it (right). Under the causal mask a query sees only itself and the keys before it, so the right is 0 by construction and left against right says nothing about what was learned; how much stays on the query itself and how near the left weight sits does.'
      : 'For each head, the mean over held-out queries of the combined weight on keys before the query (left), on the query itself, and after it (right). Every position of each 32-word window is a query, so over the window both sides offer the same number of keys (a query near the start has more on its right, one near the end more on its left): a ratio far from 1 is learned.';
  };

  const drawPos = (state) => {
    const h = selectedHead(state);
    if (!h?.byPos) {
      pos.figure.hidden = true;
      moved.figure.hidden = true;
      return;
    }
    pos.figure.hidden = false;
    moved.figure.hidden = false;
    const x = offsets(state);
    drawLineChart(posCanvas, {
      series: PROFILE_POS.map((code, i) => {
        const name = POS_NAMES[code];
        return {
          label: `${name}s (${h.byPos[name].count})`,
          x,
          y: Array.from(h.byPos[name].weights),
          colour: SERIES_COLOURS[i],
        };
      }),
      xLabel: 'offset j − i of the key',
      yLabel: 'mean weight',
      axes: fittedAxes({ xInteger: true, yFromZero: true }),
    });
    const claimRows = Object.entries(CLAIMS).map(([name, claim]) => {
      const v = h.verdicts[name];
      const [claimedLabel, baselineLabel] = claimWeightLabels(claim);
      // Each cell names its column (data-label), read on a narrow screen where the rows stack.
      return el(doc, 'tr', { className: `verdict-${v.verdict}` }, [
        el(doc, 'td', { text: claim.text }),
        el(doc, 'td', { text: fmt(v.claimed), 'data-label': claimedLabel }),
        el(doc, 'td', { text: fmt(v.baseline), 'data-label': baselineLabel }),
        el(doc, 'td', {
          text: Number.isFinite(v.effect) ? `${signed(v.effect)} [${signed(v.low)}, ${signed(v.high)}]` : '–',
          'data-label': `${CLAIM_COLUMNS[3]}:`,
        }),
        el(doc, 'td', { text: judged(v, state), 'data-label': `${CLAIM_COLUMNS[4]}:` }),
      ]);
    });
    claimsTable.replaceChildren(
      el(doc, 'caption', {
        text: `The handbook’s claims, tested on layer ${state.layer}, head ${state.head} (held-out; ${readingLabel(state)})`,
      }),
      el(doc, 'thead', {}, [
        el(
          doc,
          'tr',
          {},
          CLAIM_COLUMNS.map((t) => el(doc, 'th', { text: t })),
        ),
      ]),
      el(doc, 'tbody', {}, claimRows),
    );
    leadAndRest(pos.caption, posLead(h, state.analysis.causal), claimsCaption(h, state));
    drawMoved(state);
  };

  const drawMoved = (state) => {
    const at = state.analysis.heads.findIndex((x) => x.layer === state.layer && x.head === state.head);
    const readings = state.verdictHistory;
    const series = Object.entries(CLAIMS)
      .map(([name, claim], i) => {
        const points = readings.filter((r) => r.heads[at] && Number.isFinite(r.heads[at][name].effect));
        return {
          label: claim.short,
          x: points.map((r) => r.step),
          y: points.map((r) => r.heads[at][name].effect),
          low: points.map((r) => r.heads[at][name].low),
          high: points.map((r) => r.heads[at][name].high),
          colour: SERIES_COLOURS[i],
        };
      })
      .filter((s) => s.x.length);
    drawLineChart(movedCanvas, { series, xLabel: 'step', yLabel: 'difference (weight)', axes: fittedAxes() });
    const latest = readings.at(-1)?.heads[at];
    const story = latest
      ? Object.entries(CLAIMS)
          .map(([name, claim]) => {
            const verdicts = readings.map((r) => r.heads[at]?.[name]?.verdict).filter(Boolean);
            const changes = verdicts.filter((v, i) => i && v !== verdicts[i - 1]).length;
            const since =
              verdicts.length === 1
                ? `read once so far, at step ${readings.at(-1).step}`
                : changes === 0
                  ? `the same at all ${verdicts.length} readings`
                  : `changed ${changes} time${changes === 1 ? '' : 's'} over ${verdicts.length} readings`;
            return `${claim.short}: ${verdictText(latest[name])} now, ${since}`;
          })
          .join('; ')
      : '';
    moved.caption.textContent = `Layer ${state.layer}, head ${state.head}: at each reading of the run (every ${READINGS.heads} steps), each claim’s difference between the claimed queries’ weight and other words’ weight there (line), with its 95 % bootstrap interval (band); ${SHOWN_WHEN}. ${story ? `${story}.` : 'No run yet: the lines grow as one trains.'}`;
  };

  const drawVerdicts = (state) => {
    const { head, labels, columns, rows, caption } = verdictRows(state);
    cardColumns.textContent = columns;
    verdictsTable.replaceChildren(
      el(doc, 'thead', {}, [
        el(
          doc,
          'tr',
          {},
          head.map((text) => el(doc, 'th', { scope: 'col', text })),
        ),
      ]),
      el(
        doc,
        'tbody',
        {},
        rows.map((cells) =>
          el(
            doc,
            'tr',
            {},
            cells.map((text, i) =>
              el(doc, i === 0 ? 'th' : 'td', {
                text,
                ...(i === 0 ? { scope: 'row' } : { 'data-label': labels[i] }),
                className: i === cells.length - 1 && head.length === 4 ? `train-agree-${text.split(' ')[0]}` : '',
              }),
            ),
          ),
        ),
      ),
    );
    card.caption.textContent = caption;
  };

  const drawSummary = (state) => {
    const label = readingLabel(state);
    // Before the first step the claims are not judged: nothing is learned yet.
    const said = summariseRun(state.analysis, {
      label: label[0].toUpperCase() + label.slice(1),
      untrained: beforeTraining(state),
    });
    const showAcross = state.reference && (state.showing === 'reference' || state.end);
    summary.textContent = showAcross ? `${said} ${acrossSeedsText(state.reference)}` : said;
    summary.hidden = false;
  };

  return {
    grid,
    more,
    summary,
    attention,
    sentenceInput,
    layerSelect,
    headSelect,
    chosen,
    sentenceCaption: sentence.caption,
    sentencePanels: panelsBox,
    drawLoss,
    /** Each figure of a reading, as a list of steps (the section draws one per task). */
    // The shown head's figure first, in the same task as the choice of head (train-section.js:
    // followClearest), so that the head named and the head drawn never differ on the page.
    readingSteps: (state) => [
      () => drawPos(state),
      () => drawVerdicts(state),
      () => drawSummary(state),
      () => drawProfileLines(state),
      () => drawHandbook(state),
      () => drawHistoryFigure(state),
      () => drawAsymmetry(state),
    ],
    drawPos,
  };
}

/** How many of the reference's seeds converged, in a few words: "converged" when all did. */
export function convergedSeeds(reference) {
  const count = reference.seeds.filter((s) => s.converged).length;
  return count === reference.seeds.length ? 'converged' : `${count} of ${reference.seeds.length} seeds converged`;
}

/**
 * Whether the drawn reading is this run's model before its first training step: a new or reset
 * model's (a model loaded from a file counts its steps from 0 too, but was trained).
 */
export function beforeTraining(state) {
  return state.showing !== 'reference' && state.analysis?.step === 0 && !state.loaded;
}

/**
 * What the drawn model's training is, in words: "step 1200"; a model loaded from a file, its steps
 * before it was loaded too ("loaded after 3000 steps, step 200 here"); "untrained" at step 0.
 */
export function modelSteps(state) {
  const { step } = state.analysis;
  if (state.loaded && state.showing !== 'reference')
    return `loaded after ${state.loadedSteps ?? 0} steps, step ${step} here`;
  return step === 0 && state.showing !== 'reference' ? 'untrained' : `step ${step}`;
}

/**
 * What the drawn reading is: the reference run's (a seed, its steps), this run's model before
 * training, the live run's end (reached the criterion, or its step budget), or a provisional
 * reading during the run.
 */
export function readingLabel(state) {
  const a = state.analysis;
  if (beforeTraining(state)) return 'step 0, before training';
  if (state.loaded && a.step === 0) return modelSteps(state);
  if (state.showing === 'reference')
    return `the reference run (${convergedSeeds(state.reference)}), seed ${a.seed} of ${state.reference.seeds.length}, step ${a.step}`;
  if (state.end && state.end.steps === a.step)
    return (
      {
        criterion: `step ${a.step}, final: the run’s end, within ${pct(CRITERION.within)} of the reference’s held-out loss`,
        learned: `step ${a.step}, final: the run’s end, the task learned`,
      }[state.end.reason] ?? `step ${a.step}, the run’s end at its step budget`
    );
  return `${state.loaded ? modelSteps(state) : `step ${a.step}`}, provisional`;
}

/** How far above the line where the run ends the zoomed loss plot reaches: a share of that line. */
export const LOSS_ZOOM_ABOVE = 0.1;
/** The zoomed loss plot's top at the least, in nats: below it there is no plot to zoom. */
const MIN_ZOOM_NATS = 0.05;

/**
 * The zoomed loss plot's y range: from just below the lowest loss drawn (training, held-out, the
 * reference's curve) to LOSS_ZOOM_ABOVE above the line where the run ends (the reference's loss
 * within the criterion), or, with no reference, above the run's lowest held-out loss; null before
 * there is a loss to zoom on, or when that top is under MIN_ZOOM_NATS.
 */
export function lossZoom(state) {
  const ref = state.reference;
  const lows = state.losses.flatMap((p) => [p.train, p.heldOut]);
  if (ref) lows.push(...ref.seeds[0].curve.map((p) => p.heldOut));
  const finite = lows.filter(Number.isFinite);
  if (!finite.length) return null;
  const end = ref ? ref.heldOut * (1 + CRITERION.within) : Math.min(...state.losses.map((p) => p.heldOut));
  const high = end * (1 + LOSS_ZOOM_ABOVE);
  // A loss near 0 (the copy task, solved) leaves nothing to zoom on: the plot above shows it.
  if (!(high >= MIN_ZOOM_NATS)) return null;
  const lowest = Math.min(end, ...finite);
  // A held-out loss risen past that top from its lowest (a model that over-fits) stays in view;
  // one not yet come down (the untrained model's) does not.
  const last = state.losses.at(-1)?.heldOut;
  const top = overfitting(state.losses) && last > high ? last + 0.02 * (last - lowest) : high;
  return {
    low: lowest - 0.06 * (top - lowest),
    high: top,
    of: ref ? 'the line where the run ends' : 'the run’s lowest held-out loss',
    last: top > high ? last : null,
  };
}

/**
 * The zoomed loss plot's line: its range and why; while this run's curves are all above the
 * range (early in a run beside the reference), that only the reference's curve is in it yet.
 */
export function lossZoomText(state, zoom) {
  const range = `from ${fmt(zoom.low, 2)} to ${fmt(zoom.high, 2)} nats`;
  const why =
    zoom.last === null
      ? `${pct(LOSS_ZOOM_ABOVE)} above ${zoom.of}`
      : `up to the last held-out loss, ${fmt(zoom.last)}, more than ${pct(LOSS_ZOOM_ABOVE)} above ${zoom.of}`;
  const inRange = (value) => Number.isFinite(value) && value <= zoom.high;
  if (state.reference && state.losses.length && !state.losses.some((p) => inRange(p.train) || inRange(p.heldOut)))
    return `Zoomed: ${range} (${why}), where only the reference run’s curve is yet: this run’s come in once its loss falls below ${fmt(zoom.high, 2)}.`;
  return `Zoomed: the same curves ${range} (${why}).`;
}

/** The lowest held-out reading and how far the last is above it, where more than OVERFIT_RISE: { lowest, step, rise } or null. */
export function overfitting(losses) {
  const readings = losses.filter((p) => Number.isFinite(p.heldOut));
  if (readings.length < 2) return null;
  const best = readings.reduce((a, b) => (b.heldOut < a.heldOut ? b : a));
  const rise = readings.at(-1).heldOut / best.heldOut - 1;
  return rise > OVERFIT_RISE ? { lowest: best.heldOut, step: best.step, rise } : null;
}

/**
 * The loss figure's lead: where the held-out loss is and where the run ends (the dashed line: within
 * CRITERION.within of the reference's loss, or the step budget).
 */
export function lossLead(state) {
  const now = state.losses.at(-1);
  const over = overfitting(state.losses);
  const risen = over
    ? ` It is ${pct(over.rise)} above its lowest, ${fmt(over.lowest)} at step ${over.step}: the model fits its training windows better and unseen text worse (it over-fits).`
    : '';
  const where = now
    ? `Held-out loss ${fmt(now.heldOut)} at step ${now.step}; lower is better.${risen}`
    : 'Lower is better.';
  const ref = state.reference;
  const ends = ref
    ? `The run ends at the dashed line, ${fmt(ref.heldOut * (1 + CRITERION.within))} (within ${pct(CRITERION.within)} of the reference’s ${fmt(ref.heldOut)}), or at step ${state.budget}.`
    : `The run ends at step ${state.budget}${state.task === 'copy' ? `, or once its held-out loss is ${LEARNED.heldOut} or less (the task learned)` : ''}.`;
  if (!state.end) return `${where} ${ends}`;
  const { steps, reason, gap, heldOut } = state.end;
  const from = Number.isFinite(gap) ? ` (${signedPct(gap)} from the reference’s loss)` : '';
  if (reason === 'criterion')
    return `${where} This run ended at step ${steps}, within ${pct(CRITERION.within)} of the reference’s held-out loss${from}.`;
  if (reason === 'learned')
    return `${where} This run ended at step ${steps}: the task is learned (held-out loss ${fmt(heldOut)}, at most ${LEARNED.heldOut}).`;
  return `${where} This run ended at its step budget, step ${steps}${from}.`;
}

/**
 * The part-of-speech figure's lead: the largest weight any part of speech puts on one offset other
 * than 0 in this head ("Determiners put 0.37 of their weight on offset +2"), from its byPos.
 */
export function posLead(h, causal = false) {
  let best = null;
  for (const [name, { weights }] of Object.entries(h.byPos)) {
    const k = (weights.length - 1) / 2;
    weights.forEach((w, c) => {
      if (c !== k && (!best || w > best.w)) best = { name, w, offset: c - k };
    });
  }
  if (!best) return 'Where each part of speech looks: the mean weight its queries put on each offset.';
  const words = (n) => `${n} word${n === 1 ? '' : 's'}`;
  const where = best.offset > 0 ? `${words(best.offset)} ahead` : `${words(-best.offset)} back`;
  const uniform = causal
    ? ''
    : `; attention spread evenly over the ${SEQ_LEN} words would put ${fmt(1 / SEQ_LEN, 2)} on each`;
  return `Where each part of speech looks: in this head, besides the word itself (offset 0), ${best.name}s put the most weight on one offset, ${fmt(best.w, 2)} on ${signed(best.offset, 0)} (${where})${uniform}.`;
}

/**
 * The profiles-over-training caption: the steps of the rows drawn (the readings, every
 * READINGS.heads steps and at the run's end, thinned when many), the scale, and what a learned
 * head looks like in it on this task.
 */
export function historyCaption(state, scale) {
  const steps = state.history.map((h) => h.step);
  const when = !steps.length
    ? 'none yet: the rows grow as a run trains'
    : steps.length <= 6
      ? `at step${steps.length > 1 ? 's' : ''} ${listed(steps.map(String))}, first at the top`
      : `${steps.length} readings from step ${steps[0]} to step ${steps.at(-1)}, first at the top`;
  const learned =
    state.task === 'copy'
      ? 'A head that learns the offset it copies from shows red at that offset, growing down the rows.'
      : 'A head that learns to prefer nearby words shows red (a positive bias) near offset 0 growing down the rows.';
  return `Layer ${state.layer}: each row is one reading of the run’s mean profile (${when}), each column an offset; blue below 0, red above, on one scale to ±${fmt(scale, 2)}. ${learned}`;
}

/** The loss figure's caption: the baselines, the schedule and when the run ends. */
export function lossCaption(state) {
  const b = state.baselines;
  const V = state.config?.vocabSize;
  const parts = [
    `Mean cross-entropy (nats) of the task’s targets: training (mean of the last ${READINGS.loss} batches) and held-out (${HELD_OUT_WINDOWS} fixed windows of held-out documents).`,
  ];
  if (b && V && b.unigram === b.uniform)
    parts.push(
      `Dashed: ln V = ln ${V} = ${fmt(b.uniform, 2)}, what a model that knows nothing scores (every id equally likely); the symbols are equally frequent, so knowing how often each is scores the same.`,
    );
  else if (b && V)
    parts.push(
      `Dashed: ln V = ln ${V} = ${fmt(b.uniform, 2)}, what a model that knows nothing scores (every id equally likely), and ${fmt(b.unigram, 2)}, the unigram entropy of the training targets (a model that knows only how often each word is).`,
    );
  if (state.budget)
    parts.push(
      `The learning rate rises over the first ${SCHEDULE.warmup} steps, then falls along half a cosine to ${pct(SCHEDULE.floor)} of its peak at the run’s budget of ${state.budget} steps.`,
    );
  const ref = state.reference;
  if (ref)
    parts.push(
      `The run ends when its held-out loss is within ${pct(CRITERION.within)} of the reference run’s, ${fmt(ref.heldOut)} (the mean over ${ref.seeds.length} seeds of this model trained for ${ref.convergence.steps} steps: npm run train:reference; seed ${ref.seeds[0].seed}’s curve dashed; ${convergenceText(ref)}), so at ${fmt(ref.heldOut * (1 + CRITERION.within))} or below, or at its step budget, whichever comes first; until then the verdicts are provisional.`,
    );
  else
    parts.push(
      `The run ends at its step budget (no reference run for this task, size or corpus)${state.task === 'copy' ? `, or once its held-out loss is ${LEARNED.heldOut} or less (the task learned)` : ''}; until then the verdicts are provisional.`,
    );
  // The reference's curve drawn may have this run's seed: the runs still differ (docs/training.md, "The seed").
  if (ref && state.modelSeed === ref.seeds[0].seed && state.budget)
    parts.push(
      `The reference’s seed-${state.modelSeed} curve is another run than this one, though this one has seed ${state.modelSeed} too: the reference’s learning rate reaches its floor at step ${ref.convergence.steps}, this run’s at step ${state.budget}.`,
    );
  if (state.end) parts.push(`This run ${endSentence(state.end)}.`);
  return parts.join(' ');
}

const endSentence = ({ steps, reason, gap, heldOut }) =>
  reason === 'criterion'
    ? `reached it at step ${steps} (${signedPct(gap)} from the reference’s loss)`
    : reason === 'learned'
      ? `learned the task by step ${steps} (held-out loss ${fmt(heldOut)})`
      : `stopped at its step budget, step ${steps}${Number.isFinite(gap) ? `, ${signedPct(gap)} from the reference’s loss` : ''}`;

/**
 * The part-of-speech figure's caption: what this head shows for the handbook's two claims under
 * the rule (pos-verdicts.js), in words and numbers.
 */
export function claimsCaption(h, state) {
  const { layer, head, corpus } = state;
  const say = (name, what) => {
    const v = h.verdicts[name];
    if (v.verdict === 'untestable') return `${what}: this head ${verdictText(v)}.`;
    const word = judged(v, state);
    return `${what}: this head ${word === NOT_TRAINED ? `is ${word}` : word} — ${fmt(v.claimed)} of their attention on those words against ${fmt(v.baseline)} from other words at the same offsets (difference ${signed(v.effect)}, 95 % interval ${signed(v.low)} … ${signed(v.high)}).`;
  };
  return [
    `Layer ${layer}, head ${head}, ${readingLabel(state)}: for each part of speech of the query, the mean combined weight at each offset over the held-out windows (count of queries in brackets).`,
    say('determinerToFollowingNoun', 'The handbook says determiners attend to following nouns'),
    say('verbToPrecedingSubject', 'It says verbs attend to preceding subjects'),
    `Coarse parts of speech${corpus?.tagger ? ` from ${corpus.tagger}` : ''}; a noun or pronoun within three words before a verb stands in for its subject.`,
  ].join(' ');
}

const RUN_WORDS = {
  holds: 'holds',
  opposite: 'the opposite holds',
  'not shown': 'no head shows it',
  untestable: 'cannot be tested',
};

/**
 * A run's verdict on a claim in words, with its strongest head showing it ("holds: layer 0 head 3,
 * +0.056") or, where the opposite holds, its strongest head showing that ("the opposite holds:
 * layer 1 head 2, −0.045").
 */
const runCell = (heads, name) => {
  const verdict = runVerdict(heads, name);
  // Untestable for every head: say why, as the claims' table does (verdictText).
  if (verdict === 'untestable') return verdictText(heads[0].verdicts[name]);
  const said = RUN_WORDS[verdict];
  const best = verdict === 'opposite' ? strongestOpposite(heads, name) : strongestShowing(heads, name);
  return best ? `${said}: layer ${best.h.layer} head ${best.h.head}, ${signed(best.v.effect)}` : said;
};

/**
 * The reference's verdict on a claim in words, with its tally: "holds in 3 of 3 seeds", "not in
 * most seeds (holds in 1 of 3 seeds)"; where the same seeds trained longer hold it in a different number of
 * seeds, that too: "holds in 3 of 3 seeds (0 of 3 trained on to 30000 steps)".
 */
const referenceCell = ({ verdict, holds, opposite, of, longer }) => {
  const said =
    verdict === 'holds'
      ? `holds in ${holds} of ${of} seeds`
      : verdict === 'opposite'
        ? `the opposite holds in ${opposite} of ${of} seeds`
        : `not in most seeds (holds in ${holds} of ${of} seeds${opposite ? `, the opposite in ${opposite}` : ''})`;
  return longer && longer.holds !== holds
    ? `${said} (${longer.holds} of ${of} trained on to ${longer.steps} steps)`
    : said;
};

/**
 * The verdict card (the section's first figure): a row per handbook claim, with the reference's
 * seeds (holds in N of M), this run's heads and whether they agree; before any training, the
 * reference alone. Returns { head, labels (each column's short name, which a narrow screen puts
 * before each cell), columns (what the short names stand for, said once there), rows (text
 * cells), caption }.
 */
export function verdictRows(state) {
  const ref = state.reference;
  const heads = state.analysis?.heads ?? null;
  const trained = heads && state.showing !== 'reference' && !beforeTraining(state);
  const runHead = trained ? `this run, ${readingLabel(state)}` : 'this run';
  const refHead = ref ? `reference (${ref.seeds.length} seeds)` : null;
  const columns = [ref && `reference: ${ref.seeds.length} seeds`, trained && `this run: ${readingLabel(state)}`]
    .filter(Boolean)
    .join('; ');
  const claimRule = `A claim holds in a run when one of its ${heads?.length ?? 'eight'} heads shows it (the rule under the part-of-speech figure)`;
  // The copy task's sequences are random symbols: no words, so no part of speech to test.
  if (heads && !heads[0]?.verdicts)
    return {
      head: ['the handbook says', runHead],
      labels: ['the handbook says', 'this run:'],
      columns,
      rows: HANDBOOK_CLAIMS.map((name) => [CLAIMS[name].short, 'cannot be tested: no words']),
      caption:
        'This task’s sequences are random symbols, not words: the handbook’s claims about English cannot be tested on them. The profiles below show which offset each head learned to copy from; choose a task on the corpus to test the claims.',
    };
  if (!ref)
    return {
      head: ['the handbook says', runHead],
      labels: ['the handbook says', 'this run:'],
      columns,
      rows: HANDBOOK_CLAIMS.map((name) => [CLAIMS[name].short, trained ? runCell(heads, name) : NOT_TRAINED]),
      caption: `${claimRule}. No reference run for this task, size or corpus: nothing to compare with.${trained ? '' : ` The claims will be ${READ_ONCE_TRAINED}.`}`,
    };
  const rows = claimsAgainstReference(trained ? heads : null, ref).map((c) => [
    c.short,
    referenceCell(c.reference),
    trained ? runCell(heads, c.name) : NOT_TRAINED,
    c.agrees === null ? '–' : c.agrees ? 'agrees' : 'differs',
  ]);
  const agreeing = rows.filter((r) => r[3] === 'agrees').length;
  const verdictOfRun = !trained
    ? 'Train a model to compare it with the reference.'
    : `This run agrees with the reference on ${agreeing} of ${rows.length} claims${state.end ? '' : ' so far (provisional until the run ends)'}.`;
  return {
    head: ['the handbook says', refHead, runHead, 'agree?'],
    labels: ['the handbook says', 'reference:', 'this run:', 'agree?'],
    columns,
    rows,
    caption: `${claimRule}; the reference (${ref.seeds.length} seeds of ${ref.convergence.steps} steps) takes the majority of its seeds (${convergedSeeds(ref)}: the loss figure says how that was judged).${rows.some((r) => r[1].includes(' trained on to ')) ? ` “Trained on to ${ref.convergence.longer} steps”: the same seeds trained on past their lowest held-out loss, as the model overfits; a claim that changes there is fragile.` : ''} ${verdictOfRun}`,
  };
}
