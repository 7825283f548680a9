// The narrative beside the figures: five predict-then-reveal steps. Each step's first button puts
// the page into the one state its lesson is written for (lessonState: the page's sentence and
// defaults, whatever was set before), computes its reveal in that state, and brings the panel it
// names into view. Its second button applies the same lesson to the reader's own sentence (the
// tokens kept, every other setting the lesson's). Every number in a reveal is computed with the API
// the panels use: for the state the step leaves on screen, or for a contrast state the reveal names.
import { seededRandom } from '../api/seeded-random.js';
import { setMathText } from '../figures/math-dom.js';
import { formatSignificant } from '../views/panels.js';
import { ATTENTION_SETTINGS, MAX_TOKENS, defaultState, splitTokens } from '../settings/settings.js';
import { computeAttentionView } from '../views/view.js';
import { nearShare, sharePercent as percent, uniformNearShare } from '../views/near-share.js';

const f = (v) => formatSignificant(v, 2);

/**
 * The settings every step starts from: the page's defaults for everything that shapes the panels
 * (k = 3, no causal mask, each word its own query, the locality table with bump height 8, stable
 * numbers, seed 42, d_k 4), in the sentence view, on `tokens` (the page's sentence unless given).
 */
export function lessonState(tokens) {
  const defaults = defaultState();
  const lesson = Object.fromEntries(ATTENTION_SETTINGS.map((name) => [name, defaults[name]]));
  lesson.long = false;
  if (tokens !== undefined) lesson.tokens = tokens;
  lesson.seqLen = Math.max(1, Math.min(MAX_TOKENS, splitTokens(lesson.tokens).length));
  return lesson;
}

/** The largest |a[index] − b[perm(index)]| over an n × n matrix whose rows and columns moved. */
function permutedDifference(a, b, n, moved) {
  let worst = 0;
  for (let i = 0; i < n; i += 1) {
    for (let j = 0; j < n; j += 1) worst = Math.max(worst, Math.abs(a[i * n + j] - b[moved[i] * n + moved[j]]));
  }
  return worst;
}

/** A permutation of 0..n−1 that moves every position when n > 1 (a seeded shuffle, redrawn until it does). */
export function derangement(n, seed) {
  const next = seededRandom(seed);
  for (;;) {
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i -= 1) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    if (n < 2 || order.every((p, i) => p !== i)) return order;
  }
}

/**
 * Each step: the panel it names (and `also`, the panels its reveal refers to), and run(view, lesson, own) → { state, text }: the state the page
 * is put into and the reveal, computed in it. `lesson` is lessonState() (or on the reader's
 * tokens when `own`); `view(state)` computes a state's view.
 */
