// The page's controller: state (URL) -> numbers (WASM, through the JS API) -> figures. An edit of
// a control is read at once into the state (the form and the URL follow it) and computed and
// drawn in the next animation frame, the latest edit only: a burst of keystrokes or a dragged
// slider draws at most once a frame. Up to MAIN_THREAD_POSITIONS positions the view is computed and drawn in
// that frame; above, a worker computes and the panels are drawn progressively (compute.js). With
// ?embed=1 the page is the iframe view (embed-view.js). The controls, the URL, the exports and
// the sections are wired by their modules.
import { AttentionFigure } from '../figures/attention-figure.js';
import { adoptFigureCss } from '../figures/figure-css.js';
import { onPrintChange } from '../figures/print-sharp.js';
import { onSchemeChange } from '../figures/scheme-change.js';
import { sharedRelPos } from '../figures/shared-relpos.js';
import { ViewCompute, attentionSettings } from './compute.js';
import { wireControls } from './controls.js';
import { EmbedFit, PAGE_SIDE, viewOptions } from './embed-view.js';
import { wireExports } from './exports-section.js';
import { createNotes } from './notes.js';
import { exposePageProbe } from './page-probe.js';
import { startSchemesSection } from './schemes-section.js';
import { SideFigures } from './side-figures.js';
import { wireSkipLink } from './skip-link.js';
import { followLayoutOrder } from './layout-order.js';
import { wireInputsCue } from './inputs-cue.js';
import { scrollBehavior } from './scroll-motion.js';
import { wireStory } from './story.js';
import { applyPageTheme } from './page-theme.js';
import { MORE_PANELS_PARAM, startUrlWriter } from './url-writer.js';
import { stateFromQuery } from './url-state.js';
import { showLinkNote } from './link-note.js';
import { columnLabelSlant } from '../render/heatmap.js';
import { followLinkSections } from '../settings/link-sections.js';
import { linkValue, matchChoice, switchFromText, unknownChoice } from '../settings/link-values.js';
import { DRAWER_PANEL_IDS } from '../views/panels.js';

const $ = (id) => document.getElementById(id);
/** Above this many positions the panels are at least 580 px wide (style.css .panels.roomy). */
const ROOMY_FROM = 24;
/** Up to this many positions the four main panels share one row from 1800 px (style.css .panels.four). */
const FOUR_UP_TO = 8;

/**
 * The panels one click away, under "More panels" (the lesson's panels 1–4 stay open): a link, a
 * story step or ?present= that names one opens the drawer.
 */
const DRAWER_FIGURES = new Set([...DRAWER_PANEL_IDS, 'tables', 'profile']);

/** Column labels steeper than this (degrees; cells under about 15 px) stand nearly upright, hard to read. */
const NEARLY_UPRIGHT = 70;

/** How well a panel labels its axes: 0 by position, 1 by words nearly upright, 2 by words slanted less. */
const labelFitRank = ({ kind, cell }) =>
  kind === 'positions' ? 0 : columnLabelSlant({ cellW: cell, fontScale: 1 }) > NEARLY_UPRIGHT ? 1 : 2;

/** The panel grids' classes (style.css): roomy (at least 580 px), four (a row from 1800 px), single (one a row). */
function setPanelClasses(classes) {
  for (const panels of [$('panels'), $('more-panels-grid')])
    for (const [name, on] of Object.entries(classes))
      if (panels.classList.contains(name) !== on) panels.classList.toggle(name, on);
}
/**
 * In a short window (a phone turned sideways, 360 px tall), the matrices' side leaves this much
 * of the window's height to the rest of a panel shown at its top (a story step's way back, the
 * title, the column labels), so that the matrix a step scrolls to shows whole; never below
 * SHORT_SIDE_LEAST.
 */
const SIDE_HEAD_ROOM = 170;
const SHORT_SIDE_LEAST = 160;

/**
 * Brings the figure a story step names into view (`block`: 'nearest', or 'start': its top to the
 * window's top) and outlines it for a moment.
 */
function showStoryTarget(figure, { block = 'nearest' } = {}) {
  if (!figure) return;
  figure.scrollIntoView({ block, behavior: scrollBehavior() });
  showStoryTarget.last?.classList.remove('story-target');
  void figure.offsetWidth; // restart the outline's fade
  figure.classList.add('story-target');
  showStoryTarget.last = figure;
  clearTimeout(showStoryTarget.timer);
  showStoryTarget.timer = setTimeout(() => figure.classList.remove('story-target'), 2500);
}

