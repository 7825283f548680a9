// <relpos-attention>: the matrix panels of relative self-attention, for embedding.
//   <relpos-attention seq-len="6" d-k="4" max-distance="3" seed="42" causal
//                     tokens="the cat sat on the mat" panels="combined-weights offsets"
//                     theme="auto"></relpos-attention>
import { AttentionFigure } from '../figures/attention-figure.js';
import { fitGrid, rowsOf } from '../figures/fit-height.js';
import { screenScale } from '../render/canvas-size.js';
import { PANEL_IDS, parsePanelList } from '../views/panels.js';
import { checkResult, viewFromResult } from '../views/result-view.js';
import { checkMatrixInput } from '../views/matrix-input.js';
import { MatrixFigure } from '../figures/matrix-figure.js';
import { MATRIX_KINDS } from '../views/matrix-panels.js';
import { ATTENTION_SETTINGS, MAIN_THREAD_POSITIONS, tokenLabels } from '../settings/settings.js';
import { isAbort, Latest } from '../api/task-pool.js';
import { readyPagePool } from '../workers/page-pool.js';
import { computeAttentionView, computeAttentionViewInWorkers } from '../views/view.js';
import { FIT_READERS, FIT_SWITCHES, RelposBaseElement } from './base-element.js';
import { attributesOf, settingsFromAttributes, themeOf } from './element-settings.js';
import { reflectAttributes } from './reflect.js';

const kebab = (id) => id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
/** The panels attribute read: { ids drawn, in the page's order; note on what is unknown, or null }. */
const panelsOf = (element) =>
  element.hasAttribute('panels')
    ? parsePanelList(element.getAttribute('panels'), PANEL_IDS, 'panels', kebab)
    : { ids: PANEL_IDS, note: null };

export class RelposAttentionElement extends RelposBaseElement {
  static observedAttributes = [
    ...attributesOf(ATTENTION_SETTINGS),
    'panels',
    'theme',
    'fit',
    'max-height',
    'captions',
    'actions',
  ];
  static settingNames = ATTENTION_SETTINGS;
  static fits = ['width', 'box'];

  #given = null;
  #matrix = null; // a checked matrix of one's own (matrix-input.js), or null
  #latest = new Latest(); // the latest render wins: an older one's work in the pool is cancelled
  #columns = {}; // the grid's columns fitGrid chose, and for what (fit-height.js)

  constructor() {
    super();
    this.figure = null;
    this.panelKey = '';
    this.view = null;
  }

  /**
   * Numbers of your own: a result of rp.attention() (n ≤ 64), drawn instead of the seeded
   * example (the seed, draw and size attributes then do not apply; causal, tokens, panels and
   * theme do). null goes back to the example. Reading gives the result drawn.
   */
  set result(value) {
    if (value === null || value === undefined) this.#given = null;
    else {
      checkResult('relpos-attention: result', value);
      this.#given = value;
      this.#matrix = null;
    }
    this.scheduleRender();
  }

  /**
   * One matrix of your own, any rows × cols (your model's attention weights, scores or biases):
   * { data, rows, cols } or { data, dims: [rows, cols] } (an onnxruntime Tensor as is) or
   * { data, shape }, with kind ('weights', 'scores', 'biases', 'difference'; default 'weights'
   * when every value is in [0, 1], else 'scores'), title, caption, rowLabels, colLabels, max.
   * Drawn as one panel instead of the example (theme, fit, max-height, captions and actions
   * still apply; tokens labels a square matrix without labels of its own). A bad value throws a
   * TypeError or RangeError and leaves the element as it was; null goes back to the example.
   * Reading gives the matrix drawn: { rows, cols, data (a Float64Array copy), kind, title, … }.
   */
  set matrix(value) {
    if (value === null || value === undefined) this.#matrix = null;
    else {
      this.#matrix = checkMatrixInput('relpos-attention: matrix', value);
      this.#given = null;
    }
    this.scheduleRender();
  }

  get matrix() {
    const m = this.#matrix;
    if (!m) return null;
    const title = m.title ?? MATRIX_KINDS[m.kind].title;
    const { rows, cols, values: data, kind, caption, rowLabels, colLabels, max } = m;
    return { rows, cols, data, kind, title, caption, rowLabels, colLabels, max };
  }

  get result() {
    return this.view?.result ?? this.#given;
  }

