// The story tells the truth whatever came before (Chromium, the real WASM module): every step puts
// the page into the same settings from a fresh page, from a perturbed one and right after every
// other step, leaves the panel it names drawn on screen, and every number in its reveal equals
// the API's value for the state shown (recomputed here with rp.example, not the page's code).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { colourOf } from 'relpos-wasm/render';
import { heatmapLayout, MIN_LABELLED_CELL } from '../../web/render/heatmap.js';
import { formatSignificant } from '../../web/render/number-text.js';
import { ATTENTION_SETTINGS } from '../../web/settings/settings.js';
import { ATTENTION_PANEL_IDS, DRAWER_PANEL_IDS, PANEL_IDS } from '../../web/views/panels.js';
import { screenshot } from './browser.js';
import { canvasHash, openMorePanels, pageExample, usePage, whenDrawn } from './page-fixture.js';

const env = usePage();
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

const VIEW = { viewport: { width: 1280, height: 800 } };
const SENTENCE = 'the cat sat on the mat';
const STEPS = ['shuffle', 'same-query', 'clip', 'locality', 'softmax', 'output'];
const PANEL = {
  shuffle: 'contentWeights',
  'same-query': 'positionBiases',
  clip: 'positionBiases',
  locality: 'combinedWeights',
  softmax: 'difference',
  output: 'tables',
};
// Causal on, k = 0, the same query, a random table, bump 2, other words, seed, d_k and numbers.
const PERTURBED = '?causal=1&k=0&sameq=1&table=random&strength=2&seed=5&dk=6&draw=handbook&tokens=a+b+c+d+e+f+g+h';
/**
 * The page put back at the start a fresh page has, without a load, as a reader does: Reset (the
 * defaults), "More panels" closed again (as a reader first sees it), scrolled to the top.
 */
async function backToDefaults(page) {
  await page.click('#reset');
  await whenDrawn(page);
  await page.evaluate(() => {
    document.getElementById('more-panels').open = false;
    scrollTo(0, 0);
  });
  await page.waitForFunction(() => location.search === ''); // the defaults, the drawer closed
}
/**
 * The perturbed page's settings (PERTURBED) put into the controls, each edit the events a
 * reader's makes (input, then change), in one round trip; an edit of a disabled control fails.
 */
async function perturb(page) {
  await backToDefaults(page);
  await page.evaluate(() => {
    document.getElementById('more-settings').setAttribute('open', '');
    for (const [id, value] of [
      ['tokens', 'a b c d e f g h'],
      ['maxDistance', '0'],
      ['causal', true],
      ['sameQuery', true],
      ['dK', '6'],
      ['seed', '5'],
      ['draw', 'handbook'],
      ['strength', '2'], // before the random table, which has no bump
      ['table', 'random'],
    ]) {
      const control = document.getElementById(id);
      if (control.disabled) throw new Error(`#${id} is disabled`);
      if (control.type === 'checkbox') control.checked = value;
      else control.value = value;
      for (const type of ['input', 'change']) control.dispatchEvent(new Event(type, { bubbles: true }));
    }
  });
  await whenDrawn(page);
}
/** Every ordered pair of different steps once: an Eulerian circuit of the complete digraph on `count` (Hierholzer). */
function everyPair(count) {
  const next = Array.from({ length: count }, (_, a) =>
    Array.from({ length: count }, (__, b) => b).filter((b) => b !== a),
  );
  const stack = [0];
  const circuit = [];
  while (stack.length) {
    const at = stack.at(-1);
    if (next[at].length) stack.push(next[at].pop());
    else circuit.push(stack.pop());
  }
  return circuit.reverse();
}
const CIRCUIT = everyPair(STEPS.length);

const settingsOf = (page) =>
  page.evaluate(
    (names) => {
      const state = window.relposPage.state();
      return Object.fromEntries(names.map((name) => [name, state[name]]));
    },
    [...ATTENTION_SETTINGS, 'long'],
  );
/** A reveal's sentences and its numbers (under "The numbers"), as one text. */
const revealOf = (page, name) =>
  page.evaluate(
    (n) =>
      `${document.querySelector(`[data-reveal="${n}"]`).textContent} ${document.querySelector(`[data-numbers="${n}"]`).textContent}`,
    name,
  );
/** [r, g, b] at each CSS point [x, y] of the `index`-th canvas matching `selector`, read in one round trip. */
const pixelsOf = (page, selector, index, points) =>
  page.$$eval(
    selector,
    (canvases, [i, list]) => {
      const canvas = canvases[i];
      const ratio = canvas.width / canvas.getBoundingClientRect().width;
      const context = canvas.getContext('2d');
      return list.map(([cx, cy]) =>
        Array.from(context.getImageData(Math.floor(cx * ratio), Math.floor(cy * ratio), 1, 1).data.slice(0, 3)),
      );
    },
    [index, points],
  );
/**
 * The cells [i, j] of the `index`-th n × n heatmap matching `selector` (drawn with `layout`) that
 * are outlined, on the middle row of each cell: the first device pixel wholly inside the cell
 * along its left edge, which an outline covers when it is at least 2 device pixels wide (an
 * outline is 2 CSS px on cells of 16 px and more, at least 1 on smaller ones: read those at 2
 * device pixels per CSS px).
 */
function outlinedCells(page, selector, index, layout, n) {
  return page.$$eval(
    selector,
    (canvases, [i, { x0, y0, cell }, size]) => {
      const canvas = canvases[i];
      const ratio = canvas.width / canvas.getBoundingClientRect().width;
      const context = canvas.getContext('2d');
      const found = [];
      for (let row = 0; row < size; row += 1)
        for (let col = 0; col < size; col += 1) {
          const x = Math.ceil((x0 + col * cell) * ratio);
          const y = Math.floor((y0 + (row + 0.5) * cell) * ratio);
          const rgb = Array.from(context.getImageData(x, y, 1, 1).data.slice(0, 3));
          // The light theme's outline (--relpos-outline, #111114): darker than any colour of the scales.
          if (rgb.every((v, channel) => Math.abs(v - [17, 17, 20][channel]) <= 30)) found.push([row, col]);
        }
      return found;
    },
    [index, layout, n],
  );
}
/** Step 5's cell (the largest positive bias whose weight fell) and its row's largest bias, from the API. */
function softmaxCells() {
  const ex = pageExample(rp);
  const [b, w0, w1] = [ex.positionBiases.data, ex.contentWeights.data, ex.combinedWeights.data];
  let best = null;
  for (let c = 0; c < 36; c += 1) if (b[c] > 0 && w1[c] < w0[c] && (best === null || b[c] > b[best])) best = c;
  const [i, j] = [Math.floor(best / 6), best % 6];
  const row = Array.from({ length: 6 }, (_, l) => b[i * 6 + l]);
  return { i, j, top: row.indexOf(Math.max(...row)) };
}
const signedOffset = (c) => (c > 0 ? `+${c}` : String(c).replace('-', '−'));
const press = async (page, name, own = false) => {
  const selector = `[data-story="${name}"][data-own="true"]`;
  await page.evaluate((n) => {
    document.querySelector(`[data-story="${n}"]`).closest('details.step').open = true;
  }, name);
  await page.click(own ? selector : `[data-story="${name}"]:not([data-own])`);
  await whenDrawn(page); // the steps' module loaded (on the first press at the latest), the step's state drawn
};
const number = (text) => Number(text.replace('−', '-'));
/**
 * Each shown occurrence of "blue < 0 < red" (with plain or no-break spaces) in the text under
 * `selector`: { where: its figure, lines: the lines it is laid out on }. A caption that wraps must
 * never start a line with "< red)" (step 6's did at 360 px).
 */
const signColourLines = (page, selector) =>
  page.$eval(selector, (root) => {
    const phrase = 'blue < 0 < red';
    const found = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.data.replace(/\u00a0/g, ' ');
      for (let at = text.indexOf(phrase); at >= 0; at = text.indexOf(phrase, at + 1)) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + phrase.length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        if (!rects.length) continue; // not shown
        const figure = node.parentElement.closest('figure, [data-figure]');
        found.push({
          where: figure?.id || figure?.dataset.figure,
          lines: new Set(rects.map((r) => Math.round(r.top))).size,
        });
      }
    }
    return found;
  });
const f2 = (v) => formatSignificant(v, 2);
// A whole percentage's number; the page writes its "%" after a no-break space (U+00A0).
const percent = (v) => (100 * v).toFixed(0);

/**
 * Whether `condition(arg)` comes to hold in the page within `timeout` ms, polled there every 50 ms
 * as expect.poll polls from here: the tests that run at once check with it (expect.poll there has
 * no test of its own to report to).
 */
const holdsSoon = (page, condition, arg, timeout = 4000) =>
  page.waitForFunction(condition, arg, { timeout, polling: 50 }).then(
    () => true,
    () => false,
  );

/** The named figure: at least 120 px of it inside the viewport and its canvas drawn (many colours). */
async function expectDrawnOnScreen(page, panel) {
  const canvas = panel === 'tables' ? '#tables-canvas' : `#figure-${panel} canvas`;
  const drawnOnScreen = (selector) => {
    const c = document.querySelector(selector);
    if (!c) return false;
    const box = c.getBoundingClientRect();
    const visible = Math.min(box.bottom, innerHeight) - Math.max(box.top, 0);
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4 * 37) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
    return visible >= 120 && colours.size >= 8;
  };
  expect(await holdsSoon(page, drawnOnScreen, canvas), `${panel} drawn on screen`).toBe(true);
}

const nearShare = (w, n) => {
  let share = 0;
  for (let i = 0; i < n; i += 1)
    for (let j = Math.max(0, i - 1); j <= Math.min(n - 1, i + 1); j += 1) share += w[i * n + j];
  return share / n;
};

/** Every permutation taking `from`'s words to `to`'s (repeated words in either order). */
function wordMoves(from, to) {
  const moves = [];
  const walk = (p, used, moved) => {
    if (p === from.length) return moves.push([...moved]);
    for (let q = 0; q < to.length; q += 1) {
      if (used[q] || to[q] !== from[p]) continue;
      used[q] = true;
      moved[p] = q;
      walk(p + 1, used, moved);
      used[q] = false;
    }
  };
  walk(0, [], []);
  return moves;
}

/** Step 1's words on the content-only weights put back: rounding said as such, none at all as the same numbers (not "at most 0"). */
const contentSaid = (largest) =>
  largest === 0
    ? 'Put back in the old order, the content-only weights are exactly the same numbers,'
    : `Put back in the old order, the content-only weights differ by at most ${f2(largest)} (rounding),`;