/** The page: its state and selection, the figures, and the modules that read and write them. */
class Page {
  state;
  #highlightOffset = null;
  #selectedCell = null;
  #started = 0; // when the change being drawn began, for 'relpos-drawn'
  #frame = 0; // the animation frame that draws the edits read since the last draw
  #openedToPrint = false; // "More panels" opened for paper, closed again after

  constructor({ rp, embed, shown, fit, state, theme }) {
    this.state = state;
    this.rp = rp;
    this.embed = embed;
    this.fit = fit && new EmbedFit(fit, (force) => this.draw(force));
    this.notes = createNotes($('notes'));
    if (embed) document.querySelector('main').prepend(this.notes.element); // the controls are hidden
    this.figure = new AttentionFigure({
      container: $('panels'),
      overlay: document.querySelector('main'),
      panelIds: shown.ids,
      numbered: !embed,
      controls: !embed, // the iframe view hides the controls: its captions do not name them
      onlyRendered: !embed, // panels 5–6 wait, closed, under "More panels"
      keepCaptionRoom: !embed, // a caption that shortens (a k dragged) never moves the panels below
      onSelect: (offset, cell) => this.#select(offset, cell),
      onPresent: () => this.url.schedule(), // ?present=<panel> keeps the present view
    });
    this.sides = new SideFigures({ embed, ids: shown.ids });
    if (!embed) this.#wireDrawer();
    if (!embed) {
      followLayoutOrder();
      wireInputsCue(
        $('inputs-cue'),
        document.querySelector('main > .side'),
        document.querySelector('section.controls'),
      );
      wireSkipLink(document.querySelector('a.skip'), () => [
        ...document.querySelectorAll('.page-header > figure, #panels > figure'),
      ]);
    }
    this.#wireSections(new URLSearchParams(location.search).has('panels') ? shown.ids : []);
    this.url = startUrlWriter({
      embed,
      theme,
      getState: () => this.state,
      presenting: () => this.figure.presenting,
      morePanelsOpen: () => $('more-panels').open && !this.#openedToPrint, // not what printing opened
    });
    this.compute = new ViewCompute({
      rp,
      onWorkerView: (view, id) => this.#showWorkerView(view, id),
      onError: (message) => this.#failed(message),
      onWorkerLost: () => this.update(),
    });
  }

  /** Merges `next` into the state, shows `notes` (or keeps them: null) and draws. */
  change(next, notes = []) {
    this.#setState({ ...this.state, ...next }, notes);
  }

