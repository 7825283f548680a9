// The position schemes side by side in headless Chromium, in one browser session: the comparison
// view draws (non-blank canvases, no console errors), sinusoidal among the default columns, the
// shift experiment drawn, each column its own colour scale by default (one shared when ticked), RoPE's fixed-content diagonals, the
// columns' panels aligned, "Longer than trained" from one click; its table says what the page
// computed, its lead and caption the table's numbers, its lines come apart in the zoomed panel and
// each has its colour and the dash of what it meets past L, its table fits a phone; its URL state
// round-trips, and the iframe view shows it alone when asked.
import { beforeAll, describe, expect, test } from 'vitest';
import { screenshot } from './browser.js';
import { createRelPos } from 'relpos-wasm';
import { formatSignificant } from '../../web/render/number-text.js';
import { canvasHash, pageExample, settledBox, usePage } from './page-fixture.js';
import { ALIBI_HEADS, SCHEME_INFO, T5_STAND_IN_TEXT } from '../../web/views/schemes-view.js';
import { corpusName } from '../../web/train/corpus-format.js';
import { trainingCorpus } from '../js/helpers.js';
import { EXTRAPOLATION } from '../../web/train/length-extrapolation.js';
import { SCHEME_MARKS, lineDash, pastTrained, zoomLeavesOut } from '../../web/train/longer-than-trained.js';
import { DASHES } from '../../web/render/plot-axes.js';

const env = usePage();
// "Longer than trained" here trains each model this many steps (?longer-steps), not the
// experiment's EXTRAPOLATION.steps: enough for every model to learn more than the words'
// frequencies (node bench/length-extrapolation.mjs 16 100: 4.47-4.53 nats against 4.76).
const LONGER_STEPS = 100;
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

/** Scrolls to the section, as a reader does (it is drawn when near the view), and waits until it is drawn. */
async function schemesDrawn(page) {
  await page.locator('#schemes-section').scrollIntoViewIfNeeded();
  await page.waitForSelector('#schemes-section[data-drawn]');
}
const columnIds = (page) => page.$$eval('.schemes-column', (list) => list.map((c) => c.dataset.scheme));
const tableCells = (page) =>
  page.$$eval('.schemes-table tbody tr', (rows) =>
    Object.fromEntries(
      rows.map((r) => [
        r.dataset.scheme,
        [...r.querySelectorAll('td')].map((td) => (td.querySelector('.schemes-fact') ?? td).textContent),
      ]),
    ),
  );
// A canvas has something drawn: more than one distinct colour among its pixels.
const drawnColours = (page, selector) =>
  page.$eval(selector, (canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4 * 13) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return seen.size;
  });

/**
 * In the page: every text drawn on the "Longer than trained" plots is recorded in
 * window.longerPlotText, and per canvas, since it was last cleared, its texts and its strokes
 * (colour, dash, points) in window.longerPlots.
 */
function recordLongerPlot() {
  window.longerPlotText = new Set();
  window.longerPlots = new Map();
  const P = CanvasRenderingContext2D.prototype;
  const inPlot = (g) => g.canvas.closest?.('#schemes-longer .longer-plot');
  const drawn = (g) => {
    if (!window.longerPlots.has(g.canvas)) window.longerPlots.set(g.canvas, { texts: [], strokes: [] });
    return window.longerPlots.get(g.canvas);
  };
  const paths = new WeakMap();
  const { fillText, clearRect, beginPath, moveTo, lineTo, stroke } = P;
  P.fillText = function (text, ...rest) {
    if (inPlot(this)) {
      window.longerPlotText.add(String(text));
      drawn(this).texts.push(String(text));
    }
    return fillText.call(this, text, ...rest);
  };
  P.clearRect = function (...args) {
    if (inPlot(this)) window.longerPlots.set(this.canvas, { texts: [], strokes: [] });
    return clearRect.apply(this, args);
  };
  P.beginPath = function () {
    paths.set(this, []);
    return beginPath.call(this);
  };
  for (const [name, original] of [
    ['moveTo', moveTo],
    ['lineTo', lineTo],
  ])
    P[name] = function (x, y) {
      paths.get(this)?.push([x, y]);
      return original.call(this, x, y);
    };
  P.stroke = function (...args) {
    if (inPlot(this))
      drawn(this).strokes.push({
        colour: this.strokeStyle,
        dash: this.getLineDash().join(','),
        points: [...(paths.get(this) ?? [])],
      });
    return stroke.apply(this, args);
  };
}

/**
 * The "Longer than trained" plots as drawn: per canvas (the full panel, then the zoomed one)
 * whether it is hidden, its texts, and its lines: the strokes through one point per length (four,
 * left to right, spanning the plot), each { colour, dash, y: [px] }.
 */
const longerPlots = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('#schemes-longer .longer-plot canvas')].map((canvas) => {
      const { texts = [], strokes = [] } = window.longerPlots.get(canvas) ?? {};
      const lines = strokes
        .filter(
          (s) =>
            s.points.length === 4 &&
            s.points.every((p, k) => k === 0 || p[0] > s.points[k - 1][0]) &&
            s.points[3][0] - s.points[0][0] > 50,
        )
        .map((s) => ({ colour: s.colour, dash: s.dash, y: s.points.map((p) => p[1]) }));
      return { hidden: canvas.closest('.longer-plot').hidden, texts, lines };
    }),
  );
/** The scheme of a drawn line, by its colour (None's is the theme's text colour, none of the others). */
const schemeOfColour = (colour) =>
  Object.keys(SCHEME_MARKS).find((id) => SCHEME_MARKS[id].colour.toLowerCase() === colour.toLowerCase()) ?? 'none';
/** How far apart, in px, the lines' last points (at 8L) are: the highest's from the lowest's. */
const endSpread = (lines) => Math.max(...lines.map((l) => l.y[3])) - Math.min(...lines.map((l) => l.y[3]));