/** Checks each number of a reveal against the API, for the settings the page then shows. */
const CHECK = {
  shuffle(text, s) {
    const before = SENTENCE.split(' ');
    const after = s.tokens.split(' ');
    expect(text).toContain(`“${SENTENCE}” became “${s.tokens}”`);
    const a = pageExample(rp, { tokens: SENTENCE });
    const b = pageExample(rp, { tokens: s.tokens });
    const differences = wordMoves(before, after).map((moved) => {
      const worst = (m) => {
        let w = 0;
        for (let i = 0; i < 6; i += 1)
          for (let j = 0; j < 6; j += 1)
            w = Math.max(w, Math.abs(a[m].data[i * 6 + j] - b[m].data[moved[i] * 6 + moved[j]]));
        return w;
      };
      return { content: worst('contentWeights'), combined: worst('combinedWeights') };
    });
    for (const d of differences) expect(d.content).toBeLessThanOrEqual(1e-15);
    expect(differences.some((d) => text.includes(contentSaid(d.content)))).toBe(true);
    const [, combined] = text.match(/, and the combined weights differ by up to ([^\s]+)\.$/);
    expect(differences.map((d) => f2(d.combined))).toContain(combined);
    expect(number(combined)).toBeGreaterThan(0.05);
  },
  'same-query'(text, s) {
    const ex = pageExample(rp, { sameQuery: true });
    const b = ex.positionBiases.data;
    let spread = 0;
    for (let i = 0; i < 6; i += 1)
      for (let j = 0; j < 6; j += 1) {
        const c = Math.min(s.maxDistance, Math.max(-s.maxDistance, j - i));
        const [i0, j0] = c >= 0 ? [0, c] : [-c, 0]; // the diagonal's first cell
        spread = Math.max(spread, Math.abs(b[i * 6 + j] - b[i0 * 6 + j0]));
      }
    expect(text).toContain(`largest difference ${f2(spread)})`);
    // With the words' own queries: the largest range of one diagonal.
    const own = pageExample(rp).positionBiases.data;
    let range = 0;
    for (let offset = -5; offset <= 5; offset += 1) {
      const cells = [];
      for (let i = 0; i < 6; i += 1) if (i + offset >= 0 && i + offset < 6) cells.push(own[i * 6 + i + offset]);
      range = Math.max(range, Math.max(...cells) - Math.min(...cells));
    }
    expect(range).toBeGreaterThan(1);
    expect(text).toContain(`With the words’ own queries, the cells of one diagonal differ by up to ${f2(range)}.`);
  },
  clip(text) {
    const a = pageExample(rp, { maxDistance: 3 }).positionBiases.data;
    const b = pageExample(rp, { maxDistance: 1 }).positionBiases.data;
    let changed = 0;
    let near = 0;
    for (let i = 0; i < 6; i += 1)
      for (let j = 0; j < 6; j += 1)
        if (a[i * 6 + j] !== b[i * 6 + j]) {
          changed += 1;
          if (Math.abs(j - i) <= 1) near += 1;
        }
    expect(near).toBe(0);
    expect(text).toContain(
      `Compared with k = 3, the lesson’s k, ${changed} of 36 cells of panel 2 changed at k = 1, ${near} of them within |j − i| ≤ 1: clipping only changes`,
    );
    const ex = pageExample(rp, { maxDistance: 3 });
    expect(text).toContain(`aK and aV have 2k + 1 rows each: ${ex.inputs.relKeys.rows} at k = 3, 3 at k = 1.`);
    expect(text).toContain('can no longer tell a word 2 places away from one 5 places away');
  },
  locality(text, s, tokens = SENTENCE) {
    const n = tokens.split(' ').length;
    const same = pageExample(rp, { tokens, sameQuery: true });
    const random = pageExample(rp, { tokens, sameQuery: true, table: 'random' });
    const real = pageExample(rp, { tokens });
    const positive = Array.from({ length: n }, (_, i) => real.inputs.q.data[i * 4]).filter((v) => v > 0).length;
    const uniform = (3 * n - 2) / (n * n); // no mask: 2 keys in the two end rows, 3 in the others
    if (n <= 2) {
      // Every key within one position of every query: nothing for the tables to change.
      expect(nearShare(same.combinedWeights.data, n)).toBe(1);
      expect(text).toContain(
        `With ${n} word${n === 1 ? '' : 's'}, all of every row’s weight is within one position whatever the table and the queries (100\u00a0%): the bars cannot differ.`,
      );
      expect(text).not.toContain('uniform attention: about');
      return;
    }
    expect(text).toContain(
      `With one query for every row, ${percent(nearShare(same.combinedWeights.data, n))}\u00a0% of the weight stays within one position with the locality table, ` +
        `${percent(nearShare(random.combinedWeights.data, n))}\u00a0% with a random table (uniform attention: about ${percent(uniform)}\u00a0%). ` +
        `With the words’ own queries it is ${percent(nearShare(real.combinedWeights.data, n))}\u00a0%`,
    );
    expect(text).toContain(
      positive === n
        ? `as it is for all ${n} of these queries.`
        : positive === 0
          ? `as it is for none of these ${n} queries`
          : n - positive === 1
            ? `as it is for ${positive} of these ${n} queries; the other one is pushed away`
            : `as it is for ${positive} of these ${n} queries; the other ${n - positive} are pushed away`,
    );
    // The conclusion follows the shares: "most" only above a half, "less" only when it is less.
    const locality = nearShare(same.combinedWeights.data, n);
    const own = nearShare(real.combinedWeights.data, n);
    expect(text.includes('keeps most of the weight')).toBe(locality > 0.5);
    expect(text.includes('With the words’ own queries less')).toBe(own < locality - 0.01);
    expect(text.includes('With the words’ own queries more')).toBe(own > locality + 0.01);
  },
  softmax(text) {
    const ex = pageExample(rp);
    const b = ex.positionBiases.data;
    const w0 = ex.contentWeights.data;
    const w1 = ex.combinedWeights.data;
    const words = SENTENCE.split(' ');
    let best = null;
    for (let c = 0; c < 36; c += 1) if (b[c] > 0 && w1[c] < w0[c] && (best === null || b[c] > b[best])) best = c;
    expect(best).not.toBeNull();
    const [i, j] = [Math.floor(best / 6), best % 6];
    const row = Array.from({ length: 6 }, (_, l) => b[i * 6 + l]);
    const top = row.indexOf(Math.max(...row));
    const plus = (v) => `+${formatSignificant(v, 3)}`; // as panel 2's tooltip gives a bias
    expect(text).toContain(
      `Key “${words[j]}” gets a bias of ${plus(b[best])} from query “${words[i]}”, yet its weight falls: “${words[top]}” gets a larger one (${plus(row[top])})`,
    );
    // The softmax's factor, from the definition: w1 = w0 · exp(b) / Σ_l w0_l exp(b_l).
    const mean = row.reduce((sum, v, l) => sum + w0[i * 6 + l] * Math.exp(v), 0);
    expect(w1[best]).toBeCloseTo((w0[best] * Math.exp(b[best])) / mean, 12);
    const figure = '([0-9.]+)';
    const cellText = text.match(
      new RegExp(
        `Cell \\(${i}, ${j}\\): bias \\+${figure}, weight ${figure} without positions, ${figure} with them\\.`,
      ),
    );
    expect(cellText, text).not.toBeNull();
    const [, biasText, beforeText, afterText] = cellText;
    expect(biasText).toBe(formatSignificant(b[best], 3));
    // Each number is the API's (or the definition's) to the digits it is written with; the weight
    // is seen to fall, and the working written out gives the weight after on a reader's calculator.
    const unit = (written) => 10 ** -(written.split('.')[1] ?? '').length;
    const writtenAs = (written, value) =>
      expect(Math.abs(Number(written) - value), `${written} for ${value}`).toBeLessThanOrEqual(
        unit(written) / 2 + 1e-12,
      );
    writtenAs(beforeText, w0[best]);
    writtenAs(afterText, w1[best]);
    expect(Number(afterText)).toBeLessThan(Number(beforeText));
    const working = text.match(
      new RegExp(
        `exp\\(${figure}\\) = ${figure} against ${figure}, and ${figure} × ${figure} / ${figure} = ${figure}\\.`,
      ),
    );
    expect(working, text).not.toBeNull();
    const [, x, e, m, p, e2, m2, result] = working;
    expect([e2, m2, result]).toEqual([e, m, afterText]);
    writtenAs(x, b[best]);
    writtenAs(e, Math.exp(Number(x)));
    writtenAs(m, mean);
    writtenAs(p, w0[best]);
    writtenAs(result, (Number(p) * Number(e)) / Number(m));
    // A few significant digits each, not a dump of the float.
    for (const written of [x, e, m, p, beforeText, afterText])
      expect(written.replace('.', '').replace(/^0+/, '').length, written).toBeLessThanOrEqual(6);
  },
  output(text) {
    expect(text).toContain(
      'The step selected cell (2, 3), so the figure “What one cell is made of” (panel 7) shows query 2: its output split in two.',
    );
    const ex = pageExample(rp);
    const zeroed = rp.attention({
      ...ex.inputs,
      relValues: { ...ex.inputs.relValues, data: new Float64Array(ex.inputs.relValues.data.length) },
    });
    let same = 0;
    for (const name of ATTENTION_PANEL_IDS)
      ex[name].data.forEach((v, c) => {
        same = Math.max(same, Math.abs(v - zeroed[name].data[c]));
      });
    expect(same).toBe(0);
    let moved = 0;
    ex.output.data.forEach((v, c) => {
      moved = Math.max(moved, Math.abs(v - zeroed.output.data[c]));
    });
    expect(moved).toBeGreaterThan(0.1);
    expect(text).toContain(
      `With aV = 0, panels 1–6 are unchanged (largest difference 0) and the outputs change by up to ${f2(moved)}.`,
    );
  },
};

/** Each step's reveal as the page marks it, in one round trip: { name: { marked, notice ('' while hidden), line } }. */
const staleStates = (page) =>
  page.$$eval('[data-reveal]', (reveals) =>
    Object.fromEntries(
      reveals.map((p) => {
        const box = p.closest('details.reveal');
        const notice = box.querySelector('.reveal-stale');
        const name = p.dataset.reveal;
        return [
          name,
          {
            marked: box.classList.contains('stale'),
            notice: !notice || notice.hidden ? '' : notice.textContent,
            line: document.querySelector(`[data-set="${name}"]`).textContent,
          },
        ];
      }),
    ),
  );
/**
 * Steps' reveals and lines (`names`, each with the settings its step made: `made[name]`) against
 * the page's settings (`now`): while they are the same, no notice and the line as the step wrote
 * it; else the reveal marked out of date, its notice naming every setting changed with its value
 * now and then, and the line saying the settings changed since. Returns the states read.
 */
