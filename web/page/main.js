// The page's controller: state (URL) -> numbers (WASM, through the JS API) -> figures. Up to
// SYNC_LIMIT positions a control change recomputes and redraws in the same task; above, a worker
// computes and the panels are drawn one per task. With ?embed=1 the page is the iframe view: only
// the panels named in ?panels=…, without the page's chrome.
import { AttentionFigure } from '../figures/attention-figure.js';
import { download } from '../files/download.js';
import { adoptFigureCss } from '../figures/figure-css.js';
import { rememberRanges } from '../figures/panel-extents.js';
import { PANELS, parsePanelList } from '../figures/panels.js';
import { themeColours } from '../figures/attention-figure.js';
import { setMathText } from '../figures/math-dom.js';
import { createTablesFigure, drawTablesFigure } from '../figures/tables-figure.js';
import { createProfileFigure, drawProfile, tableProfileCaption } from '../figures/profile-figure.js';
import {
  ATTENTION_SETTINGS,
  CONTROLS,
  MAX_LONG,
  MAX_TOKENS,
  defaultState,
  maxDistanceLimit,
  parseControl,
  splitTokens,
} from '../settings/settings.js';
import { offsetValue } from '../figures/offset-space.js';
import { onPrintChange } from '../figures/print-sharp.js';
import { sharedRelPos } from '../figures/shared-relpos.js';
import { startAttentionWorker } from '../workers/start-attention-worker.js';
import { computeAttentionView, keepOffsets } from '../figures/view.js';
import { matricesCsv, settingsText, viewJson } from './export.js';
import { wireStory } from './story.js';
import { startSchemesSection } from './schemes-section.js';
import { queryFromState, stateFromQuery } from './url-state.js';

const $ = (id) => document.getElementById(id);
/** Above this n, attention is computed in a worker and the panels drawn one per task. */
const SYNC_LIMIT = 384;
/** The longest the address bar lags behind the view. */
const URL_DELAY_MS = 150;
// 'train': the training section (web/train/train-loader.js opens it in the iframe view);
// 'schemes': the position schemes side by side (web/page/schemes-section.js).
const PANEL_NAMES = [...PANELS.map((panel) => panel.id), 'tables', 'profile', 'schemes', 'train'];

/** What the numbers are, for the current draw (under the controls; math notation of render/math-text.js). */
const DRAW_EXPLAIN = {
  stable:
    'Stable numbers: each word’s embedding (d_{model} = 8), the weights W_Q, W_K, W_V and each offset’s rows of a^K and a^V are drawn from a numpy stream of their own, seeded by the seed and what they stand for. A word has the same vectors wherever it stands, and changing k only adds or removes table rows. Rows are query positions i, columns key positions j; offsets are j − i, so negative offsets look back.',
  handbook:
    'The handbook’s numbers: X, W_Q, W_K, W_V, a^K and a^V are drawn in that order from np.random.seed(seed) (d_{model} = 8), exactly as the handbook does, so any change re-draws every number; the words only name the positions. (With the locality table, a^K is the handbook’s simulated table, from its own np.random.seed(seed).) Rows are query positions i, columns key positions j; offsets are j − i, so negative offsets look back.',
};

/** ?panels=a,b -> the panel ids to show, and a note on names that were not understood. */
function chosenPanels(search) {
  const text = new URLSearchParams(search).get('panels');
  if (text === null) return { ids: PANEL_NAMES, notes: [] };
  const { ids, note } = parsePanelList(text, PANEL_NAMES);
  return { ids, notes: note ? [note] : [] };
}

