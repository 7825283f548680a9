// The comparison of languages in the training section, in headless Chromium: nothing of it is
// fetched on first load, opening the section loads its chunk (its budget below), the picker offers
// the languages, and each draws: the statement is the one computed here from the shipped readings
// (web/train/language-readings.js), the tables have a row per layer and per adposition claim, the
// canvases are drawn, the caveat (the runs over-fit) beside the answer, the heading asks without
// presuming a lean, no "%" starts a line, and at 390 and 360 px nothing runs past the screen's
// edge: the tables stack, every cell inside its box; screenshots of each
// (tests/artifacts/languages-<id>-<width>-<scheme>.png), 1280 px light and dark, 390 px light,
// 360 px dark. At 320, 360 and 390 px the shares chart's tick labels, as drawn, do not touch and
// its axis title stays inside the canvas, whole (tests/artifacts/languages-shares-*.png).
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ARTIFACTS_WANTED, launchBrowser, screenshot } from './browser.js';
import { SITE, artifactShot, canvasDrawn as drawn, clickTrainOpen, eachLanguageComparison } from './page-fixture.js';
import { serveFolder } from './static-server.js';
import { LANGUAGE_READINGS } from '../../web/train/language-readings.js';
import {
  COMPARISONS,
  LANGUAGES,
  compareLanguages,
  comparisonAnswer,
  comparisonCaveat,
  comparisonStatement,
  plateauText,
} from '../../web/train/language-comparison.js';

/** The comparison's chunk, gzipped: its readings and its code. */
const CHUNK_BUDGET = 24 * 1024;
const CHUNK = /assets\/language-section-/;

