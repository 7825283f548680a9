// The narrative beside the figures: six predict-then-reveal steps (story-steps.js, loaded when the
// reader first comes near the story: a pointer over it, a touch or the keyboard's focus in it, at
// the latest a press). Each step's first button puts the page into the one state its lesson is
// written for (lessonState: the page's sentence and defaults, whatever was set before), computes
// its reveal in that state, and brings the panel it names into view. Its second button applies the
// same lesson to the reader's own sentence (the tokens kept, every other setting the lesson's).
// Every number in a reveal is computed with the API the panels use: for the state the step leaves
// on screen, or for a contrast state the reveal names. Once the reader changes that state, the
// reveal says it is the step's, not the panels' (staleText). Where the story is not beside the
// panels (a phone, a tablet), the panel a step scrolls to gets a button back to the step and its reveal.
import { setMathText } from '../figures/math-dom.js';
import { literalMath } from '../render/math-text.js';
import { ATTENTION_SETTINGS, defaultState, splitTokens } from '../settings/settings.js';
import { scrollBehavior } from './scroll-motion.js';

const onOff = (v) => (v ? 'on' : 'off');
// A reader's words, quoted: isolated from the text around them (U+2068 … U+2069: a right-to-left
// sentence keeps its order and leaves the line's), their ^ and _ not read as scripts.
const quoted = (v) => `“\u2068${literalMath(v)}\u2069”`;
const plain = (v) => String(v);
/** How each setting a step may change is named in the line that says what it changed: [name, value]. */
const SETTING_TEXT = {
  tokens: ['the words ', quoted],
  maxDistance: ['k = ', plain],
  causal: ['causal mask ', onOff],
  sameQuery: ['same query in every row ', onOff],
  table: ['table: ', plain],
  draw: ['numbers: ', (v) => (v === 'stable' ? 'stable' : 'the handbook’s')],
  strength: ['bump height ', plain],
  width: ['width σ ', plain],
  asymmetry: ['asymmetry ', plain],
  noise: ['noise ', plain],
  seed: ['seed ', plain],
  dK: ['d_k = ', plain],
  seqLen: ['n = ', plain],
  long: ['long sequences ', onOff],
};

/** The settings a step changed, "k = 3 (was 0), causal mask off (was on)", or '' when none. */
export function changedSettings(before, after) {
  const changes = [];
  for (const [name, [label, value]] of Object.entries(SETTING_TEXT)) {
    if (before[name] === after[name]) continue;
    // n follows the words when each state shows all of its words; else it is said too.
    const showsAll = (state) => splitTokens(state.tokens).length === state.seqLen;
    if (name === 'seqLen' && before.tokens !== after.tokens && showsAll(before) && showsAll(after)) continue;
    changes.push(`${label}${value(after[name])} (was ${value(before[name])})`);
  }
  return changes.join(', ');
}

/** The settings that shape what the panels show: a step's reveal holds while the page has the step's. */
const SHOWN_SETTINGS = [...ATTENTION_SETTINGS, 'long'];

/**
 * What a step's reveal and its line say once the page's settings (`now`) are no longer the ones
 * the step left (`made`), or null while they are: { line: appended to the step's line, notice: at
 * the top of its reveal }. `button`: the label of the button that ran the step.
 */
export function staleText(made, now, button) {
  if (SHOWN_SETTINGS.every((name) => made[name] === now[name])) return null;
  return {
    line: 'You have changed the settings since.',
    notice: `Out of date: this Reveal is for the step’s settings, and you have changed ${changedSettings(made, now)} since. Press “${button}” again to see it on the panels.`,
  };
}

/** Scrolls the story's own scrolling column (beside the figures) so that `element` is in it; never the window. */
function showWithin(element) {
  for (let box = element.parentElement; box; box = box.parentElement) {
    const { overflowY } = getComputedStyle(box);
    if (overflowY !== 'auto' && overflowY !== 'scroll') continue;
    const over = element.getBoundingClientRect().bottom - box.getBoundingClientRect().bottom;
    if (over > 0) box.scrollTop += over + 8;
    return;
  }
}

