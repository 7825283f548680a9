// The narrative at the top of the page: five predict-then-reveal steps. Each button sets the page
// up to show its step, and its reveal is written from numbers computed on the inputs the page
// then shows (before/after views from the same API the panels use), so every sentence is true
// for what is on screen.
import { seededRandom } from '../api/seeded-random.js';
import { setMathText } from '../figures/math-dom.js';
import { formatSignificant } from '../views/panels.js';
import { MAX_TOKENS, splitTokens } from '../settings/settings.js';
import { computeAttentionView } from '../views/view.js';

const f = (v) => formatSignificant(v, 2);
const percent = (v) => `${(100 * v).toFixed(0)} %`;

/** The largest |a[index] − b[perm(index)]| over an n × n matrix whose rows and columns moved. */
function permutedDifference(a, b, n, moved) {
  let worst = 0;
  for (let i = 0; i < n; i += 1) {
    for (let j = 0; j < n; j += 1) worst = Math.max(worst, Math.abs(a[i * n + j] - b[moved[i] * n + moved[j]]));
  }
  return worst;
}

/** The share of each row's weight within one position of the query, averaged over rows. */
export function nearShare(weights, n) {
  let share = 0;
  for (let i = 0; i < n; i += 1)
    for (let j = Math.max(0, i - 1); j <= Math.min(n - 1, i + 1); j += 1) share += weights[i * n + j];
  return share / n;
}

/** A permutation of 0..n−1 that moves every position when n > 1 (a seeded shuffle, redrawn until it does). */
function derangement(n, seed) {
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
 * Wires the story's buttons. page: { rp, state(), setState(patch), selectCell(cell), settingsOf(state) }.
 */
export function wireStory(root, page) {
  // Reveals are written in the math notation of render/math-text.js.
  const reveal = (name, text) => setMathText(root.querySelector(`[data-reveal="${name}"]`), text);
  const view = (state) => computeAttentionView(page.rp, page.settingsOf(state));
  let shuffles = 0;

  const steps = {
    shuffle() {
      const before = { ...page.state(), draw: 'stable', long: false };
      const words = splitTokens(before.tokens).slice(0, MAX_TOKENS);
      const n = words.length;
      shuffles += 1;
      const order = derangement(n, shuffles);
      const after = { ...before, tokens: order.map((p) => words[p]).join(' '), seqLen: n };
      const a = view({ ...before, seqLen: n });
      const b = view(after);
      // Word p of the old order stands at position moved[p] now.
      const moved = new Array(n);
      order.forEach((p, position) => {
        moved[p] = position;
      });
      const content = permutedDifference(a.result.contentWeights.data, b.result.contentWeights.data, n, moved);
      const combined = permutedDifference(a.result.combinedWeights.data, b.result.combinedWeights.data, n, moved);
      page.setState(after);
      reveal(
        'shuffle',
        `The content-only weights are the same numbers, moved with their words: put back in the old order they differ by at most ${f(content)} (rounding). ` +
          `The combined weights differ by up to ${f(combined)}: only the position term knows the order. (Stable numbers: a word keeps its vectors wherever it stands.)`,
      );
    },
    'same-query'() {
      const next = { ...page.state(), sameQuery: true, long: false };
      const v = view(next);
      const { n, maxDistance: k } = v;
      let spread = 0;
      for (let i = 0; i < n; i += 1) {
        for (let j = 0; j < n; j += 1) {
          const c = Math.min(k, Math.max(-k, j - i)) + k;
          spread = Math.max(spread, Math.abs(v.result.positionBiases.data[i * n + j] - v.profile.profile[c]));
        }
      }
      page.setState(next);
      reveal(
        'same-query',
        `Panel 2 is constant along every diagonal (a Toeplitz matrix): each diagonal equals one point of the profile below (largest difference ${f(spread)}). ` +
          'With real queries it is not: the row of a^K depends only on j − i, but each row reads it with its own q_i. Untick “same query in every row” to compare.',
      );
    },
    clip() {
      const before = { ...page.state(), long: false };
      const after = { ...before, maxDistance: 1 };
      const a = view(before);
      const b = view(after);
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
      page.setState(after);
      const stable = before.draw === 'stable';
      reveal(
        'clip',
        stable
          ? `From k = ${before.maxDistance} to 1, ${changed} of ${n * n} cells of panel 2 changed, ${changedNear} of them within |j − i| ≤ 1: clipping only moves the boundary. ` +
              'Beyond it every cell of a row now reads the edge row a^K[±1]: the dashed lines mark where that shared run starts.'
          : `With the handbook’s numbers, ${changed} of ${n * n} cells changed, ${changedNear} of them within |j − i| ≤ 1: that stream re-draws every number when k changes. Switch to stable numbers to see clipping alone.`,
      );
    },
    locality() {
      const base = { ...page.state(), long: false, table: 'locality' };
      const sameRandom = view({ ...base, sameQuery: true, table: 'random' });
      const same = view({ ...base, sameQuery: true });
      const real = view({ ...base, sameQuery: false });
      const { n } = same;
      const dK = real.result.inputs.q.cols;
      let pointing = 0;
      for (let i = 0; i < n; i += 1) if (real.result.inputs.q.data[i * dK] > 0) pointing += 1;
      page.setState({ ...base, sameQuery: true });
      reveal(
        'locality',
        `With one query for every row, ${percent(nearShare(same.result.combinedWeights.data, n))} of the weight stays within one position with the locality table, ` +
          `${percent(nearShare(sameRandom.result.combinedWeights.data, n))} with a random table (uniform attention: about ${percent(Math.min(3 * n - 2, n * n) / (n * n))}). ` +
          `With the words’ own queries it is ${percent(nearShare(real.result.combinedWeights.data, n))}: the bias is q_i · a^K/√d_k, so the bump (on the first dimension) draws a query to its neighbours only if the query’s first component is positive, ` +
          `as it is for ${pointing} of these ${n} queries; the others are pushed away. Untick “same query in every row” and read panel 5 row by row.`,
      );
    },
    output() {
      const state = { ...page.state(), long: false };
      const n = Math.min(state.seqLen, MAX_TOKENS);
      const cell = { i: Math.min(2, n - 1), j: Math.min(3, n - 1) };
      page.setState(state);
      page.selectCell(cell);
      reveal(
        'output',
        `The figure “What one cell is made of” now shows query ${cell.i}: its output split in two. The second part, Σ_j w_{ij} a^V[clip(j − i)], depends only on how the query’s weight spreads over offsets, ` +
          'not on which words stand there: a^V tells the output where the attended words were.',
      );
    },
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
    if (button) steps[button.dataset.story]();
  });
}
