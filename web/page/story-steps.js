// The story's six steps (web/page/story.js wires them): for each, the state its button puts the
// page into, and the reveal computed in it: a figure (web/figures/reveal-figure.js draws it), one
// or two sentences, and the numbers behind them. Every number is computed with the API the panels
// use: for the state the step leaves on screen, or for a contrast the reveal names.
import { seededRandom } from '../api/seeded-random.js';
import { SIGN_COLOURS } from '../render/colormaps.js';
import { bandEdgePaths } from '../render/heatmap.js';
import { formatFixed, formatSignificant } from '../render/number-text.js';
import { ATTENTION_SETTINGS, MAX_TOKENS, defaultState, splitTokens } from '../settings/settings.js';
import { nearShare, sharePercent as percent, uniformNearShare } from '../views/near-share.js';
import { computeAttentionView } from '../views/view.js';
import { offsetGroupText } from '../views/offset-group.js';

const f = (v) => formatSignificant(v, 2);
// A bias as the tooltips and panel 2 give it (3 significant digits: +11.7, not +12 beside 11.71).
const signed = (v) => (v > 0 ? `+${formatSignificant(v, 3)}` : formatSignificant(v, 3));

/**
 * Step 5's numbers as written, so that a reader's calculator agrees (w' = w · exp(b) / Σ_l w_l
 * exp(b_l), docs/maths.md): the weights to the fewest significant digits d (2 to 5) at which they
 * differ and at which the working, carried to two digits more (the bias to d + 1 decimals), gives
 * the weight after as written: `before × exp / mean = after`.
 */
export function byHandDigits(bias, before, after, mean) {
  const read = (text) => Number(text.replace(/−/g, '-'));
  let written = null;
  for (let digits = 2; digits <= 5; digits += 1) {
    const at = (v, d = digits) => formatSignificant(v, d);
    const b = formatFixed(bias, digits + 1);
    const working = {
      bias: b,
      exp: at(Math.exp(read(b)), digits + 2),
      mean: at(mean, digits + 2),
      before: at(before, digits + 2),
    };
    written = { ...working, weightBefore: at(before), weightAfter: at(after) };
    const byHand = at((read(working.before) * read(working.exp)) / read(working.mean));
    if (written.weightBefore !== written.weightAfter && byHand === written.weightAfter) break;
  }
  return written;
}

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

/** b's n × n matrix with its rows and columns put back in a's order: word p of a stands at moved[p] in b. */
function putBack(b, n, moved) {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i += 1) for (let j = 0; j < n; j += 1) out[i * n + j] = b[moved[i] * n + moved[j]];
  return out;
}

/** The largest |a − b| over two arrays of one length (0 when empty). */
function largestDifference(a, b) {
  let worst = 0;
  for (let index = 0; index < a.length; index += 1) worst = Math.max(worst, Math.abs(a[index] - b[index]));
  return worst;
}

/** The largest range (max − min) of one diagonal's cells. */
function diagonalRange(values, n) {
  let worst = 0;
  for (let offset = -(n - 1); offset < n; offset += 1) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = Math.max(0, -offset); i < n && i + offset < n; i += 1) {
      const v = values[i * n + i + offset];
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    worst = Math.max(worst, hi - lo);
  }
  return worst;
}

const words = (view) => view.tokens.map((token, i) => token || String(i));

/** Whether a map of n × n cells with bandEdges k gets dashed lines (heatmap.js draws bandEdgePaths' lines). */
const dashedLines = (n, k) => bandEdgePaths(n, k).length > 0;

/**
 * Each step: the panel it names (and `also`, the panels its reveal refers to), and
 * run(api, lesson, own) → { state, text, numbers, figure, cell }: the state the page is put into,
 * the reveal's sentences, its numbers, its figure and the cell to select. `lesson` is
 * lessonState() (or on the reader's tokens when `own`); api.view(state) computes a state's view,
 * api.attention(inputs) calls the API's attention().
 */