/**
 * Brings an opened reveal into view: the story's own scrolling column (beside the figures) and
 * the window, its top in view, and as much of it below as fits.
 */
function showReveal(reveal) {
  const tall = reveal.getBoundingClientRect().height > innerHeight - 16;
  reveal.scrollIntoView({ block: tall ? 'start' : 'nearest', behavior: scrollBehavior() });
}

/** showReveal once the reveal's figure has its size (a ResizeObserver draws it before the next paint). */
const showRevealDrawn = (reveal) => requestAnimationFrame(() => requestAnimationFrame(() => showReveal(reveal)));

/** Whether two boxes stand side by side (no column of one overlaps the other's). */
const besideEachOther = (a, b) => a.right <= b.left || b.right <= a.left;

/**
 * Wires the story's buttons. page: { rp, state(), setState(state), selectCell(cell),
 * showPanel(id, { block }) (opens it if closed, scrolls to it: its top to the window's top with
 * block 'start'), openPanels(ids) (the others a reveal names, opened in
 * place), settingsOf(state), tokensInput (the Tokens box) }. The page tells that it drew a change
 * with the event 'relpos-drawn' on document.
 */
export function wireStory(root, page) {
  // Reveals are written in the math notation of render/math-text.js.
  const reveal = (name, text) => setMathText(root.querySelector(`[data-reveal="${name}"]`), text);
  const revealBox = (name) => root.querySelector(`[data-reveal="${name}"]`).closest('details.reveal');
  const stepBoxes = [...root.querySelectorAll('details.step')];
  // The reader's own sentence: the last one typed (or opened in a link), kept while steps show the lesson's.
  // The Tokens box's listener (wired first) has already put the typed words into page.state().
  const opened = page.state().tokens;
  let readerTokens = opened !== defaultState().tokens ? opened : undefined; // the lesson's sentence is the default
  page.tokensInput.addEventListener('input', () => {
    const typed = page.state().tokens;
    if (splitTokens(typed).length > 0) readerTokens = typed;
  });
  // Each reveal's figure (figures/reveal-figure.js), loaded the first time a step runs.
  let figureModule = null;
  const figures = new Map();
  const showFigure = (name, figure) => {
    const box = root.querySelector(`[data-figure="${name}"]`);
    if (!box) return;
    if (!figure) {
      box.hidden = true;
      return;
    }
    figureModule ??= import('../figures/reveal-figure.js');
    figureModule
      .then(({ RevealFigure }) => {
        if (!figures.has(name)) figures.set(name, new RevealFigure(box));
        figures.get(name).show(figure);
      })
      .catch((error) => {
        box.hidden = false;
        box.textContent = `The figure could not be drawn: ${error.message}`;
      });
  };
  // Each step pressed: the settings it left on the page, its line, the label of the button that
  // ran it, and whether its reveal is out of date.
  const made = new Map();
  const notices = new Map();
  for (const box of root.querySelectorAll('details.reveal')) {
    const notice = document.createElement('p');
    notice.className = 'reveal-stale';
    notice.hidden = true;
    box.querySelector(':scope > summary').after(notice);
    notices.set(box, notice);
  }
  /** Marks each step's reveal, and its line, out of date while the page's settings are not the step's. */
  const markStale = () => {
    const now = page.state();
    for (const [name, step] of made) {
      const stale = staleText(step.state, now, step.button);
      const box = revealBox(name);
      const notice = notices.get(box);
      const text = stale?.notice ?? '';
      if (notice.textContent !== text) {
        notice.hidden = !stale;
        setMathText(notice, text);
      }
      if (step.stale === Boolean(stale)) continue; // the line (read out as it changes) changes only with the state
      step.stale = Boolean(stale);
      box.classList.toggle('stale', step.stale);
      setMathText(root.querySelector(`[data-set="${name}"]`), stale ? `${step.line} ${stale.line}` : step.line);
    }
  };
  document.addEventListener('relpos-drawn', markStale);
  // Where the story is not beside the panels, the panel a step scrolls to has a way back to the step.
  const back = document.createElement('button');
  back.type = 'button';
  back.className = 'story-back';
  back.addEventListener('click', () => {
    const name = back.dataset.step;
    back.remove();
    const box = revealBox(name);
    box.closest('details.step').open = true;
    if (box.open) showReveal(box);
    else box.open = true; // its toggle brings it into view, drawn
    box.querySelector(':scope > summary').focus({ preventScroll: true });
  });
  const press = ({ STEPS, runStep }, name, own) => {
    const before = page.state();
    const ownTokens = own ? readerTokens : undefined;
    const step = runStep(page.rp, page.settingsOf, name, ownTokens);
    const changes = changedSettings(before, step.state);
    const line = changes ? `This step set ${changes}.` : 'The page already had this step’s settings.';
    setMathText(root.querySelector(`[data-set="${name}"]`), line);
    const button = root.querySelector(`[data-story="${name}"]${own ? '[data-own]' : ':not([data-own])'}`).textContent;
    made.set(name, { state: { ...before, ...step.state }, line, button, stale: false });
    notices.get(revealBox(name)).hidden = true; // emptied by markStale once the step's state is drawn
    revealBox(name).classList.remove('stale');
    page.setState(step.state);
    if (step.cell) page.selectCell(step.cell);
    const label = ownTokens ? 'On your sentence: ' : 'You have not typed a sentence (Tokens), so on the lesson’s: ';
    reveal(name, own ? `${label}${step.text}` : step.text);
    setMathText(root.querySelector(`[data-numbers="${name}"]`), step.numbers || 'None for this sentence.');
    showFigure(name, step.figure);
    page.openPanels(STEPS[name].also ?? []);
    // The step and the panel side by side (the story's column beside the figures), or one above the other.
    const stepBox = revealBox(name).closest('details.step');
    const target = root.ownerDocument.getElementById(`figure-${STEPS[name].panel}`);
    page.openPanels([STEPS[name].panel]);
    const apart = target && !besideEachOther(stepBox.getBoundingClientRect(), target.getBoundingClientRect());
    back.remove();
    if (apart) {
      back.dataset.step = name;
      back.textContent = `↑ Back to step ${stepBoxes.indexOf(stepBox) + 1} and its Reveal`;
      target.prepend(back);
    }
    page.showPanel(STEPS[name].panel, { block: apart ? 'start' : 'nearest' });
    showWithin(revealBox(name));
  };
  // An opened reveal is brought into view (the story's column, and the window on a phone).
  for (const details of root.querySelectorAll('details.reveal')) {
    details.addEventListener('toggle', () => {
      if (details.open) showRevealDrawn(details);
    });
  }
  // A link to the handbook's corrections (#handbook, from the footer) opens them.
  const handbook = root.querySelector('#handbook');
  const followHandbook = () => {
    if (!handbook || location.hash !== '#handbook') return;
    handbook.open = true;
    handbook.scrollIntoView({ block: 'start' });
  };
  addEventListener('hashchange', followHandbook);
  followHandbook();
  // One step open at a time (an accordion), so the story stays short beside the figures.
  for (const step of stepBoxes) {
    step.addEventListener('toggle', () => {
      if (step.open) for (const other of stepBoxes) if (other !== step && other.open) other.open = false;
    });
  }
  // The steps' module, loaded as the reader comes near the story; a press waits for it, the page
  // busy (body[data-busy]) until the step's state is drawn.
  let steps = null;
  const loadSteps = () => (steps ??= import('./story-steps.js'));
  for (const type of ['pointerover', 'touchstart', 'focusin'])
    root.addEventListener(type, loadSteps, { once: true, passive: true });
  root.addEventListener('click', (event) => {
    const button = event.target.closest('[data-story]');
    if (!button) return;
    document.body.dataset.busy = 'true';
    const { story: name, own } = button.dataset;
    loadSteps()
      .then((module) => press(module, name, own === 'true'))
      .catch((error) => {
        delete document.body.dataset.busy;
        setMathText(root.querySelector(`[data-set="${name}"]`), `The step could not run: ${error.message}`);
      });
  });
}