describe('position schemes side by side', () => {
  test('draws five columns by default, sinusoidal among them, each panel non-blank; the table holds what was computed', async () => {
    const { page, context, problems } = await env.open(`?longer-steps=${LONGER_STEPS}`, {
      viewport: { width: 1920, height: 1000 },
    });
    await schemesDrawn(page);
    const ids = ['shaw', 't5', 'alibi', 'rope', 'sinusoidal'];
    expect(await columnIds(page)).toEqual(ids);
    // Each column's biases and weights shown; its offset plot, the shift drawn and the facts' charts
    // one click away, drawn when shown.
    const visible = (selector) => page.$$eval(selector, (list) => list.map((c) => c.checkVisibility()));
    expect(
      await visible('.schemes-column canvas[data-panel="bias"], .schemes-column canvas[data-panel="weights"]'),
    ).toEqual(Array(10).fill(true));
    expect(await visible('canvas[data-panel="profile"], canvas[data-panel^="shift-"], .schemes-facts canvas')).toEqual(
      Array(5 * 4 + 3).fill(false),
    );
    // The shift's sentence stays; the caption of its matrices goes with them.
    expect(await visible('.schemes-shift')).toEqual(Array(5).fill(true));
    expect(await visible('.schemes-shift-block .schemes-caption')).toEqual(Array(5).fill(false));
    expect(await page.getAttribute('#schemes-more', 'aria-expanded')).toBe('false');
    // The summary table: one row per scheme, its cells side by side, the column names only in its
    // head (on a phone, one block per scheme with each fact under its column's name: the phone's test).
    const cellTops = await page.$$eval('.schemes-table tbody tr', (rows) =>
      rows.map((row) => new Set([...row.children].map((cell) => Math.round(cell.getBoundingClientRect().top))).size),
    );
    expect(cellTops).toEqual(Array(5).fill(1));
    expect(await visible('.schemes-fact-name')).toEqual(Array(20).fill(false));
    const drawnBefore = Number(await page.getAttribute('#schemes-section', 'data-drawn'));
    await page.click('#schemes-more');
    await page.waitForFunction(
      (n) => Number(document.getElementById('schemes-section').dataset.drawn) > n,
      drawnBefore,
    );
    expect(await page.getAttribute('#schemes-more', 'aria-expanded')).toBe('true');
    expect(await visible('canvas[data-panel="profile"], canvas[data-panel^="shift-"], .schemes-facts canvas')).toEqual(
      Array(5 * 4 + 3).fill(true),
    );
    for (const id of ids) {
      for (const panel of ['bias', 'weights', 'profile', 'shift-before', 'shift-after']) {
        expect(
          await drawnColours(page, `#schemes-column-${id} canvas[data-panel="${panel}"]`),
          `${id} ${panel}`,
        ).toBeGreaterThan(3);
      }
    }
    // The shift's difference: one colour (unchanged, to rounding) for the relative schemes, not for
    // sinusoidal: the largest channel difference from the middle pixel, inside the outline.
    const differenceSpread = (id) =>
      page.$eval(`#schemes-column-${id} canvas[data-panel="shift-difference"]`, (canvas) => {
        const { data, width, height } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        const mid = 4 * (Math.floor(height / 2) * width + Math.floor(width / 2));
        let spread = 0;
        for (let y = 4; y < height - 4; y += 1)
          for (let x = 4; x < width - 4; x += 1)
            for (let c = 0; c < 3; c += 1)
              spread = Math.max(spread, Math.abs(data[4 * (y * width + x) + c] - data[mid + c]));
        return spread;
      });
    for (const id of ['shaw', 't5', 'alibi', 'rope']) expect(await differenceSpread(id), id).toBeLessThanOrEqual(4);
    expect(await differenceSpread('sinusoidal')).toBeGreaterThan(40);
    for (const panel of ['buckets', 'slopes', 'angles'])
      expect(await drawnColours(page, `.schemes-facts canvas[data-panel="${panel}"]`), panel).toBeGreaterThan(3);
    const cells = await tableCells(page);
    // depends on the query? translation-invariant? parameters, extrapolation
    // depends on the query? in a few words, about that cell alone (no chart hidden under "More charts").
    expect(cells.shaw[0]).toMatch(/^yes: with every query qi redrawn at random, a cell’s bias moves by up to \S+$/);
    expect(cells.sinusoidal[0]).toMatch(
      /^yes: with every token vector xi redrawn at random, a cell’s bias moves by up to \S+$/,
    );
    // RoPE's, recomputed here with the API: one cell with every query redrawn (seed + 1).
    const ex = pageExample(rp, {});
    const n = 6;
    const ropeBias = (q) => {
      const run = (position) => rp.attention({ q, k: ex.inputs.k, v: ex.inputs.v, position }).combinedScores.data;
      const rope = run({ scheme: 'rope', layout: 'interleaved' });
      const plain = run({ scheme: 'none' });
      return rope.map((value, c) => value - plain[c]);
    };
    const before = ropeBias(ex.inputs.q);
    const after = ropeBias({ rows: n, cols: 4, data: rp.randn(43, n * 4) });
    const moved = Math.max(...before.map((value, c) => Math.abs(value - after[c])));
    expect(cells.rope[0]).toBe(
      `yes: with every query qi redrawn at random, a cell’s bias moves by up to ${formatSignificant(moved, 2)}`,
    );
    for (const id of ids) expect(cells[id][0], id).not.toMatch(/Profile|offset/);
    expect(cells.t5[0]).toBe('no: other queries leave the bias unchanged');
    expect(cells.alibi[0]).toBe('no: other queries leave the bias unchanged');
    expect(cells.rope[0]).toMatch(/^yes/);
    for (const id of ['shaw', 't5', 'alibi', 'rope']) expect(cells[id][1], id).toMatch(/^yes: max \|Δ score\| /);
    expect(cells.sinusoidal[1]).toMatch(/^no: max \|Δ score\| /);
    // k = 3, d_k = 4: a^K and a^V have 7 rows of 4 numbers each, which Shaw et al. share across
    // the heads; T5 has 32 buckets, a bias each per head.
    expect(cells.shaw[2]).toBe('56, shared by all heads (aK and aV rows)');
    expect(cells.t5[2]).toBe('32 per head (one per bucket)');
    expect(cells.t5[3]).toBe(
      'offsets from 91 on share the last bucket (32 buckets, max distance 128): one bias for every longer distance',
    );
    expect(await page.textContent('.schemes-facts')).toContain('0.5, 0.25, 0.13');
    // The shift line of a relative scheme reports at most rounding.
    const shift = await page.textContent('#schemes-column-rope .schemes-shift');
    const difference = Number(shift.match(/at most (\S+)\.$/)[1].replace('−', '-'));
    expect(difference).toBeLessThanOrEqual(1e-12);
    // RoPE: with one query and one key vector at every position, one bias per diagonal.
    const rope = await page.textContent(
      '#schemes-column-rope .schemes-block:has(canvas[data-panel="profile"]) .schemes-caption',
    );
    const spread = Number(
      /they differ by ([^)]+)\)/
        .exec(rope)[1]
        .replace('−', '-')
        .replace('×10', 'e')
        .replace(/[^\d.e+-]/g, ''),
    );
    expect(spread).toBeLessThan(1e-9);
    expect(rope).toMatch(/RoPE’s bias depends on the content and on j − i, never on the absolute position/);
    // Shaw's dashed lines: where a row's shared run begins, from which outward |j − i| ≥ k (k = 3,
    // n = 6: heatmap.js's bandEdgePaths starts the upper line at column 3 of row 0, offset 3).
    expect(await page.textContent('#schemes-column-shaw .schemes-block .schemes-caption')).toContain(
      'From the dashed lines outward (|j − i| ≥ k) a row reuses one edge embedding',
    );
    // The maps read a cell as the panels do: hovered, ALiBi's bias at (1, 4) is −m·|j − i| with m
    // its first head's slope, and the cells of offset 3 are outlined; from the keyboard, another
    // map's cells one by one, read out.
    const alibiBias = page.locator('#schemes-column-alibi canvas[data-panel="bias"]');
    await alibiBias.scrollIntoViewIfNeeded();
    const unread = await canvasHash(page, '#schemes-column-alibi canvas[data-panel="bias"]');
    const at = JSON.parse(await alibiBias.getAttribute('data-layout'));
    const where = await settledBox(page, alibiBias);
    await page.mouse.move(where.x + at.x0 + 4.5 * at.cell, where.y + at.y0 + 1.5 * at.cell);
    const tip = page.locator('#schemes-figure .relpos-tooltip');
    await expect.poll(() => tip.isVisible()).toBe(true);
    const slope = rp.alibiSlopes(ALIBI_HEADS)[0];
    expect(await tip.textContent()).toBe(
      `ALiBi: position bias${formatSignificant(-slope * 3, 3)}(i, j)(1, 4)query → keycat → theoffset j − i3`,
    );
    expect(await canvasHash(page, '#schemes-column-alibi canvas[data-panel="bias"]')).not.toBe(unread);
    await page.mouse.move(1, 1);
    await expect.poll(() => tip.isVisible()).toBe(false);
    await page.$eval('#schemes-column-t5 canvas[data-panel="weights"]', (c) => c.parentElement.focus());
    await page.keyboard.press('ArrowRight');
    expect(await tip.textContent()).toMatch(
      /^T5 buckets: combined weight0\.\d+\(i, j\)\(0, 1\)query → keythe → catoffset j − i1$/,
    );
    expect(await page.textContent('#schemes-figure .relpos-visually-hidden')).toMatch(
      /^T5 buckets: combined weight, row 0 “the”, column 1 “cat”: offset 1, value 0\.\d+\.$/,
    );
    await page.keyboard.press('Escape');
    // Each column its own colour scale by default (the biases differ in size by an order of
    // magnitude); one scale for all when ticked: every bias caption then names the same ±m.
    expect(await page.isChecked('#schemes-shared-scale')).toBe(false);
    expect(await page.textContent('#schemes-column-alibi .schemes-block .schemes-caption')).toMatch(
      /this panel’s largest/,
    );
    const hashOwn = await canvasHash(page, '#schemes-column-alibi canvas[data-panel="bias"]');
    await page.check('#schemes-shared-scale');
    const biasCaptions = await page.$$eval('.schemes-column canvas[data-panel="bias"]', (list) =>
      list.map((c) => c.closest('.schemes-block').querySelector('.schemes-caption').textContent),
    );
    const scales = biasCaptions.map((t) => /one scale for every column, ± (\S+)\./.exec(t)[1]);
    expect(new Set(scales).size).toBe(1);
    await expect.poll(() => canvasHash(page, '#schemes-column-alibi canvas[data-panel="bias"]')).not.toBe(hashOwn);
    await page.uncheck('#schemes-shared-scale');
    // Aligned at 1920 px: every column's panels start at the same height.
    for (const panel of ['bias', 'weights', 'profile', 'shift-before']) {
      const tops = await page.$$eval(`.schemes-column canvas[data-panel="${panel}"]`, (list) =>
        list.map((c) => Math.round(c.getBoundingClientRect().top)),
      );
      expect(new Set(tops).size, panel).toBe(1);
    }
    await screenshot(page.locator('#schemes-section'), 'schemes-1920.png');
    // Its button is styled as the page's other buttons (readable in both themes).
    const look = (selector) =>
      page.$eval(selector, (b) => {
        const c = getComputedStyle(b);
        return [c.color, c.backgroundColor, c.borderTopColor, c.borderTopWidth, c.padding, c.borderRadius];
      });
    expect(await look('#schemes-longer-run')).toEqual(await look('#schemes-run-shift'));
    // The T5 column says its table is a stand-in, with the formula it draws.
    expect(await page.textContent('#schemes-column-t5 .schemes-what')).toContain(T5_STAND_IN_TEXT);
    // Longer than trained, one click: a small next-word model per scheme in a worker, loss against length.
    // The text drawn on its plot is recorded (its tick labels among it).
    await page.evaluate(recordLongerPlot);
    await page.click('#schemes-longer-run');
    await expect
      .poll(() => page.textContent('#schemes-longer .longer-status'))
      .toBe(
        `Training 7 small models (next word, ${LONGER_STEPS} steps at length ${EXTRAPOLATION.length}) in a background worker…`,
      );
    await page.waitForSelector('#schemes-longer[data-done]', { timeout: 400_000 });
    const longer = await page.$$eval('#schemes-longer tbody tr', (rows) =>
      Object.fromEntries(
        rows.map((r) => [r.dataset.scheme, [...r.cells].slice(1, 5).map((c) => Number(c.textContent))]),
      ),
    );
    expect(Object.keys(longer)).toEqual(['shaw', 't5', 'alibi', 'rope', 'sinusoidal', 'absolute', 'none']);
    const V = EXTRAPOLATION.words + 2;
    // Every model learned something: below ln V (knowing nothing) at the trained length.
    for (const losses of Object.values(longer)) {
      for (const loss of losses) expect(loss).toBeGreaterThan(0);
      expect(losses[0]).toBeLessThan(Math.log(V));
    }
    // ppl: the perplexity exp(loss) at 128, from the same row.
    const perplexities = await page.$$eval('#schemes-longer tbody tr', (rows) =>
      rows.map((r) => [Number(r.cells[4].textContent), Number(r.cells[5].textContent)]),
    );
    for (const [loss, ppl] of perplexities) expect(Math.abs(ppl - Math.exp(loss))).toBeLessThan(0.6);
    const caption = await page.textContent('#schemes-longer .longer-caption');
    const { header } = trainingCorpus();
    expect(caption).toContain(
      `trained ${LONGER_STEPS} steps on windows of 16 words of ${corpusName(header)}, each step a batch of ${EXTRAPOLATION.batchSize} windows, the same windows and seed for each;`,
    );
    expect(caption).not.toContain('a step,');
    expect(caption).toContain(
      `(${EXTRAPOLATION.passages} passages) in windows of 16, 32, 64 and 128: only the text before each word changes.`,
    );
    // Every model learned more than the words' frequencies: below the caption's baseline at L.
    const [, unigram, unigramTrain] = caption
      .match(/word frequencies gives (\d+\.\d+) on these held-out words \((\d+\.\d+) on the training text itself/)
      .map(Number);
    // The training section's unigram line (the training text's own words, 500 of them as here) is the second.
    expect(unigramTrain).not.toBe(unigram);
    expect(unigram).toBeLessThan(Math.log(V));
    for (const [scheme, losses] of Object.entries(longer)) expect(losses[0], scheme).toBeLessThan(unigram);
    expect(await page.textContent('#schemes-longer .longer-status')).toMatch(/^Done: 7 models, /);
    // The caption's numbers are the table's (the table rounds to 3 places, the caption to 2).
    const [, low, lowName, high, highName] = caption.match(
      /losses run from ([\d.]+) \(([^)]+)\) to ([\d.]+) \(([^)]+)\) nats per word/,
    );
    const names = Object.fromEntries(Object.entries(SCHEME_INFO).map(([id, entry]) => [id, entry.name]));
    const atL = Object.entries(longer).sort((a, b) => a[1][0] - b[1][0]);
    expect([lowName, highName]).toEqual([names[atL[0][0]], names[atL.at(-1)[0]]]);
    expect(Math.abs(Number(low) - atL[0][1][0])).toBeLessThan(0.006);
    expect(Math.abs(Number(high) - atL.at(-1)[1][0])).toBeLessThan(0.006);
    // The caption leads with one sentence (what to see); the rest is one click away.
    const lead = await page.textContent('#schemes-longer .longer-lead');
    const paragraphs = await page.$$eval('#schemes-longer .longer-rest', (list) => list.map((p) => p.textContent));
    expect(paragraphs).toHaveLength(3);
    const rest = paragraphs.join(' ');
    expect(await page.isVisible('#schemes-longer .longer-rest')).toBe(false);
    expect(await page.textContent('#schemes-longer .longer-how > summary')).toBe('How to read it');
    expect(lead.split(/\s+/).length).toBeLessThan(50);
    // Each model's change from 16 to 128 as the table has it (3 places; the text rounds to 2).
    const change = Object.fromEntries(Object.entries(longer).map(([id, losses]) => [id, losses[3] - losses[0]]));
    const idOf = Object.fromEntries(Object.entries(names).map(([id, name]) => [name, id]));
    const number = (text) => Number(text.replace('−', '-'));
    const saidChange = (verb, text) => (verb === 'falls' ? -1 : 1) * number(text);
    const near = (said, id) => expect(Math.abs(said - change[id]), `${id}: ${said}`).toBeLessThan(0.007);
    // The range's ends are the lowest and highest changes among those it covers.
    const ends = (among, lowest, highest) => {
      const values = among.map((id) => change[id]);
      expect(change[lowest]).toBeLessThanOrEqual(Math.min(...values) + 0.002);
      expect(change[highest]).toBeGreaterThanOrEqual(Math.max(...values) - 0.002);
    };
    const trained = Object.keys(change);
    const byChange = [...trained].sort((a, b) => change[b] - change[a]);
    const apart =
      /^From windows of 16 words, the length trained on, to 128, the held-out loss of (.+?) (rises|falls|changes) by ([+−]?[\d.]+) nats per word and that of the other (\w+) (rises|falls|changes) by ([+−]?[\d.]+) \((.+?)\) to ([+−]?[\d.]+) \((.+?)\)\.$/.exec(
        lead,
      );
    const together =
      /^From windows of 16 words, the length trained on, to 128, the held-out loss of the seven models (rises|falls|changes) by ([+−]?[\d.]+) \((.+?)\) to ([+−]?[\d.]+) \((.+?)\) nats per word\.$/.exec(
        lead,
      );
    expect(apart ?? together, lead).not.toBeNull();
    if (apart) {
      const [, topName, topVerb, topValue, count, verb, fromValue, fromName, toValue, toName] = apart;
      expect(idOf[topName]).toBe(byChange[0]);
      near(saidChange(topVerb, topValue), byChange[0]);
      expect(count).toBe('six');
      const [lowest, highest] = [idOf[fromName], idOf[toName]];
      const sign = verb === 'falls' ? -1 : 1;
      near(sign * number(fromValue), lowest);
      near(sign * number(toValue), highest);
      ends(byChange.slice(1), verb === 'falls' ? highest : lowest, verb === 'falls' ? lowest : highest);
    } else {
      const [, verb, fromValue, fromName, toValue, toName] = together;
      const [lowest, highest] = [idOf[fromName], idOf[toName]];
      const sign = verb === 'falls' ? -1 : 1;
      near(sign * number(fromValue), lowest);
      near(sign * number(toValue), highest);
      ends(trained, verb === 'falls' ? highest : lowest, verb === 'falls' ? lowest : highest);
    }
    // Every change once, highest first, each with ± twice its standard error over the passages.
    const list = new RegExp(
      `From 16 to 128, each change ± twice its standard error over the ${EXTRAPOLATION.passages} passages \\(how much the choice of held-out text moves it\\): (.+?)\\.$`,
    ).exec(rest);
    expect(list, rest).not.toBeNull();
    const items = [...list[1].matchAll(/(?:^|, | and )(.+?) ([+−]\d\.\d+) ± (\d\.\d+)/g)].map((m) => ({
      id: idOf[m[1]],
      value: number(m[2]),
      spread: Number(m[3]),
    }));
    expect(items.map((x) => x.id).sort()).toEqual([...trained].sort());
    for (const x of items) {
      near(x.value, x.id);
      expect(x.spread, x.id).toBeGreaterThan(0);
      expect(x.spread, x.id).toBeLessThan(0.2);
    }
    for (let k = 1; k < items.length; k += 1) expect(items[k].value).toBeLessThanOrEqual(items[k - 1].value);
    // What each scheme meets past L (k = 8 and T5's last bucket from 15, both below L = 16: Shaw, T5
    // and ALiBi meet nothing untrained; RoPE, sinusoidal and the learned absolute table do), and
    // whether the measured changes split that way: never a split their spread does not support.
    expect(caption).not.toContain('cannot extrapolate');
    const seen = ['shaw', 't5', 'alibi'];
    const unseen = ['rope', 'sinusoidal', 'absolute'];
    // The caveat, in view beside the conclusion (not in the rest): whether the dashed and solid
    // lines split as built, and what the ± covers.
    const caveat = await page.textContent('#schemes-longer .longer-caveat');
    expect(await page.isVisible('#schemes-longer .longer-caveat')).toBe(true);
    expect(rest).not.toContain('Measured');
    const verdict =
      /^Measured, the dashed lines \(something untrained past 16\) and the solid ones \(nothing untrained\) (?:overlap: (.+?) \(solid, ([+−][\d.]+)\) and (.+?) \(dashed, ([+−][\d.]+)\) differ by ([\d.]+) ± ([\d.]+): within noise \(the gap is no larger than its ±\)\.|split as built: every dashed line rose more than every solid one; the closest, (.+?) \(solid, ([+−][\d.]+)\) and (.+?) \(dashed, ([+−][\d.]+)\), differ by ([\d.]+) ± ([\d.]+)\.|do not split as built: (.+?) \(dashed, ([+−][\d.]+)\) rose less than (.+?) \(solid, ([+−][\d.]+)\), by ([\d.]+) ± ([\d.]+)\.) The ± is twice/.exec(
        caveat,
      );
    expect(verdict, caveat).not.toBeNull();
    const [kind, b, bValue, a, aValue, gap, plusMinus] = verdict[1]
      ? ['overlap', ...verdict.slice(1, 7)]
      : verdict[7]
        ? ['apart', ...verdict.slice(7, 13)]
        : ['reversed', verdict[15], verdict[16], verdict[13], verdict[14], verdict[17], verdict[18]];
    expect(seen).toContain(idOf[b]);
    expect(unseen).toContain(idOf[a]);
    near(number(bValue), idOf[b]);
    near(number(aValue), idOf[a]);
    expect(Math.abs(Number(gap) - Math.abs(change[idOf[a]] - change[idOf[b]]))).toBeLessThan(0.007);
    const crossGaps = unseen.flatMap((u) => seen.map((v) => change[u] - change[v]));
    if (kind === 'overlap') expect(Number(gap)).toBeLessThanOrEqual(Number(plusMinus) + 0.005);
    if (kind === 'apart') {
      expect(Number(gap)).toBeGreaterThanOrEqual(Number(plusMinus) - 0.005);
      // Every pair across the groups in that order, the one named the closest.
      expect(Math.min(...crossGaps)).toBeGreaterThan(-0.002);
      expect(change[idOf[a]] - change[idOf[b]]).toBeLessThanOrEqual(Math.min(...crossGaps) + 0.002);
    }
    if (kind === 'reversed') expect(change[idOf[a]]).toBeLessThan(change[idOf[b]] + 0.002);
    expect(caveat).toContain(
      `The ± is twice the standard error over the ${EXTRAPOLATION.passages} held-out passages: it covers only which held-out text was read; a model trained from another seed lands elsewhere too, which one run does not measure.`,
    );
    // The conclusion, in view between the lead and the caveat, against the table's numbers: the
    // model that fails is the one that rose most; None's change; the others' place against it
    // (each said once, on the right side of None's change); None's loss at L against the best.
    const conclusion = await page.textContent('#schemes-longer .longer-conclusion');
    expect(await page.$$eval('#schemes-longer .longer-caption > p', (found) => found.map((p) => p.className))).toEqual([
      'longer-lead',
      'longer-conclusion',
      'longer-caveat',
    ]);
    const failing =
      /^So only (.+?) clearly fails past the trained length: it rises more than every other model, each by more than the noise\. /.exec(
        conclusion,
      );
    if (failing) expect(idOf[failing[1]]).toBe(byChange[0]);
    else expect(conclusion).toMatch(/^So no model clearly fails past the trained length: /);
    const noneSaid =
      /None, with no position at all, (rises|falls|changes) by ([+−]?[\d.]+)(?: \((.+?)\))?(: reading longer windows costs even a model without positions)?\. At 16 words None is (only )?([\d.]+) worse than the best \((.+?)\)(: this small model gets little from position, so the run can show a scheme that breaks, not rank those that hold)?\.$/.exec(
        conclusion,
      );
    expect(noneSaid, conclusion).not.toBeNull();
    const [, noneVerb, noneValue, placed = '', , only, gapSaid, bestName, little] = noneSaid;
    near(saidChange(noneVerb, noneValue), 'none');
    const placedIds = [];
    for (const part of placed.split('; ')) {
      const [, relation, named] = /^(less than|within the noise of|more than) (.+)$/.exec(part);
      const listIds = named
        .replace(/ and (?=[^,]*$)/, ', ')
        .split(', ')
        .map((x) => idOf[x]);
      for (const id of listIds) {
        if (relation === 'less than') expect(change[id], id).toBeGreaterThan(change.none - 0.002);
        if (relation === 'more than') expect(change[id], id).toBeLessThan(change.none + 0.002);
      }
      placedIds.push(...listIds);
    }
    expect(placedIds.sort()).toEqual(trained.filter((id) => id !== 'none' && (!failing || id !== byChange[0])).sort());
    const bestAtL = atL[0][0];
    expect(idOf[bestName]).toBe(bestAtL);
    expect(Math.abs(Number(gapSaid) - (longer.none[0] - longer[bestAtL][0]))).toBeLessThan(0.006);
    const largest = Math.max(...placedIds.concat('none').map((id) => Math.abs(change[id])));
    if (Math.abs(Number(gapSaid) - largest) > 0.01) expect(Boolean(little)).toBe(Number(gapSaid) < largest);
    expect(Boolean(only)).toBe(Boolean(little));
    // The plots: the first every line, each in its scheme's colour, its dash what the scheme meets
    // past L; the second, when the others would be squeezed under a third of the first's height,
    // leaves out the highest and draws the others apart, each named at its end.
    const tableRows = Object.entries(longer).map(([scheme, losses]) => ({ scheme, loss: losses }));
    const zoom = zoomLeavesOut(tableRows);
    const checkPlots = async (width) => {
      const [full, zoomed] = await longerPlots(page);
      expect(full.hidden).toBe(false);
      expect(full.lines.map((l) => schemeOfColour(l.colour)).sort(), `${width}`).toEqual([...trained].sort());
      for (const line of full.lines) {
        const id = schemeOfColour(line.colour);
        const dash = lineDash(pastTrained(id, EXTRAPOLATION, [16, 32, 64, 128], 15).seen);
        expect(line.dash, id).toBe(DASHES[dash].join(','));
      }
      expect(
        ['solid', 'dashed', 'dotted'].map((d) => full.lines.filter((l) => l.dash === DASHES[d].join(',')).length),
      ).toEqual([3, 3, 1]);
      expect(zoomed.hidden).toBe(!zoom);
      if (!zoom) return;
      const others = trained.filter((id) => id !== zoom);
      expect(zoomed.lines.map((l) => schemeOfColour(l.colour)).sort()).toEqual([...others].sort());
      for (const id of others) expect(zoomed.texts, `${width} ${id}`).toContain(names[id]);
      const inFull = full.lines.filter((l) => schemeOfColour(l.colour) !== zoom);
      expect(endSpread(zoomed.lines), `${width}`).toBeGreaterThan(3 * endSpread(inFull));
      return { full: endSpread(inFull), zoomed: endSpread(zoomed.lines) };
    };
    const spread1280 = await checkPlots(1920);
    if (zoom) {
      expect(rest).toContain(`the second panel leaves out ${names[zoom]},`);
      expect(rest).toContain('and zooms in on the other six.');
      expect(
        await page.textContent('#schemes-longer .longer-plot:not([hidden]) + .longer-plot .longer-plot-title'),
      ).toBe(`Without ${names[zoom]}, zoomed in`);
    } else expect(rest).not.toContain('second panel');
    expect(await page.textContent('#schemes-longer .longer-plot-title')).toBe(
      `Each model’s held-out loss minus its loss at ${EXTRAPOLATION.length}`,
    );
    // The plot's x ticks are the lengths measured, nothing between them (its y ticks, losses, are below 10).
    const drawn = await page.evaluate(() => [...window.longerPlotText]);
    for (const length of ['16', '32', '64', '128']) expect(drawn).toContain(length);
    expect(drawn.filter((text) => /^\d+$/.test(text) && Number(text) >= 10)).toEqual(['16', '32', '64', '128']);
    expect(caption).not.toContain('..');
    for (const canvas of await page.$$('#schemes-longer canvas'))
      expect(await canvas.evaluate((c) => c.width > 0)).toBe(true);
    expect(await drawnColours(page, '#schemes-longer .longer-plot canvas')).toBeGreaterThan(3);
    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.waitForTimeout(600);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await checkPlots(1280);
    await screenshot(page.locator('#schemes-section'), 'schemes-1280.png');
    // A phone: the lines still come apart in the zoomed panel, named at their ends; the table fits,
    // its last column (ppl) inside the box, not cut off.
    await page.setViewportSize({ width: 360, height: 800 });
    await page.waitForTimeout(600);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const spread360 = await checkPlots(360);
    if (zoom) expect(spread360.zoomed).toBeGreaterThan(spread1280.full);
    const fit = await page.$eval('#schemes-longer .longer-table-wrap', (wrap) => {
      const last = wrap.querySelector('thead th:last-child').getBoundingClientRect();
      return {
        scroll: wrap.scrollWidth,
        width: wrap.clientWidth,
        right: last.right,
        edge: wrap.getBoundingClientRect().right,
      };
    });
    expect(fit.scroll).toBeLessThanOrEqual(fit.width);
    expect(fit.right).toBeLessThanOrEqual(fit.edge + 0.5);
    await screenshot(page.locator('#schemes-longer'), 'schemes-longer-360.png');
    expect(problems).toEqual([]);
    await context.close();
  }, 500_000);

  test('the URL keeps the schemes, m and the RoPE pairing; picking a scheme writes it back', async () => {
    const { page, context, problems } = await env.open('?schemes=shaw,sinusoidal&shift=5&rope=half', {
      viewport: { width: 1000, height: 900 },
      colorScheme: 'dark',
    });
    await schemesDrawn(page);
    expect(await columnIds(page)).toEqual(['shaw', 'sinusoidal']);
    expect(await page.inputValue('#shift')).toBe('5');
    expect(await page.inputValue('#ropeLayout')).toBe('half');
    const cells = await tableCells(page);
    expect(cells.sinusoidal[1]).toMatch(/^no: max \|Δ score\| /);
    expect(await page.textContent('#schemes-column-sinusoidal .schemes-shift')).toContain(
      'with 5 filler tokens in front',
    );
    // Two chosen: neither can be unticked; a third joins.
    expect(await page.isDisabled('#scheme-pick-shaw')).toBe(true);
    await page.check('#scheme-pick-none');
    await page.waitForFunction(() => location.search.includes('schemes=shaw%2Csinusoidal%2Cnone'));
    expect(await columnIds(page)).toEqual(['shaw', 'sinusoidal', 'none']);
    const url = page.url();
    await screenshot(page, 'schemes-dark.png');
    await page.goto(url);
    await schemesDrawn(page);
    expect(await columnIds(page)).toEqual(['shaw', 'sinusoidal', 'none']);
    // The shift button runs the experiment again and marks the table.
    const before = await canvasHash(page, '#schemes-column-none canvas[data-panel="weights"]');
    await page.evaluate(() => scrollTo(0, 0)); // the button's result far below the view
    await page.click('#schemes-run-shift');
    await page.waitForSelector('.schemes-table.schemes-flash');
    // The first column's shift block, the result, is brought into view.
    await expect
      .poll(() =>
        page.$eval('#schemes-figure .schemes-shift-block', (block) => {
          const { top } = block.getBoundingClientRect();
          return top >= 0 && top < innerHeight - 100;
        }),
      )
      .toBe(true);
    expect(await canvasHash(page, '#schemes-column-none canvas[data-panel="weights"]')).toBe(before);
    // A link with wrong values is corrected, with a note.
    await page.goto(url.replace('schemes=shaw%2Csinusoidal%2Cnone', 'schemes=xpos'));
    await schemesDrawn(page);
    expect(await columnIds(page)).toEqual(['shaw', 't5', 'alibi', 'rope', 'sinusoidal']);
    expect(await page.textContent('#notes')).toMatch(/schemes must be 2 to 5 of/);
    // The address then says what is shown: the corrected list (the default: no schemes= at all).
    await page.waitForFunction(() => !location.search.includes('xpos'));
    expect(new URL(page.url()).searchParams.get('schemes')).toBeNull();
    await page.goto(`${env.server.url}?schemes=t5`);
    await schemesDrawn(page);
    await page.waitForFunction(() => !location.search.includes('schemes=t5'));
    expect(await page.textContent('#notes')).toMatch(
      /schemes must be 2 to 5 of .*; using shaw,t5,alibi,rope,sinusoidal/,
    );
    // m past 16 runs with 16, and the note beside the box says so: the same sentence as m = 16.
    expect(await page.isHidden('#schemes-shift-note')).toBe(true);
    await page.goto(`${env.server.url}?schemes=shaw,sinusoidal&shift=16`);
    await schemesDrawn(page);
    const at16 = await page.textContent('#schemes-column-sinusoidal .schemes-shift');
    expect(at16).toContain('with 16 filler tokens in front');
    expect(await page.isHidden('#schemes-shift-note')).toBe(true);
    await page.fill('#shift', '200');
    await expect
      .poll(() => page.textContent('#schemes-shift-note'))
      .toBe('m = 200 is outside 1 to 16 filler tokens: the experiment ran with m = 16.');
    expect(await page.isVisible('#schemes-shift-note')).toBe(true);
    expect(await page.textContent('#schemes-column-sinusoidal .schemes-shift')).toBe(at16);
    await page.goto(`${env.server.url}?schemes=shaw,sinusoidal&shift=0`);
    await schemesDrawn(page);
    expect(await page.textContent('#schemes-shift-note')).toBe(
      'm = 0 is outside 1 to 16 filler tokens: the experiment ran with m = 1.',
    );
    // A negative m is written with a minus sign (U+2212).
    await page.fill('#shift', '-3');
    await expect
      .poll(() => page.textContent('#schemes-shift-note'))
      .toBe('m = \u22123 is outside 1 to 16 filler tokens: the experiment ran with m = 1.');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('k = 0: the table names the one row aᴷ[0] every offset uses (no edge rows ±0); k = 2, the two edge rows', async () => {
    const { page, context, problems } = await env.open('?k=0&schemes=shaw', { viewport: { width: 1280, height: 900 } });
    await schemesDrawn(page);
    expect((await tableCells(page)).shaw[3]).toBe('k = 0: every offset uses the one row aK[0]');
    const drawnBefore = Number(await page.getAttribute('#schemes-section', 'data-drawn'));
    await page.fill('#maxDistance', '2');
    await page.waitForFunction(
      (n) => Number(document.getElementById('schemes-section').dataset.drawn) > n,
      drawnBefore,
    );
    expect((await tableCells(page)).shaw[3]).toBe('offsets beyond ±2 reuse the edge rows aK[±2]');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('Longer than trained: a model whose loss comes back NaN reads "diverged" in the table, its key, the caption and the legend', async () => {
    const { page, context, problems } = await env.open(`?longer-steps=${LONGER_STEPS}`, {
      viewport: { width: 1280, height: 900 },
    });
    // The engine keeps its loss finite (tests/js/length-extrapolation.test.js): ALiBi's row is made
    // NaN as the worker's message arrives, before the page reads it.
    await page.evaluate(() => {
      const nan = (o, depth = 0) => {
        if (!o || typeof o !== 'object' || depth > 6) return;
        if (o.scheme === 'alibi' && Array.isArray(o.loss)) o.loss = o.loss.map(() => NaN);
        for (const v of Object.values(o)) nan(v, depth + 1);
      };
      const Made = window.Worker;
      window.Worker = class extends Made {
        constructor(...args) {
          super(...args);
          this.addEventListener('message', (event) => nan(event.data));
        }
      };
    });
    await page.evaluate(recordLongerPlot);
    await page.click('#schemes-longer-run');
    await page.waitForSelector('#schemes-longer[data-done]', { timeout: 400_000 });
    const rows = await page.$$eval('#schemes-longer tbody tr', (list) =>
      Object.fromEntries(list.map((r) => [r.dataset.scheme, [...r.cells].slice(1).map((c) => c.textContent)])),
    );
    expect(rows.alibi).toEqual(Array(5).fill('diverged'));
    for (const [scheme, cells] of Object.entries(rows))
      if (scheme !== 'alibi') for (const cell of cells) expect(cell, scheme).toMatch(/^\d+(\.\d{3})?$/);
    expect(await page.textContent('#schemes-longer .longer-table-key')).toContain(
      'Diverged: the model’s training broke down, its held-out loss is NaN (not a number).',
    );
    const caption = await page.textContent('#schemes-longer .longer-caption');
    expect(caption).toContain(
      'ALiBi diverged: its training broke down and its held-out loss is NaN (not a number) at every length, so it is left out of the comparisons below.',
    );
    // The range at L is the other six's, from the table's own numbers.
    const atL = Object.entries(rows)
      .filter(([scheme]) => scheme !== 'alibi')
      .map(([, cells]) => Number(cells[0]));
    expect(caption).toContain(`losses run from ${Math.min(...atL).toFixed(2)} (`);
    expect(caption).toMatch(new RegExp(`to ${Math.max(...atL).toFixed(2)} \\([^)]+\\) nats per word`));
    expect(caption).not.toMatch(/ALiBi [−+]\d|\(ALiBi\)|–/);
    expect(await page.evaluate(() => [...window.longerPlotText])).toContain('ALiBi (diverged)');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('Longer than trained, run three times: one resize redraws its plots once, not once per run', async () => {
    // One step per model: what is counted is the draws, not what was learned.
    const { page, context, problems } = await env.open('?longer-steps=1', { viewport: { width: 1280, height: 900 } });
    // Every draw of a "Longer than trained" full panel, the current run's or an earlier run's
    // (whose canvases are out of the page but still in their .longer-plot): line-chart.js clears
    // the canvas once per draw.
    await page.evaluate(() => {
      window.longerDraws = 0;
      const { clearRect } = CanvasRenderingContext2D.prototype;
      CanvasRenderingContext2D.prototype.clearRect = function (...args) {
        const wrap = this.canvas.closest?.('.longer-plot');
        if (wrap && wrap === wrap.parentElement.firstElementChild) window.longerDraws += 1;
        return clearRect.apply(this, args);
      };
    });
    const runs = 3;
    for (let run = 1; run <= runs; run += 1) {
      await page.click('#schemes-longer-run');
      await page.waitForSelector(`#schemes-longer[data-done="${run}"]`, { timeout: 400_000 });
    }
    const frames = () =>
      page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await frames();
    await page.evaluate(() => (window.longerDraws = 0));
    await page.setViewportSize({ width: 1000, height: 900 });
    await frames();
    await page.waitForTimeout(300);
    await frames();
    expect(await page.evaluate(() => window.longerDraws)).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  }, 400_000);

  test('a phone: odd d_k leaves RoPE a message, nothing overflows, a tap reads a map’s cell; the longer run’s budget without ?longer-steps', async () => {
    const { page, context, problems } = await env.open('?schemes=t5,rope&dk=5', {
      viewport: { width: 360, height: 800 },
      hasTouch: true,
    });
    await schemesDrawn(page);
    // The first touch in the figure loads its reading (schemes-reading.js) and still reads the cell
    // tapped: T5's bias at (0, 2), offset 2.
    const t5 = page.locator('#schemes-column-t5 canvas[data-panel="bias"]');
    await t5.scrollIntoViewIfNeeded();
    const grid = JSON.parse(await t5.getAttribute('data-layout'));
    await t5.tap({ position: { x: grid.x0 + 2.5 * grid.cell, y: grid.y0 + 0.5 * grid.cell } });
    await expect
      .poll(() => page.textContent('#schemes-figure .relpos-tooltip'))
      .toMatch(/^T5 buckets: position bias\S+\(i, j\)\(0, 2\)query → keythe → satoffset j − i2$/);
    expect(await page.textContent('#schemes-column-rope .schemes-error')).toMatch(/d_?k = 5 is odd/);
    // d_k is typeset (a subscript) everywhere in the section, the RoPE angle formula's exponent too.
    const section = await page.textContent('#schemes-section');
    expect(section).toContain('θt = 10000−2t/d (d = dk)');
    expect(section).not.toContain('_');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // Every map inside its column's content box (they were drawn 9 px wider, across its border).
    const outside = await page.$$eval('#schemes-figure .schemes-column canvas', (canvases) =>
      canvases
        .filter((canvas) => canvas.offsetWidth > 0 && getComputedStyle(canvas).visibility !== 'hidden') // (RoPE's, hidden under its message, keep their place)
        .map((canvas) => {
          const column = canvas.closest('.schemes-column');
          const style = getComputedStyle(column);
          const right =
            column.getBoundingClientRect().right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight);
          return canvas.getBoundingClientRect().right - right;
        })
        .filter((over) => over > 0.5),
    );
    expect(outside).toEqual([]);
    // The summary table: one block per scheme, every fact under its column's name, nothing to
    // scroll sideways and its caption whole (on a wider screen, one row per scheme: below).
    const table = await page.$eval('.schemes-table-wrap', (wrap) => ({
      scroll: wrap.scrollWidth - wrap.clientWidth,
      caption: wrap.querySelector('caption').scrollWidth - wrap.clientWidth,
      headers: [...wrap.querySelectorAll('thead th')].slice(1).map((th) => th.textContent),
      rows: [...wrap.querySelectorAll('tbody tr')].map((row) => ({
        scheme: row.dataset.scheme,
        names: [...row.querySelectorAll('.schemes-fact-name')]
          .filter((name) => name.getBoundingClientRect().height > 0)
          .map((name) => name.textContent),
        right: Math.max(...[...row.querySelectorAll('th, td')].map((cell) => cell.getBoundingClientRect().right)),
      })),
      right: wrap.getBoundingClientRect().right,
    }));
    expect(table.scroll).toBeLessThanOrEqual(0);
    expect(table.caption).toBeLessThanOrEqual(0);
    expect(table.rows.find((row) => row.scheme === 't5').names).toEqual(table.headers);
    for (const row of table.rows) expect(row.right, row.scheme).toBeLessThanOrEqual(table.right);
    await screenshot(page, 'schemes-phone.png');
    // Without ?longer-steps, "Longer than trained" trains each model the experiment's budget.
    await page.click('#schemes-longer-run');
    await expect
      .poll(() => page.textContent('#schemes-longer .longer-status'))
      .toBe(
        `Training 7 small models (next word, ${EXTRAPOLATION.steps} steps at length ${EXTRAPOLATION.length}) in a background worker…`,
      );
    expect(problems).toEqual([]);
    await context.close();
  });

  test('the iframe view: ?embed=1&panels=schemes shows the comparison alone; without it, not at all', async () => {
    const { page, context, problems } = await env.open('?embed=1&panels=schemes&schemes=alibi,none', {
      viewport: { width: 900, height: 700 },
    });
    await schemesDrawn(page);
    expect(await page.isVisible('#schemes-section')).toBe(true);
    expect(await columnIds(page)).toEqual(['alibi', 'none']);
    for (const selector of ['.page-header', '.controls', '.export', '#figure-combinedWeights'])
      expect(await page.isVisible(selector), selector).toBe(false);
    await page.goto(page.url().replace('panels=schemes', 'panels=combinedWeights'));
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.isVisible('#schemes-section')).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });
});
