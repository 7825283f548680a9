// The iframe view (?embed=1): only the panels named in ?panels=…, without the page's chrome; the
// largest matrices that fit the frame (fit=frame, the default) or max-height, and the content's
// height told to the host page ({ type: 'relpos:height', height }, README).
import { PANELS, parsePanelList } from '../views/panels.js';
import { linkValue, switchFromText } from '../settings/link-values.js';

// 'train': the training section (web/train/train-loader.js opens it in the iframe view);
// 'schemes': the position schemes side by side (web/page/schemes-section.js).
const PANEL_NAMES = [...PANELS.map((panel) => panel.id), 'tables', 'profile', 'schemes', 'train'];
/** The iframe view's sections that keep their size in any frame: the frame scrolls (EmbedFit). */
const SECTIONS_THAT_SCROLL = ['train', 'schemes'];

/** The matrices' side on the page, and the iframe view's first try. */
export const PAGE_SIDE = 560;

/**
 * ?panels=a,b -> the panel ids to show, and notes on names that were not understood and on a
 * ?panels= given more than once (the first is read).
 */
function chosenPanels(params) {
  const notes = [];
  const text = linkValue(params, 'panels', (note) => notes.push(note));
  if (text === null) return { ids: PANEL_NAMES, notes };
  const { ids, note } = parsePanelList(text, PANEL_NAMES);
  return { ids, notes: note ? [...notes, note] : notes };
}

/**
 * What the query asks of the view: `embed`, the panels `shown` ({ ids, notes }) and, in the
 * iframe view only (where its code is loaded), the `fit` for an EmbedFit.
 */
export async function viewOptions(search) {
  const params = new URLSearchParams(search);
  const embed = switchFromText(params.get('embed')) === true;
  document.body.classList.toggle('embed', embed);
  const shown = embed ? chosenPanels(params) : { ids: PANEL_NAMES, notes: [] };
  if (!embed) return { embed, shown, fit: null };
  const [{ fitGrid, rowsOf }, { fitOptions }] = await Promise.all([
    import('../figures/fit-height.js'),
    import('../views/fit-options.js'),
  ]);
  const repeated = [];
  const given = (name) => linkValue(params, name, (note) => repeated.push(note));
  const options = fitOptions(given, { fits: ['frame', 'width'], actions: false });
  document.body.classList.toggle('embed-actions', options.actions);
  document.body.classList.toggle('embed-no-captions', !options.captions);
  shown.notes.push(...repeated, ...options.notes);
  // The training and schemes sections have no matrix side to shrink: scaled down to a frame their
  // text would be unreadable (the training section at 700 × 500 came to a quarter of its size
  // and still overflowed). With either, the frame scrolls and the matrices keep the page's side.
  const scrolls = shown.ids.some((id) => SECTIONS_THAT_SCROLL.includes(id));
  return { embed, shown, fit: { fitGrid, rowsOf, options, scrolls } };
}

/** Fits the iframe view's matrices to the frame; `draw(force)` draws the view at `side`. */
export class EmbedFit {
  /** The matrices' side, as the fit found it. */
  side = PAGE_SIDE;
  #fit;
  #draw;
  #reportedHeight = 0;
  #columns = {}; // the panels' columns fitGrid chose, and for what (fit-height.js)

  constructor(fit, draw) {
    this.#fit = fit;
    this.#draw = draw;
  }

  refit() {
    const { fitGrid, rowsOf, options, scrolls } = this.#fit;
    const main = document.querySelector('main');
    const panels = document.getElementById('panels');
    const target = scrolls ? null : options.fit === 'frame' ? innerHeight : options.maxHeight;
    fitGrid(panels, this.#columns, `${target} ${innerWidth}`, {
      target,
      startSide: Math.min(PAGE_SIDE, target ?? PAGE_SIDE),
      draw: (side) => {
        this.side = side;
        this.#draw(true);
      },
      contentHeight: () => main.getBoundingClientRect().bottom + scrollY,
      rows: () => rowsOf(panels),
      zoomTarget: main,
    });
    document.body.dataset.fit = `${innerWidth}x${innerHeight}`; // for tests: fitted to this frame
    this.#reportHeight(Math.ceil(main.getBoundingClientRect().bottom + scrollY));
  }

  #reportHeight(height) {
    if (height === this.#reportedHeight || parent === window) return;
    this.#reportedHeight = height;
    parent.postMessage({ type: 'relpos:height', height, href: location.href }, '*');
  }
}