async function start() {
  document.getElementById('no-script')?.remove(); // the script runs
  adoptFigureCss(document, ':root');
  const embed = new URLSearchParams(location.search).get('embed') === '1';
  document.body.classList.toggle('embed', embed);
  const shown = embed ? chosenPanels(location.search) : { ids: PANEL_NAMES, notes: [] };
  // The iframe view's fit (fit-options.js): the frame's height (default) or the width's.
  const params = new URLSearchParams(location.search);
  // Loaded in the iframe view only: the page itself never fits a frame.
  const fitting = embed
    ? await Promise.all([import('../figures/fit-height.js'), import('../figures/fit-options.js')])
    : [];
  const [{ fitHeight, rowsOf } = {}, { fitOptions } = {}] = fitting;
  const embedFit = embed ? fitOptions((name) => params.get(name), { fits: ['frame', 'width'], actions: false }) : null;
  if (embed) {
    document.body.classList.toggle('embed-actions', embedFit.actions);
    document.body.classList.toggle('embed-no-captions', !embedFit.captions);
    shown.notes.push(...embedFit.notes);
  }
  let embedSide = 560; // the matrices' side in the iframe view, as the fit found it
  const loaded = stateFromQuery(location.search);
  let state = loaded.state;
  let attentionView = null;
  let highlightOffset = null;
  let selectedCell = null;

  const rp = await sharedRelPos();
  const notes = $('notes');
  if (embed) document.querySelector('main').prepend(notes); // the controls are hidden: keep the notes
  const figure = new AttentionFigure({
    container: $('panels'),
    overlay: document.querySelector('main'),
    panelIds: shown.ids,
    numbered: !embed,
    onSelect: (offset, cell) => {
      highlightOffset = offset;
      selectedCell = cell;
      drawProfileFigure();
      drawTables();
    },
    onPresent: () => scheduleUrl(), // ?present=<panel> keeps the present view
  });
  const tablesFigure = createTablesFigure(embed ? null : PANELS.length + 1);
  const profileFigure = createProfileFigure(embed ? null : PANELS.length + 2, 'The table read by one query');
  // In the iframe view these join the panels' grid, so that the frame is filled evenly.
  (embed ? $('panels') : $('profile-section')).append(tablesFigure.figure, profileFigure.figure);
  const profileCanvas = profileFigure.canvas;
  const showProfile = shown.ids.includes('profile');
  const showTables = shown.ids.includes('tables');
  profileFigure.figure.hidden = !showProfile;
  $('profile-section').hidden = embed || !(showProfile || showTables);

  // The position schemes side by side (schemes-section.js); in the iframe view only when asked.
  const schemes = startSchemesSection({
    rp,
    embed,
    panelsAsked: new URLSearchParams(location.search).has('panels') ? shown.ids : [],
    getState: () => state,
    setState: (next) => {
      state = { ...state, ...next };
      update();
    },
    addNote: (note) => setNotes([...notes.textContent.split(' · ').filter(Boolean), note]),
  });

  // --- Controls ------------------------------------------------------------------------------
  const inputs = Object.keys(CONTROLS)
    .map((name) => $(name))
    .filter(Boolean); // <relpos-profile>'s own settings have no control here
  for (const input of inputs) {
    const c = CONTROLS[input.name];
    if (c.kind === 'int' || c.kind === 'number') {
      input.min = String(c.min);
      input.max = String(c.max);
      if (c.kind === 'int') input.step = '1';
    }
    input.addEventListener('input', () => onControl(input));
    input.addEventListener('change', () => onControl(input));
  }

  // Writes only what differs: a write of the same value still invalidates style or layout,
  // which the panels' width reads in the same task then have to bring up to date.
  function syncControls() {
    const max = String(state.long ? MAX_LONG : MAX_TOKENS);
    if ($('seqLen').max !== max) $('seqLen').max = max;
    const maxK = String(maxDistanceLimit(state)); // the long view: up to n − 1
    if ($('maxDistance').max !== maxK) $('maxDistance').max = maxK;
    if ($('tokens').disabled !== state.long) $('tokens').disabled = state.long;
    if ($('long-explain').hidden === state.long) $('long-explain').hidden = !state.long;
    setMathText($('draw-explain'), DRAW_EXPLAIN[state.draw]);
    const random = state.table === 'random';
    for (const name of ['strength', 'width', 'asymmetry', 'noise'])
      if ($(name).disabled !== random) $(name).disabled = random;
    if (tablesFigure.figure.hidden !== (state.long || !showTables))
      tablesFigure.figure.hidden = state.long || !showTables;
    for (const input of inputs) {
      const value = state[input.name];
      if (input.type === 'checkbox') {
        if (input.checked !== value) input.checked = value;
      } else if ((document.activeElement !== input || input.type === 'range') && input.value !== String(value))
        input.value = String(value);
      const out = $(`${input.name}-out`);
      if (out && out.textContent !== String(value)) out.textContent = String(value);
    }
  }

  function onControl(input) {
    const raw = input.type === 'checkbox' ? (input.checked ? '1' : '0') : input.value;
    const { value, note } = parseControl(
      input.name,
      raw,
      undefined,
      input.name === 'maxDistance' ? maxDistanceLimit(state) : undefined,
    );
    if (note && input.type === 'number' && input.value === '') return; // mid-edit: wait for a number
    const words = (text) => splitTokens(text).length;
    // A new word count sets n (an empty box keeps it); other edits keep a slider-chosen n.
    if (input.name === 'tokens' && words(value) > 0 && words(value) !== words(state.tokens)) {
      state = { ...state, seqLen: Math.min(MAX_TOKENS, words(value)) };
    }
    state = { ...state, [input.name]: value };
    if (input.name === 'long' && !value) state.seqLen = Math.min(state.seqLen, MAX_TOKENS);
    if (input.name === 'seqLen' && !state.long) state.seqLen = Math.min(state.seqLen, MAX_TOKENS);
    state.maxDistance = Math.min(state.maxDistance, maxDistanceLimit(state));
    setNotes(note ? [note] : []);
    update();
  }

  function setNotes(lines) {
    const text = lines.join(' · ');
    if (notes.textContent !== text) notes.textContent = text;
  }

  $('reset').addEventListener('click', () => {
    state = defaultState();
    setNotes([]);
    update();
  });

  // --- Compute and draw ----------------------------------------------------------------------
  // Small n: compute and draw at once, in the same frame. Large n: a worker computes (the
  // latest request wins) and the panels are drawn one per task, so input never waits long.
  let worker = null;
  let workerFailed = false;
  let requestId = 0;
  let started = 0;
  let computedBy = 'main';

  function getWorker() {
    if (worker || workerFailed) return worker;
    try {
      worker = startAttentionWorker();
      worker.addEventListener('message', ({ data }) => onWorkerResult(data));
      worker.addEventListener('error', () => {
        workerFailed = true; // no worker here: compute on the main thread instead
        worker = null;
        update();
      });
    } catch {
      workerFailed = true;
    }
    return worker;
  }

  function attentionSettings() {
    return Object.fromEntries(ATTENTION_SETTINGS.map((name) => [name, state[name]]));
  }

  // The address bar follows the view, written at most every URL_DELAY_MS (and when the page
  // is left): replaceState costs a few ms a call in Chromium, which also ignores it, with a
  // console warning, past about 100 calls in 10 s, as a dragged slider would make.
  let urlTimer = 0;
  function writeUrl() {
    clearTimeout(urlTimer);
    urlTimer = 0;
    const query = embed ? location.search : queryFromState(state);
    const present = !embed && figure.presenting ? `${query ? '&' : '?'}present=${figure.presenting}` : '';
    const url = `${location.pathname}${query}${present}${location.hash}`;
    try {
      if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(null, '', url);
    } catch {
      // file:// pages may refuse; the view still works.
    }
  }
  function scheduleUrl() {
    if (!urlTimer) urlTimer = setTimeout(writeUrl, URL_DELAY_MS);
  }
  addEventListener('pagehide', () => urlTimer && writeUrl());

  function update() {
    started = performance.now();
    // The long view's offset-space panels have n × (2k′ + 1) cells: past 384² of them, the worker too.
    const offsetCells = state.long ? state.seqLen * (2 * Math.min(state.maxDistance, state.seqLen - 1) + 1) : 0;
    const large = (state.seqLen > SYNC_LIMIT || offsetCells > SYNC_LIMIT * SYNC_LIMIT) && getWorker();
    try {
      if (!large)
        attentionView = computeAttentionView(rp, attentionSettings(), {
          positionsOnly: state.long,
          previous: attentionView,
        });
    } catch (error) {
      setNotes([error.message]);
      return;
    }
    scheduleUrl();
    syncControls();
    schemes.update(state);
    if (large) {
      requestId += 1;
      document.body.dataset.busy = 'true';
      figure.maxSide = maxSide();
      const offsetGrid = state.long ? figure.offsetGrid(state.seqLen, state.maxDistance) : null; // block means in the worker too
      worker.postMessage({ id: requestId, settings: attentionSettings(), positionsOnly: state.long, offsetGrid });
      return;
    }
    computedBy = 'main';
    draw();
    drawn();
  }

  async function onWorkerResult({ id, view, ranges, error }) {
    if (id !== requestId) return; // a newer request is on its way
    if (error) {
      setNotes([error]);
      return;
    }
    attentionView = keepOffsets(view, attentionView);
    rememberRanges(attentionView, ranges);
    computedBy = 'worker';
    figure.maxSide = maxSide();
    const requested = attentionView;
    drawProfileFigure();
    await figure.setView(requested, { progressive: true });
    if (id === requestId && attentionView === requested) drawn();
  }

  // The iframe view: the largest matrices that fit the frame (fit=frame) or max-height, and the
  // content's height told to the host page ({ type: 'relpos:height', height }, README).
  let reportedHeight = 0;
  function refit() {
    if (!embed || !attentionView) return;
    const main = document.querySelector('main');
    const target = embedFit.fit === 'frame' ? innerHeight : embedFit.maxHeight;
    fitHeight({
      target,
      startSide: Math.min(560, target ?? 560),
      draw: (side) => {
        embedSide = side;
        draw(true);
      },
      contentHeight: () => main.getBoundingClientRect().bottom + scrollY,
      rows: () => rowsOf($('panels')),
      zoomTarget: main,
    });
    document.body.dataset.fit = `${innerWidth}x${innerHeight}`; // for tests: fitted to this frame
    const height = Math.ceil(main.getBoundingClientRect().bottom + scrollY);
    if (height !== reportedHeight && parent !== window) {
      reportedHeight = height;
      parent.postMessage({ type: 'relpos:height', height, href: location.href }, '*');
    }
  }

  // Tells listeners (and the benchmark) that the frame for the last change is complete.
  function drawn() {
    refit();
    if (!embed && $('embed-code').open) updateEmbedCode(); // the code follows the view
    if (document.body.dataset.busy) delete document.body.dataset.busy;
    document.dispatchEvent(
      new CustomEvent('relpos-drawn', { detail: { n: attentionView.n, ms: performance.now() - started, computedBy } }),
    );
  }

  const maxSide = () => (embed ? embedSide : 560);

  // The profile (the panels' own table, read by the uniform query) is drawn again when its
  // numbers or its highlighted offset change, or with `force` (a new size or theme).
  let profileShown = { view: null, highlight: null };
  function drawProfileFigure(force = false) {
    if (!showProfile || !attentionView) return;
    const profileView = attentionView.profile;
    if (!force && profileShown.view === profileView && profileShown.highlight === highlightOffset) return;
    drawProfile(profileCanvas, profileView, highlightOffset, {
      yLabel: 'bias u · a^K/√d_k',
      height: embed ? Math.min(260, Math.max(120, embedSide + 60)) : 260, // shrinks with the fit
    });
    profileShown = { view: profileView, highlight: highlightOffset };
    setMathText(profileFigure.caption, tableProfileCaption(attentionView, state));
  }

  // What the selected cell is made of (the sentence view only: its tables have ≤ 127 rows).
  function drawTables() {
    if (!showTables || !attentionView || attentionView.long || tablesFigure.figure.hidden) return;
    drawTablesFigure(tablesFigure, attentionView, selectedCell, themeColours(tablesFigure.canvas));
  }

  function draw(force = false) {
    figure.maxSide = maxSide();
    if (attentionView) figure.setView(attentionView);
    if (selectedCell && attentionView && (selectedCell.i >= attentionView.n || selectedCell.j >= attentionView.n))
      selectedCell = null;
    drawProfileFigure(force);
    drawTables();
  }

  // --- Exports -------------------------------------------------------------------------------
  $('export-csv').addEventListener('click', () =>
    download(
      'relpos-matrices.csv',
      new Blob([matricesCsv(attentionView, state, queryFromState(state))], { type: 'text/csv' }),
    ),
  );
  // What each panel's PNG and SVG buttons save (figure-export.js).
  function syncImageOptions() {
    const withText = $('image-text').checked;
    figure.exportOptions = {
      scale: Number($('image-scale').value),
      theme: $('image-theme').value,
      title: withText,
      caption: withText,
      settings: $('image-settings').checked ? `relpos: ${settingsText(state)}` : null,
    };
  }
  // "Embed this view": its code is loaded when the box is first opened (embed-code.js).
  let updateEmbedCode = () => {};
  $('embed-code').addEventListener('toggle', async () => {
    if (!$('embed-code').open) return;
    const { wireEmbedCode } = await import('./embed-code.js');
    if (!$('embed-code').dataset.wired) {
      $('embed-code').dataset.wired = 'true';
      updateEmbedCode = wireEmbedCode($('embed-code'), () => state);
    }
    updateEmbedCode();
  });
  for (const id of ['image-scale', 'image-theme', 'image-text', 'image-settings'])
    $(id).addEventListener('change', syncImageOptions);
  const downloadPanel = figure.download.bind(figure);
  figure.download = (panelId, format) => {
    syncImageOptions(); // the settings of the moment
    return downloadPanel(panelId, format);
  };
  $('export-json').addEventListener('click', () =>
    download(
      'relpos-view.json',
      new Blob([viewJson(attentionView, attentionView.profile, state)], { type: 'application/json' }),
    ),
  );

  // --- The story at the top -------------------------------------------------------------------
  wireStory($('story'), {
    rp,
    state: () => ({ ...state }),
    settingsOf: (s) => Object.fromEntries(ATTENTION_SETTINGS.map((name) => [name, s[name]])),
    setState: (next) => {
      state = { ...state, ...next };
      setNotes([]);
      update();
    },
    selectCell: (cell) => {
      figure.select(cell, { panelId: null });
      $('figure-tables').scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    },
  });

  // --- Start ---------------------------------------------------------------------------------
  const presentAsked = new URLSearchParams(location.search).get('present');
  setNotes([...shown.notes, ...loaded.notes.map((note) => `Link corrected: ${note}.`)]);
  update();
  if (presentAsked && !figure.present(presentAsked))
    setNotes([
      `Link corrected: present: unknown ${presentAsked}; choose from ${figure.panels.map((p) => p.id).join(', ')}.`,
    ]);
  new ResizeObserver(() => attentionView && draw(true)).observe(document.querySelector('main'));
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => attentionView && draw(true));
  onPrintChange(() => attentionView && draw(true)); // sharp in print
  if (embed) addEventListener('resize', refit);
  document.body.dataset.ready = 'true';
  performance.mark('relpos:ready');

  // For tests, benchmarks and curious readers: read-only looks at what is on screen.
  Object.defineProperty(window, 'relposPage', {
    value: Object.freeze({
      state: () => ({ ...state }),
      computedBy: () => computedBy,
      panelsDrawn: () => figure.drawCount, // panels drawn so far (not skipped as unchanged)
      valueAt: (panelId, i, j) => PANELS.find((p) => p.id === panelId).values(attentionView)[i * attentionView.n + j],
      profile: () => Array.from(attentionView.profile.profile),
      tokens: () => [...attentionView.result.tokens],
      // The long view's offset-space cell (i, c): as drawn (float32, null: no key) and in float64.
      offsetCell: (panelId, i, c) => {
        const space = attentionView.offsetSpace;
        const cell = space.panels[panelId][i * space.cols + c + space.reach];
        return { drawn: cell === cell ? cell : null, exact: offsetValue(attentionView, panelId, i, c) };
      },
      timePanelDraw: (panelId) => figure.timePanelDraw(panelId),
      memory: () => rp.memory(),
    }),
  });
}

start().catch((error) => {
  const message = document.createElement('p');
  message.className = 'fatal';
  message.textContent = `relpos could not start: ${error.message}`;
  document.body.prepend(message);
});