let server;
let browser;
beforeAll(async () => {
  server = await serveFolder(SITE);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the comparison of languages', () => {
  test(`its chunk: at most ${CHUNK_BUDGET / 1024} KiB gzipped`, () => {
    const [file] = readdirSync(`${SITE}assets`).filter((f) => CHUNK.test(`assets/${f}`));
    const size = gzipSync(readFileSync(`${SITE}assets/${file}`), { level: 9 }).length;
    console.log(`the comparison of languages' chunk: ${(size / 1024).toFixed(1)} KiB gzipped`);
    expect(size).toBeLessThanOrEqual(CHUNK_BUDGET);
  });

  test.each([
    [1280, 'light'],
    [1280, 'dark'],
    [390, 'light'],
    [360, 'dark'],
  ])('at %i px (%s): loaded with the section, the languages offered and drawn', async (width, colorScheme) => {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
    const page = await context.newPage();
    const requests = [];
    const problems = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    expect(requests.filter((u) => CHUNK.test(u))).toEqual([]);
    await clickTrainOpen(page);
    await page.waitForSelector('#language-section[data-drawn="ja"]', { timeout: 120_000 });
    expect(requests.filter((u) => CHUNK.test(u)).length).toBe(1);
    const options = await page.$$eval('#language-pick option', (list) => list.map((o) => [o.value, o.textContent]));
    expect(options).toEqual(COMPARISONS.map((c) => [c.id, c.choice]));
    for (const c of COMPARISONS) {
      await page.selectOption('#language-pick', c.id);
      await page.waitForSelector(`#language-section[data-drawn="${c.id}"]`);
      // The menu's short name, and the line under it that says the comparison in full.
      expect(await page.textContent('#language-pair')).toBe(`${c.label}.`);
      const result = compareLanguages(c, LANGUAGE_READINGS);
      expect(await page.textContent('#language-statement')).toBe(comparisonStatement(result));
      // The answer first, above the figures; every number in words one click away, below them.
      expect(await page.textContent('#language-answer')).toBe(comparisonAnswer(result));
      // The heading asks whether word order makes attention lean; it does not presume an
      // asymmetry that the answer finds absent.
      const heading = await page.textContent('#language-section h3');
      expect(heading).toMatch(/^Does word order .*\?/);
      if (comparisonAnswer(result).includes('no lean either way')) expect(heading).not.toMatch(/asymmetr/i);
      expect(
        await page.evaluate(() => {
          const [answer, figure, words] = ['#language-answer', '#language-layer-figure', '#language-words'].map((s) =>
            document.querySelector(s),
          );
          const before = (x, y) => Boolean(x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING);
          return [
            before(answer, figure),
            before(figure, words),
            words.contains(document.querySelector('#language-statement')),
            words.open,
          ];
        }),
      ).toEqual([true, true, true, false]);
      // The caveat beside the answer, when the runs over-fit (the Japanese comparison's do).
      const caveat = comparisonCaveat(result);
      expect(caveat === '').toBe(c.id === 'es');
      expect(
        await page.$eval('#language-answer', (answer) => {
          const next = answer.nextElementSibling;
          return [next.id, next.hidden, next.textContent];
        }),
      ).toEqual(['language-caveat', caveat === '', caveat]);
      expect(await page.$$eval('#language-layers tr', (rows) => rows.length)).toBe(result.layers.length + 1);
      // Every cell of both tables inside its box, nothing to scroll sideways: on a phone the rows
      // stack, each cell after its column's name.
      for (const table of ['#language-layers', '#language-adpositions']) {
        const fit = await page.$eval(table, (t) => {
          const wrap = t.parentElement;
          const edge = wrap.getBoundingClientRect().right;
          const cut = [...t.querySelectorAll('td')]
            .filter((td) => td.getBoundingClientRect().right > edge + 0.5)
            .map((td) => td.textContent);
          return { cut, scroll: wrap.scrollWidth - wrap.clientWidth, edge };
        });
        expect(fit.cut, `${table} at ${width} px`).toEqual([]);
        expect(fit.scroll, `${table} at ${width} px`).toBeLessThanOrEqual(0);
        expect(fit.edge).toBeLessThanOrEqual(width);
      }
      if (width <= 390) {
        const stacked = await page.$eval('#language-layers tbody td:nth-child(2)', (td) => [
          getComputedStyle(td).display,
          td.dataset.label,
        ]);
        expect(stacked).toEqual(['block', `${LANGUAGES.find((l) => l.id === c.english).name}:`]);
      }
      const adpositions = await page.textContent('#language-adpositions');
      expect(adpositions).toContain('adpositions → following nouns or pronouns (+1…+3)');
      if (c.id === 'es') expect(adpositions).toContain('not tagged');
      for (const canvas of await page.$$('#language-section canvas'))
        expect(await canvas.evaluate((node) => node.width > 0)).toBe(true);
      expect(await drawn(page, '#language-shares canvas')).toBe(true);
      expect(await drawn(page, '.language-profile:nth-child(2) canvas')).toBe(true);
      const corpora = await page.textContent('#language-corpora');
      for (const r of [result.english, result.other]) {
        expect(corpora).toContain(r.corpus.source);
        expect(corpora).toContain(plateauText(r));
      }
      // No "%" alone at the start of a line: each on the line of its number's last digit (the
      // answer's and the caveat's percentages wrapped at 360 px when a space joined them).
      const alone = await page.$eval('#language-section', (section) => {
        const found = [];
        const walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
        const top = (node, at) => {
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + 1);
          return range.getBoundingClientRect().top;
        };
        for (let node = walker.nextNode(); node; node = walker.nextNode())
          for (let i = node.data.indexOf('%'); i > 0; i = node.data.indexOf('%', i + 1)) {
            const digit = node.data.slice(0, i).search(/\d\s*$/);
            if (digit >= 0 && Math.abs(top(node, digit) - top(node, i)) > 1)
              found.push(node.data.slice(Math.max(0, digit - 8), i + 1));
          }
        return found;
      });
      expect(alone, `at ${width} px`).toEqual([]);
      // No range of percentages broken at its dash ("44.4 %–" on one line, "55.6 %" on the next):
      // each range's characters on one line.
      const ranges = await page.$eval('#language-section', (section) => {
        const found = [];
        let count = 0;
        const walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode())
          for (const match of node.data.matchAll(/\d[\d.]*\u00a0%–\d[\d.]*\u00a0%/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
            if (!rects.length) continue; // hidden (the numbers in words, closed)
            count += 1;
            if (rects.some((r) => r.top >= rects[0].bottom || r.bottom <= rects[0].top)) found.push(match[0]);
          }
        return { count, found };
      });
      expect(ranges.count, `at ${width} px`).toBeGreaterThan(0);
      expect(ranges.found, `at ${width} px`).toEqual([]);
      const overflow = await page.$eval('#language-section', (s) => s.scrollWidth - s.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      // The section above draws its figures in tasks of their own: the capture waits until the
      // page's height stops changing, so that it finds the part where it is.
      for (let last = -1, height = 0; ARTIFACTS_WANTED && height !== last; await page.waitForTimeout(500)) {
        last = height;
        height = await page.evaluate(() => document.documentElement.scrollHeight);
      }
      await artifactShot(page, '#language-section', `languages-${c.id}-${width}-${colorScheme}.png`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  // The shares chart's axis on a phone: the tick labels as drawn (their boxes in the canvas's
  // font, measured in the page as each is drawn) apart, and its title inside the canvas, whole.
  test.each([
    [320, 'light'],
    [360, 'dark'],
    [390, 'dark'],
  ])(
    'at %i px (%s): the shares chart’s tick labels do not touch, its axis title is inside it',
    async (width, colorScheme) => {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
      await context.addInitScript(() => {
        const P = CanvasRenderingContext2D.prototype;
        const { clearRect, fillText } = P;
        window.sharesTexts = [];
        const shares = (g) => g.canvas.closest?.('#language-shares');
        P.clearRect = function (...args) {
          if (shares(this)) window.sharesTexts = [];
          return clearRect.apply(this, args);
        };
        P.fillText = function (text, x, y, maxWidth) {
          if (shares(this)) {
            const measured = this.measureText(String(text)).width;
            const w = maxWidth === undefined ? measured : Math.min(measured, maxWidth);
            const left = { center: x - w / 2, right: x - w, end: x - w }[this.textAlign] ?? x;
            window.sharesTexts.push({ text: String(text), left, right: left + w, y, baseline: this.textBaseline });
          }
          return fillText.call(this, text, x, y, maxWidth);
        };
      });
      const page = await context.newPage();
      await page.goto(server.url);
      for await (const c of eachLanguageComparison(page)) {
        const { texts, canvasWidth, canvasHeight } = await page.$eval('#language-shares canvas', (canvas) => ({
          texts: window.sharesTexts,
          canvasWidth: canvas.clientWidth,
          canvasHeight: canvas.clientHeight,
        }));
        expect(canvasWidth).toBeLessThanOrEqual(width);
        const ticks = texts.filter((t) => /^\d+ %$/.test(t.text));
        const values = ticks.map((t) => parseInt(t.text, 10));
        // At least three ticks, evenly spaced, in order.
        expect(ticks.length, `${c.id} at ${width} px`).toBeGreaterThanOrEqual(3);
        for (let i = 2; i < values.length; i += 1) expect(values[i] - values[i - 1]).toBe(values[1] - values[0]);
        for (let i = 1; i < ticks.length; i += 1)
          expect(ticks[i].left - ticks[i - 1].right, `${ticks[i - 1].text} | ${ticks[i].text}`).toBeGreaterThanOrEqual(
            4,
          );
        for (const t of ticks) {
          expect(t.left).toBeGreaterThanOrEqual(0);
          expect(t.right).toBeLessThanOrEqual(canvasWidth);
        }
        // The title: every line inside the canvas (2 px from its sides), under the tick labels (12 px
        // type), and together it says the axis whole.
        const title = texts.filter((t) => t.y > ticks[0].y && !/ L\d+$/.test(t.text));
        expect(title.map((t) => t.text).join(' ')).toMatch(
          /^share (of off-diagonal attention )?on earlier words \(← ahead · back →\)$/,
        );
        for (const t of title) {
          expect(t.left, t.text).toBeGreaterThanOrEqual(2);
          expect(t.right, t.text).toBeLessThanOrEqual(canvasWidth - 2);
          expect(t.baseline).toBe('top');
          expect(t.y + 12, t.text).toBeLessThanOrEqual(canvasHeight);
        }
        expect(title[0].y).toBeGreaterThanOrEqual(ticks[0].y + 12);
        for (let i = 1; i < title.length; i += 1) expect(title[i].y).toBeGreaterThanOrEqual(title[i - 1].y + 12);
        console.log(
          `shares chart, ${c.id} at ${width} px: ticks ${ticks.map((t) => t.text).join(', ')} (least gap ${Math.min(...ticks.slice(1).map((t, i) => t.left - ticks[i].right)).toFixed(1)} px); title ${title.map((t) => `“${t.text}” ${t.left.toFixed(1)}–${t.right.toFixed(1)}`).join(' / ')} in ${canvasWidth} px`,
        );
        await screenshot(page.locator('#language-shares'), `languages-shares-${c.id}-${width}-${colorScheme}.png`);
      }
      await context.close();
    },
  );
});