export const STEPS = {
  shuffle: {
    panel: 'contentWeights',
    run({ view }, lesson, own) {
      const tokens = splitTokens(lesson.tokens).slice(0, MAX_TOKENS);
      const n = tokens.length;
      if (n < 2)
        return {
          state: lesson,
          text: 'Shuffling needs at least two words: type a sentence of two words or more.',
          numbers: '',
        };
      // One word repeated: every order is the same sentence, so no press can change the panels.
      if (new Set(tokens).size === 1)
        return {
          state: lesson,
          text: `Every word is “${tokens[0]}”: any order gives the same sentence, so the panels cannot change. Type a sentence with different words to shuffle.`,
          numbers: '',
        };
      // The lesson's shuffle is always the same one; the reader's own sentence gets a new one each press.
      const order = derangement(n, own ? (STEPS.shuffle.presses += 1) : 1);
      const after = { ...lesson, tokens: order.map((p) => tokens[p]).join(' '), seqLen: n };
      if (after.tokens === tokens.join(' '))
        return {
          state: after,
          text: `Each word went where the same word stood: the sentence is unchanged, and so are the panels. Press again for another shuffle.`,
          numbers: '',
        };
      const a = view(lesson);
      const b = view(after);
      const moved = new Array(n); // word p of the old order stands at position moved[p] now
      order.forEach((p, position) => {
        moved[p] = position;
      });
      const contentBack = putBack(b.result.contentWeights.data, n, moved);
      const combinedBack = putBack(b.result.combinedWeights.data, n, moved);
      const content = largestDifference(a.result.contentWeights.data, contentBack);
      const combined = largestDifference(a.result.combinedWeights.data, combinedBack);
      const map = (key, title, values) => ({ key, title, kind: 'weights', values });
      return {
        state: after,
        text: 'The content-only weights (panel 3) are the same numbers, moved with their words; the combined weights (panel 4) change: only the position term knows the order.',
        numbers:
          `“${lesson.tokens}” became “${after.tokens}”. Put back in the old order, ${sameOrRounding(content)}, ` +
          `and the combined weights differ by up to ${f(combined)}.`,
        figure: {
          n,
          tokens: a.tokens,
          causal: false,
          maps: [
            map('content-before', 'content-only, before', a.result.contentWeights.data),
            map('content-after', 'content-only, after', contentBack),
            map('combined-before', 'combined, before', a.result.combinedWeights.data),
            map('combined-after', 'combined, after', combinedBack),
          ],
          caption:
            'After the shuffle, each word’s row and column put back where it stood, so the pictures can be compared cell by cell; one colour scale for all four.',
        },
      };
    },
    presses: 1,
  },
  'same-query': {
    panel: 'positionBiases',
    also: ['profile'], // the reveal compares with panel 8
    run({ view }, lesson) {
      const state = { ...lesson, sameQuery: true };
      const own = view(lesson);
      const v = view(state);
      const { n, maxDistance: k } = v;
      let spread = 0;
      for (let i = 0; i < n; i += 1) {
        for (let j = 0; j < n; j += 1) {
          const c = Math.min(k, Math.max(-k, j - i)) + k;
          spread = Math.max(spread, Math.abs(v.result.positionBiases.data[i * n + j] - v.profile.profile[c]));
        }
      }
      const ownRange = diagonalRange(own.result.positionBiases.data, n);
      // One word repeated (stable numbers: one vector per word): every row has the same query, so
      // the words' own queries give constant diagonals too.
      const sentence = splitTokens(lesson.tokens).slice(0, MAX_TOKENS);
      const same =
        new Set(sentence).size === 1
          ? `every word is “${sentence[0]}”, so every row has the same query`
          : 'every row reads a^K alike';
      let text =
        'With one query u for every row, each diagonal (one offset j − i) is one colour: a Toeplitz matrix, constant along its diagonals. ';
      if (n < 2)
        text =
          'With one word there is one cell, on the one diagonal: type a sentence to see the diagonals. With one query u for every row, each diagonal (one offset j − i) is one colour; with the words’ own queries, each row reads a^K its own way.';
      else if (ownRange === 0)
        text += `Here the words’ own queries give one too: ${same}. Type different words to see each row read a^K its own way.`;
      else text += 'With the words’ own queries it is not: each row reads a^K its own way.';
      return {
        state,
        text,
        numbers:
          `With u, each diagonal equals one point of the profile (panel 8; largest difference ${f(spread)}). ` +
          (ownRange === 0
            ? 'With the words’ own queries, the cells of each diagonal are equal too (largest difference 0).'
            : `With the words’ own queries, the cells of one diagonal differ by up to ${f(ownRange)}.`),
        figure: {
          n,
          tokens: v.tokens,
          causal: false,
          maps: [
            {
              key: 'own',
              title: 'own queries q_i',
              kind: 'signed',
              values: own.result.positionBiases.data,
              bandEdges: k,
              group: 'own',
            },
            {
              key: 'same',
              title: 'one query u',
              kind: 'signed',
              values: v.result.positionBiases.data,
              bandEdges: k,
              group: 'same',
            },
          ],
          // Each its own scale: what the step shows is the pattern (constant diagonals), and u's
          // biases may be a fraction of the words' own, faint on their scale.
          caption:
            'Panel 2, the position biases, before and after, each map on its own colour scale (read its bar), so that the diagonals show however small the biases' +
            (dashedLines(n, k) ? '; dashed lines: where clipping at k starts.' : '.'),
        },
      };
    },
  },
  clip: {
    panel: 'positionBiases',
    run({ view }, lesson) {
      const state = { ...lesson, maxDistance: 1 };
      const a = view(lesson);
      const b = view(state);
      const { n } = a;
      const k = lesson.maxDistance;
      const changedCells = [];
      let changedNear = 0;
      for (let i = 0; i < n; i += 1) {
        for (let j = 0; j < n; j += 1) {
          if (a.result.positionBiases.data[i * n + j] === b.result.positionBiases.data[i * n + j]) continue;
          changedCells.push([i, j]);
          if (Math.abs(j - i) <= 1) changedNear += 1;
        }
      }
      const changed = changedCells.length;
      const figure = {
        n,
        tokens: a.tokens,
        causal: false,
        maps: [
          { key: 'before', title: `k = ${k}`, kind: 'signed', values: a.result.positionBiases.data, bandEdges: k },
          {
            key: 'after',
            title: 'k = 1',
            kind: 'signed',
            values: b.result.positionBiases.data,
            bandEdges: 1,
            outlined: changedCells,
            region: true, // one line around them: at 11 px a cell, 20 boxed cells hid their colours
          },
        ],
        caption:
          `Panel 2 at k = ${k} and at k = 1, one colour scale${changed ? '; a solid line encloses the cells that changed' : ''}.` +
          (dashedLines(n, k) || dashedLines(n, 1)
            ? ' Dashed lines: where each row’s shared run of the edge row starts.'
            : ''),
      };
      const tables = `a^K and a^V have 2k + 1 rows each: ${2 * k + 1} at k = ${k}, 3 at k = 1.`;
      if (changed === 0)
        return {
          state,
          figure,
          text:
            n === 1
              ? 'With one word the only offset is 0: nothing is clipped.'
              : `With ${n} words no offset |j − i| is larger than 1: nothing is clipped.`,
          numbers: `Compared with k = ${k}, the lesson’s k, ${n === 1 ? 'the one cell of panel 2 did not change' : `none of the ${n * n} cells of panel 2 changed`} at k = 1. ${tables}`,
        };
      // Two distances the model no longer tells apart at k = 1, both in this sentence (changed
      // cells need n ≥ 3): offsets 1 and 2 and beyond all read a^K[±1].
      const far = Math.min(5, n - 1);
      const apart =
        far > 2
          ? `a word 2 places away from one ${far} places away`
          : 'a word next to the query from one 2 places away';
      const where =
        changedNear === 0
          ? 'clipping only changes the cells beyond the new boundary'
          : 'the cells near the diagonal changed too';
      return {
        state,
        figure,
        text:
          `Beyond k every offset reads the same edge row, so the model can no longer tell ${apart}. ` +
          'Shaw et al. clip anyway: precise far distances helped little, and 2k + 1 rows serve sentences of any length, even longer than any seen in training.',
        numbers:
          `Compared with k = ${k}, the lesson’s k, ${changed} of ${n * n} cells of panel 2 changed at k = 1, ${changedNear} of them within |j − i| ≤ 1: ${where}. ` +
          tables,
      };
    },
  },
  locality: {
    panel: 'combinedWeights',
    also: ['difference'], // the reveal asks to read panel 5
    run({ view }, lesson) {
      const state = { ...lesson, sameQuery: true };
      const same = view(state);
      const sameRandom = view({ ...state, table: 'random' });
      const real = view(lesson);
      const { n } = same;
      const dK = real.result.inputs.q.cols;
      let pointing = 0;
      for (let i = 0; i < n; i += 1) if (real.result.inputs.q.data[i * dK] > 0) pointing += 1;
      const shares = {
        locality: nearShare(same.result.combinedWeights.data, n),
        random: nearShare(sameRandom.result.combinedWeights.data, n),
        own: nearShare(real.result.combinedWeights.data, n),
        uniform: uniformNearShare(n, state.causal),
      };
      const band = nearBandText(n);
      const map = (key, v) => ({
        key,
        title: `${key} table: ${percent(shares[key])} within one position`,
        kind: 'weights',
        values: v.result.combinedWeights.data,
        bandEdges: 2, // the edge of |j − i| ≤ 1, drawn between offsets 1 and 2
        share: shares[key],
      });
      return {
        state,
        text: localityText(shares, n),
        numbers:
          n <= 2
            ? `With ${n} word${n === 1 ? '' : 's'}, all of every row’s weight is within one position whatever the table and the queries (${percent(shares.locality)}): the bars cannot differ.`
            : `With one query for every row, ${percent(shares.locality)} of the weight stays within one position with the locality table, ` +
              `${percent(shares.random)} with a random table (uniform attention: about ${percent(shares.uniform)}). ` +
              `With the words’ own queries it is ${percent(shares.own)}: the bias is q_i · a^K/√d_k, so the bump draws a query to its neighbours only if the query’s first component is positive, ` +
              `${pointingText(pointing, n)} Untick “same query in every row” and read panel 5 row by row.`,
        figure: {
          n,
          tokens: same.tokens,
          causal: state.causal,
          maps: [map('locality', same), map('random', sameRandom)],
          bars: {
            bars: [
              { label: 'locality', value: shares.locality },
              { label: 'random', value: shares.random },
              { label: 'own queries', value: shares.own },
            ],
            reference: { label: 'uniform', value: shares.uniform },
            format: percent,
            yLabel: '% within ±1',
          },
          shares,
          caption:
            `Combined weights (panel 4) with the same query in every row, the two tables on one colour scale. ${band} ` +
            `Bars: the share of each row’s weight within one position, averaged over the rows: ${percent(shares.locality)} with the locality table, ${percent(shares.random)} with a random one, ` +
            `${percent(shares.own)} with the locality table and the words’ own queries; the dashed line is uniform attention’s ${percent(shares.uniform)}.`,
        },
      };
    },
  },
  softmax: {
    panel: 'difference',
    run({ view }, lesson) {
      const v = view(lesson);
      const { n } = v;
      const bias = v.result.positionBiases.data;
      const before = v.result.contentWeights.data;
      const after = v.result.combinedWeights.data;
      // The cell with the largest positive bias whose weight still fell.
      let cell = null;
      for (let i = 0; i < n; i += 1)
        for (let j = 0; j < n; j += 1) {
          const at = i * n + j;
          if (bias[at] > 0 && after[at] < before[at] && (!cell || bias[at] > bias[cell.i * n + cell.j]))
            cell = { i, j };
        }
      const label = words(v);
      const maps = (outlined) => [
        { key: 'biases', title: 'position biases (panel 2)', kind: 'signed', group: 'biases', values: bias, outlined },
        {
          key: 'difference',
          title: 'what position changes (panel 5)',
          kind: 'signed',
          group: 'difference',
          values: v.difference,
          outlined,
        },
      ];
      const caption =
        'Left: the bias each key gets (red > 0). Right: combined minus content-only weight (blue: the weight fell). Each map its own colour scale.';
      if (!cell)
        return {
          state: lesson,
          text:
            n < 2
              ? 'With one word its one key has all the weight, with a bias or without: type a sentence to see a positive bias lower a weight.'
              : 'In this sentence no cell with a positive bias lost weight: every positive bias raised its weight.',
          numbers: '',
          figure: { n, tokens: v.tokens, causal: false, maps: maps([]), caption },
        };
      const { i, j } = cell;
      let top = 0; // the row's largest bias
      for (let l = 1; l < n; l += 1) if (bias[i * n + l] > bias[i * n + top]) top = l;
      // The softmax's factor: w'_ij = w_ij · exp(b_ij) / Σ_l w_il exp(b_il) (docs/maths.md).
      let mean = 0;
      for (let l = 0; l < n; l += 1) mean += before[i * n + l] * Math.exp(bias[i * n + l]);
      const at = i * n + j;
      const hand = byHandDigits(bias[at], before[at], after[at], mean);
      return {
        state: lesson,
        cell,
        text:
          `Key “${label[j]}” gets a bias of ${signed(bias[at])} from query “${label[i]}”, yet its weight falls: “${label[top]}” gets a larger one (${signed(bias[i * n + top])}), and the softmax shares out each row’s weight, which sums to 1. ` +
          'A weight rises only if its bias beats the row’s average, taken as the softmax takes it (the numbers).',
        numbers:
          `Cell (${i}, ${j}): bias ${signed(bias[at])}, weight ${hand.weightBefore} without positions, ${hand.weightAfter} with them. ` +
          `A weight is multiplied by exp(bias) over the row’s mean of exp(bias) weighted by the content-only weights: exp(${hand.bias}) = ${hand.exp} against ${hand.mean}, and ${hand.before} × ${hand.exp} / ${hand.mean} = ${hand.weightAfter}.`,
        figure: {
          n,
          tokens: v.tokens,
          causal: false,
          maps: maps([
            [i, j],
            [i, top],
          ]),
          caption:
            `${caption} Outlined in these two maps: cell (${i}, ${j}) and the row’s largest bias, (${i}, ${top}). ` +
            `The step selected cell (${i}, ${j}): the panels outline it and ${offsetGroupText(i, j, lesson.maxDistance)} (until you select another cell).`,
        },
      };
    },
  },
  output: {
    panel: 'tables',
    run({ view, attention }, lesson) {
      const v = view(lesson);
      const { n } = v;
      const inputs = v.result.inputs;
      const zeroed = attention({
        ...inputs,
        relValues: { ...inputs.relValues, data: new Float64Array(inputs.relValues.data.length) },
      });
      const unchanged = ['contentScores', 'positionBiases', 'contentWeights', 'combinedWeights'].reduce(
        (worst, name) => Math.max(worst, largestDifference(v.result[name].data, zeroed[name].data)),
        0,
      );
      const output = v.result.output;
      const without = zeroed.output.data;
      const added = output.data.map((value, index) => value - without[index]);
      const cell = { i: Math.min(2, n - 1), j: Math.min(3, n - 1) };
      const label = words(v);
      const rowsOf = (data) =>
        label.map((word, i) => ({
          label: word,
          values: Array.from(data.slice(i * output.cols, (i + 1) * output.cols)),
        }));
      return {
        state: lesson,
        cell,
        text:
          'Setting a^V to zero changes only the output: a^V enters after the softmax, so panels 1–6 stay as they are. ' +
          'The part it adds, Σ_j w_{ij} a^V[clip(j − i, ±k)], mixes the table’s rows with the query’s weights: it depends on the words through those weights, and on their places through the rows read.',
        numbers:
          `With a^V = 0, panels 1–6 are unchanged (largest difference ${f(unchanged)}) and the outputs change by up to ${f(largestDifference(output.data, without))}. ` +
          `The step selected cell (${cell.i}, ${cell.j}), so the figure “What one cell is made of” (panel 7) shows query ${cell.i}: its output split in two.`,
        figure: {
          n,
          tokens: v.tokens,
          causal: false,
          maps: [
            { key: 'with', title: 'weights, with a^V', kind: 'weights', values: v.result.combinedWeights.data },
            { key: 'without', title: 'weights, a^V = 0', kind: 'weights', values: zeroed.combinedWeights.data },
          ],
          vectors: {
            columns: [
              [{ title: 'z_i with a^V', rows: rowsOf(output.data), highlight: -1 }],
              [{ title: 'z_i, a^V = 0', rows: rowsOf(without), highlight: -1 }],
              [{ title: 'difference', rows: rowsOf(added), highlight: -1 }],
            ],
            label: `Each query's output z_i (one row per word, ${output.cols} numbers) with a^V, with a^V = 0, and their difference, on one colour scale.`,
          },
          caption: `Top: the combined weights (panel 4) with a^V and with a^V = 0: the same. Below: each query’s output z_i (a row per word) with a^V, without it, and the difference, on one colour scale (${SIGN_COLOURS}).`,
        },
      };
    },
  },
};