async function expectStale(page, names, made, now, when) {
  const states = await staleStates(page);
  const onOff = (v) => (v ? 'on' : 'off');
  for (const name of names) {
    const { marked, notice, line } = states[name];
    const differing = Object.keys(made[name]).filter((key) => made[name][key] !== now[key]);
    const at = `${name}, ${when}`;
    expect(marked, at).toBe(differing.length > 0);
    expect(line.endsWith('You have changed the settings since.'), at).toBe(differing.length > 0);
    if (!differing.length) {
      expect(notice, at).toBe('');
      continue;
    }
    expect(notice.startsWith('Out of date: this Reveal is for the step’s settings, and you have changed '), at).toBe(
      true,
    );
    const said = {
      tokens: (a, b) => `the words “\u2068${b}\u2069” (was “\u2068${a}\u2069”)`,
      maxDistance: (a, b) => `k = ${b} (was ${a})`,
      sameQuery: (a, b) => `same query in every row ${onOff(b)} (was ${onOff(a)})`,
      seqLen: (a, b) => (made[name].tokens !== now.tokens ? '' : `n = ${b} (was ${a})`),
    };
    for (const key of differing) {
      expect(said[key], `${at}: ${key}`).toBeDefined();
      expect(notice, `${at}: ${key}`).toContain(said[key](made[name][key], now[key]));
    }
  }
  return states;
}

