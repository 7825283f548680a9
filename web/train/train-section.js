// The "Learned position patterns" section (README.md): a model trained on the Brown corpus in a
// Web Worker (train-worker.js), drawn as it learns. Loaded only when the reader opens the section
// (train-loader.js, <relpos-train>): this module, the worker, its WebAssembly and the corpus are
// the lazy chunk. The page thread only draws (small canvases, the six panels at n ≤ 32).
import { AttentionFigure } from '../figures/attention-figure.js';
import { download } from '../files/download.js';
import { PANELS } from '../views/panels.js';
import { TRAIN_CSS } from './train-css.js';
import { SERIES_COLOURS, drawHistory, drawLines } from './train-plots.js';
import { CLAIMS, PRESETS, TASKS, DEFAULT_RUN, PROFILE_POS } from './train-session.js';
import { POS_NAMES } from './corpus-format.js';

const CORPUS_URL = new URL('../../dist/brown-corpus.bin', import.meta.url).href;
const startWorker = () => new Worker(new URL('./train-worker.js', import.meta.url), { type: 'module' });
/** The profile over training keeps at most this many snapshots (older ones thinned). */
const MAX_HISTORY = 64;
export { CORPUS_URL };
const DEFAULT_SENTENCE = 'the old man saw a small dog in the park';

const el = (doc, tag, props = {}, children = []) => {
  const node = doc.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else if (key.startsWith('aria') || key === 'role' || key === 'for' || key === 'part')
      node.setAttribute(
        key.replace(/^aria([A-Z])/, (m, c) => `aria-${c.toLowerCase()}`),
        value,
      );
    else node[key] = value;
  }
  node.append(...children);
  return node;
};
const pct = (v) => `${(100 * v).toFixed(1)} %`;
const fmt = (v, d = 3) => (Number.isFinite(v) ? v.toFixed(d) : '–');

/**
 * Builds the section into `root` (an element or a shadow root) and starts its worker. Options:
 * task, preset (the first run's), autostart, corpusUrl (brown-corpus.bin), onRender (called once
 * the model is ready and after each reading drawn). Returns { worker, state, dispose }.
 */