/** What step 4's caption says about the dashed lines, true for n (drawn only from n = 4, heatmap.js). */
function nearBandText(n) {
  if (n <= 2) return `With ${n} word${n === 1 ? '' : 's'} every key is within one position: every share is 100\u00a0%.`;
  if (n === 3) return 'Only the two corner cells, (0, 2) and (2, 0), are farther than one position.';
  return 'Between the dashed lines: the keys within one position of the query, |j − i| ≤ 1.';
}

/**
 * Step 4's conclusion, read from its shares (each a share of a row's weight within one position,
 * near-share.js): "most" only above a half, "less" or "more" only beyond a point of difference.
 */
function localityText(shares, n) {
  if (n <= 2)
    return `With ${n} word${n === 1 ? '' : 's'} every key is within one position of every query, so every share is 100\u00a0%: type a longer sentence to see the bump at work.`;
  const kept =
    shares.locality > 0.5
      ? `most of the weight (${percent(shares.locality)})`
      : `${percent(shares.locality)} of the weight`;
  const above = [
    shares.locality > shares.random && `a random table (${percent(shares.random)})`,
    shares.locality > shares.uniform && `uniform attention (${percent(shares.uniform)})`,
  ].filter(Boolean);
  const against = above.length
    ? `, more than ${above.join(' or ')}`
    : `, no more than a random table (${percent(shares.random)})`;
  const difference = shares.own - shares.locality;
  const own =
    Math.abs(difference) < 0.01
      ? `about as much (${percent(shares.own)})`
      : `${difference < 0 ? 'less' : 'more'} (${percent(shares.own)})`;
  return `With one query for every row the locality table keeps ${kept} next to the diagonal${against}. With the words’ own queries ${own}: a query feels the bump only if its first component is positive.`;
}

/** How many of the words' own queries the bump draws to their neighbours, in words. */
function pointingText(pointing, n) {
  if (pointing === n) return `as it is for all ${n} of these queries.`;
  if (pointing === 0) return `as it is for none of these ${n} queries: each is pushed away.`;
  const others = n - pointing === 1 ? 'the other one is' : `the other ${n - pointing} are`;
  return `as it is for ${pointing} of these ${n} queries; ${others} pushed away.`;
}

/**
 * The content-only weights of a shuffle put back against the old ones, in words: "are exactly the
 * same numbers" when they are (not "differ by at most 0"), else the largest difference, rounding.
 */
function sameOrRounding(largest) {
  return largest === 0
    ? 'the content-only weights are exactly the same numbers'
    : `the content-only weights differ by at most ${f(largest)} (rounding)`;
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