/** The settings each step's lesson is written for, stated here independently of the page. */
const LESSON = {
  draw: 'stable',
  table: 'locality',
  sameQuery: false,
  seqLen: 6,
  dK: 4,
  maxDistance: 3,
  seed: 42,
  causal: false,
  tokens: SENTENCE,
  strength: 8,
  noise: 0.1,
  width: 1,
  asymmetry: 0,
  long: false,
};

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
/** A narrower phone at 2 device pixels per CSS px: the reveals' maps get cells under 12 px. */
const NARROW_PHONE = { viewport: { width: 360, height: 780 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
/** The reveal tests' pages at 1280 × 800 (VIEW) and on the phone (NARROW_PHONE), by their context options. */
const revealPages = new Map();
afterAll(async () => {
  for (const { context } of revealPages.values()) await context.close();
});
/**
 * A page at `options` as a reader who opened it and read the reveals leaves it (the reveal test's
 * page, else a new one), then with "More panels" open and no reduced motion, as the page opens by
 * default: the problems since this call.
 */
async function pageAfterReveals(options) {
  const kept = revealPages.get(options);
  revealPages.delete(options);
  if (kept) kept.problems.length = 0;
  const opened = kept ?? (await env.open('', { ...options, closedPanels: true }));
  await opened.page.emulateMedia({ reducedMotion: 'no-preference' });
  await openMorePanels(opened.page);
  await whenDrawn(opened.page);
  return opened;
}

/** What one test gives the others, which wait for it: `give(value)`, `fail(error)`, and `value`, a Promise. */
function handOver() {
  const handed = {};
  handed.value = new Promise((give, fail) => Object.assign(handed, { give, fail }));
  handed.value.catch(() => {}); // a failure is the giving test's, and the waiting tests' when they read it
  return handed;
}

// The tests run at once, each on its own pages; a test that needs what another found waits for it
// (the first screens, the lesson's settings and reveals, the perturbed page's settings).
// Each test may wait for another's pages or numbers, beside up to four others: 150 s each.
describe.concurrent('every story step, from every starting state', () => {
  // The first screens at 1280 and on the phone, kept for the skip link's test (nothing pressed).
  const firstScreens = new Map();
  const firstScreensShown = handOver();
  afterAll(async () => {
    for (const { context } of firstScreens.values()) await context.close();
  });
  // Each step's settings and reveal from a fresh page, and the perturbed page's settings.
  const lesson = handOver();
  const perturbedSettings = handOver();

  test('the lesson on the first screen: at 1280 × 800, 1920 × 1080 and a 1024 × 768 tablet, unscrolled, panel 2 (the biases) and panel 1 (at 1920 panel 3) are drawn in view; on a phone the idea, then panel 2 drawn, then the controls', async () => {
    // The four first screens loaded at once, each its own page.
    const desktop = async (viewport) => {
      const opened = await env.open('', { viewport, closedPanels: true, closedSettings: true });
      const { page, context, problems } = opened;
      expect(await page.evaluate(() => scrollY)).toBe(0);
      await expectDrawnOnScreen(page, 'positionBiases');
      for (const panel of viewport.width >= 1920 ? ['contentScores', 'contentWeights'] : ['contentScores'])
        await expectDrawnOnScreen(page, panel);
      expect(problems).toEqual([]);
      if (viewport === VIEW.viewport) firstScreens.set(VIEW, opened);
      else await context.close();
    };
    const phone = async () => {
      const opened = await env.open('', { ...PHONE, closedPanels: true });
      const { page, problems } = opened;
      firstScreens.set(PHONE, opened);
      await expectDrawnOnScreen(page, 'positionBiases');
      const top = (selector) => page.$eval(selector, (el) => el.getBoundingClientRect().top);
      const idea = await page.$eval('.idea-sentence', (el) => el.getBoundingClientRect());
      expect(idea.top).toBeGreaterThanOrEqual(0);
      expect(idea.bottom).toBeLessThanOrEqual(await top('#figure-positionBiases canvas'));
      expect(await top('section.controls')).toBeGreaterThan(await top('#figure-positionBiases canvas'));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390); // nothing sideways
      expect(problems).toEqual([]);
    };
    try {
      await Promise.all([
        ...[VIEW.viewport, { width: 1920, height: 1080 }, { width: 1024, height: 768 }].map(desktop),
        phone(),
      ]);
    } finally {
      firstScreensShown.give(); // the skip link's test takes the pages left, else opens its own
    }
  }); // four page loads and three first screens: 37 s quiet, over 60 s at load 8, one after another

  test('the skip link lands on the first figure drawn, its heatmap focused and in view, the arrow keys reading it at once, on a phone and at 1280', async () => {
    await firstScreensShown.value;
    // On the phone panel 2 comes first; the panels' section has no box there (display: contents).
    for (const [options, first] of [
      [PHONE, 'figure-positionBiases'],
      [VIEW, 'figure-contentScores'],
    ]) {
      // The first test's page as it left it (unscrolled, nothing pressed), else a new one.
      const { page, context, problems } =
        firstScreens.get(options) ?? (await env.open('', { ...options, closedPanels: true }));
      firstScreens.delete(options);
      await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
      await page.focus('a.skip');
      await page.keyboard.press('Enter');
      const target = await page.evaluate(() => {
        const focused = document.activeElement;
        const box = focused.getBoundingClientRect();
        return {
          id: focused.closest('figure')?.id,
          role: focused.getAttribute('role'),
          top: box.top,
          inView: box.top >= 0 && box.top < innerHeight,
        };
      });
      expect(target, `${options.viewport.width}`).toEqual({
        id: first,
        role: 'application',
        top: target.top,
        inView: true,
      });
      await expectDrawnOnScreen(page, first.slice('figure-'.length));
      // The next key is the heatmap's: focus read cell (0, 0), the right arrow reads (0, 1).
      const readout = () => page.textContent('.relpos-visually-hidden[aria-live]');
      expect(await readout(), `${options.viewport.width}`).toMatch(/, row 0 [^,]*, column 0 /);
      await page.keyboard.press('ArrowRight');
      expect(await readout(), `${options.viewport.width}`).toMatch(/, row 0 [^,]*, column 1 /);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  test('an open “More panels” is kept in the URL (?more=1): a link with it opens the drawer drawn; the iframe view has no drawer and shows every panel it is asked for', async () => {
    const { page, context, problems } = await env.open('?k=2', { ...VIEW, closedPanels: true });
    const more = (value) => new URLSearchParams(location.search).get('more') === value;
    const open = () => page.$eval('#more-panels', (d) => d.open);
    await page.click('#more-panels > summary');
    expect(await holdsSoon(page, more, '1'), 'more=1').toBe(true);
    expect(new URL(page.url()).searchParams.get('k')).toBe('2'); // beside the settings
    await page.click('#more-panels > summary');
    expect(await holdsSoon(page, more, null), 'no more=1').toBe(true);
    expect(new URL(page.url()).search).toBe('?k=2');
    await page.goto(`${env.server.url}?k=2&more=1`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await open()).toBe(true);
    for (const id of DRAWER_PANEL_IDS)
      expect(
        await holdsSoon(
          page,
          (selector) => document.querySelector(selector)?.dataset.layout !== undefined,
          `#figure-${id} canvas`,
        ),
        id,
      ).toBe(true);
    expect(await page.$eval('#profile-canvas', (c) => c.width > 0 && c.height > 0)).toBe(true);
    // The iframe view shows every panel it is asked for, in its own grid with no drawer, and keeps its address.
    await page.goto(`${env.server.url}?embed=1&panels=offsets,profile&more=1`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await open()).toBe(false);
    expect(await page.$eval('#more-panels', (d) => getComputedStyle(d).display)).toBe('none');
    expect(await page.$$eval('#panels > figure:not([hidden])', (figures) => figures.map((f) => f.id))).toEqual([
      'figure-offsets',
      'figure-profile',
    ]);
    expect(new URL(page.url()).search).toBe('?embed=1&panels=offsets,profile&more=1');
    expect(await page.$eval('#figure-offsets canvas', (c) => c.dataset.layout !== undefined)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('panels 5–8 wait under “More panels”, closed: a click draws them; a link or ?present= naming one opens it', async () => {
    const { page, context, problems } = await env.open('', { ...VIEW, closedPanels: true });
    const drawn = (id) => page.$eval(`#figure-${id} canvas`, (c) => c.dataset.layout !== undefined);
    const inDrawer = (id) => page.$eval(`#figure-${id}`, (f) => Boolean(f.closest('#more-panels')));
    for (const id of PANEL_IDS.filter((panel) => !DRAWER_PANEL_IDS.includes(panel))) {
      expect(await inDrawer(id)).toBe(false);
      expect(await drawn(id)).toBe(true);
    }
    for (const id of [...DRAWER_PANEL_IDS, 'tables', 'profile']) expect(await inDrawer(id), id).toBe(true);
    expect(await page.$eval('#more-panels', (d) => d.open)).toBe(false);
    expect(await drawn('difference')).toBe(false);
    await page.click('#more-panels > summary');
    expect(
      await holdsSoon(page, () => document.querySelector('#figure-difference canvas')?.dataset.layout !== undefined),
      'difference drawn',
    ).toBe(true);
    expect(await drawn('offsets')).toBe(true);
    const profileColours = () =>
      page.$eval('#profile-canvas', (c) => {
        const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
        const colours = new Set();
        for (let i = 0; i < data.length; i += 4 * 31) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
        return colours.size;
      });
    expect(await profileColours()).toBeGreaterThan(4);
    // A link to a figure in the drawer, and ?present= of a panel in it, open the drawer.
    await page.goto(`${env.server.url}?k=2#figure-offsets`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.$eval('#more-panels', (d) => d.open)).toBe(true);
    await expectDrawnOnScreen(page, 'offsets');
    await page.goto(`${env.server.url}?present=difference`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.$eval('#more-panels', (d) => d.open)).toBe(true);
    expect(await page.$eval('#figure-difference', (f) => f.classList.contains('relpos-presenting'))).toBe(true);
    await expectDrawnOnScreen(page, 'difference');
    // (The iframe view, which has no drawer: the test above.)
    expect(problems).toEqual([]);
    await context.close();
  });

  test('from a fresh page: the lesson’s settings, the named panel drawn on screen, every number the API’s', async () => {
    try {
      await fromFreshPage();
    } catch (error) {
      lesson.fail(error);
      throw error;
    }
  });
  async function fromFreshPage() {
    // "More panels" closed, as a reader first sees it: step 5 opens it for panel 7.
    const { page, context, problems } = await env.open('', { ...VIEW, closedPanels: true });
    const fresh = await settingsOf(page);
    const expected = {};
    for (const name of STEPS) {
      if (name !== STEPS[0]) {
        // As fresh again, without a load (the first step's page is fresh already).
        await backToDefaults(page);
        expect(await settingsOf(page)).toEqual(fresh);
      }
      await press(page, name);
      const s = await settingsOf(page);
      const text = await revealOf(page, name);
      const want = {
        ...LESSON,
        ...{ 'same-query': { sameQuery: true }, clip: { maxDistance: 1 }, locality: { sameQuery: true } }[name],
      };
      if (name === 'shuffle') {
        expect(s.tokens.split(' ').sort()).toEqual(SENTENCE.split(' ').sort());
        expect(s.tokens).not.toBe(SENTENCE);
        want.tokens = s.tokens;
      }
      expect(s, name).toEqual(want);
      CHECK[name](text, s);
      await expectDrawnOnScreen(page, PANEL[name]);
      expected[name] = { s, text };
      if (name === 'softmax') {
        // Panel 5's caption says what it outlines (the step's cell and every cell of its clipped offset), and that is what is outlined.
        const { i, j } = softmaxCells();
        const c = Math.min(3, Math.max(-3, j - i));
        expect(Math.abs(c)).toBeLessThan(3); // one diagonal
        expect(await page.textContent('#figure-difference .relpos-caption')).toContain(
          `Outlined: the selected cell (${i}, ${j}) and every cell with clip(j − i, ±k) = ${signedOffset(c)}.`,
        );
        const layout = JSON.parse(await page.getAttribute('#figure-difference canvas', 'data-layout'));
        const outlined = await outlinedCells(page, '#figure-difference canvas', 0, layout, 6);
        const diagonal = Array.from({ length: 6 - c }, (_, r) => [r, r + c]);
        expect(outlined.sort()).toEqual(diagonal.sort());
      }
      if (name === 'same-query') {
        expect(await page.textContent('[data-set="same-query"]')).toBe(
          'This step set same query in every row on (was off).',
        );
        expect(await holdsSoon(page, () => location.search.includes('sameq=1')), 'sameq=1').toBe(true);
      }
    }
    expect(
      await holdsSoon(page, () =>
        document.querySelector('#figure-tables .relpos-caption')?.textContent.includes('The selected cell (2, 3)'),
      ),
      'the selected cell (2, 3)',
    ).toBe(true);
    // The lead is at most three lines; the reveals name their contrasts (step 3 compares with
    // k = 3, step 4 quotes a random table).
    const lines = await page.$eval(
      '.story-lead',
      (p) => p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight),
    );
    expect(lines).toBeLessThanOrEqual(3.05);
    expect(expected.clip.text).toContain('Compared with k = 3');
    expect(expected.locality.text).toContain('with a random table');
    expect(problems).toEqual([]);
    lesson.give(expected);
    await context.close();
  }

  test('from a perturbed page (causal, k = 0, same query, random table, bump 2, handbook numbers): the same', async () => {
    const { page, context, problems } = await env.open(PERTURBED, { ...VIEW, closedPanels: true }).catch((error) => {
      perturbedSettings.fail(error);
      throw error;
    });
    const perturbed = await settingsOf(page);
    perturbedSettings.give(perturbed);
    for (const name of STEPS) {
      if (name !== STEPS[0]) {
        // Perturbed again through the controls (the first step's page is the link's).
        await perturb(page);
        expect(await settingsOf(page)).toEqual(perturbed);
      }
      await press(page, name);
      const expected = await lesson.value;
      expect(await settingsOf(page), name).toEqual(expected[name].s);
      expect(await revealOf(page, name), name).toBe(expected[name].text);
      await expectDrawnOnScreen(page, PANEL[name]);
      // What the step changed is said where it happens, the switch to stable numbers among it.
      const set = await page.textContent(`[data-set="${name}"]`);
      for (const change of [
        'numbers: stable (was the handbook’s)',
        'causal mask off (was on)',
        'table: locality (was random)',
        'bump height 8 (was 2)',
        'seed 42 (was 5)',
        'dk = 4 (was 6)',
      ])
        expect(set, name).toContain(change);
      expect(set).toContain(name === 'clip' ? 'k = 1 (was 0)' : 'k = 3 (was 0)');
      if (['same-query', 'locality'].includes(name))
        expect(set).not.toContain('same query'); // on before and after
      else expect(set).toContain('same query in every row off (was on)');
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  test('right after each other step: the same; a reveal says it is out of date while the page’s settings are not its step’s', async () => {
    // Instant scrolling (a reader's reduced-motion setting), so the circuit takes less time.
    const { page, context, problems } = await env.open(PERTURBED, {
      ...VIEW,
      reducedMotion: 'reduce',
      closedPanels: true,
    });
    // The settings each step makes (from the fresh page's test).
    const mades = Object.fromEntries(Object.entries(await lesson.value).map(([name, { s: made }]) => [name, made]));
    for (let index = 0; index < CIRCUIT.length; index += 1) {
      const name = STEPS[CIRCUIT[index]];
      await press(page, name);
      const after = index ? STEPS[CIRCUIT[index - 1]] : 'the perturbed page';
      const expected = await lesson.value;
      expect(await settingsOf(page), `${name} after ${after}`).toEqual(expected[name].s);
      expect(await revealOf(page, name), `${name} after ${after}`).toBe(expected[name].text);
      await expectDrawnOnScreen(page, PANEL[name]);
      // Every reveal pressed so far is out of date exactly when its step's settings are not the page's now.
      const pressed = new Set(CIRCUIT.slice(0, index + 1).map((at) => STEPS[at]));
      await expectStale(page, pressed, mades, expected[name].s, `then ${name}`);
    }
    // A student's detours: k moved after step 3; a new sentence typed after step 5, which its
    // button then shows again; Reset, back at the settings of steps 5 and 6.
    await press(page, 'clip');
    await page.fill('#maxDistance', '2');
    await whenDrawn(page);
    let now = await settingsOf(page);
    expect(now).toEqual({ ...mades.clip, maxDistance: 2 });
    let states = await expectStale(page, ['clip'], mades, now, 'k moved to 2');
    expect(states.clip.notice).toContain('k = 2 (was 1) since. Press “Set k = 1” again to see it on the panels.');
    await press(page, 'softmax');
    await page.fill('#tokens', 'my dog likes long walks');
    await whenDrawn(page);
    states = await expectStale(page, ['softmax'], mades, await settingsOf(page), 'a sentence typed');
    expect(states.softmax.notice).toBe(
      'Out of date: this Reveal is for the step’s settings, and you have changed the words “\u2068my dog likes long walks\u2069” (was “\u2068the cat sat on the mat\u2069”) since. Press “Find such a key” again to see it on the panels.',
    );
    await press(page, 'softmax');
    await expectStale(page, ['softmax'], mades, await settingsOf(page), 'pressed again');
    await page.fill('#maxDistance', '2');
    await whenDrawn(page);
    await expectStale(page, ['softmax'], mades, await settingsOf(page), 'k moved again');
    await page.click('#reset');
    await whenDrawn(page);
    now = await settingsOf(page);
    states = await expectStale(page, STEPS, mades, now, 'after Reset');
    expect(states.softmax.marked).toBe(false); // Reset is the lesson's settings: step 5's reveal holds again
    expect(problems).toEqual([]);
    await context.close();
  });

  test('the student’s ten minutes of docs/story.md, in its order, from a fresh page and from a perturbed one', async () => {
    const doc = readFileSync(new URL('../../docs/story.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## A student'), doc.indexOf('## The story'));
    const path = [...section.matchAll(/^\d+\. `([a-z-]+)`:/gm)].map((m) => m[1]);
    expect(path).toEqual(STEPS); // every step, once
    // One page: the path from the fresh page, then from the page perturbed through the controls
    // (the perturbed link's settings, as the test above checks), without a second load.
    const { page, context, problems } = await env.open('', { ...VIEW, closedPanels: true, reducedMotion: 'reduce' });
    for (const start of ['a fresh page', 'a perturbed page']) {
      if (start === 'a perturbed page') {
        await perturb(page);
        expect(await settingsOf(page)).toEqual(await perturbedSettings.value);
      }
      for (const name of path) {
        await press(page, name);
        const expected = await lesson.value;
        expect(await settingsOf(page), `${name} from ${start}`).toEqual(expected[name].s);
        expect(await revealOf(page, name), name).toBe(expected[name].text);
        await expectDrawnOnScreen(page, PANEL[name]);
      }
    }
    expect(problems).toEqual([]);
    await context.close();
    // The numbers the path quotes are the reveals' own (docs/story.md's spaces where the reveals
    // hold a "%" to its number with a no-break space).
    const expected = await lesson.value;
    for (const quoted of [
      'by up to 18',
      '74 %',
      '47 %',
      '38 %',
      '+6.92',
      '(+11.7)',
      '0.16007 × 1016.6 / 10495 = 0.0155',
      'by up to 1.3',
    ])
      expect(
        Object.values(expected).some(({ text }) =>
          text.replaceAll('\u00a0', ' ').includes(quoted.replace(/^by up to /, 'up to ')),
        ),
        quoted,
      ).toBe(true);
  });

  test('“On my sentence” keeps the reader’s words and sets every other setting of the lesson', async () => {
    const tokens = 'a dog chased the ball across the park';
    const { page, context, problems } = await env.open(
      `${PERTURBED.replace(/tokens=[^&]*/, `tokens=${tokens.replaceAll(' ', '+')}`)}`,
      VIEW,
    );
    await press(page, 'locality', true);
    const s = await settingsOf(page);
    expect(s).toEqual({ ...LESSON, tokens, seqLen: 8, sameQuery: true });
    const text = await revealOf(page, 'locality');
    expect(text.startsWith('On your sentence: ')).toBe(true);
    CHECK.locality(text, s, tokens);
    await press(page, 'shuffle', true);
    const shuffled = (await settingsOf(page)).tokens;
    expect(shuffled.split(' ').sort()).toEqual(tokens.split(' ').sort());
    expect(shuffled).not.toBe(tokens);
    // A main step shows the lesson's sentence; "On my sentence" then still uses the reader's, and
    // its clip reveal compares with the lesson's k = 3 (named), not with the page's k before.
    await press(page, 'locality');
    expect((await settingsOf(page)).tokens).toBe(SENTENCE);
    await page.fill('#maxDistance', '0');
    await press(page, 'clip', true);
    expect((await settingsOf(page)).tokens).toBe(tokens);
    expect(await page.textContent('[data-set="clip"]')).toContain('k = 1 (was 0)');
    const clip = await revealOf(page, 'clip');
    const a = pageExample(rp, { tokens, maxDistance: 3 }).positionBiases.data;
    const b = pageExample(rp, { tokens, maxDistance: 1 }).positionBiases.data;
    const changed = a.filter((v, c) => v !== b[c]).length;
    expect(changed).toBeGreaterThan(0);
    expect(clip.startsWith('On your sentence: Beyond k')).toBe(true);
    expect(clip).toContain(`Compared with k = 3, the lesson’s k, ${changed} of 64 cells`);
    // A sentence typed into Tokens becomes the reader's own.
    await page.fill('#tokens', 'one two three');
    await press(page, 'shuffle');
    await press(page, 'same-query', true);
    expect((await settingsOf(page)).tokens).toBe('one two three');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('“On my sentence” before any sentence was typed says it runs on the lesson’s; at n = 2 nothing is clipped, one query of two is “the other one”, a shuffle’s equal weights are the same numbers; one word repeated has constant diagonals with its own queries and no shuffle', async () => {
    const { page, context, problems } = await env.open('?k=0', VIEW);
    await press(page, 'locality', true);
    const text = await revealOf(page, 'locality');
    expect(text.startsWith('You have not typed a sentence (Tokens), so on the lesson’s: ')).toBe(true);
    CHECK.locality(text.slice(text.indexOf(': ') + 2), await settingsOf(page));
    const two = 'the cat';
    await page.fill('#tokens', two);
    await press(page, 'clip', true);
    expect(await revealOf(page, 'clip')).toBe(
      'On your sentence: With 2 words no offset |j − i| is larger than 1: nothing is clipped. Compared with k = 3, the lesson’s k, none of the 4 cells of panel 2 changed at k = 1. aK and aV have 2k + 1 rows each: 7 at k = 3, 3 at k = 1.',
    );
    // One word: one cell, said in the singular.
    await page.fill('#tokens', 'hello');
    await press(page, 'clip', true);
    expect(await revealOf(page, 'clip')).toBe(
      'On your sentence: With one word the only offset is 0: nothing is clipped. Compared with k = 3, the lesson’s k, the one cell of panel 2 did not change at k = 1. aK and aV have 2k + 1 rows each: 7 at k = 3, 3 at k = 1.',
    );
    await page.fill('#tokens', two);
    // Of these two words' own queries exactly one has a positive first component: "the other one is".
    const q = pageExample(rp, { tokens: two }).inputs.q.data;
    expect([q[0], q[4]].filter((v) => v > 0).length).toBe(1);
    await press(page, 'locality', true);
    CHECK.locality(await revealOf(page, 'locality'), await settingsOf(page), two);
    // Two words swapped and put back: the content-only weights are the same numbers, bit for bit.
    await press(page, 'shuffle', true);
    expect((await settingsOf(page)).tokens).toBe('cat the');
    const [a, b] = [pageExample(rp, { tokens: two }), pageExample(rp, { tokens: 'cat the' })];
    const back = (m, c) => m.data[(1 - Math.floor(c / 2)) * 2 + (1 - (c % 2))]; // cell c of "the cat" in "cat the"
    const largest = (name) => Math.max(...a[name].data.map((v, c) => Math.abs(v - back(b[name], c))));
    expect(largest('contentWeights')).toBe(0);
    const shuffled = await revealOf(page, 'shuffle');
    expect(shuffled).toContain(contentSaid(0));
    expect(shuffled).toContain(`, and the combined weights differ by up to ${f2(largest('combinedWeights'))}.`);
    expect(shuffled).not.toContain('at most 0');
    // Twenty words: step 6's outputs, one row per word, in three columns in the story's column
    // (about 330 px): every row label drawn whole or shortened with "…", never cut at the canvas's
    // left edge or into the column beside it ("seventeen" lost its "s").
    await page.evaluate(() => {
      window.vectorLabels = [];
      const P = CanvasRenderingContext2D.prototype;
      const { fillText } = P;
      P.fillText = function (label, x, ...rest) {
        if (this.canvas.closest('.reveal-vectors') && this.textAlign === 'right')
          window.vectorLabels.push({ text: String(label), left: x - this.measureText(label).width, right: x });
        return fillText.call(this, label, x, ...rest);
      };
    });
    const twenty =
      'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty';
    await page.fill('#tokens', twenty);
    await press(page, 'output', true);
    await page.evaluate(() => {
      window.vectorLabels = [];
      document.querySelector('[data-figure="output"]').closest('details.reveal').open = true;
    });
    await page.waitForFunction(() => window.vectorLabels.length >= 30);
    const { labels, blocks } = await page.evaluate(() => ({
      labels: window.vectorLabels,
      blocks: JSON.parse(document.querySelector('.reveal-vectors canvas').dataset.layout).flatMap((c) => c.blocks),
    }));
    const starts = [...new Set(blocks.map((block) => block.x))].sort((x1, x2) => x1 - x2); // each column's cells
    const dV = pageExample(rp, { tokens: twenty }).inputs.v.cols; // the cells of an output row
    for (const label of labels) {
      const column = starts.findIndex((x) => Math.abs(label.right + 6 - x) < 1);
      expect(column, JSON.stringify(label)).toBeGreaterThanOrEqual(0);
      // Its own column: from 0, or past the cells of the column before.
      const from =
        column === 0 ? 0 : starts[column - 1] + blocks.find((block) => block.x === starts[column - 1]).cellWidth * dV;
      expect(label.left, JSON.stringify(label)).toBeGreaterThanOrEqual(from - 0.5);
      expect(
        twenty
          .split(' ')
          .some((w) => w === label.text || (label.text.endsWith('…') && w.startsWith(label.text.slice(0, -1)))),
      ).toBe(true);
    }
    expect(labels.map((l) => l.text)).toContain('seventeen');
    // One word repeated: one query for every row (the API's, word by word), so the words' own
    // queries give constant diagonals too; the reveal says so, and a shuffle says no order differs.
    const repeated = 'dog dog dog dog';
    const own = pageExample(rp, { tokens: repeated, maxDistance: 3 });
    const dK = own.inputs.q.cols;
    const rows = Array.from({ length: 4 }, (_, i) => Array.from(own.inputs.q.data.slice(i * dK, (i + 1) * dK)));
    expect(rows.every((row) => row.join() === rows[0].join())).toBe(true);
    const biases = own.positionBiases.data;
    for (let i = 0; i < 3; i += 1)
      for (let j = 0; j < 3; j += 1) expect(biases[(i + 1) * 4 + j + 1]).toBe(biases[i * 4 + j]);
    await page.fill('#tokens', repeated);
    await press(page, 'same-query', true);
    const sameQuery = await revealOf(page, 'same-query');
    expect(sameQuery).not.toContain('it is not');
    expect(sameQuery).toContain(
      'Here the words’ own queries give one too: every word is “dog”, so every row has the same query.',
    );
    expect(sameQuery).toContain(
      'With the words’ own queries, the cells of each diagonal are equal too (largest difference 0).',
    );
    await press(page, 'shuffle', true);
    expect((await settingsOf(page)).tokens).toBe(repeated);
    const unshuffled = await revealOf(page, 'shuffle');
    expect(unshuffled).not.toContain('Press again');
    expect(unshuffled).toContain(
      'Every word is “dog”: any order gives the same sentence, so the panels cannot change.',
    );
    await page.fill('#tokens', 'dog');
    await press(page, 'same-query', true);
    expect(await revealOf(page, 'same-query')).toContain(
      'With the words’ own queries, the cells of each diagonal are equal too (largest difference 0).',
    );
    await press(page, 'shuffle', true);
    expect(await revealOf(page, 'shuffle')).toContain(
      'Shuffling needs at least two words: type a sentence of two words or more.',
    );
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('step 4’s reveal, drawn', () => {
  const openReveal = (page) =>
    page.evaluate(() => {
      document.querySelector('[data-reveal="locality"]').closest('details.reveal').open = true;
    });
  /** What the figure shows: its titles, shares, the layout of each map and of the bars. */
  const figureOf = (page) =>
    page.evaluate(() => {
      const box = document.querySelector('[data-figure="locality"]');
      const maps = [...box.querySelectorAll('.reveal-map')].map((figure) => ({
        table: figure.dataset.key,
        share: Number(figure.dataset.share),
        title: figure.querySelector('figcaption').textContent,
        layout: JSON.parse(figure.querySelector('canvas').dataset.layout ?? 'null'),
      }));
      const bars = box.querySelector('.reveal-bars canvas');
      return {
        hidden: box.hidden,
        maps,
        shares: JSON.parse(bars.dataset.shares ?? 'null'),
        bars: JSON.parse(bars.dataset.layout ?? 'null'),
        caption: box.querySelector('.reveal-caption').textContent,
      };
    });
  const drawnFigure = async (page, tokens) => {
    await expect
      .poll(() => figureOf(page).then((f) => f.maps[0]?.layout?.n === tokens.split(' ').length && f.bars !== null), {
        timeout: 120_000,
      })
      .toBe(true);
    return figureOf(page);
  };
  const rgbAt = async (page, selector, index, x, y) => (await pixelsOf(page, selector, index, [[x, y]]))[0];
  /** Fingerprints of the figure's two maps and its bars (they change when the theme does). */
  const hashes = (page) =>
    Promise.all(
      [
        '[data-figure="locality"] .reveal-map:nth-child(1) canvas',
        '[data-figure="locality"] .reveal-map:nth-child(2) canvas',
        '[data-figure="locality"] .reveal-bars canvas',
      ].map((c) => canvasHash(page, c)),
    );

  /**
   * The figure against the API (recomputed here with rp.example): each map's title and share,
   * each cell's colour (one scale, 0 to the larger largest weight), the bars' heights and the
   * uniform line; and the reveal's text quotes the same percentages.
   */
  async function expectTrueFigure(page, tokens = SENTENCE) {
    const n = tokens.split(' ').length;
    const figure = await drawnFigure(page, tokens);
    expect(figure.hidden).toBe(false);
    const same = pageExample(rp, { tokens, sameQuery: true }).combinedWeights.data;
    const random = pageExample(rp, { tokens, sameQuery: true, table: 'random' }).combinedWeights.data;
    const own = nearShare(pageExample(rp, { tokens }).combinedWeights.data, n);
    const uniform = (3 * n - 2) / (n * n); // no mask: 2 keys in the two end rows, 3 in the others (n = 1: 1)
    const weights = { locality: same, random };
    const top = Math.max(...same, ...random);
    expect(figure.maps.map((m) => m.table)).toEqual(['locality', 'random']);
    for (const [index, map] of figure.maps.entries()) {
      const w = weights[map.table];
      expect(map.share).toBeCloseTo(nearShare(w, n), 12);
      expect(map.title).toBe(`${map.table} table: ${percent(nearShare(w, n))}\u00a0% within one position`);
      expect(map.layout.max).toBe(top);
      const { x0, y0, cell } = map.layout;
      const centres = Array.from({ length: n * n }, (_, c) => [
        x0 + ((c % n) + 0.5) * cell,
        y0 + (Math.floor(c / n) + 0.5) * cell,
      ]);
      const pixels = await pixelsOf(page, '[data-figure="locality"] .reveal-map canvas', index, centres);
      for (let i = 0; i < n; i += 1)
        for (let j = 0; j < n; j += 1) {
          const got = pixels[i * n + j];
          const want = colourOf(w[i * n + j], { scale: 'sequential', min: 0, max: top });
          for (let c = 0; c < 3; c += 1)
            expect(Math.abs(got[c] - want[c]), `${map.table} (${i}, ${j})`).toBeLessThanOrEqual(2);
        }
    }
    const shares = { locality: nearShare(same, n), random: nearShare(random, n), own, uniform };
    for (const key of Object.keys(shares)) expect(figure.shares[key], key).toBeCloseTo(shares[key], 12);
    // Each bar's height over the uniform line's height above the axis is its share over uniform's.
    const values = [shares.locality, shares.random, shares.own];
    for (const [index, bar] of figure.bars.bars.entries()) {
      expect(bar.value).toBeCloseTo(values[index], 12);
      const height = bar.bottom - bar.top;
      expect(Math.abs(height - ((bar.bottom - figure.bars.reference.y) * values[index]) / uniform)).toBeLessThan(0.01);
      // Filled in the line colour, just inside its top and its foot (where the dashed line is not).
      const line = await page.$eval('[data-figure="locality"] .reveal-bars canvas', (c) =>
        getComputedStyle(c).getPropertyValue('--relpos-line'),
      );
      for (const y of [bar.top + 2, bar.bottom - 2].filter((at) => Math.abs(at - figure.bars.reference.y) > 3)) {
        const fill = await rgbAt(page, '[data-figure="locality"] .reveal-bars canvas', 0, bar.x + bar.width / 2, y);
        expect(`#${fill.map((v) => v.toString(16).padStart(2, '0')).join('')}`).toBe(line.trim().toLowerCase());
      }
    }
    expect(figure.caption).toContain(
      `${percent(shares.locality)}\u00a0% with the locality table, ${percent(shares.random)}\u00a0% with a random one, ${percent(own)}\u00a0% with the locality table and the words’ own queries; the dashed line is uniform attention’s ${percent(uniform)}\u00a0%`,
    );
    const text = await revealOf(page, 'locality');
    for (const key of ['locality', 'random', 'uniform']) expect(text).toContain(`${percent(shares[key])}\u00a0%`);
    return figure;
  }

  test('pressing step 4 loads and draws the two tables’ weights and the shares, the API’s numbers, from any starting state', async () => {
    // Each start its own fresh page, the five loaded and pressed at once.
    const fromStart = async (start) => {
      const { page, context, problems } = await env.open(start, { ...VIEW, closedPanels: true });
      const fetched = [];
      page.on('request', (request) => fetched.push(request.url()));
      // Loaded when the step first runs, not with the page.
      expect(await page.$eval('[data-figure="locality"]', (box) => [box.hidden, box.children.length])).toEqual([
        true,
        0,
      ]);
      await press(page, 'locality');
      await openReveal(page);
      await expectTrueFigure(page);
      expect(
        fetched.filter((url) => /reveal-figure/.test(url)),
        start,
      ).toHaveLength(1);
      expect(problems, start).toEqual([]);
      await context.close();
    };
    await Promise.all(['?table=random&k=1', '?causal=1', '?n=2', PERTURBED, '?long=1&n=300'].map(fromStart));
  });

  test('“On my sentence” draws the reader’s words, down to two and one; light and dark redraw it; phone and desktop screenshots', async () => {
    const { page, context, problems } = await env.open('?tokens=a+dog+chased+the+ball+across+the+park', VIEW);
    await press(page, 'locality', true);
    await openReveal(page);
    await expectTrueFigure(page, 'a dog chased the ball across the park');
    await press(page, 'locality'); // the lesson's sentence again: redrawn
    await expectTrueFigure(page);
    const step = page.locator('details.reveal:has([data-reveal="locality"])');
    await screenshot(step, 'locality-contrast-light.png');
    await screenshot(page, 'locality-contrast-1280.png', { fullPage: false }); // beside the panels
    const light = await hashes(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(async () => (await hashes(page)).every((hash, index) => hash !== light[index])).toBe(true);
    await expectTrueFigure(page); // the same numbers and cell colours on the dark theme
    await screenshot(step, 'locality-contrast-dark.png');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => hashes(page)).toEqual(light);
    await page.fill('#tokens', 'three short words');
    await press(page, 'locality', true);
    expect((await expectTrueFigure(page, 'three short words')).caption).toContain(
      'Only the two corner cells, (0, 2) and (2, 0), are farther than one position.',
    );
    for (const tokens of ['two words', 'one']) {
      await page.fill('#tokens', tokens);
      await press(page, 'locality', true);
      const figure = await expectTrueFigure(page, tokens);
      expect(figure.maps.map((m) => m.title)).toEqual([
        'locality table: 100\u00a0% within one position',
        'random table: 100\u00a0% within one position',
      ]);
      expect(figure.caption).toContain('every key is within one position: every share is 100\u00a0%');
      // The reveal's sentence says so too, its "%" held to its number (no line between them).
      expect(await revealOf(page, 'locality')).toContain(
        `With ${tokens.split(' ').length} word${tokens === 'one' ? '' : 's'} every key is within one position of every query, so every share is 100\u00a0%: type a longer sentence`,
      );
      // "The numbers" say why the bars are equal, not "uniform attention: about 100 %".
      const numbers = await page.textContent('[data-numbers="locality"]');
      expect(numbers).toBe(
        `With ${tokens.split(' ').length} word${tokens === 'one' ? '' : 's'}, all of every row’s weight is within one position whatever the table and the queries (100\u00a0%): the bars cannot differ.`,
      );
    }
    // A word a small map has room for is drawn whole: one word of five letters ("h…" in a fixed
    // 26 px), and five words whose longest is five letters.
    await page.evaluate(() => {
      const P = CanvasRenderingContext2D.prototype;
      const { fillText } = P;
      window.mapRowLabels = [];
      P.fillText = function (label, x, ...rest) {
        if (this.canvas.closest('.reveal-map') && this.textAlign === 'right') window.mapRowLabels.push(String(label));
        return fillText.call(this, label, x, ...rest);
      };
    });
    for (const tokens of ['hello', 'my dog likes long walks']) {
      await page.evaluate(() => (window.mapRowLabels = []));
      await page.fill('#tokens', tokens);
      await press(page, 'locality', true);
      await expectTrueFigure(page, tokens);
      const drawn = await page.evaluate(() => window.mapRowLabels);
      for (const word of tokens.split(' ')) expect(drawn, tokens).toContain(word);
      expect(
        drawn.filter((label) => label.endsWith('…')),
        tokens,
      ).toEqual([]);
    }
    expect(problems).toEqual([]);
    await context.close();
    // The phone: one page, light, then dark (redrawn, as on the desktop above).
    const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: 'light' };
    const opened = await env.open('', phone);
    await press(opened.page, 'locality');
    await openReveal(opened.page);
    let phoneLight = null;
    for (const colorScheme of ['light', 'dark']) {
      if (colorScheme === 'dark') {
        await opened.page.emulateMedia({ colorScheme });
        await expect
          .poll(async () => (await hashes(opened.page)).every((hash, index) => hash !== phoneLight[index]))
          .toBe(true);
      }
      const drawn = await expectTrueFigure(opened.page);
      phoneLight ??= await hashes(opened.page);
      expect(await opened.page.evaluate(() => document.documentElement.scrollWidth)).toBe(390); // nothing sideways
      // Each bar's name within its own room (on two lines where one is too wide): no two names run together.
      for (const bar of drawn.bars.bars) expect(bar.name.width, bar.label).toBeLessThanOrEqual(bar.slot - 4);
      expect(drawn.bars.bars.at(-1).name.lines).toEqual(['own', 'queries']);
      const reveal = opened.page.locator('details.reveal:has([data-reveal="locality"])');
      await screenshot(reveal, `locality-contrast-phone-${colorScheme}.png`);
    }
    expect(opened.problems).toEqual([]);
    await opened.context.close();
  });

  test('on a 360 px phone the maps give words the widest room their cells allow (“likes” whole, not “lik…”)', async () => {
    const tokens = 'my dog likes long walks';
    const { page, context, problems } = await env.open(`?tokens=${tokens.replaceAll(' ', '+')}`, NARROW_PHONE);
    await page.evaluate(() => {
      const P = CanvasRenderingContext2D.prototype;
      const { clearRect, fillText } = P;
      window.rowLabels = new Map();
      P.clearRect = function (...args) {
        if (this.canvas.closest('.reveal-map')) window.rowLabels.set(this.canvas, []);
        return clearRect.apply(this, args);
      };
      P.fillText = function (label, x, ...rest) {
        if (this.canvas.closest('.reveal-map') && this.textAlign === 'right')
          window.rowLabels
            .get(this.canvas)
            ?.push({ label: String(label), width: this.measureText(String(label)).width });
        return fillText.call(this, label, x, ...rest);
      };
    });
    await press(page, 'locality', true);
    await openReveal(page);
    await drawnFigure(page, tokens);
    const maps = await page.$$eval('[data-figure="locality"] .reveal-map canvas', (canvases) =>
      canvases.map((c) => ({ layout: JSON.parse(c.dataset.layout), labels: window.rowLabels.get(c) ?? [] })),
    );
    const ratio = await page.evaluate(() => devicePixelRatio);
    expect(maps.length).toBe(2);
    for (const { layout, labels } of maps) {
      const { labelSpace: room, width, fontScale } = layout;
      // Words, not indices: the cells at least MIN_LABELLED_CELL (13 px at fontScale 1), each row
      // its word, whole or a prefix of it ending in "…", no wider than the room.
      expect(labels.map((l) => l.label)).toContain('likes');
      expect(layout.cell).toBeGreaterThanOrEqual(MIN_LABELLED_CELL * fontScale);
      const words = tokens.split(' ');
      expect(labels.length).toBe(words.length);
      labels.forEach((l, i) => {
        expect(l.label === words[i] || (l.label.endsWith('…') && words[i].startsWith(l.label.slice(0, -1)))).toBe(true);
        expect(l.width).toBeLessThanOrEqual(room);
      });
      // The room is the widest the cells allow where a word is cut: a px more and the map (the
      // heatmap's own layout at this width and pixel ratio) would have cells too small for words.
      const wider = heatmapLayout({ n: words.length, width, maxSide: width, fontScale, labelSpace: room + 1 }, ratio);
      if (labels.some((l) => l.label.endsWith('…'))) expect(wider.cell).toBeLessThan(MIN_LABELLED_CELL * fontScale);
      console.log(
        `360 px reveal map: word room ${room} px, cells ${layout.cell} px (${wider.cell} px at ${room + 1}), labels ${labels.map((l) => l.label).join(' ')}`,
      );
    }
    await screenshot(page.locator('details.reveal:has([data-reveal="locality"])'), 'locality-words-360.png');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('every reveal, drawn', () => {
  /** The matrices each step's figure draws, recomputed here with rp.example and rp.attention. */
  const shuffledBack = (tokens, name) => {
    // The shuffled sentence's matrix with its rows and columns put back in the lesson's order:
    // every way of moving the words back (the two "the"s either way).
    const after = pageExample(rp, { tokens })[name].data;
    return wordMoves(SENTENCE.split(' '), tokens.split(' ')).map((moved) =>
      Float64Array.from({ length: 36 }, (_, c) => after[moved[Math.floor(c / 6)] * 6 + moved[c % 6]]),
    );
  };
  const EXPECTED = {
    shuffle: (s) => {
      const before = pageExample(rp);
      return [
        ['content-before', [before.contentWeights.data]],
        ['content-after', shuffledBack(s.tokens, 'contentWeights')],
        ['combined-before', [before.combinedWeights.data]],
        ['combined-after', shuffledBack(s.tokens, 'combinedWeights')],
      ];
    },
    'same-query': () => [
      ['own', [pageExample(rp).positionBiases.data]],
      ['same', [pageExample(rp, { sameQuery: true }).positionBiases.data]],
    ],
    clip: () => [
      ['before', [pageExample(rp).positionBiases.data]],
      ['after', [pageExample(rp, { maxDistance: 1 }).positionBiases.data]],
    ],
    softmax: () => {
      const ex = pageExample(rp);
      return [
        ['biases', [ex.positionBiases.data]],
        ['difference', [ex.combinedWeights.data.map((v, c) => v - ex.contentWeights.data[c])]],
      ];
    },
    output: () => {
      const ex = pageExample(rp);
      return [
        ['with', [ex.combinedWeights.data]],
        ['without', [ex.combinedWeights.data]], // a^V does not enter the weights: CHECK.output
      ];
    },
  };
  // Maps of one colour scale: the shuffle's four, the two of steps 3 and 6; steps 2 and 5 each its own.
  const GROUPS = { 'same-query': [['own'], ['same']], softmax: [['biases'], ['difference']] };
  const SIGNED = new Set(['same-query', 'clip', 'softmax']);

  const mapsOf = (page, name) =>
    page.$$eval(`[data-figure="${name}"] .reveal-map`, (figures) =>
      figures.map((f) => ({
        key: f.dataset.key,
        layout: JSON.parse(f.querySelector('canvas').dataset.layout ?? 'null'),
      })),
    );
  /** Each map's every cell against the API's value on the map's colour scale (one per group, computed here). */
  async function expectTrueMaps(page, name, s) {
    await expect
      .poll(() => mapsOf(page, name).then((maps) => maps.every((m) => m.layout)), { timeout: 120_000 })
      .toBe(true);
    const maps = await mapsOf(page, name);
    const expected = EXPECTED[name](s);
    expect(maps.map((m) => m.key)).toEqual(expected.map(([key]) => key));
    const groups = GROUPS[name] ?? [expected.map(([key]) => key)];
    for (const group of groups) {
      const members = expected.filter(([key]) => group.includes(key));
      const all = members.flatMap(([, candidates]) => [...candidates[0]]);
      const top = SIGNED.has(name) ? Math.max(...all.map(Math.abs)) : Math.max(...all);
      for (const [key, candidates] of members) {
        const index = maps.findIndex((m) => m.key === key);
        const { layout } = maps[index];
        expect(layout.max, `${name} ${key}`).toBeCloseTo(top, 12);
        expect(layout.min, `${name} ${key}`).toBeCloseTo(SIGNED.has(name) ? -top : 0, 12);
        const options = SIGNED.has(name)
          ? { scale: 'diverging', min: -top, max: top }
          : { scale: 'sequential', min: 0, max: top };
        const got = await pixelsOf(
          page,
          `[data-figure="${name}"] .reveal-map canvas`,
          index,
          Array.from({ length: 36 }, (_, c) => [
            layout.x0 + ((c % 6) + 0.5) * layout.cell,
            layout.y0 + (Math.floor(c / 6) + 0.5) * layout.cell,
          ]),
        );
        // Cells outlined by the figure are read at their centre, inside the outline.
        const matches = candidates.some((values) =>
          got.every((rgb, c) => {
            const want = colourOf(values[c], options);
            return rgb.every((v, channel) => Math.abs(v - want[channel]) <= 2);
          }),
        );
        expect(matches, `${name} ${key}`).toBe(true);
      }
    }
    // Each colour bar's ticks as drawn: the number written under a tick is the bar's value at the
    // tick's place on its range (±0.89 with ticks at ±0.5 reads −0.5 and 0.5, not −1 and 1).
    for (const { key, layout } of maps) {
      const { bar, min, max } = layout;
      expect(bar.ticks.length, `${name} ${key}`).toBeGreaterThanOrEqual(2);
      for (const tick of bar.ticks) {
        const at = min + ((tick.x - bar.left) / (bar.right - bar.left)) * (max - min);
        expect(Math.abs(number(tick.text) - at), `${name} ${key}: “${tick.text}” at ${at}`).toBeLessThan(
          1e-9 * (max - min),
        );
      }
    }
    // Step 5: the cells its caption names are the cells outlined, in both maps, and no others.
    if (name === 'softmax') {
      const { i, j, top } = softmaxCells();
      const caption = await page.textContent('[data-figure="softmax"] .reveal-caption');
      expect(caption).toContain(
        `Outlined in these two maps: cell (${i}, ${j}) and the row’s largest bias, (${i}, ${top}). ` +
          `The step selected cell (${i}, ${j}): the panels outline it and every cell with clip(j − i, ±k) = ${signedOffset(j - i)} (until you select another cell).`,
      );
      // Read where the maps' outlines (1.75 CSS px at 1280, 1.375 on the phone) cover whole device pixels: the phone's.
      if ((await page.evaluate(() => devicePixelRatio)) >= 2)
        for (const [index, { key, layout }] of maps.entries()) {
          const outlined = await outlinedCells(page, '[data-figure="softmax"] .reveal-map canvas', index, layout, 6);
          expect(outlined.sort(), key).toEqual(
            [
              [i, j],
              [i, top],
            ].sort(),
          );
        }
    }
  }

  /** Step 6's outputs: each cell of the three tables against the API's, on one diverging scale. */
  async function expectTrueOutputs(page) {
    const ex = pageExample(rp);
    const zeroed = rp.attention({
      ...ex.inputs,
      relValues: { ...ex.inputs.relValues, data: new Float64Array(ex.inputs.relValues.data.length) },
    }).output.data;
    const tables = [ex.output.data, zeroed, ex.output.data.map((v, c) => v - zeroed[c])];
    const m = Math.max(...tables.flatMap((t) => [...t].map(Math.abs)));
    const layout = JSON.parse(
      await page.$eval('[data-figure="output"] .reveal-vectors canvas', (c) => c.dataset.layout),
    );
    expect(layout.map((column) => column.max)).toEqual([m, m, m]);
    const d = ex.output.cols;
    for (const [index, table] of tables.entries()) {
      const [block] = layout[index].blocks;
      const pixels = await pixelsOf(
        page,
        '[data-figure="output"] .reveal-vectors canvas',
        0,
        Array.from({ length: 6 * d }, (_, at) => [
          block.x + ((at % d) + 0.5) * block.cellWidth,
          block.y + (Math.floor(at / d) + 0.2) * block.rowHeight,
        ]),
      );
      for (let i = 0; i < 6; i += 1)
        for (let c = 0; c < d; c += 1) {
          const got = pixels[i * d + c];
          const want = colourOf(table[i * d + c], { scale: 'diverging', min: -m, max: m });
          for (let channel = 0; channel < 3; channel += 1)
            expect(Math.abs(got[channel] - want[channel]), `output table ${index} (${i}, ${c})`).toBeLessThanOrEqual(2);
        }
    }
    // Under them, the colour bar of that one scale: ±m, its numbers round values inside it, 0
    // among them, each number's colour on the bar the colour of its value.
    const bar = JSON.parse(
      await page.$eval('[data-figure="output"] .reveal-vectors canvas', (c) => c.dataset.bar ?? 'null'),
    );
    expect(bar?.label).toBe('output value: blue < 0 < red');
    const values = bar.ticks.map((tick) => tick.value);
    expect(values).toContain(0);
    expect(values.length).toBeGreaterThanOrEqual(3);
    for (const tick of bar.ticks) {
      expect(Math.abs(tick.value)).toBeLessThanOrEqual(m);
      expect(Number(tick.text.replace('−', '-'))).toBe(tick.value);
      expect(tick.x).toBeCloseTo(bar.x + ((tick.value + m) / (2 * m)) * bar.width, 6);
    }
    const inside = (x) => Math.min(Math.max(x, bar.x + 2), bar.x + bar.width - 3);
    const barPixels = await pixelsOf(
      page,
      '[data-figure="output"] .reveal-vectors canvas',
      0,
      bar.ticks.map((tick) => [inside(tick.x), bar.y + 5]),
    );
    bar.ticks.forEach((tick, index) => {
      const want = colourOf(tick.value, { scale: 'diverging', min: -m, max: m });
      for (let channel = 0; channel < 3; channel += 1)
        expect(Math.abs(barPixels[index][channel] - want[channel]), `bar at ${tick.text}`).toBeLessThanOrEqual(8);
    });
    // The canvas ends under what it draws: each table's six rows above the bar, and under the bar
    // (10 px) its numbers (11 px type, 5 px below it) with at most 12 px to spare (it kept a
    // 160 px table’s room for six rows of 20 px: 50 px of nothing under the numbers).
    const height = await page.$eval('[data-figure="output"] .reveal-vectors canvas', (c) => c.clientHeight);
    for (const { blocks } of layout) expect(blocks[0].y + 6 * blocks[0].rowHeight).toBeLessThan(bar.y);
    const numbersBottom = bar.y + 10 + 5 + 11;
    expect(height).toBeGreaterThanOrEqual(numbersBottom);
    expect(height - numbersBottom).toBeLessThanOrEqual(12);
  }

  /** The reveal's figure inside the window after `opener` is clicked (its summary): the maps whole, drawn. */
  async function openAndExpectOnScreen(page, name, opener = `details.reveal:has([data-reveal="${name}"]) > summary`) {
    await page.click(opener);
    await expect
      .poll(
        () =>
          page.$eval(`[data-figure="${name}"] .reveal-maps`, (maps) => {
            const box = maps.getBoundingClientRect();
            const drawn = [...maps.querySelectorAll('canvas')].every((c) => c.dataset.layout);
            return drawn && box.height > 100 && box.top >= 0 && box.bottom <= innerHeight;
          }),
        { timeout: 120_000 },
      )
      .toBe(true);
  }

  test('on a tablet (768 × 1024, the story under the panels) the way back to a step sits on its panel’s top edge, in view, and leaves the panel level with the one beside it', async () => {
    const { page, context, problems } = await env.open('', {
      viewport: { width: 768, height: 1024 },
      closedPanels: true,
      closedSettings: true,
      reducedMotion: 'reduce', // the scroll to the panel at once
    });
    const besides = { shuffle: 'combinedWeights', 'same-query': 'contentScores', locality: 'contentWeights' };
    for (const [index, name] of STEPS.entries()) {
      if (!besides[name]) continue;
      await press(page, name);
      const seen = await page.evaluate(
        ([target, beside]) => {
          const button = document.querySelector('.story-back');
          const box = button.getBoundingClientRect();
          const card = button.closest('figure');
          const canvasTop = (id) => document.querySelector(`#figure-${id} canvas`).getBoundingClientRect().top;
          return {
            figure: card.id,
            text: button.textContent,
            inView: box.top >= 0 && box.bottom <= innerHeight,
            onEdge: box.top < card.getBoundingClientRect().top && box.bottom > card.getBoundingClientRect().top,
            level: Math.abs(canvasTop(target) - canvasTop(beside)) < 1,
          };
        },
        [PANEL[name], besides[name]],
      );
      expect(seen, name).toEqual({
        figure: `figure-${PANEL[name]}`,
        text: `↑ Back to step ${index + 1} and its Reveal`,
        inView: true,
        onEdge: true,
        level: true,
      });
      await page.click('.story-back');
      await expect.poll(() => page.$('.story-back'), name).toBeNull();
      expect(
        await page.$eval(
          `[data-story="${name}"]`,
          (button) => button.closest('details.step').querySelector('details.reveal').open,
        ),
        name,
      ).toBe(true);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const [label, options] of [
    ['1280 × 800', VIEW],
    ['a 360 × 780 phone', NARROW_PHONE],
  ])
    test(`at ${label}: each step’s reveal opens with its figure on screen, every cell and colour-bar number the API’s; on the phone the panel a step scrolls to leads back to it`, async () => {
      const opened = await env.open('', { ...options, closedPanels: true, reducedMotion: 'reduce' });
      const { page, problems } = opened;
      for (const [index, name] of STEPS.entries()) {
        await press(page, name);
        const s = await settingsOf(page);
        // Beside the panels (1280) the step stays in view: no way back needed. On the phone the
        // step's panel, scrolled to, starts with a button back to the step, which opens its reveal.
        const back = await page.evaluate(() => {
          const button = document.querySelector('.story-back');
          if (!button) return null;
          const box = button.getBoundingClientRect();
          return { figure: button.closest('figure')?.id, text: button.textContent, top: box.top, bottom: box.bottom };
        });
        if (options === VIEW) expect(back, name).toBeNull();
        else {
          expect(back, name).toEqual({
            ...back,
            figure: `figure-${PANEL[name]}`,
            text: `↑ Back to step ${index + 1} and its Reveal`,
          });
          expect(back.top, name).toBeGreaterThanOrEqual(0);
          expect(back.bottom, name).toBeLessThanOrEqual(options.viewport.height);
          await expectDrawnOnScreen(page, PANEL[name]);
        }
        await openAndExpectOnScreen(page, name, options === VIEW ? undefined : '.story-back');
        if (options !== VIEW) expect(await page.$('.story-back'), name).toBeNull(); // used: gone
        if (name !== 'locality') await expectTrueMaps(page, name, s); // step 4: its own tests above
        if (name === 'output') await expectTrueOutputs(page);
        // Where the reveal's text names the colours, "blue < 0 < red" sits on one line.
        const signs = await signColourLines(page, `[data-figure="${name}"]`);
        if (name === 'output') expect(signs.length, name).toBeGreaterThan(0);
        for (const { lines } of signs) expect(lines, `${name} at ${label}`).toBe(1);
        // Closed again, so the next step starts as a reader finds it.
        await page.click(`details.reveal:has([data-reveal="${name}"]) > summary`);
      }
      expect(problems).toEqual([]);
      revealPages.set(options, opened); // for the tests below, which need no fresh page
    });

  test('on a 320 px phone a reveal’s two maps are drawn one under the other, each the reveal’s width; at 360 px side by side', async () => {
    const { page, context, problems } = await env.open('', {
      ...NARROW_PHONE,
      viewport: { width: 320, height: 640 },
      closedPanels: true,
      reducedMotion: 'reduce',
    });
    const maps = () =>
      page.$$eval('[data-figure="clip"] .reveal-map canvas', (canvases) =>
        canvases.map((canvas) => {
          const box = canvas.getBoundingClientRect();
          const row = canvas.closest('.reveal-maps').getBoundingClientRect();
          return {
            top: box.top,
            bottom: box.bottom,
            width: box.width,
            row: row.width,
            ...JSON.parse(canvas.dataset.layout),
          };
        }),
      );
    await press(page, 'clip');
    await page.evaluate(() => (document.querySelector('[data-reveal="clip"]').closest('details.reveal').open = true));
    await expect.poll(async () => (await maps()).every((m) => m.cell > 0)).toBe(true);
    const narrow = await maps();
    expect(narrow).toHaveLength(2);
    // The story's nested cards keep small paddings there: the reveal is 250 px of the 320.
    expect(narrow[0].row).toBeGreaterThanOrEqual(248);
    expect(narrow[1].top).toBeGreaterThanOrEqual(narrow[0].bottom); // one under the other
    for (const map of narrow) {
      expect(map.width).toBeGreaterThan(0.9 * map.row);
      expect(map.cell).toBeGreaterThanOrEqual(20); // side by side they were 109 px maps of 12 px cells
    }
    await page.setViewportSize({ width: 360, height: 780 });
    await expect.poll(async () => (await maps())[1].top).toBe((await maps())[0].top); // side by side again
    expect(problems).toEqual([]);
    await context.close();
  });

  test('no text or canvas label under 11 CSS px on a 360 px phone, with every reveal drawn', async () => {
    const { page, context, problems } = await pageAfterReveals(NARROW_PHONE);
    for (const name of STEPS) {
      await press(page, name);
      await page.evaluate((n) => {
        document.querySelector(`[data-reveal="${n}"]`).closest('details.reveal').open = true;
      }, name);
    }
    await expect
      .poll(() =>
        page.$$eval(
          '.reveal-figure canvas',
          (canvases) => canvases.length > 0 && canvases.every((c) => c.dataset.layout),
        ),
      )
      .toBe(true);
    // Heatmaps: the smallest type they draw is the note, 12 px × fontScale, at the canvas's CSS size.
    const heatmaps = await page.$$eval('canvas[data-layout]', (canvases) =>
      canvases
        .filter((c) => c.getBoundingClientRect().width > 0)
        .map((c) => {
          const layout = JSON.parse(c.dataset.layout);
          return {
            id: c.closest('[id], [data-figure]')?.id || c.closest('[data-figure]')?.dataset.figure,
            fontScale: layout.fontScale,
            shown: c.getBoundingClientRect().width / (layout.width ?? c.getBoundingClientRect().width),
          };
        }),
    );
    // The four main panels and every reveal's maps (steps 1–6: 4 + 2 + 2 + 2 + 2 + 2).
    expect(heatmaps.filter((m) => m.fontScale !== undefined).length).toBeGreaterThanOrEqual(18);
    for (const map of heatmaps.filter((m) => m.fontScale !== undefined))
      expect(12 * map.fontScale * map.shown, map.id).toBeGreaterThanOrEqual(11);
    // Text: every element with text of its own, shown, but sub- and superscripts.
    const small = await page.evaluate(() => {
      const found = [];
      for (const element of document.querySelectorAll('body *')) {
        if (element.closest('sub, sup, math, .skip, [hidden], script, style')) continue;
        const own = [...element.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim());
        const box = element.getBoundingClientRect();
        if (!own || box.width === 0 || box.height === 0) continue;
        const size = parseFloat(getComputedStyle(element).fontSize);
        if (size < 11)
          found.push(`${element.tagName}.${element.className}: ${size}px “${element.textContent.trim().slice(0, 30)}”`);
      }
      return found;
    });
    expect(small).toEqual([]);
    // Every text naming the diverging colours keeps "blue < 0 < red" on one line: step 6's caption
    // and panel 7's ("What one cell is made of", opened by step 6).
    const signs = await signColourLines(page, 'body');
    expect(signs.map((sign) => sign.where)).toEqual(expect.arrayContaining(['output', 'figure-tables']));
    for (const sign of signs) expect(sign.lines, sign.where).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the handbook says / this page shows', () => {
  test('one place, opened by the footer’s link, quoting the handbook where the page corrects it; its numbers the API’s', async () => {
    const { page, context, problems } = await pageAfterReveals(VIEW);
    expect(await page.$eval('#handbook', (d) => d.open)).toBe(false);
    await page.click('.page-footer a[href="#handbook"]');
    await expect.poll(() => page.$eval('#handbook', (d) => d.open)).toBe(true);
    await expect
      .poll(() =>
        page.$eval(
          '#handbook > summary',
          (s) => s.getBoundingClientRect().top >= 0 && s.getBoundingClientRect().top < innerHeight,
        ),
      )
      .toBe(true);
    const terms = await page.$$eval('#handbook dt', (dts) => dts.map((dt) => dt.textContent));
    for (const quote of [
      '“each anti-diagonal corresponds to positions at a fixed relative distance”',
      '“all cells on the same anti-diagonal have identical values”',
      '“every occurrence of the same distance gets the same treatment”',
      '“peaking at offset 0 and decaying symmetrically”',
      'a_K_sim[idx, 0] += locality_factor',
    ])
      expect(
        terms.some((t) => t.includes(quote)),
        quote,
      ).toBe(true);
    // The handbook's own profile (its code: seed 42, noise 0.1, bump height 1, offsets −5…5).
    const { profile, offsets } = rp.localityProfile();
    const at = (c) => profile[offsets.indexOf(c)];
    expect(at(-4)).toBeGreaterThan(at(-3));
    expect(at(-5)).toBeGreaterThan(at(-4));
    const text = (await page.textContent('#handbook')).replace(/\s+/g, ' ');
    expect(text).toContain(
      `the uniform query reads ${f2(at(-1))} at offset −1 and ${f2(at(1))} at +1, and the profile rises again at −4 and −5`,
    );
    // The page's bump height (the handbook's is 1: localityProfile() is its code, checked against numpy in tests/js).
    expect(text).toContain(`This page uses height ${await page.evaluate(() => window.relposPage.state().strength)}`);
    expect(text).toContain('arXiv:1803.02155');
    expect(problems).toEqual([]);
    await context.close();
  });
});
