// The page's controller: state (URL) -> view (WASM, through the JS API) -> drawing (render
// modules). Every control change recomputes and redraws synchronously, in the same frame.
import { createRelPos } from '../api/index.js';
import { makeScale } from '../render/colormaps.js';
import { drawHeatmap } from '../render/heatmap.js';
import { drawLinePlot } from '../render/line-plot.js';
import { download, downloadCanvas, matricesCsv, viewJson } from './export.js';
import { cellAt, showTooltip, wirePanel } from './interaction.js';
import { createPanelFigure } from './panel-figure.js';
import { PANELS, formatters } from './panels.js';
import { CONTROLS, defaultState, parseControl, queryFromState, splitTokens, stateFromQuery, MAX_TOKENS } from './state.js';
import { clippedOffset, computeView } from './view.js';

const $ = (id) => document.getElementById(id);
const notes = $('notes');
const tooltip = $('tooltip');
const readout = $('readout');

const rp = await createRelPos();
const loaded = stateFromQuery(location.search);
let state = loaded.state;
let view = null;
let selection = null; // { i, j, panelId }
const layouts = new Map();

// --- Panels ----------------------------------------------------------------------------------
const figures = new Map();
PANELS.forEach((panel, index) => {
  const parts = createPanelFigure(panel, index + 1);
  $('panels').append(parts.figure);
  figures.set(panel.id, parts);
  wirePanel({
    panelId: panel.id,
    canvas: parts.canvas,
    wrap: parts.wrap,
    getLayout: () => layouts.get(panel.id),
    getSelection: () => selection,
    select,
  });
});

// --- Controls --------------------------------------------------------------------------------
const inputs = Object.keys(CONTROLS).map((name) => $(name));
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

function syncControls() {
  for (const input of inputs) {
    const value = state[input.name];
    if (input.type === 'checkbox') input.checked = value;
    else if (document.activeElement !== input || input.type === 'range') input.value = String(value);
    const out = $(`${input.name}-out`);
    if (out) out.textContent = String(value);
  }
}

function onControl(input) {
  const raw = input.type === 'checkbox' ? (input.checked ? '1' : '0') : input.value;
  const { value, note } = parseControl(input.name, raw);
  if (note && input.type === 'number' && input.value === '') return; // mid-edit: wait for a number
  state = { ...state, [input.name]: value };
  if (input.name === 'tokens') state.seqLen = Math.max(1, Math.min(MAX_TOKENS, splitTokens(value).length));
  setNotes(note ? [note] : []);
  update();
}

function setNotes(lines) {
  notes.textContent = lines.join(' · ');
  notes.classList.toggle('has-notes', lines.length > 0);
}

$('reset').addEventListener('click', () => {
  state = defaultState();
  setNotes([]);
  update();
});

// --- Compute and draw ------------------------------------------------------------------------
function update() {
  try {
    view = computeView(rp, state);
  } catch (error) {
    setNotes([error.message]);
    return;
  }
  if (selection && (selection.i >= view.n || selection.j >= view.n)) selection = null;
  history.replaceState(null, '', `${location.pathname}${queryFromState(state)}${location.hash}`);
  syncControls();
  draw();
}

function themeColours() {
  const style = getComputedStyle(document.documentElement);
  const v = (name) => style.getPropertyValue(name).trim();
  return { fg: v('--plot-fg'), muted: v('--muted'), outline: v('--outline'), outlineHalo: v('--outline-halo') };
}

function describeRange(values, format) {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    min = Math.min(min, value);
    max = Math.max(max, value);
  }
  return `from ${format(min)} to ${format(max)}`;
}

function draw() {
  const colours = themeColours();
  const k = state.maxDistance;
  const group = selection ? (i, j) => clippedOffset(i, j, k) === clippedOffset(selection.i, selection.j, k) : null;
  for (const panel of PANELS) {
    const { canvas, wrap, caption } = figures.get(panel.id);
    const values = panel.values(view);
    const scale = makeScale(panel.scale, values, panel.fixedRange ?? (panel.integer ? Math.max(1, k) : undefined));
    scale.integer = panel.integer;
    scale.label = panel.barLabel;
    const layout = drawHeatmap(canvas, {
      n: view.n,
      values,
      scale,
      rowLabels: view.tokens.map((t, i) => `${i} ${t}`),
      colLabels: view.tokens.map((t, j) => `${j} ${t}`),
      xTitle: 'key position j →',
      yTitle: 'query position i ↓',
      formatValue: formatters.cell(panel),
      showValues: view.n <= 12,
      highlight: selection ? { i: selection.i, j: selection.j, group } : null,
      width: wrap.clientWidth,
      maxSide: 560,
      colours,
    });
    layouts.set(panel.id, layout);
    canvas.dataset.layout = JSON.stringify({ x0: layout.x0, y0: layout.y0, cell: layout.cell, n: layout.n, min: scale.min, max: scale.max, map: scale.map });
    caption.textContent = panel.caption(state);
    canvas.setAttribute(
      'aria-label',
      `${panel.title}: ${view.n} by ${view.n} heatmap, query positions i down, key positions j across; values ${describeRange(values, formatters.readout(panel))}; colour scale ${formatters.readout(panel)(scale.min)} to ${formatters.readout(panel)(scale.max)}.`,
    );
  }
  drawProfile(colours);
}