  /** Computes the view of the state and draws it, now or when the worker answers. */
  update() {
    cancelAnimationFrame(this.#frame); // this draws the edits it was to draw
    this.#frame = 0;
    this.#started = performance.now();
    let deferred;
    try {
      deferred = this.compute.computeOrDefer(this.state);
    } catch (error) {
      this.notes.set([error.message]);
      if (document.body.dataset.busy) delete document.body.dataset.busy; // nothing left to draw
      return;
    }
    this.url.schedule();
    this.syncControls(this.state);
    this.sides.sync(this.state);
    this.schemes.update(this.state);
    if (deferred) this.#request();
    else {
      this.draw();
      this.drawn();
    }
  }

  draw(force = false) {
    const view = this.compute.view;
    this.figure.maxSide = this.#maxSide();
    if (view) {
      this.#sizePanels(view);
      this.figure.setView(view);
    }
    const cell = this.#selectedCell;
    if (cell && view && (cell.i >= view.n || cell.j >= view.n)) this.#selectedCell = null;
    this.#drawSides(force);
  }

  /** Tells listeners (and the benchmark) that the frame for the last change is complete. */
  drawn() {
    this.#refit();
    if (!this.embed) this.exports.viewChanged(); // the embed code follows the view
    if (document.body.dataset.busy) delete document.body.dataset.busy;
    this.#computing(null);
    const { view, computedBy } = this.compute;
    const detail = { n: view.n, ms: performance.now() - this.#started, computedBy };
    document.dispatchEvent(new CustomEvent('relpos-drawn', { detail }));
  }

  /** Opens "More panels" (if closed) and draws what it holds now, so that it can be scrolled to at once. */
  openDrawer() {
    const drawer = $('more-panels');
    if (!drawer || drawer.open) return;
    drawer.open = true;
    if (this.compute.view) this.draw(true);
  }

  /** Panels 5–6 join the tables and the profile in "More panels"; opened, they are drawn (and the URL says so). */
  #wireDrawer() {
    const drawer = $('more-panels');
    const grid = $('more-panels-grid');
    for (const id of DRAWER_PANEL_IDS) {
      const figure = $(`figure-${id}`);
      if (figure) grid.append(figure);
    }
    drawer.addEventListener('toggle', () => {
      this.url.schedule(); // ?more=1 while open
      if (drawer.open && this.compute.view) this.draw(true);
    });
    // A link to a figure in the drawer (#figure-offsets) opens it and goes there.
    const followHash = () => {
      const id = decodeURIComponent(location.hash.slice(1));
      if (!id.startsWith('figure-') || !DRAWER_FIGURES.has(id.slice(7))) return;
      this.openDrawer();
      $(id)?.scrollIntoView();
    };
    addEventListener('hashchange', followHash);
    this.followHash = followHash;
  }

  /** The first draw, ?more=1 and ?present=, and what redraws the view. */
  start(linkNotes) {
    const params = new URLSearchParams(location.search);
    const notes = [...linkNotes];
    // A panel's id whatever its case (written back as the panel's); anything else as given, said below.
    const ids = this.figure.panels.map((p) => p.id);
    const presentGiven = linkValue(params, 'present', (note) => notes.push(`Link corrected: ${note}.`));
    const presentAsked = presentGiven === null ? null : (matchChoice(presentGiven, ids) ?? presentGiven);
    this.notes.set(notes);
    const moreAsked = !this.embed && switchFromText(params.get(MORE_PANELS_PARAM)) === true; // the iframe view has no drawer
    // A panel that can be presented and lives in the drawer opens it (the tables, which have no
    // Present view, do not: the link is corrected instead).
    const presentable = presentAsked !== null && ids.includes(presentAsked);
    if (moreAsked || (presentable && DRAWER_FIGURES.has(presentAsked))) $('more-panels').open = true; // drawn by update()
    this.update();
    this.followHash?.();
    if (presentAsked && !this.figure.present(presentAsked, { focusPanel: true })) {
      // Beside the link's other corrections, not instead of them.
      notes.push(`Link corrected: ${unknownChoice('present', presentAsked, ids)}.`);
      this.notes.set(notes);
    }
    showLinkNote($('link-note'), notes);
    const redraw = () => this.compute.view && this.draw(true); // a new size or theme
    new ResizeObserver(redraw).observe(document.querySelector('main'));
    // The matrices' side follows the window's height too (#maxSide), which a height-only change
    // (a toolbar hidden, a window made taller) does without resizing <main>.
    addEventListener('resize', () => this.figure.maxSide !== this.#maxSide() && redraw());
    onSchemeChange(document, redraw);
    // Sharp in print, and every panel on paper: "More panels" opens while printing, and closes
    // again after if it was closed.
    onPrintChange((printing) => {
      const drawer = $('more-panels');
      if (printing && drawer && !drawer.open) {
        this.#openedToPrint = true;
        this.openDrawer();
      } else if (!printing && this.#openedToPrint) {
        this.#openedToPrint = false;
        drawer.open = false;
      }
      redraw();
    });
    if (this.embed) addEventListener('resize', () => this.#refit());
    document.body.dataset.ready = 'true';
    performance.mark('relpos:ready');
    exposePageProbe({ rp: this.rp, figure: this.figure, compute: this.compute, getState: () => this.state });
  }

  /** The schemes section, the controls, the exports and the story. */
  #wireSections(panelsAsked) {
    const getState = () => this.state;
    this.schemes = startSchemesSection({
      rp: this.rp,
      embed: this.embed,
      panelsAsked,
      getState,
      setState: (next) => this.change(next, null),
      addNote: (note) => this.notes.add(note),
    });
    this.syncControls = wireControls({ getState, onEdit: ({ state, notes }) => this.#edit(state, notes) });
    this.exports = wireExports({ figure: this.figure, getState, getView: () => this.compute.view });
    wireStory($('story'), {
      rp: this.rp,
      state: () => ({ ...this.state }),
      settingsOf: attentionSettings,
      setState: (next) => this.change(next),
      selectCell: (cell) => this.figure.select(cell, { panelId: null }),
      showPanel: (id, options) => {
        if (DRAWER_FIGURES.has(id)) this.openDrawer();
        showStoryTarget($(`figure-${id}`), options);
      },
      openPanels: (ids) => ids.some((id) => DRAWER_FIGURES.has(id)) && this.openDrawer(),
      tokensInput: $('tokens'),
    });
  }

  #setState(state, notes) {
    this.state = state;
    if (notes) this.notes.set(notes);
    this.update();
  }

  /**
   * An edit of the form: its state (read once, from the event) becomes the page's, the form and the
   * URL follow it now, and the next animation frame computes and draws the latest edit. Until it
   * is drawn, body[data-busy] says so.
   */
  #edit(state, notes) {
    this.state = state;
    this.notes.set(notes);
    this.syncControls(state); // the limits the next edit is read against (k's range follows n)
    this.url.schedule();
    document.body.dataset.busy = 'true';
    if (!this.#frame) this.#frame = requestAnimationFrame(() => this.update());
  }

  // The workers could not compute the latest change (asked twice): said, and the page is no longer
  // busy (what it shows is the view before that change).
  #failed(message) {
    this.notes.set([message]);
    console.error(message);
    if (document.body.dataset.busy) delete document.body.dataset.busy;
    this.#computing(null);
  }

  // The line over the long view's panels while its workers compute (`state`), else empty: a large
  // view takes a second or more, and its panels are blank (or the last view's) until then.
  #computing(state) {
    const text = state
      ? `Computing n = ${state.seqLen}, k = ${state.maxDistance}${state.causal ? ', causal' : ''}…`
      : '';
    if ($('computing').textContent !== text) $('computing').textContent = text;
  }

  #request() {
    document.body.dataset.busy = 'true';
    this.#computing(this.state);
    this.figure.maxSide = this.#maxSide();
    const { long, seqLen, maxDistance } = this.state;
    const offsetGrid = long ? this.figure.offsetGrid(seqLen, maxDistance) : null; // block means in the worker too
    this.compute.request(this.state, offsetGrid);
  }

