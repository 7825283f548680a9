// The narrative beside the figures: six predict-then-reveal steps (story-steps.js). Each step's first button puts
// the page into the one state its lesson is written for (lessonState: the page's sentence and
// defaults, whatever was set before), computes its reveal in that state, and brings the panel it
// names into view. Its second button applies the same lesson to the reader's own sentence (the
// tokens kept, every other setting the lesson's). Every number in a reveal is computed with the API
// the panels use: for the state the step leaves on screen, or for a contrast state the reveal names.
import { setMathText } from '../figures/math-dom.js';
import { splitTokens } from '../settings/settings.js';
import { computeAttentionView } from '../views/view.js';
import { STEPS, lessonState } from './story-steps.js';

export { derangement, lessonState } from './story-steps.js';

const onOff = (v) => (v ? 'on' : 'off');
const quoted = (v) => `“${v}”`;
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

/**
 * The state a step puts the page into, and its reveal: on the lesson's sentence, or on
 * `ownTokens` (the reader's own sentence) when given.
 */
export function runStep(rp, settingsOf, name, ownTokens) {
  const api = {
    view: (state) => computeAttentionView(rp, settingsOf(state)),
    attention: (inputs) => rp.attention(inputs),
  };
  const own = Boolean(ownTokens);
  return STEPS[name].run(api, lessonState(own ? ownTokens : undefined), own);
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
  const behavior = matchMedia('(prefers-reduced-motion: reduce)').matches ? 'instant' : 'smooth';
  const tall = reveal.getBoundingClientRect().height > innerHeight - 16;
  reveal.scrollIntoView({ block: tall ? 'start' : 'nearest', behavior });
}

/** showReveal once the reveal's figure has its size (a ResizeObserver draws it before the next paint). */
const showRevealDrawn = (reveal) => requestAnimationFrame(() => requestAnimationFrame(() => showReveal(reveal)));

/**
 * Wires the story's buttons. page: { rp, state(), setState(state), selectCell(cell), showPanel(id)
 * (opens it if closed, scrolls to it), openPanels(ids) (the others a reveal names, opened in
 * place), settingsOf(state), tokensInput (the Tokens box) }.
 */
export function wireStory(root, page) {
  // Reveals are written in the math notation of render/math-text.js.
  const reveal = (name, text) => setMathText(root.querySelector(`[data-reveal="${name}"]`), text);
  // The reader's own sentence: the last one typed (or opened in a link), kept while steps show the lesson's.
  // The Tokens box's listener (wired first) has already put the typed words into page.state().
  const opened = page.state().tokens;
  let readerTokens = opened !== lessonState().tokens ? opened : undefined;
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
  const press = (name, own) => {
    const before = page.state();
    const ownTokens = own ? readerTokens : undefined;
    const step = runStep(page.rp, page.settingsOf, name, ownTokens);
    const changes = changedSettings(before, step.state);
    setMathText(
      root.querySelector(`[data-set="${name}"]`),
      changes ? `This step set ${changes}.` : 'The page already had this step’s settings.',
    );
    page.setState(step.state);
    if (step.cell) page.selectCell(step.cell);
    const label = ownTokens ? 'On your sentence: ' : 'You have not typed a sentence (Tokens), so on the lesson’s: ';
    reveal(name, own ? `${label}${step.text}` : step.text);
    setMathText(root.querySelector(`[data-numbers="${name}"]`), step.numbers || 'None for this sentence.');
    showFigure(name, step.figure);
    page.openPanels(STEPS[name].also ?? []);
    page.showPanel(STEPS[name].panel);
    showWithin(root.querySelector(`[data-reveal="${name}"]`).closest('details.reveal'));
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
  const stepBoxes = [...root.querySelectorAll('details.step')];
  for (const step of stepBoxes) {
    step.addEventListener('toggle', () => {
      if (step.open) for (const other of stepBoxes) if (other !== step && other.open) other.open = false;
    });
  }
  root.addEventListener('click', (event) => {
    const button = event.target.closest('[data-story]');
    if (button) press(button.dataset.story, button.dataset.own === 'true');
  });
}
