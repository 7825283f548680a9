// The "Learned position patterns" section (docs/training.md): a model trained on English text in a
// Web Worker (train-worker.js), drawn as it learns. Loaded only when the reader opens the section
// (train-loader.js, <relpos-train>): this module, the worker, its WebAssembly and the corpus are
// the lazy chunk. The page thread only draws (small canvases, the six panels at n ≤ 32). This
// file wires the controls (train-controls.js), the figures (train-figures.js) and the training
// workers' pool (train-pool.js) together and holds the state they share.
import { download } from '../files/download.js';
import { TRAIN_CSS } from './train-css.js';
import { onSchemeChange } from '../figures/scheme-change.js';
import { buildControls, resetText, seedText } from './train-controls.js';
import { SENTENCE_WORDS, beforeTraining, buildFigures } from './train-figures.js';
import { Latest, isAbort } from '../api/task-pool.js';
import { TRAINER, openTrainPool } from './train-pool.js';
import { el, fmt, grouped, signed } from './train-dom.js';
import { DEFAULT_RUN } from './train-session.js';
import { CLAIMS, clearestHead, structureText } from './pos-verdicts.js';
import { referenceAnalysis, referenceFor } from './reference.js';
import { modelFileTooLarge } from './model-files.js';
import { mountCheckpointEntry } from './checkpoint-entry.js';
import { CORPUS_URL } from './corpus-url.js';
import { linkOfSetup, parseSeed, setupFromLink } from './train-link.js';
import { LOADER_PARAMS } from './loader-params.js';

/** The profile over training keeps at most this many snapshots (older ones thinned). */
const MAX_HISTORY = 64;
export { CORPUS_URL };

/** Keeps at most MAX_HISTORY entries: every other one of the older, the latest always. */
/** The step count is redrawn at most this often while training (ms). */
const STEPS_SHOWN_MS = 250;
const thinned = (list) =>
  list.length > MAX_HISTORY ? list.filter((_, i) => i % 2 === 0 || i === list.length - 1) : list;

/** Two training workers (each half of every step) where the machine has two cores or more. */
export const defaultTrainWorkers = () => ((globalThis.navigator?.hardwareConcurrency ?? 1) >= 2 ? 2 : 1);

/**
 * The section on the page (train-loader.js), `options` as mountTrainSection's: on the set-up the
 * page's link asks for (`params`: its URLSearchParams; train-link.js), with what the link had wrong
 * among the page's notes (`correctLink(note)`), and from then on its set-up in the page's address
 * (`setLinkParams(entries)`), after the loader's own parameters as the link gave them: the page's
 * ../settings/link-sections.js, given by the loader (a module of the page's script).
 */
export function mountFromLink(root, params, options, setLinkParams, correctLink) {
  const kept = [...params].filter(([name]) => LOADER_PARAMS.includes(name));
  const notes = [];
  const setup = setupFromLink(params, (note) => {
    notes.push(`Link corrected: ${note}.`);
    correctLink(notes.at(-1));
  });
  return mountTrainSection(root, {
    ...setup,
    ...options,
    message: notes.join(' '), // said in the section too, where the reader the link sent there looks
    onSetup: (set) => setLinkParams([...kept, ...linkOfSetup(set)]),
  });
}

/**
 * Builds the section into `root` (an element or a shadow root) and starts its worker. Options:
 * task, preset, seed (the first run's), autostart, corpusUrl (training-corpus.bin), workers (1,
 * or 2: a second worker computes half of each step; the numbers are the same), onRender (called
 * once the model is ready and after each reading drawn), onSetup({ task, preset, seed }) (called
 * with the set-up at once and whenever the reader or a loaded file changes it: the page keeps it
 * in its address), message (a first message, e.g. a link's corrections). Returns { state, dispose }.
 */
