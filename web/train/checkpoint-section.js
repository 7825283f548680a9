// "A real model's position patterns", in the learned-patterns section: the reader opens a model
// file from their own disk (safetensors, its config.json, or an index and its shards, or a
// position-tables file saved here), and the page draws the position tables it holds
// (web/figures/checkpoint-figure.js). The file is read in this page, by byte ranges: nothing
// is uploaded. "Save the position tables" writes the small JSON <relpos-profile src> draws.
import { onSchemeChange } from '../figures/scheme-change.js';
import { sharedRelPos } from '../figures/shared-relpos.js';
import { download } from '../files/download.js';
import { corpusName } from './corpus-format.js';
import { modelSteps } from './train-figures.js';
import { T5_BUCKET_DEFAULTS } from '../api/defaults.js';

// The reader and the figure are loaded when the reader first opens a file.
const loadParts = () =>
  Promise.all([
    import('../api/checkpoint-file.js'),
    import('../api/checkpoint-positions.js'),
    import('../figures/checkpoint-figure.js'),
    import('../views/checkpoint-view.js'),
  ]).then(([file, positions, figure, view]) => ({ ...file, ...positions, ...figure, ...view }));

const el = (doc, tag, props = {}, children = []) => {
  const node = doc.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else if (key.includes('-') || key === 'role' || key === 'for') node.setAttribute(key, value);
    else node[key] = value;
  }
  node.append(...children);
  return node;
};

const isJsonName = (name) => /\.json$/i.test(name);
const isIndexName = (name) => /\.index\.json$/i.test(name);

/**
 * The files the reader chose, sorted into what they are: { checkpointFiles, config, saved } (a
 * position-tables JSON saved here, `format` tablesFormat, is `saved`). Throws an Error naming a file it cannot use.
 */
export async function sortModelFiles(files, tablesFormat) {
  const checkpointFiles = [];
  let config;
  let saved = null;
  for (const file of files) {
    if (!isJsonName(file.name) || isIndexName(file.name)) {
      checkpointFiles.push(file);
      continue;
    }
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch (error) {
      throw new Error(`${file.name}: not JSON (${error.message})`, { cause: error });
    }
    if (data?.format === tablesFormat) saved = { name: file.name, data };
    else if (data && typeof data === 'object' && data.weight_map) checkpointFiles.push(file);
    else if (data && typeof data === 'object' && !Array.isArray(data)) config = { name: file.name, data };
    else throw new Error(`${file.name}: neither a config.json nor an index nor position tables`);
  }
  return { checkpointFiles, config, saved };
}

/**
 * The profiles the file is drawn beside ({ kind, label, x, y }): the training section's model's mean head of the shown
 * layer (its latest reading, `heads` of that layer over `offsets`; the legend says its step, or
 * that it is untrained at step 0) and the handbook's simulated one.
 */
export function trainedProfiles(state, heads, offsets) {
  const out = [];
  if (state.analysis && heads.length) {
    const y = heads[0].profile.map((_, c) => heads.reduce((sum, h) => sum + h.profile[c], 0) / heads.length);
    out.push({
      kind: 'model',
      label: `${state.showing === 'reference' ? 'reference run' : 'model above'}: ${modelSteps(state)}, layer ${state.layer}`,
      heads: heads.length,
      layer: state.layer,
      x: offsets,
      y,
    });
  }
  if (state.handbookProfile) {
    const k = (state.handbookProfile.length - 1) / 2;
    out.push({
      kind: 'handbook',
      label: 'handbook (simulated)',
      x: state.handbookProfile.map((_, c) => c - k),
      y: state.handbookProfile,
    });
  }
  return out;
}

/**
 * What the comparison's note says of the profiles beside the file: which model (its step, whether
 * it is trained, on what: the corpus's name from its header, or the copy task) and the tables' reach.
 */
export function besideText(state, beside) {
  if (!beside.length) return 'Train the model above to add its profile here.';
  const reach = 'they reach only a few offsets (their clipping distance k); past it they are flat by construction.';
  const shown = beside.find((b) => b.kind === 'model');
  if (!shown) return `The handbook’s simulated table: ${reach}`;
  const { step } = state.analysis;
  const data = state.task === 'copy' ? 'the copy-offset task' : corpusName(state.corpus);
  const steps = (count) => `${count} step${count === 1 ? '' : 's'}`;
  const model =
    state.showing === 'reference'
      ? `The reference run shown above was trained ${step} steps on ${data}.`
      : state.loaded
        ? `The model above was loaded from a file after ${steps(state.loadedSteps ?? 0)} of training and trained ${steps(step)} more here, on ${data}.`
        : step === 0
          ? `The model above is untrained (step 0): its tables are their random start, not yet trained on ${data}.`
          : `The model above was trained ${steps(step)} on ${data}.`;
  return `${model} Its curve: the mean of the ${shown.heads} heads of layer ${shown.layer}. Its tables and the handbook’s: ${reach}`;
}