export function mountTrainSection(
  root,
  {
    task = DEFAULT_RUN.task,
    preset = DEFAULT_RUN.preset,
    autostart = false,
    corpusUrl = CORPUS_URL,
    onRender = () => {},
  } = {},
) {
  const doc = root.ownerDocument ?? root;
  const style = el(doc, 'style', { text: TRAIN_CSS });
  const lab = el(doc, 'div', { className: 'relpos-train' });
  root.append(style, lab);
  const state = {
    ready: false,
    running: false,
    steps: 0,
    losses: [],
    history: [],
    analysis: null,
    config: null,
    handbookProfile: null,
    layer: 0,
    head: 0,
    sentenceId: 0,
  };

  // Controls.
  const taskSelect = el(
    doc,
    'select',
    { id: 'train-task' },
    Object.entries(TASKS).map(([id, t]) => el(doc, 'option', { value: id, text: t.label })),
  );
  taskSelect.value = task;
  const presetSelect = el(
    doc,
    'select',
    { id: 'train-preset' },
    Object.entries(PRESETS).map(([id, p]) => el(doc, 'option', { value: id, text: p.label })),
  );
  presetSelect.value = preset;
  const trainButton = el(doc, 'button', { type: 'button', id: 'train-start', text: 'Train', disabled: true });
  const pauseButton = el(doc, 'button', { type: 'button', id: 'train-pause', text: 'Pause', disabled: true });
  const resetButton = el(doc, 'button', { type: 'button', id: 'train-reset', text: 'Reset', disabled: true });
  const status = el(doc, 'output', {
    id: 'train-status',
    className: 'train-status',
    role: 'status',
    text: 'Loading the corpus and the model…',
  });
  const message = el(doc, 'p', { id: 'train-message', className: 'train-message', role: 'alert', hidden: true });
  lab.append(
    el(doc, 'div', { className: 'train-controls' }, [
      el(doc, 'label', {}, ['Task', taskSelect]),
      el(doc, 'label', {}, ['Model size', presetSelect]),
      el(doc, 'div', { className: 'train-buttons' }, [trainButton, pauseButton, resetButton]),
      status,
    ]),
    message,
  );

  // Figures.
  const figure = (id, title, { wide = false } = {}) => {
    const caption = el(doc, 'p', { className: 'train-caption' });
    const wrap = el(doc, 'div', { className: 'train-canvas-wrap' });
    const f = el(doc, 'figure', { id, className: wide ? 'train-wide' : '' }, [
      el(doc, 'h3', { text: title }),
      wrap,
      caption,
    ]);
    return { figure: f, wrap, caption };
  };
  const canvasIn = (wrap, label) => {
    const canvas = el(doc, 'canvas', { role: 'img', ariaLabel: label });
    wrap.append(canvas);
    return canvas;
  };
  const grid = el(doc, 'div', { className: 'train-grid' });
  lab.append(grid);

  const loss = figure('train-loss', 'Loss, training and held-out');
  const lossCanvas = canvasIn(loss.wrap, 'Loss curves');
  loss.caption.textContent =
    'Mean cross-entropy (nats) of the task’s targets: training (mean of the last 25 batches) and held-out (64 fixed windows of held-out documents). A model that knows nothing scores ln V.';

  const layerSelect = el(doc, 'select', { id: 'train-layer' });
  const headSelect = el(doc, 'select', { id: 'train-head' });
  const selectors = el(doc, 'div', { className: 'train-sentence-controls train-wide' }, [
    el(doc, 'label', {}, ['Layer', layerSelect]),
    el(doc, 'label', {}, ['Head (part-of-speech profiles, sentence)', headSelect]),
  ]);

  const profile = figure('train-profile', 'What each head learned about offsets, now');
  const profileCanvas = canvasIn(profile.wrap, 'Learned position profile per head');
  const handbook = figure('train-handbook', 'The handbook’s simulated profile');
  const handbookCanvas = canvasIn(handbook.wrap, 'The handbook’s simulated profile');
  handbook.caption.textContent =
    'The handbook’s simulated table, as the handbook draws it (k = 5, dₖ = 4, noise 0.1, a Gaussian bump of width 1 on the first column of aᴷ, seed 42), read by the uniform query: u·aᴷ[c]/√dₖ. A symmetric bump plus noise, by construction. Compare its shape, not its scale, with the learned profiles.';
  const history = figure('train-history', 'Profiles over training (steps × offset)', { wide: true });
  const historyCanvas = canvasIn(history.wrap, 'Learned profile of each head over training');
  const asymmetry = figure('train-asymmetry', 'Left or right? Attention mass per head (held-out)');
  const asymmetryTable = el(doc, 'table', { id: 'train-asymmetry-table' });
  asymmetry.wrap.append(asymmetryTable);
  asymmetry.caption.textContent =
    'For each head, the mean over held-out queries of the combined weight on keys before the query (left), on the query itself, and after it (right). Every position of each 32-word window is a query, so both sides offer the same number of keys on average.';
  const pos = figure('train-pos', 'Profiles by part of speech of the query', { wide: true });
  const posCanvas = canvasIn(pos.wrap, 'Mean combined weight at each offset, by part of speech of the query');
  const claimsTable = el(doc, 'table', { id: 'train-claims' });
  pos.figure.append(claimsTable);
  const sentence = figure('train-sentence', 'The trained model on your sentence', { wide: true });
  const sentenceInput = el(doc, 'input', { type: 'text', id: 'train-sentence-input', value: DEFAULT_SENTENCE });
  sentence.wrap.append(
    el(doc, 'div', { className: 'train-sentence-controls' }, [
      el(doc, 'label', {}, ['Sentence (up to 32 words)', sentenceInput]),
    ]),
  );
  const panelsBox = el(doc, 'div', { className: 'train-panels' });
  sentence.wrap.append(panelsBox);
  grid.append(
    loss.figure,
    selectors,
    profile.figure,
    handbook.figure,
    history.figure,
    asymmetry.figure,
    pos.figure,
    sentence.figure,
  );
  const attention = new AttentionFigure({ container: panelsBox, panelIds: PANELS.map((p) => p.id), numbered: false });
  for (const figureEl of panelsBox.querySelectorAll('figure')) figureEl.id = `train-${figureEl.id}`;

  // Files.
  const saveJson = el(doc, 'button', {
    type: 'button',
    id: 'train-save-json',
    text: 'Download model (JSON)',
    disabled: true,
  });
  const saveNpz = el(doc, 'button', {
    type: 'button',
    id: 'train-save-npz',
    text: 'Download model (.npz of .npy)',
    disabled: true,
  });
  const loadInput = el(doc, 'input', {
    type: 'file',
    id: 'train-load',
    accept: '.json,.npz,application/json,application/zip',
  });
  lab.append(
    el(doc, 'div', { className: 'train-files' }, [
      saveJson,
      saveNpz,
      el(doc, 'label', {}, ['Load a saved model ', loadInput]),
    ]),
  );

  const worker = startWorker();
  const send = (data, transfer) => worker.postMessage(data, transfer);

  const setMessage = (text, ok = false) => {
    message.hidden = !text;
    message.textContent = text ?? '';
    message.classList.toggle('ok', ok);
  };
  const showStatus = () => {
    const last = state.losses.at(-1);
    const rate = state.rate ? `${state.rate.toFixed(1)} steps/s` : '– steps/s';
    status.textContent = `step ${state.steps} · ${rate} · held-out loss ${last ? fmt(last.heldOut) : '–'}${state.running ? ' · training' : ''}`;
    root.host?.setAttribute?.('data-steps', String(state.steps));
    lab.dataset.steps = String(state.steps);
    lab.dataset.running = String(state.running);
  };
  const setRunning = (running) => {
    state.running = running;
    trainButton.disabled = running || !state.ready;
    pauseButton.disabled = !running;
    showStatus();
  };

  const drawLoss = () => {
    const L = state.losses;
    drawLines(lossCanvas, {
      series: [
        { label: 'training', x: L.map((p) => p.step), y: L.map((p) => p.train) },
        { label: 'held-out', x: L.map((p) => p.step), y: L.map((p) => p.heldOut) },
      ],
      xLabel: 'step',
      yLabel: 'loss (nats)',
    });
  };
  const offsets = () =>
    Array.from({ length: 2 * state.config.maxDistance + 1 }, (_, c) => c - state.config.maxDistance);
  const headsOfLayer = () => state.analysis.heads.filter((h) => h.layer === state.layer);

  // Each figure is drawn in a task of its own, so that no task on the page's thread grows long
  // (a reading redraws five figures and the six panels); a newer reading drops the older chain.
  let chain = 0;
  const inTasks = (steps) => {
    const mine = (chain += 1);
    const next = (i) => {
      if (mine !== chain || i >= steps.length) return;
      steps[i]();
      setTimeout(() => next(i + 1), 0);
    };
    next(0);
  };
  const drawProfiles = () => {
    if (!state.analysis) return;
    inTasks([drawProfileLines, drawHandbook, drawHistoryFigure, drawAsymmetry, drawPos]);
  };
  const drawProfileLines = () => {
    const x = offsets();
    drawLines(profileCanvas, {
      series: headsOfLayer().map((h) => ({ label: `head ${h.head}`, x, y: Array.from(h.profile) })),
      xLabel: 'offset j − i (negative: looks back)',
      yLabel: 'mean q·aᴷ / √dₖ',
      xInteger: true,
    });
    profile.caption.textContent = `Layer ${state.layer}, step ${state.analysis.step}: for each head, the mean over held-out queries of the position bias qᵢ·aᴷ[c]/√dₖ that offset c adds to a score before the softmax (where the key i + c exists). Higher: the head prefers that offset.`;
  };
  const drawHandbook = () => {
    if (state.handbookProfile) {
      drawLines(handbookCanvas, {
        series: [
          {
            label: 'handbook (simulated)',
            x: state.handbookProfile.map((_, c) => c - (state.handbookProfile.length - 1) / 2),
            y: state.handbookProfile,
            colour: '#666',
            dashed: true,
          },
        ],
        xLabel: 'offset j − i',
        yLabel: 'u·aᴷ / √dₖ',
        xInteger: true,
      });
    }
  };
  const drawHistoryFigure = () => {
    const indices = headsOfLayer().map((h) => state.analysis.heads.indexOf(h));
    const m = drawHistory(historyCanvas, {
      history: state.history,
      heads: indices,
      maxDistance: state.config.maxDistance,
      titles: indices.map((i) => `head ${state.analysis.heads[i].head}`),
    });
    history.caption.textContent = `Layer ${state.layer}: each row is one reading of the profile above (every 100 steps, first at the top), each column an offset; blue below 0, red above, on one scale to ±${m.toFixed(2)}. A head that learns to prefer nearby words shows red (a positive bias) near offset 0 growing down the rows.`;
  };

  const drawAsymmetry = () => {
    const rows = state.analysis.heads.map((h) =>
      el(doc, 'tr', {}, [
        el(doc, 'td', { text: `layer ${h.layer}, head ${h.head}` }),
        el(doc, 'td', { text: pct(h.left) }),
        el(doc, 'td', { text: pct(h.self) }),
        el(doc, 'td', { text: pct(h.right) }),
        el(doc, 'td', { text: h.right > 0 ? (h.left / h.right).toFixed(2) : '–' }),
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
  };

  const drawPos = () => {
    const h = state.analysis.heads.find((x) => x.layer === state.layer && x.head === state.head);
    if (!h?.byPos) {
      pos.figure.hidden = true;
      return;
    }
    pos.figure.hidden = false;
    const x = offsets();
    drawLines(posCanvas, {
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
      xInteger: true,
      yFromZero: true,
    });
    const claimRows = Object.entries(CLAIMS).map(([name, claim]) => {
      const c = h.claims[name];
      const ratio = c.uniform > 0 ? c.weight / c.uniform : NaN;
      return el(doc, 'tr', {}, [
        el(doc, 'td', { text: claim.text }),
        el(doc, 'td', { text: fmt(c.weight) }),
        el(doc, 'td', { text: fmt(c.uniform) }),
        el(doc, 'td', { text: Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : '–' }),
      ]);
    });
    claimsTable.replaceChildren(
      el(doc, 'caption', {
        text: `The handbook’s claims, measured on layer ${state.layer}, head ${state.head} (held-out, step ${state.analysis.step})`,
      }),
      el(doc, 'thead', {}, [
        el(
          doc,
          'tr',
          {},
          ['claim', 'weight there', 'if uniform', 'ratio'].map((t) => el(doc, 'th', { text: t })),
        ),
      ]),
      el(doc, 'tbody', {}, claimRows),
    );
    pos.caption.textContent = claimsCaption(h, state);
  };

  const requestSentence = () => {
    if (!state.ready) return;
    const words = sentenceInput.value.trim().split(/\s+/).filter(Boolean).slice(0, 32);
    if (!words.length) return;
    state.sentenceId += 1;
    send({ type: 'sentence', words, layer: state.layer, head: state.head, id: state.sentenceId });
  };

  const fillSelectors = () => {
    const { layers, heads } = state.config;
    state.layer = Math.min(state.layer, layers - 1);
    state.head = Math.min(state.head, heads - 1);
    layerSelect.replaceChildren(
      ...Array.from({ length: layers }, (_, i) => el(doc, 'option', { value: String(i), text: String(i) })),
    );
    headSelect.replaceChildren(
      ...Array.from({ length: heads }, (_, i) => el(doc, 'option', { value: String(i), text: String(i) })),
    );
    layerSelect.value = String(state.layer);
    headSelect.value = String(state.head);
  };

  const handlers = {
    ready(data) {
      state.ready = true;
      state.config = data.config;
      state.handbookProfile = data.handbookProfile;
      state.corpus = data.corpus;
      taskSelect.value = data.task;
      presetSelect.value = data.preset;
      state.losses = [];
      state.history = [];
      state.steps = data.steps;
      fillSelectors();
      for (const b of [resetButton, saveJson, saveNpz]) b.disabled = false;
      setRunning(false);
      if (data.loaded) {
        setMessage(
          `Loaded ${data.loaded}: a model trained for ${data.loadedSteps} steps; held-out loss ${fmt(data.heldOutLoss)}. Training continues from it (its step count starts at 0).`,
          true,
        );
        state.losses = [];
      }
      drawLoss();
      requestSentence();
      if (autostart) {
        autostart = false;
        trainButton.click();
      }
      onRender();
    },
    progress(data) {
      state.steps = data.steps;
      if (data.stepsPerSecond) state.rate = data.stepsPerSecond;
      state.losses.push({ step: data.steps, train: data.trainLoss, heldOut: data.heldOutLoss });
      drawLoss();
      showStatus();
    },
    steps(data) {
      state.steps = data.steps;
      showStatus();
    },
    paused(data) {
      state.steps = data.steps;
      showStatus();
    },
    analysis(data) {
      state.analysis = data;
      state.history.push({ step: data.step, profiles: data.heads.map((h) => Array.from(h.profile)) });
      if (state.history.length > MAX_HISTORY)
        state.history = state.history.filter((_, i) => i % 2 === 0 || i === state.history.length - 1);
      drawProfiles();
      requestSentence();
      lab.dataset.analysisStep = String(data.step);
      onRender();
    },
    sentence(data) {
      if (data.id !== state.sentenceId) return;
      const n = data.words.length;
      const r = data.result;
      const difference = new Float64Array(n * n).map((_, i) => r.combinedWeights.data[i] - r.contentWeights.data[i]);
      const k = data.maxDistance;
      const labels = data.words.map((w, i) =>
        data.seen[i] === w.toLowerCase() ? `${i} ${w}` : `${i} ${w} (${data.seen[i]})`,
      );
      // One panel per task (AttentionFigure's progressive drawing): no long task on the page.
      const drawnAll = attention.setView(
        {
          n,
          long: false,
          maxDistance: k,
          causal: data.causal,
          draw: 'trained',
          table: 'trained',
          sameQuery: false,
          tokens: data.words,
          labels,
          result: r,
          difference,
          offsets: {
            rows: n,
            cols: n,
            data: Int32Array.from({ length: n * n }, (_, i) => Math.max(-k, Math.min(k, (i % n) - Math.floor(i / n)))),
          },
        },
        { progressive: true },
      );
      const unknown = data.seen.filter((w) => w === '<unk>').length;
      sentence.caption.textContent = `Layer ${data.layer}, head ${data.head} of the model as it is now (step ${state.steps}), on your words${unknown ? ` (${unknown} not in its ${state.config.vocabSize - 2}-word vocabulary: it sees <unk> there)` : ''}. The same six panels as above, with the trained queries, keys, values and tables.`;
      drawnAll.then(() => {
        if (data.id === state.sentenceId) lab.dataset.sentenceDrawn = String(data.id);
      });
    },
    exported(data) {
      const name = `relpos-trained-${taskSelect.value}-${presetSelect.value}-step${state.steps}`;
      if (data.format === 'npz') download(`${name}.npz`, new Blob([data.bytes], { type: 'application/zip' }));
      else download(`${name}.json`, new Blob([data.text], { type: 'application/json' }));
    },
    error(data) {
      if (data.during !== 'import') setRunning(false);
      setMessage(
        data.during === 'import' ? `${data.message} Nothing was changed.` : `Training stopped: ${data.message}`,
      );
    },
  };
  worker.onmessage = ({ data }) => handlers[data.type]?.(data);
  worker.onerror = (event) => setMessage(`The training worker failed: ${event.message ?? 'unknown error'}`);

  trainButton.addEventListener('click', () => {
    setMessage(null);
    setRunning(true);
    send({ type: 'train' });
  });
  pauseButton.addEventListener('click', () => {
    setRunning(false);
    send({ type: 'pause' });
  });
  resetButton.addEventListener('click', () => {
    setRunning(false);
    send({ type: 'reset' });
  });
  const configure = () => {
    setRunning(false);
    state.ready = false;
    trainButton.disabled = true;
    send({ type: 'configure', task: taskSelect.value, preset: presetSelect.value });
  };
  taskSelect.addEventListener('change', configure);
  presetSelect.addEventListener('change', configure);
  layerSelect.addEventListener('change', () => {
    state.layer = Number(layerSelect.value);
    drawProfiles();
    requestSentence();
  });
  headSelect.addEventListener('change', () => {
    state.head = Number(headSelect.value);
    drawPos();
    requestSentence();
  });
  sentenceInput.addEventListener('input', requestSentence);
  saveJson.addEventListener('click', () => send({ type: 'export', format: 'json' }));
  saveNpz.addEventListener('click', () => send({ type: 'export', format: 'npz' }));
  loadInput.addEventListener('change', async () => {
    const file = loadInput.files?.[0];
    if (!file) return;
    const bytes = await file.arrayBuffer();
    loadInput.value = '';
    send({ type: 'import', bytes, name: file.name }, [bytes]);
  });
  const resize = new ResizeObserver(() => {
    if (!state.config) return;
    drawLoss();
    drawProfiles();
    if (attention.view) attention.draw();
  });
  resize.observe(lab);

  send({ type: 'init', corpusUrl, task, preset });
  return {
    worker,
    state,
    dispose() {
      resize.disconnect();
      worker.terminate();
    },
  };
}

/** A head shows a claim: at least 1.5 times the uniform weight there, and more than on the other side. */
const shownBy = (claims, name, opposite) =>
  claims[name].weight >= 1.5 * claims[name].uniform && claims[name].weight > claims[opposite].weight;

/**
 * The part-of-speech figure's caption: what this run shows for the handbook's two claims, said
 * plainly where it does not show them (a reading counts as "shown" when the head puts at least
 * 1.5 times the uniform weight there and more than on the opposite side).
 */
export function claimsCaption(h, { layer, head, analysis }) {
  const c = h.claims;
  const shown = (name, opposite) => shownBy(c, name, opposite);
  const say = (name, opposite, what) => {
    const a = c[name];
    const b = c[opposite];
    const verdict = shown(name, opposite) ? 'shows it' : 'does not show it';
    return `${what}: this head ${verdict} — ${fmt(a.weight)} of their attention on those words (uniform attention: ${fmt(a.uniform)}; on the other side: ${fmt(b.weight)}).`;
  };
  // Over every head of the model: how many show each claim, and the strongest.
  const ratioOf = (x, name) => x.claims[name].weight / (x.claims[name].uniform || 1);
  const overall = (name, opposite, what) => {
    const showing = analysis.heads.filter((x) => shownBy(x.claims, name, opposite));
    const best = analysis.heads.reduce((b, x) => (ratioOf(x, name) > ratioOf(b, name) ? x : b));
    const count = showing.length
      ? `${showing.length} of ${analysis.heads.length} heads show it`
      : `no head of ${analysis.heads.length} shows it`;
    return `${what}: ${count} (the strongest, layer ${best.layer} head ${best.head}, puts ${ratioOf(best, name).toFixed(2)}× the uniform weight there).`;
  };
  return [
    `Layer ${layer}, head ${head}, step ${analysis.step}: for each part of speech of the query, the mean combined weight at each offset over the held-out windows (count of queries in brackets).`,
    say(
      'determinerToFollowingNoun',
      'determinerToPrecedingNoun',
      'The handbook says determiners attend to following nouns',
    ),
    say('verbToPrecedingSubject', 'verbToFollowingNoun', 'It says verbs attend to preceding subjects'),
    `Over the whole model: ${overall('determinerToFollowingNoun', 'determinerToPrecedingNoun', 'determiners → following nouns')} ${overall('verbToPrecedingSubject', 'verbToFollowingNoun', 'verbs → preceding subjects')}`,
    'Coarse tags from the Brown tag set; a noun or pronoun within three words before a verb stands in for its subject.',
  ].join(' ');
}