export function mountTrainSection(
  root,
  {
    task = DEFAULT_RUN.task,
    preset = DEFAULT_RUN.preset,
    seed = DEFAULT_RUN.seed,
    autostart = false,
    corpusUrl = CORPUS_URL,
    workers = defaultTrainWorkers(),
    onRender = () => {},
    onSetup = () => {},
    message = '',
  } = {},
) {
  const doc = root.ownerDocument ?? root;
  const style = el(doc, 'style', { text: TRAIN_CSS });
  const lab = el(doc, 'div', { className: 'relpos-train' });
  root.append(style, lab);
  const state = {
    ready: false,
    running: false,
    /** Reset or a menu asked for a new model, not yet here. */
    replacing: false,
    steps: 0,
    losses: [],
    history: [],
    verdictHistory: [],
    analysis: null,
    config: null,
    handbookProfile: null,
    baselines: null,
    /** The reference run for this run (reference.js), or null; showing: 'reference' or 'live'. */
    reference: null,
    showing: 'live',
    /** Whether the model was loaded from a file (trained, though its step count starts at 0). */
    loaded: false,
    /** The run's step budget, and its end once reached (run-end.js: { steps, reason, target, gap }). */
    budget: 0,
    end: null,
    task,
    /** The seed of the set-up (the Seed box; the next new model's), and the model's own (its `ready`). */
    seed,
    modelSeed: seed,
    layer: 0,
    head: 0,
    chosenByReader: false,
    sentenceId: 0,
    /** How many words the reader typed (the model reads the first SENTENCE_WORDS). */
    sentenceTyped: 0,
    /** Readings received (lab.dataset.readingsDrawn: the last one drawn in full). */
    readings: 0,
  };

  const controls = buildControls(doc, { task, preset, seed });
  const figures = buildFigures(doc);
  const { taskSelect, presetSelect, seedInput, trainButton, pauseButton, resetButton, saveJson, saveNpz, loadInput } =
    controls;
  const { layerSelect, headSelect, sentenceInput, attention } = figures;
  lab.append(controls.bar, controls.message, figures.grid, controls.files);
  // A real model's tables, drawn beside this model's and the handbook's (checkpoint-section.js).
  const checkpoints = mountCheckpointEntry(lab, {
    training: () => ({
      state,
      heads: state.analysis ? state.analysis.heads.filter((h) => h.layer === state.layer) : [],
      offsets:
        state.config &&
        Array.from({ length: 2 * state.config.maxDistance + 1 }, (_, c) => c - state.config.maxDistance),
    }),
  });
  // The same model on other languages (language-section.js): a chunk of its own, loaded with the section.
  const languages = import('./language-section.js').then((m) => m.mountLanguageSection(lab));
  const setMessage = controls.setMessage;
  if (message) setMessage(message);
  /** The set-up the menus and the Seed box show, for the page's address. */
  const setupChanged = () => onSetup({ task: taskSelect.value, preset: presetSelect.value, seed: state.seed });

  const showStatus = () => {
    controls.show({ ...state, heldOut: state.losses.at(-1)?.heldOut, heldOutStep: state.losses.at(-1)?.step });
    root.host?.setAttribute?.('data-steps', String(state.steps));
    lab.dataset.steps = String(state.steps);
    lab.dataset.running = String(state.running);
  };
  // The step count while training: drawn at most every STEPS_SHOWN_MS (each redraw lays out and
  // paints the page on the thread the training workers share the machine with), the last one always.
  let stepsTimer = 0;
  let stepsShown = 0;
  const showStepsSoon = () => {
    if (stepsTimer) return;
    const wait = Math.max(0, stepsShown + STEPS_SHOWN_MS - performance.now());
    stepsTimer = setTimeout(() => {
      stepsTimer = 0;
      stepsShown = performance.now();
      showStatus();
    }, wait);
  };
  // `pausing`: Pause was pressed and the worker has not yet said at which step it stopped;
  // `replacing`: Reset or a menu asked for a new model, which has not arrived yet.
  const setRunning = (running, { pausing = false, replacing = false } = {}) => {
    state.running = running;
    state.pausing = pausing;
    state.replacing = replacing;
    showStatus();
  };

  // Each figure is drawn in a task of its own, so that no task on the page's thread grows long
  // (a reading redraws six figures and the six panels); a newer reading drops the older chain.
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
    const reading = state.readings;
    inTasks([...figures.readingSteps(state), checkpoints.refresh, () => (lab.dataset.readingsDrawn = String(reading))]);
  };

  const requestSentence = () => {
    if (!state.ready) return;
    const typed = sentenceInput.value.trim().split(/\s+/).filter(Boolean);
    const words = typed.slice(0, SENTENCE_WORDS);
    state.sentenceTyped = typed.length;
    state.sentenceId += 1;
    const id = state.sentenceId;
    lab.dataset.sentenceAsked = String(id); // drawn when data-sentence-drawn says the same
    if (!words.length) {
      // No words: nothing drawn, and the sentence last read is not left standing for them.
      sentences.next();
      figures.sentencePanels.hidden = true;
      figures.sentenceCaption.textContent = 'Type a sentence above to read this head on it.';
      return;
    }
    // The latest sentence wins: an older one not yet read is never read, nor drawn.
    callTrainer('sentence', [words, state.layer, state.head], { signal: sentences.next() }).then(
      (data) => handlers.sentence({ ...data, id }),
      (error) => failed('sentence', error, true),
    );
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
  /** Until the reader picks a layer or head, the section shows the head with the clearest structure. */
  const followClearest = () => {
    const best = clearestHead(state.analysis.heads);
    if (!best) return;
    // The copy task's readings test no claim (no words): only the learned structure is named.
    const tested = Boolean(state.analysis.heads[0]?.verdicts);
    // Before the first step nothing is learned: the structure is the random start's, and no claim is judged.
    const say = beforeTraining(state)
      ? structureText(best, { before: true })
      : best.claim
        ? `the clearest effect on a handbook claim: ${CLAIMS[best.claim].short}, difference ${signed(best.effect)}, 95 % interval ${signed(best.low)} … ${signed(best.high)}`
        : tested
          ? `no head shows a handbook claim; ${structureText(best)}`
          : structureText(best);
    // Until this run's first reading the figures are the reference run's, and so is what is said of them.
    const whose =
      state.showing === 'reference'
        ? `in the reference run’s seed ${state.analysis.seed} (shown until this run’s first reading), `
        : '';
    figures.chosen.textContent = state.chosenByReader
      ? `Showing layer ${state.layer}, head ${state.head}, as chosen; the default is layer ${best.layer}, head ${best.head} (${whose}${say}).`
      : `Showing layer ${best.layer}, head ${best.head}: ${whose}${say}; choose another above.`;
    if (state.chosenByReader) return;
    state.layer = best.layer;
    state.head = best.head;
    layerSelect.value = String(state.layer);
    headSelect.value = String(state.head);
  };

  const handlers = {
    ready(data, latest) {
      state.ready = true;
      state.config = data.config;
      state.handbookProfile = data.handbookProfile;
      state.corpus = data.corpus;
      state.baselines = data.baselines;
      state.task = data.task;
      state.modelSeed = data.seed;
      lab.dataset.seed = String(data.seed); // the model's, for a page or a test to read
      state.loaded = Boolean(data.loaded);
      state.loadedSteps = data.loadedSteps ?? 0;
      controls.showCorpus(data);
      // A late reply (the reader changed a menu or pressed Train since) leaves the menus and the
      // buttons as the reader set them.
      if (latest) {
        taskSelect.value = data.task;
        presetSelect.value = data.preset;
        state.seed = data.seed;
        seedInput.value = String(data.seed);
        setupChanged(); // a loaded file's set-up is its own
      }
      state.losses = [];
      state.history = [];
      state.verdictHistory = [];
      state.end = null;
      state.rate = 0; // a new or reset model: no steps timed yet
      delete lab.dataset.ended;
      state.budget = data.budget;
      state.steps = data.steps;
      state.reference = referenceFor(data);
      // A fresh model of the default run opens on the reference run's readings, until trained.
      state.showing = state.reference && data.steps === 0 && !data.loaded ? 'reference' : 'live';
      lab.dataset.showing = state.showing;
      if (state.showing === 'reference') {
        state.analysis = referenceAnalysis(state.reference);
        followClearest();
        drawProfiles();
      }
      fillSelectors();
      // Until the new model's first reading arrives, the line above the figures names the head the
      // menus now show, not the last model's.
      if (state.showing === 'live')
        figures.chosen.textContent = `Showing layer ${state.layer}, head ${state.head}: the model’s first reading is on its way.`;
      for (const b of [resetButton, saveJson, saveNpz]) b.disabled = false;
      if (latest) setRunning(false);
      else setRunning(state.running, { pausing: state.pausing, replacing: state.replacing });
      if (data.loaded) {
        setMessage(
          `Loaded ${data.loaded}: a model trained for ${data.loadedSteps} steps; held-out loss ${fmt(data.heldOutLoss)}. Training continues from it (its step count starts at 0).`,
          true,
        );
      }
      figures.drawLoss(state);
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
      state.gap = data.end.gap;
      figures.drawLoss(state);
      showStatus();
    },
    steps(data) {
      state.steps = data.steps;
      showStepsSoon();
    },
    paused(data) {
      state.steps = data.steps;
      showStatus();
    },
    ended(data) {
      state.end = data;
      lab.dataset.ended = data.reason;
      lab.dataset.endStep = String(data.steps);
      setMessage('The run has ended. Reset trains a new model from step 0; Save keeps this one.', true);
      setRunning(false);
      figures.drawLoss(state);
    },
    analysis(data) {
      // The untrained model's reading does not replace the reference's.
      if (state.showing === 'reference' && data.step === 0) return;
      state.showing = 'live';
      state.analysis = data;
      // The run's last reading carries its end: drawn as final at once.
      if (data.ended) state.end = data.ended;
      state.readings += 1;
      lab.dataset.readings = String(state.readings);
      state.history = thinned([
        ...state.history,
        { step: data.step, profiles: data.heads.map((h) => Array.from(h.profile)) },
      ]);
      if (data.heads[0]?.verdicts)
        state.verdictHistory = thinned([
          ...state.verdictHistory,
          { step: data.step, heads: data.heads.map((h) => h.verdicts) },
        ]);
      followClearest();
      drawProfiles();
      requestSentence();
      lab.dataset.analysisStep = String(data.step);
      onRender();
    },
    sentence(data) {
      const n = data.words.length;
      const r = data.result;
      const difference = new Float64Array(n * n).map((_, i) => r.combinedWeights.data[i] - r.contentWeights.data[i]);
      const k = data.maxDistance;
      // A word outside the vocabulary is marked * (the caption says the model sees <unk> there),
      // so that its label stays short enough to be drawn whole.
      const labels = data.words.map((w, i) => {
        const seen = data.seen[i];
        if (seen === w.toLowerCase()) return `${i} ${w}`;
        return seen === '<unk>' ? `${i} ${w}*` : `${i} ${w} (${seen})`;
      });
      if (data.id !== state.sentenceId) return; // a sentence since (or none) replaced it
      figures.sentencePanels.hidden = false;
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
      const untrained =
        state.showing === 'reference'
          ? ', untrained: the figures above are the reference run’s until you press Train'
          : '';
      const notes = [
        state.sentenceTyped > n && `its first ${n} of your ${state.sentenceTyped}: it reads at most ${SENTENCE_WORDS}`,
        state.task === 'copy'
          ? 'this task knows only symbols: each new word is read as the next one, s0, s1, …, a repeated word as its symbol again'
          : unknown > 0 &&
            `${unknown} not in its ${state.config.vocabSize - 2}-word vocabulary, marked *: it sees <unk> there`,
      ].filter(Boolean);
      const read = notes.length ? ` (${notes.join('; ')})` : '';
      figures.sentenceCaption.textContent = `Layer ${data.layer}, head ${data.head} of the model as it is now (step ${state.steps}${untrained}), on your words${read}. The page’s panels 1–6, with the trained queries, keys, values and tables.`;
      drawnAll.then(() => {
        if (data.id === state.sentenceId) lab.dataset.sentenceDrawn = String(data.id);
      });
    },
    exported(data) {
      const { name } = data; // the worker's: the model the file holds, whatever the menus say now
      if (data.format === 'npz') download(`${name}.npz`, new Blob([data.bytes], { type: 'application/zip' }));
      else download(`${name}.json`, new Blob([data.text], { type: 'application/json' }));
    },
  };
  let disposed = false;
  /** A call that failed (`call`: its task): said above the figures; one that stops training stops the buttons too. */
  const failed = (call, error, latest) => {
    if (isAbort(error) || disposed) return; // a cancelled call, or the section's end
    const stopped = ['init', 'configure', 'train', 'reset'].includes(call);
    if ((stopped && latest) || state.pausing || state.replacing) setRunning(false);
    setMessage(call === 'import' ? `${error.message} Nothing was changed.` : `Training stopped: ${error.message}`);
  };

  // Calls made before the worker holding the session was replaced fail with it: that is said once
  // (onTrainerReplaced), and those calls never settle.
  let generation = 0;
  const callTrainer = (name, args, options = {}) => {
    const made = generation;
    return pool.run(name, args, { worker: TRAINER, ...options }).catch((error) => {
      if (made !== generation) return new Promise(() => {});
      throw error;
    });
  };
  const pool = openTrainPool({
    workers,
    onLost: (error) => setMessage(`The training worker failed: ${error.message}`),
    onTrainerReplaced: (error) => {
      generation += 1;
      stopRun();
      setRunning(false);
      state.ready = false;
      trainButton.disabled = true;
      setMessage(`${error.message}: the model it held is gone; a new one starts from step 0.`);
      command('init', [{ corpusUrl, task: taskSelect.value, preset: presetSelect.value, seed: state.seed }], newModel);
    },
  });
  // The reader's commands: each answer is applied with `latest`, true when no command was given
  // since (a late answer, the new model of a Reset followed at once by Train, or of the first load
  // after the menus changed, does not undo what the reader did since). Every command is computed,
  // in the order given.
  const commands = new Latest();
  const sentences = new Latest();
  const command = (name, args, apply, transfer = []) => {
    const signal = commands.next();
    callTrainer(name, args, { transfer }).then(
      (result) => apply(result, !signal.aborted),
      (error) => failed(name, error, !signal.aborted),
    );
  };
  /** A new model (init, configure, reset, import): its description, then its first reading. */
  const newModel = ({ session, analysis }, latest) => {
    handlers.ready(session, latest);
    handlers.analysis(analysis);
  };
  // The run in progress: Pause, Reset and a new model cancel its call (the worker stops it where
  // it is, and nothing it reported after is drawn).
  let run = null;
  const stopRun = () => {
    run?.abort(new DOMException('the run was stopped', 'AbortError'));
    run = null;
  };

  // A press of Train that commits a typed seed (the press leaves the box, whose change makes a new
  // model and disables Train before the click lands) trains that model once it is ready.
  let pressingTrain = false;
  trainButton.addEventListener('pointerdown', () => {
    pressingTrain = !trainButton.disabled;
    addEventListener('pointerup', () => setTimeout(() => (pressingTrain = false)), { once: true });
  });
  trainButton.addEventListener('click', () => {
    pressingTrain = false;
    setMessage(null);
    setRunning(true);
    stopRun();
    run = new AbortController();
    const signal = commands.next();
    callTrainer('train', [state.reference?.heldOut ?? NaN], {
      long: true,
      signal: run.signal,
      onProgress: (data) => handlers[data.type](data),
    }).catch((error) => failed('train', error, !signal.aborted));
  });
  pauseButton.addEventListener('click', () => {
    setRunning(false, { pausing: true });
    stopRun();
    command('pause', [], ({ steps, analysis, progress }) => {
      state.pausing = false;
      // The held-out reading of the slice the pause ended, if the run's own report of it was cut off.
      if (progress && progress.steps > (state.losses.at(-1)?.step ?? -1)) handlers.progress(progress);
      handlers.paused({ steps });
      handlers.analysis(analysis);
    });
  });
  resetButton.addEventListener('click', () => {
    // The same seed: a reset model is the first one again, and trains the same way (which a reader
    // seeing the same losses again would otherwise take for a replay). While a new model is on its
    // way (a menu, the seed), what its change said stays.
    if (!state.replacing) setMessage(state.steps > 0 ? resetText(taskSelect.value, state.seed) : null, true);
    setRunning(false, { replacing: true });
    stopRun();
    command('reset', [], newModel);
  });
  // A new task, model size or seed is a new model: the one trained so far is gone, which is said
  // (`said`: what a new seed changes, said first).
  const configure = (menu, said = '') => {
    const trained = state.ready && !state.replacing ? state.steps : 0;
    const chosen =
      menu === seedInput
        ? ''
        : `${menu === taskSelect ? 'Task' : 'Model size'}: ${menu.selectedOptions[0]?.textContent ?? menu.value}.`;
    const gone = `A new model starts at step 0; the one trained for ${grouped(trained)} steps is gone (Save keeps a model).`;
    // (A second change while the first one's model is on its way keeps what the first said.)
    if (trained > 0) setMessage([said, chosen, gone].filter(Boolean).join(' '), true);
    else if (said) setMessage(said, true);
    else if (!state.replacing) setMessage(null);
    state.ready = false; // Train waits for the new model (and its reference)
    setRunning(false, { replacing: true });
    stopRun();
    setupChanged();
    command('configure', [{ task: taskSelect.value, preset: presetSelect.value, seed: state.seed }], newModel);
  };
  taskSelect.addEventListener('change', () => configure(taskSelect));
  presetSelect.addEventListener('change', () => configure(presetSelect));
  // A seed typed and committed (Enter, or leaving the field): a new model with it; nothing typed
  // puts back the seed in use; a seed outside 0 … MAX_SEED or not whole is corrected, and said.
  seedInput.addEventListener('change', () => {
    const { value, note } = parseSeed(seedInput.value, state.seed, 'Seed');
    seedInput.value = String(value);
    if (value === state.seed) {
      if (note) setMessage(`${note}.`);
      return;
    }
    const before = state.seed;
    state.seed = value;
    if (pressingTrain) autostart = true;
    configure(seedInput, [note && `${note}.`, seedText(taskSelect.value, value, before)].filter(Boolean).join(' '));
  });
  layerSelect.addEventListener('change', () => {
    state.layer = Number(layerSelect.value);
    state.chosenByReader = true;
    followClearest();
    drawProfiles();
    requestSentence();
  });
  headSelect.addEventListener('change', () => {
    state.head = Number(headSelect.value);
    state.chosenByReader = true;
    followClearest();
    figures.drawPos(state);
    requestSentence();
  });
  sentenceInput.addEventListener('input', requestSentence);
  const save = (format) =>
    callTrainer('export', [format]).then(handlers.exported, (error) => failed('export', error, true));
  saveJson.addEventListener('click', () => save('json'));
  saveNpz.addEventListener('click', () => save('npz'));
  loadInput.addEventListener('change', async () => {
    const file = loadInput.files?.[0];
    if (!file) return;
    const tooLarge = modelFileTooLarge(file.name, file.size);
    if (tooLarge) {
      loadInput.value = '';
      setMessage(`${tooLarge} Nothing was changed.`);
      return;
    }
    const bytes = await file.arrayBuffer();
    loadInput.value = '';
    command('import', [bytes, file.name], newModel, [bytes]);
  });
  // A new width, or a new colour scheme (light ↔ dark: the plots' text, grid and label colours
  // are read from the theme when drawn; ../figures/scheme-change.js), draws every figure again.
  const redraw = () => {
    if (!state.config) return;
    figures.drawLoss(state);
    drawProfiles();
    if (attention.view) attention.draw();
  };
  const resize = new ResizeObserver(redraw);
  resize.observe(lab);
  const stopScheme = onSchemeChange(lab, redraw); // the system's, or <relpos-train>'s theme
  figures.more.addEventListener('toggle', () => figures.more.open && redraw());

  command('init', [{ corpusUrl, task, preset, seed }], newModel);
  setupChanged();
  return {
    state,
    dispose() {
      clearTimeout(stepsTimer);
      checkpoints.dispose();
      languages.then((part) => part.dispose());
      resize.disconnect();
      stopScheme();
      disposed = true;
      pool.terminate();
    },
  };
}