  async render(rp) {
    const { settings, notes } = settingsFromAttributes(this, ATTENTION_SETTINGS);
    const { ids, note } = panelsOf(this);
    if (note && !this.#matrix) notes.push(note);
    const matrix = this.#matrix;
    const key = matrix ? 'matrix' : ids.join(' ');
    if (!this.figure || key !== this.panelKey) {
      this.grid?.remove();
      this.figure?.tooltip.remove();
      this.figure?.readout.remove();
      this.grid = document.createElement('div');
      this.grid.className = 'relpos-grid';
      this.grid.setAttribute('part', 'grid');
      this.shadow.append(this.grid);
      this.figure = matrix
        ? new MatrixFigure({ container: this.grid, overlay: this.shadow })
        : new AttentionFigure({
            container: this.grid,
            overlay: this.shadow,
            panelIds: ids,
            numbered: false,
            controls: false, // no checkboxes: its captions name no control (the causal mask only when on)
          });
      this.panelKey = key;
    }
    if (matrix) {
      // A square matrix without labels of its own takes the tokens attribute's words.
      const words =
        this.hasAttribute('tokens') && matrix.rows === matrix.cols ? tokenLabels(settings.tokens, matrix.rows) : null;
      const labels = words?.map((word, i) => word || String(i)) ?? null;
      this.#latest.next();
      this.view = null;
      this.computedBy = 'main';
      this.figure.setView({ ...matrix, rowLabels: matrix.rowLabels ?? labels, colLabels: matrix.colLabels ?? labels });
      this.fitFigures();
      return notes;
    }
    // Numbers of your own (el.result) are drawn as given. Above MAIN_THREAD_POSITIONS (the
    // page's cut-off too) the numbers come from the worker pool (or, where workers cannot
    // start, the main thread); the latest render wins.
    const signal = this.#latest.next();
    const pool = !this.#given && settings.seqLen > MAIN_THREAD_POSITIONS ? await readyPagePool() : null;
    if (signal.aborted) return null;
    let view;
    if (this.#given)
      view = viewFromResult(rp, this.#given, {
        tokens: this.hasAttribute('tokens') ? settings.tokens : null,
        causal: settings.causal,
        previous: this.view,
      });
    else if (pool) {
      try {
        view = await computeAttentionViewInWorkers(pool, settings, { previous: this.view, signal });
      } catch (error) {
        if (isAbort(error)) return null;
        throw error;
      }
    } else view = computeAttentionView(rp, settings, { previous: this.view });
    if (signal.aborted) return null;
    this.view = view;
    this.computedBy = pool ? 'workers' : 'main';
    this.figure.setView(this.view);
    this.fitFigures();
    return notes;
  }

  /**
   * fit="box": the largest matrices for which the figures fit the element's own height (set it
   * in CSS; that also reserves the space before the script runs); max-height="…": at most that
   * many px tall. Anything else: the width decides (fit-options.js, fit-height.js).
   */
  fitFigures() {
    const options = this.readFit();
    const target = options.fit === 'box' ? this.clientHeight : options.maxHeight;
    if (!this.figure || !(target > 0)) {
      if (this.grid) this.grid.style.gridTemplateColumns = ''; // the grid's own columns (fitGrid set them)
      this.#columns = {};
      if (this.figure && this.figure.maxSide !== 560) {
        this.figure.maxSide = 560;
        this.grid.style.zoom = '';
        this.figure.draw();
      }
      return;
    }
    const messageHeight = () => (this.message.hidden ? 0 : this.message.offsetHeight + 8);
    const key = `${target} ${this.clientWidth} ${panelsOf(this).ids} ${options.captions} ${options.actions}`;
    fitGrid(this.grid, this.#columns, key, {
      target,
      startSide: Math.min(560, target),
      draw: (side) => {
        this.figure.maxSide = side;
        this.figure.draw();
      },
      contentHeight: () => this.grid.getBoundingClientRect().height / screenScale(this) + messageHeight(),
      rows: () => rowsOf(this.grid),
      zoomTarget: this.grid,
    });
  }

  redraw() {
    const { fit, maxHeight } = this.readFit();
    if (fit === 'box' || maxHeight !== null) this.fitFigures();
    else this.figure?.draw();
  }
}

RelposAttentionElement.reflected = [
  ...reflectAttributes(
    RelposAttentionElement,
    ATTENTION_SETTINGS,
    {
      panels: (element) => panelsOf(element).ids.map(kebab).join(' '),
      theme: themeOf,
      ...FIT_READERS,
    },
    FIT_SWITCHES,
  ),
  'result', // set before the element is defined: set again once it is
  'matrix',
];