function drawProfile() {
  const { offsets, profile } = view.profile;
  const pk = state.profileMaxDistance;
  const highlight = selection ? clippedOffset(selection.i, selection.j, pk) + pk : -1;
  const canvas = $('profile-canvas');
  drawLinePlot(canvas, { x: offsets, y: profile, xLabel: 'offset j − i (negative: key before the query)', yLabel: 'score q · aᴷ', highlight });
  let peak = 0;
  profile.forEach((value, index) => {
    if (value > profile[peak]) peak = index;
  });
  const min = Math.min(...profile);
  canvas.setAttribute(
    'aria-label',
    `Line plot of the locality profile over offsets ${offsets[0]} to ${offsets[offsets.length - 1]}; scores from ${min.toFixed(3)} to ${profile[peak].toFixed(3)}, highest at offset ${offsets[peak]}.`,
  );
  const sigma = state.width;
  $('profile-caption').textContent =
    `A relative key table aᴷ of ${2 * pk + 1} rows: random noise (scale ${state.noise}) plus a Gaussian bump of width σ = ${sigma}` +
    `${state.asymmetry ? ` (σ × ${(1 + state.asymmetry).toFixed(2)} looking back, × ${(1 - state.asymmetry).toFixed(2)} ahead)` : ''} on its first dimension, ` +
    `read by the uniform query q = 1/√d_k: one score q · aᴷ per offset. The highest score is at offset ${offsets[peak]}.`;
}

// --- Reading values --------------------------------------------------------------------------
function select(cell, { panelId, anchor, announce } = {}) {
  const same = cell && selection && selection.i === cell.i && selection.j === cell.j && selection.panelId === panelId;
  if (!cell) {
    if (!selection) return;
    selection = null;
    tooltip.hidden = true;
    draw();
    return;
  }
  selection = { ...cell, panelId };
  if (!same) draw();
  const panel = PANELS.find((p) => p.id === panelId);
  const { i, j } = cell;
  const k = state.maxDistance;
  const value = formatters.readout(panel)(panel.values(view)[i * view.n + j]);
  const offset = j - i;
  const clipped = clippedOffset(i, j, k);
  const offsetText = `${offset}`.replace('-', '−') + (clipped === offset ? '' : ` (clipped to ${String(clipped).replace('-', '−')})`);
  showTooltip(
    tooltip,
    [
      [panel.title, value],
      ['(i, j)', `(${i}, ${j})`],
      ['query → key', `${view.tokens[i]} → ${view.tokens[j]}`],
      ['offset j − i', offsetText],
    ],
    anchor ?? { x: 16, y: 16 },
  );
  if (announce) {
    readout.textContent = `${panel.title}, row ${i} “${view.tokens[i]}”, column ${j} “${view.tokens[j]}”: offset ${offsetText}, value ${value}.`;
  }
}

// --- Exports ---------------------------------------------------------------------------------
document.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-png]');
  if (!button) return;
  const id = button.dataset.png;
  const canvas = id === 'profile' ? $('profile-canvas') : figures.get(id).canvas;
  downloadCanvas(canvas, `relpos-${id}.png`);
});
$('export-csv').addEventListener('click', () => download('relpos-matrices.csv', new Blob([matricesCsv(view, state)], { type: 'text/csv' })));
$('export-json').addEventListener('click', () => download('relpos-view.json', new Blob([viewJson(view, state)], { type: 'application/json' })));

// --- Start -----------------------------------------------------------------------------------
setNotes(loaded.notes.map((note) => `Link corrected: ${note}.`));
update();
new ResizeObserver(() => view && draw()).observe($('panels'));
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => view && draw());
document.body.dataset.ready = 'true';
performance.mark('relpos:ready');

// For tests and curious readers: the live state, read-only.
Object.defineProperty(window, 'relposPage', { value: Object.freeze({ getState: () => ({ ...state }), cellAt: (id, x, y) => cellAt(layouts.get(id), x, y) }) });