const STEPS = {
  shuffle: {
    panel: 'contentWeights',
    run(view, lesson, own) {
      const words = splitTokens(lesson.tokens).slice(0, MAX_TOKENS);
      const n = words.length;
      if (n < 2) return { state: lesson, text: 'Shuffling needs at least two words: type a sentence first.' };
      // The lesson's shuffle is always the same one; the reader's own sentence gets a new one each press.
      const order = derangement(n, own ? (STEPS.shuffle.presses += 1) : 1);
      const after = { ...lesson, tokens: order.map((p) => words[p]).join(' '), seqLen: n };
      const a = view(lesson);
      const b = view(after);
      const moved = new Array(n); // word p of the old order stands at position moved[p] now
      order.forEach((p, position) => {
        moved[p] = position;
      });
      const content = permutedDifference(a.result.contentWeights.data, b.result.contentWeights.data, n, moved);
      const combined = permutedDifference(a.result.combinedWeights.data, b.result.combinedWeights.data, n, moved);
      return {
        state: after,
        text:
          `“${lesson.tokens}” became “${after.tokens}”. The content-only weights (panel 3) are the same numbers, moved with their words: put back in the old order they differ by at most ${f(content)} (rounding). ` +
          `The combined weights (panel 4) differ by up to ${f(combined)}: only the position term knows the order. (Stable numbers: a word keeps its vectors wherever it stands.)`,
      };
    },
    presses: 1,
  },
  'same-query': {
    panel: 'positionBiases',
    also: ['profile'], // the reveal compares with panel 8
    run(view, lesson) {
      const state = { ...lesson, sameQuery: true };
      const v = view(state);
      const { n, maxDistance: k } = v;
      let spread = 0;
      for (let i = 0; i < n; i += 1) {
        for (let j = 0; j < n; j += 1) {
          const c = Math.min(k, Math.max(-k, j - i)) + k;
          spread = Math.max(spread, Math.abs(v.result.positionBiases.data[i * n + j] - v.profile.profile[c]));
        }
      }
      return {
        state,
        text:
          `Panel 2 is constant along every diagonal (a Toeplitz matrix): each diagonal equals one point of the profile (panel 8; largest difference ${f(spread)}). ` +
          'With real queries it is not: the row of a^K depends only on j − i, but each row reads it with its own q_i. Untick “same query in every row” to compare.',
      };
    },
  },
  clip: {
    panel: 'positionBiases',
    run(view, lesson) {
      const state = { ...lesson, maxDistance: 1 };
      const a = view(lesson);
      const b = view(state);
      const { n } = a;
      let changed = 0;
      let changedNear = 0;
      for (let i = 0; i < n; i += 1) {
        for (let j = 0; j < n; j += 1) {
          if (a.result.positionBiases.data[i * n + j] === b.result.positionBiases.data[i * n + j]) continue;
          changed += 1;
          if (Math.abs(j - i) <= 1) changedNear += 1;
        }
      }
      const k = lesson.maxDistance;
      if (changed === 0)
        return {
          state,
          text: `Compared with k = ${k}, the lesson’s k, none of the ${n * n} cells of panel 2 changed at k = 1: with ${n} word${n === 1 ? '' : 's'} no offset |j − i| is larger than 1, so nothing is clipped and no dashed line is drawn.`,
        };
      const where =
        changedNear === 0
          ? 'clipping only changes the cells beyond the new boundary'
          : 'the cells near the diagonal changed too';
      return {
        state,
        text:
          `Compared with k = ${k}, the lesson’s k, ${changed} of ${n * n} cells of panel 2 changed at k = 1, ${changedNear} of them within |j − i| ≤ 1: ${where}. ` +
          'There every cell of a row now reads the edge row a^K[±1]: the dashed lines mark where that shared run starts.',
      };
    },
  },
  locality: {
    panel: 'combinedWeights',
    also: ['difference'], // the reveal asks to read panel 5
    run(view, lesson) {
      const state = { ...lesson, sameQuery: true };
      const same = view(state);
      const sameRandom = view({ ...state, table: 'random' });
      const real = view(lesson);
      const { n } = same;
      const dK = real.result.inputs.q.cols;
      let pointing = 0;
      for (let i = 0; i < n; i += 1) if (real.result.inputs.q.data[i * dK] > 0) pointing += 1;
      // What the reveal's figure draws (figures/locality-contrast.js): the same numbers as its text.
      const map = (table, v) => ({
        table,
        weights: v.result.combinedWeights.data,
        share: nearShare(v.result.combinedWeights.data, n),
      });
      const contrast = {
        n,
        tokens: same.tokens,
        causal: state.causal,
        maps: [map('locality', same), map('random', sameRandom)],
        own: nearShare(real.result.combinedWeights.data, n),
        uniform: uniformNearShare(n, state.causal),
      };
      const [locality, random] = contrast.maps;
      return {
        state,
        contrast,
        text:
          `With one query for every row, ${percent(locality.share)} of the weight stays within one position with the locality table, ` +
          `${percent(random.share)} with a random table (uniform attention: about ${percent(contrast.uniform)}). ` +
          `With the words’ own queries it is ${percent(contrast.own)}: the bias is q_i · a^K/√d_k, so the bump (on the first dimension) draws a query to its neighbours only if the query’s first component is positive, ` +
          `as it is for ${pointing} of these ${n} queries; the others are pushed away. Untick “same query in every row” and read panel 5 row by row.`,
      };
    },
  },
  output: {
    panel: 'tables',
    run(view, lesson) {
      const n = lesson.seqLen;
      const cell = { i: Math.min(2, n - 1), j: Math.min(3, n - 1) };
      return {
        state: lesson,
        cell,
        text:
          `The figure “What one cell is made of” (panel 7) now shows query ${cell.i}: its output split in two. The second part, Σ_j w_{ij} a^V[clip(j − i)], depends only on how the query’s weight spreads over offsets, ` +
          'not on which words stand there: a^V tells the output where the attended words were.',
      };
    },
  },
};

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
 * The state a step puts the page into, and its reveal text: on the lesson's sentence, or on
 * `ownTokens` (the reader's own sentence) when given.
 */
export function runStep(rp, settingsOf, name, ownTokens) {
  const view = (state) => computeAttentionView(rp, settingsOf(state));
  const own = Boolean(ownTokens);
  return STEPS[name].run(view, lessonState(own ? ownTokens : undefined), own);
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
  // Step 4's reveal drawn (figures/locality-contrast.js), loaded the first time the step runs.
  const contrastBox = root.querySelector('[data-contrast="locality"]');
  let contrastFigure = null;
  const showContrast = (contrast) => {
    contrastFigure ??= import('../figures/locality-contrast.js').then(
      ({ LocalityContrast }) => new LocalityContrast(contrastBox),
    );
    contrastFigure
      .then((figure) => figure.show(contrast))
      .catch((error) => {
        contrastBox.hidden = false;
        contrastBox.textContent = `The figure could not be drawn: ${error.message}`;
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
    if (step.contrast && contrastBox) showContrast(step.contrast);
    page.openPanels(STEPS[name].also ?? []);
    page.showPanel(STEPS[name].panel);
    showWithin(root.querySelector(`[data-reveal="${name}"]`).closest('details.reveal'));
  };
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
