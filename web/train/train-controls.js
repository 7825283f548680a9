// The training section's controls: task and model-size menus, the seed, Train / Pause / Reset, the
// status line and the message line, and the model files' buttons. Builds the DOM and says what is
// shown; what the buttons do is the section's (train-section.js).
import { el, fmt, grouped, pct, signed, signedPct } from './train-dom.js';
import { CRITERION, LEARNED } from './run-end.js';
import { corpusName } from './corpus-format.js';
import { COPY, PRESETS, SEQ_LEN, TASKS } from './train-session.js';
import { MAX_SEED } from '../api/limits.js';

/**
 * What another seed changes, on `task` (TrainSession: the seed draws the model's initial weights
 * and, for the tasks on the corpus, which windows each batch takes and which words it masks; the
 * copy task's batches are drawn from the step count alone).
 */
const seedChanges = (task) =>
  task === 'copy'
    ? ['other initial weights', ' (the copy task’s batches are the same for every seed)']
    : ['other initial weights and other training batches', ''];

/** Reset's message: the same seed again, and what another would change. */
export function resetText(task, seed) {
  const [changes, note] = seedChanges(task);
  return `A new model from step 0, with the same seed as before (${seed}): it trains the same way again. Another seed gives ${changes}${note}.`;
}

/** A new seed's message: what it changes against the last one's. */
export function seedText(task, seed, before) {
  const [changes, note] = seedChanges(task);
  return `Seed ${seed}: ${changes} than seed ${before}${note}.`;
}

export function buildControls(doc, { task, preset, seed }) {
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
  // A number, committed on Enter or leaving the field (not at each key): a new seed is a new model.
  const seedInput = el(doc, 'input', {
    type: 'number',
    id: 'train-seed',
    min: '0',
    max: String(MAX_SEED),
    step: '1',
    inputMode: 'numeric',
    value: String(seed),
  });
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
  const corpusNote = el(doc, 'p', { id: 'train-corpus', className: 'train-corpus' });
  const bar = el(doc, 'div', { className: 'train-controls' }, [
    el(doc, 'label', {}, ['Task', taskSelect]),
    el(doc, 'label', {}, ['Model size', presetSelect]),
    el(doc, 'label', { className: 'train-seed' }, ['Seed (the random start)', seedInput]),
    el(doc, 'div', { className: 'train-buttons' }, [trainButton, pauseButton, resetButton]),
    status,
    corpusNote,
  ]);

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
  const files = el(doc, 'div', { className: 'train-files' }, [
    saveJson,
    saveNpz,
    el(doc, 'label', {}, ['Load a saved model ', loadInput]),
  ]);

  return {
    bar,
    message,
    files,
    taskSelect,
    presetSelect,
    seedInput,
    trainButton,
    pauseButton,
    resetButton,
    saveJson,
    saveNpz,
    loadInput,
    /** What the model reads: the corpus's size and the vocabulary (copy-offset: its symbols). */
    showCorpus({ task: shown, corpus, config }) {
      const V = config.vocabSize;
      corpusNote.textContent =
        shown === 'copy'
          ? `Copy-offset: random sequences over ${V} symbols, ${SEQ_LEN} a window; the model predicts at each position the symbol ${-COPY.offset} places back (offset ${signed(COPY.offset, 0)}); no corpus.`
          : `Corpus: ${corpusName(corpus)}, ${grouped(corpus.train)} training tokens, ${grouped(corpus.heldOut)} held-out tokens; the model’s vocabulary: the ${V - 2} most frequent words, plus <mask> and <unk>.`;
    },
    setMessage(text, ok = false) {
      message.hidden = !text;
      message.textContent = text ?? '';
      message.classList.toggle('ok', ok);
    },
    /**
     * The status line and the buttons for { steps, budget, rate, running, pausing, ready, heldOut,
     * heldOutStep, end }: "pausing…" until the worker says at which step it stopped, then "paused";
     * the last held-out reading names its step when it is not the step shown; a run that has
     * ended (run-end.js) says why, and trains no further until Reset.
     */
    show({ steps, budget, rate, running, pausing, replacing, ready, heldOut, heldOutStep, end }) {
      // The rate while it trains; a run stopped before its end says it is paused, and its button
      // says Resume; while a new model is on its way (Reset, a menu), neither.
      const paused = !running && !replacing && !end && steps > 0;
      trainButton.textContent = paused ? 'Resume' : 'Train';
      // The reading's step: while training always (the line keeps its length as readings come),
      // else where it is not the step shown.
      const readAt =
        heldOut !== undefined && heldOutStep !== undefined && (running || heldOutStep !== steps)
          ? ` (at step ${heldOutStep})`
          : '';
      // Parts joined by " · ", each kept on one line on a narrow screen ("(at step 75)" with its loss);
      // why the run ended, a sentence, wraps between words.
      // While a new model is on its way, the last one's numbers are not its: only that it is coming.
      const parts = replacing
        ? ['a new model…']
        : [
            `step ${steps}${budget ? ` of ${budget}` : ''}`,
            running && rate ? `${fmt(rate, 1)} steps/s` : '',
            `held-out loss ${heldOut !== undefined ? fmt(heldOut) : '–'}${readAt}`,
            running ? 'training' : pausing ? 'pausing…' : paused ? 'paused' : '',
          ].filter(Boolean);
      status.replaceChildren(
        ...parts.flatMap((text, i) => [i ? ' · ' : '', el(doc, 'span', { className: 'train-status-part', text })]),
        end && !replacing ? ` · ${endText(end)}` : '',
      );
      trainButton.disabled = running || !ready || Boolean(end);
      pauseButton.disabled = !running;
    },
  };
}

/** Why a run ended, in words: the criterion reached, the task learned, or its step budget. */
export function endText({ reason, gap }) {
  if (reason === 'criterion')
    return `ended: held-out loss within ${pct(CRITERION.within)} of the reference run’s (${signedPct(gap)})`;
  // (The status line says the loss itself just before.)
  if (reason === 'learned') return `ended: the task is learned (held-out loss at most ${LEARNED.heldOut})`;
  return Number.isFinite(gap)
    ? `ended at its step budget, ${signedPct(gap)} from the reference run’s held-out loss`
    : 'ended at its step budget';
}