  async #showWorkerView(view, id) {
    this.figure.maxSide = this.#maxSide();
    this.#drawProfile(false);
    this.#sizePanels(view);
    await this.figure.setView(view, { progressive: true });
    if (this.compute.isLatest(id) && this.compute.view === view) this.drawn();
  }

  #select(offset, cell) {
    this.#highlightOffset = offset;
    this.#selectedCell = cell;
    this.#drawSides(false);
  }

  #drawSides(force) {
    if (!this.#sidesShown()) return; // drawn when "More panels" opens
    this.#drawProfile(force);
    this.sides.drawTables(this.compute.view, this.#selectedCell);
  }

  /** The profile and the tables are in "More panels" on the page, in the grid in the iframe view. */
  #sidesShown() {
    return this.embed || $('more-panels').open;
  }

  #drawProfile(force) {
    if (!this.#sidesShown()) return;
    // In the iframe view the profile shrinks with the fit.
    const height = this.fit ? Math.min(260, Math.max(120, this.fit.side + 60)) : 260;
    this.sides.drawProfile(this.compute.view, this.state, this.#highlightOffset, { height, force });
  }

  /**
   * A short sentence's panels sit two or three a row (up to 8 words: four from 1800 px, the four
   * main panels together); long ones (and the long view) get wide panels.
   */
  #sizePanels(view) {
    const roomy = !this.embed && (view.long || view.n > ROOMY_FROM); // the iframe view has its own grid
    const four = !this.embed && !view.long && view.n <= FOUR_UP_TO;
    const classes = { roomy, four, single: false };
    setPanelClasses(classes);
    // Panels whose words would give way to positions at their width, or stand nearly upright
    // (NEARLY_UPRIGHT): one a row where that labels them better (label-room.js decides, at the
    // widths laid out).
    if (this.embed || view.long || four) return;
    const two = labelFitRank(this.figure.axisLabelFit(view));
    if (two === 2) return;
    setPanelClasses({ ...classes, single: true });
    if (labelFitRank(this.figure.axisLabelFit(view)) <= two) setPanelClasses(classes);
  }

  #maxSide() {
    if (this.fit) return this.fit.side;
    if (this.embed) return PAGE_SIDE;
    return Math.min(PAGE_SIDE, Math.max(SHORT_SIDE_LEAST, innerHeight - SIDE_HEAD_ROOM));
  }

  #refit() {
    if (this.fit && this.compute.view) this.fit.refit();
  }
}

async function start() {
  document.getElementById('no-script')?.remove(); // the script runs
  adoptFigureCss(document, ':root');
  const themeNotes = [];
  const theme = applyPageTheme(new URLSearchParams(location.search), (note) => themeNotes.push(note));
  const { embed, shown, fit } = await viewOptions(location.search);
  const loaded = stateFromQuery(location.search);
  const rp = await sharedRelPos();
  const page = new Page({ rp, embed, shown, fit, state: loaded.state, theme });
  const corrected = [...loaded.notes, ...themeNotes].map((note) => `Link corrected: ${note}.`);
  page.start([...shown.notes, ...corrected]);
  // The sections loaded apart (the training section): their parameters in the address, their
  // notes on the link (made when they open) beside the page's.
  followLinkSections(page.url.schedule, page.notes.add);
}

start().catch((error) => {
  const message = document.createElement('p');
  message.className = 'fatal';
  message.textContent = `relpos could not start: ${error.message}`;
  document.body.prepend(message);
});