/**
 * Completes the part checkpoint-entry.js began in `section` (its heading and file input): the save
 * button, the status line, the figure. `training()` gives the training section's readings the
 * file is drawn beside. Returns { refresh, openFiles, state, dispose }.
 */
export function mountCheckpointSection(section, { training = () => ({ state: {}, heads: [] }) } = {}) {
  const doc = section.ownerDocument;
  const save = el(doc, 'button', {
    type: 'button',
    id: 'checkpoint-save',
    text: 'Save the position tables (JSON)',
    disabled: true,
  });
  const status = el(doc, 'p', { className: 'checkpoint-status', id: 'checkpoint-status', role: 'status' });
  const holder = el(doc, 'div', { className: 'checkpoint-figure' });
  section.querySelector('.checkpoint-files').append(save);
  section.append(status, holder);
  const beside = () => {
    const { state: trained, heads, offsets } = training();
    return trainedProfiles(trained, heads, offsets);
  };
  const state = { tables: null, files: [], metadata: null, caption: '' };
  let parts = null; // the loaded modules and the figure, on first use
  const partsReady = async () => {
    if (!parts) {
      const modules = await loadParts();
      const figure = modules.createCheckpointFigure(doc);
      holder.append(el(doc, 'style', { text: modules.CHECKPOINT_CSS }), figure.root);
      parts = { ...modules, figure };
    }
    return parts;
  };

  const setStatus = (text, error = false) => {
    status.textContent = text;
    status.dataset.error = String(error);
  };
  const refresh = () => {
    if (!state.tables || !parts) return;
    const { state: trained } = training();
    const profiles = beside();
    state.caption = parts.drawCheckpointFigure(parts.figure, state.tables, {
      beside: profiles,
      besideText: besideText(trained, profiles),
    });
    section.dataset.drawn = String(state.tables.length);
  };

  async function openFiles(files) {
    const list = Array.from(files);
    if (list.length === 0) return;
    setStatus(`Reading ${list.map((f) => f.name).join(', ')}…`);
    try {
      const { openCheckpoint, checkpointPositions, tablesFromJson, POSITION_TABLES_FORMAT } = await partsReady();
      const { checkpointFiles, config, saved } = await sortModelFiles(list, POSITION_TABLES_FORMAT);
      let tables;
      let metadata = null;
      if (saved) {
        tables = tablesFromJson(saved.data, saved.name);
      } else {
        if (checkpointFiles.length === 0)
          throw new Error('choose the .safetensors file (or the index and its shards) too');
        const rp = await sharedRelPos();
        const checkpoint = await openCheckpoint(checkpointFiles);
        metadata = checkpoint.metadata;
        tables = await checkpointPositions(rp, checkpoint, { config: config?.data });
        if (tables.length === 0)
          throw new Error(
            `${checkpoint.files.join(', ')}: no T5 position table (…SelfAttention.relative_attention_bias.weight) among its ${checkpoint.tensors.length} tensors`,
          );
      }
      state.tables = tables;
      state.files = list.map((f) => f.name);
      state.metadata = metadata;
      save.disabled = false;
      refresh();
      setStatus(
        `${state.files.join(', ')}: ${tables.length} position table${tables.length === 1 ? '' : 's'}${
          config
            ? ''
            : saved
              ? ''
              : ` (no config.json given: T5’s defaults, max distance ${T5_BUCKET_DEFAULTS.maxDistance})`
        }.`,
      );
    } catch (error) {
      setStatus(`${error.message}. Nothing was changed.`, true);
    }
  }

  save.addEventListener('click', () => {
    if (!state.tables) return;
    const json = JSON.stringify(
      parts.positionTablesJson(state.tables, { files: state.files, metadata: state.metadata }),
    );
    const stem = (state.files.find((f) => !isJsonName(f)) ?? 'model').replace(/\.[^.]*$/, '');
    download(`${stem}.position-tables.json`, new Blob([json], { type: 'application/json' }));
  });
  // A new width, or a new colour scheme (the system's, or <relpos-train>'s theme: the plots' text
  // and grid colours are read from the theme when drawn), draws the figure again.
  const resize = new ResizeObserver(() => refresh());
  resize.observe(section);
  const stopScheme = onSchemeChange(section, refresh);
  return {
    refresh,
    openFiles,
    state,
    dispose: () => {
      resize.disconnect();
      stopScheme();
    },
  };
}
