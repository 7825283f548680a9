// Loading the page as a user would: no errors, no failed or outside requests, eight drawn
// panels, no sideways scrolling on a phone, and screenshots to look at.
import { describe, expect, test } from 'vitest';
import { screenshot } from './browser.js';
import { MATRIX_PANELS, allHashes, layoutOf, usePage, whenDrawn } from './page-fixture.js';

const env = usePage();

const inked = (page, selector) =>
  page.$eval(selector, (canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) count += 1;
    return count / (data.length / 4);
  });

describe('the page loads', () => {
  for (const [name, options] of [
    ['light', { viewport: { width: 1280, height: 900 } }],
    ['dark', { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' }],
    ['phone-360', { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ]) {
    test(`${name}: eight figures drawn, no error, every request local`, async () => {
      const requests = [];
      const { page, context, problems } = await env.open('', options);
      const ready = await page.evaluate(() =>
        Math.round(performance.getEntriesByName('relpos:ready')[0]?.startTime ?? -1),
      );
      console.log(`${name}: all panels drawn ${ready} ms after navigation started (a reading, not a test)`);
      expect(ready).toBeGreaterThan(0);
      page.on('request', (request) => requests.push(request.url()));
      for (const id of MATRIX_PANELS) {
        expect(await inked(page, `#figure-${id} canvas`), id).toBeGreaterThan(0.2);
      }
      expect(await inked(page, '#profile-canvas')).toBeGreaterThan(0.02);
      expect(await inked(page, '#tables-canvas')).toBeGreaterThan(0.05);
      expect(await page.$$eval('figure.relpos-panel', (list) => list.length)).toBe(8);
      expect(await page.isHidden('#link-note'), 'a link with nothing to correct: no note at the top').toBe(true);
      // The six matrix panels in this order, then the tables and the profile: written out here
      // (the other tests read the page's table of panels, MATRIX_PANELS).
      const figures = await page.$$eval('figure.relpos-panel', (list) => list.map((figure) => figure.id));
      const matrices = [
        'contentScores',
        'positionBiases',
        'contentWeights',
        'combinedWeights',
        'difference',
        'offsets',
      ];
      // (On a phone panel 2 comes first in the document as on screen, above the story: layout-order.js.)
      const inOrder = name.startsWith('phone') ? [matrices[1], matrices[0], ...matrices.slice(2)] : matrices;
      expect(figures).toEqual([...inOrder.map((id) => `figure-${id}`), 'figure-tables', 'figure-profile']);
      expect(MATRIX_PANELS).toEqual(matrices);
      // Captions are filled in, and the heatmaps say what they show.
      for (const id of MATRIX_PANELS) {
        expect((await page.textContent(`#figure-${id} .relpos-caption`)).length).toBeGreaterThan(60);
        expect(await page.getAttribute(`#figure-${id} canvas`, 'aria-label')).toMatch(
          /6 by 6 heatmap.*values from .* to .*colour scale/,
        );
      }
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(options.viewport.width);
      await screenshot(page, `page-${name}.png`);
      // Interacting makes no request at all.
      await page.hover(`#figure-combinedWeights canvas`, { position: { x: 120, y: 120 } });
      await page.fill('#seed', '7');
      await whenDrawn(page);
      await page.waitForTimeout(50);
      expect(requests).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  test('the canvas backing store follows devicePixelRatio, with whole device pixels per cell', async () => {
    for (const scale of [1, 1.5, 2, 3]) {
      const { page, context } = await env.open('', {
        viewport: { width: 1000, height: 800 },
        deviceScaleFactor: scale,
      });
      const sizes = await page.$eval('#figure-contentScores canvas', (canvas) => ({
        backing: canvas.width,
        css: canvas.getBoundingClientRect().width,
        layout: JSON.parse(canvas.dataset.layout),
      }));
      expect(sizes.backing).toBe(Math.round(sizes.css * scale));
      const cellDevice = sizes.layout.cell * scale;
      expect(Math.abs(cellDevice - Math.round(cellDevice))).toBeLessThan(1e-9);
      await context.close();
    }
  });

  test('values changing never moves the layout', async () => {
    const { page, context } = await env.open('', { viewport: { width: 1280, height: 900 } });
    // Where each box sits in the document (typing into a control may scroll it into view).
    const boxes = () =>
      page.$$eval('figure.relpos-panel, section', (list) => {
        const side = document.querySelector('.side');
        return list.map((el) => {
          const r = el.getBoundingClientRect();
          const scrolled = side.contains(el) ? side.scrollTop : 0;
          return JSON.stringify([r.left + scrollX, r.top + scrollY + scrolled, r.width, r.height]);
        });
      });
    const before = await boxes();
    const hashes = await allHashes(page);
    // The labels' room is measured from the words in steps of 24 px: words as long as these keep it.
    for (const [selector, value] of [
      ['#seed', '123'],
      ['#dK', '8'], // an even d_k: an odd one replaces RoPE's scheme panels by a message
      ['#maxDistance', '5'], // k ≥ n − 1: panel 2's caption has no clipped edges to explain
      ['#maxDistance', '0'],
      ['#maxDistance', '1'],
      ['#seqLen', '9'],
      ['#tokens', 'a dog ran to the big red car and sat'],
    ]) {
      await page.fill(selector, value);
      await whenDrawn(page);
      expect(await boxes(), selector).toEqual(before);
    }
    expect(await allHashes(page)).not.toEqual(hashes);
    // Short words leave little room above the matrix (the slanted labels' height, 48 px of room:
    // 48 · sin 60° + 26 = 68 px); much longer words take more, up to the width's cap.
    const short = await layoutOf(page, 'contentScores');
    expect(short.y0).toBe(68);
    await page.fill('#tokens', 'a much longer sentence with unusually long wordsssssssss here');
    await whenDrawn(page);
    const longer = await layoutOf(page, 'contentScores');
    expect(longer.y0).toBeGreaterThan(short.y0);
    await context.close();
  });

  // The schemes section draws when it nears the view and grows by ~2 600 px (7 000 on a phone):
  // a reader a link took below it (the training section, the exports) must not be thrown back up.
  // Chromium keeps the view by scroll anchoring; Safari has none, so the tests turn it off.
  for (const [width, anchoring] of [
    [1280, false],
    [390, false],
    [390, true],
  ])
    test(`at ${width} px ${anchoring ? 'with' : 'without'} scroll anchoring, the schemes section's first draw above a reader moves nothing in view`, async () => {
      const { page, context } = await env.open('', { viewport: { width, height: 800 }, closedPanels: true });
      if (!anchoring) await page.addStyleTag({ content: '* { overflow-anchor: none !important; }' });
      const top = () => page.$eval('#export-title', (title) => title.getBoundingClientRect().top);
      expect(await page.$eval('#schemes-section', (section) => section.dataset.drawn)).toBeUndefined();
      // In one turn: nothing is drawn between the scroll and these readings.
      const [height, before] = await page.$eval('#export-title', (title) => {
        title.scrollIntoView();
        return [document.documentElement.scrollHeight, title.getBoundingClientRect().top];
      });
      await page.waitForFunction(() => document.getElementById('schemes-section').dataset.drawn);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      expect((await page.evaluate(() => document.documentElement.scrollHeight)) - height).toBeGreaterThan(2000);
      expect(Math.abs((await top()) - before)).toBeLessThan(1);
      await context.close();
    });

  test('from 688 to 1799 px the four main panels stand one or two a row, never three: panels 3 and 4 (one colour scale) in one row or one under the other; on a tablet the inputs, the panels two a row, then the story', async () => {
    const { page, context } = await env.open('', { viewport: { width: 1100, height: 900 }, closedPanels: true });
    const rows = {};
    // A tablet (688–1099 px): the inputs across, then the panels two a row, then the story (at 768 px
    // the inputs stood 3 935 px down, under four full-width panels): unscrolled, k's slider and
    // panels 1 and 2's matrices are on the first screen together.
    await page.$eval('#more-settings', (details) => (details.open = false)); // as a page loads (the fixture opens it)
    for (const width of [688, 768, 900, 1024, 1099]) {
      await page.setViewportSize({ width, height: 1024 });
      await whenDrawn(page);
      const [tops, inputsEnd, panelsEnd, storyTop, sliderTop, matrixTops, tokensShare] = await page.evaluate(() => {
        const top = (element) => element.getBoundingClientRect().top + scrollY;
        const matrixTop = (id) => {
          const canvas = document.querySelector(`#figure-${id} canvas`);
          return top(canvas) + JSON.parse(canvas.dataset.layout).y0;
        };
        return [
          [...document.querySelectorAll('#panels > figure.relpos-panel')]
            .filter((f) => !f.hidden)
            .map((f) => Math.round(top(f))),
          document.querySelector('section.controls').getBoundingClientRect().bottom + scrollY,
          document.getElementById('panels').getBoundingClientRect().bottom + scrollY,
          top(document.getElementById('story')),
          top(document.getElementById('maxDistance')),
          ['contentScores', 'positionBiases'].map(matrixTop),
          document.getElementById('tokens').offsetWidth / document.querySelector('section.controls').clientWidth,
        ];
      });
      // The sentence's box across the inputs below 900 px (a sentence of ten words in view as typed).
      expect(tokensShare, String(width)).toBeGreaterThan(width < 900 ? 0.9 : 0.35);
      expect(
        tops.map((top) => tops.filter((other) => other === top).length),
        String(width),
      ).toEqual([2, 2, 2, 2]);
      expect(tops[0] - inputsEnd, String(width)).toBeGreaterThanOrEqual(0);
      expect(tops[0] - inputsEnd, String(width)).toBeLessThan(40);
      expect(storyTop - panelsEnd, String(width)).toBeGreaterThanOrEqual(0);
      expect(storyTop - panelsEnd, String(width)).toBeLessThan(40);
      expect(sliderTop, String(width)).toBeLessThan(1024 - 40);
      for (const matrixTop of matrixTops) expect(matrixTop, String(width)).toBeLessThan(1024 - 120);
    }
    for (const width of [1100, 1180, 1280, 1440, 1540, 1600, 1680, 1790, 1799]) {
      await page.setViewportSize({ width, height: 900 });
      await whenDrawn(page);
      const tops = await page.$$eval('#panels > figure.relpos-panel', (figures) =>
        figures.filter((f) => !f.hidden).map((f) => Math.round(f.getBoundingClientRect().top)),
      );
      expect(tops.length, String(width)).toBe(4);
      rows[width] = tops.map((top) => tops.filter((other) => other === top).length);
    }
    // Each panel's row holds 1 or 2 panels, the same in every row: no panel left alone under three.
    for (const [width, sizes] of Object.entries(rows))
      expect([Array(4).fill(1), Array(4).fill(2)], width).toContainEqual(sizes);
    expect(rows[1600]).toEqual([2, 2, 2, 2]);
    // Beside the side column from 1100 px (a landscape iPad at 1180): panels 1 and 2 side by side
    // (they stood one a row, 672 px wide at 1100, until 1240 px).
    expect(rows[1100]).toEqual([2, 2, 2, 2]);
    expect(rows[1180]).toEqual([2, 2, 2, 2]);
    await context.close();
  });

  test('the keyboard’s order is the order seen: on a phone (390 px, and a desktop zoomed to 400 %: 320 px) panel 2, the story, the inputs, panels 1, 3, 4; on a tablet (768) the inputs, panels 1–4, the story; at 1280 the story, the inputs, panels 1–4', async () => {
    const { page, context, problems } = await env.open('', {
      viewport: { width: 390, height: 800 },
      closedPanels: true,
    });
    const [p1, p2, p3, p4] = ['contentScores', 'positionBiases', 'contentWeights', 'combinedWeights'].map(
      (id) => `figure-${id}`,
    );
    const seen = {
      390: [p2, 'story', 'inputs', p1, p3, p4],
      320: [p2, 'story', 'inputs', p1, p3, p4],
      768: ['inputs', p1, p2, p3, p4, 'story'],
      1280: ['story', 'inputs', p1, p2, p3, p4],
    };
    for (const width of [390, 320, 768, 1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await whenDrawn(page);
      // Tab from the skip link, the first stop, through 60 stops: the blocks met, in order.
      await page.focus('a.skip');
      const blocks = [];
      const tops = [];
      for (let stop = 0; stop < 60; stop += 1) {
        if (stop) await page.keyboard.press('Tab');
        const { block, top } = await page.evaluate(() => {
          const focused = document.activeElement;
          const where =
            focused.closest('figure')?.id ??
            (focused.closest('#story') ? 'story' : focused.closest('section.controls') ? 'inputs' : null);
          return { block: where, top: focused.getBoundingClientRect().top + scrollY };
        });
        if (block && block !== blocks.at(-1)) {
          blocks.push(block);
          tops.push(top);
        }
      }
      const met = blocks.filter((block) => seen[width].includes(block));
      expect(met, `${width} px`).toEqual(seen[width]);
      // Where the blocks stand one under the other (not beside, as at 1280), each is met lower down.
      if (width !== 1280)
        for (const [index, top] of tops.entries())
          if (index) expect(top, `${width} px, ${blocks[index]}`).toBeGreaterThan(tops[index - 1] - 400);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  test('beside the figures (1280 × 800), where the side column’s inputs are out of sight, a button at the window’s foot under the column brings them into view; none where they are seen (1920 × 1080) or on a tablet', async () => {
    const { page, context, problems } = await env.open('', {
      viewport: { width: 1280, height: 800 },
      closedPanels: true,
      closedSettings: true,
    });
    const cue = () =>
      page.evaluate(() => {
        const button = document.getElementById('inputs-cue');
        if (button.hidden) return null;
        const box = button.getBoundingClientRect();
        const side = document.querySelector('main > .side').getBoundingClientRect();
        return {
          inWindow: box.top >= 0 && box.bottom <= innerHeight,
          underColumn: box.left >= side.left - 0.5 && box.right <= side.right + 0.5,
        };
      });
    const headingSeen = () =>
      page.evaluate(() => {
        const box = document.getElementById('controls-title').getBoundingClientRect();
        const side = document.querySelector('main > .side').getBoundingClientRect();
        return box.top >= Math.max(0, side.top) && box.bottom <= Math.min(innerHeight, side.bottom);
      });
    expect(await headingSeen()).toBe(false);
    await expect.poll(cue).toEqual({ inWindow: true, underColumn: true });
    await page.click('#inputs-cue');
    await expect.poll(headingSeen).toBe(true);
    await expect.poll(cue).toBeNull();
    expect(await page.evaluate(() => document.activeElement.id)).toBe('tokens');
    for (const [width, height] of [
      [1920, 1080],
      [768, 1024],
    ]) {
      await page.setViewportSize({ width, height });
      await page.evaluate(() => {
        scrollTo(0, 0);
        document.querySelector('main > .side').scrollTop = 0;
      });
      await whenDrawn(page);
      await expect.poll(cue, `${width} × ${height}`).toBeNull();
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  test('panel 2’s heatmap, focused, keeps its focus as the window crosses 640 px and the figure moves (by moveBefore, and where a browser has none)', async () => {
    for (const moveBefore of [true, false]) {
      const { page, context, problems } = await env.open('', {
        viewport: { width: 390, height: 800 },
        closedPanels: true,
      });
      if (!moveBefore) await page.evaluate(() => delete Element.prototype.moveBefore);
      expect(await page.evaluate(() => 'moveBefore' in Element.prototype)).toBe(moveBefore);
      await page.focus('#figure-positionBiases [role="application"]');
      for (const width of [1280, 390, 700]) {
        await page.setViewportSize({ width, height: 800 });
        await whenDrawn(page);
        expect(
          await page.evaluate(() => document.activeElement.closest('figure')?.id),
          `${width} px, moveBefore ${moveBefore}`,
        ).toBe('figure-positionBiases');
      }
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  test('the schemes section keeps still while k changes: its table never moves (Shaw’s caption drops a sentence at k = 0 and k ≥ n − 1)', async () => {
    const { page, context } = await env.open('', { viewport: { width: 1280, height: 900 }, closedPanels: true });
    await page.$eval('#schemes-section', (section) => section.scrollIntoView());
    await page.waitForFunction(() => document.getElementById('schemes-section').dataset.drawn);
    const where = () =>
      page.$eval('#schemes-figure .schemes-table', (table) => table.getBoundingClientRect().top + scrollY);
    const drawnCount = () => page.$eval('#schemes-section', (section) => Number(section.dataset.drawn));
    const before = await where();
    for (const k of ['4', '5', '0', '1', '2', '3']) {
      const count = await drawnCount();
      await page.fill('#maxDistance', k);
      await whenDrawn(page);
      await expect.poll(drawnCount).toBeGreaterThan(count);
      expect(await where(), `k = ${k}`).toBe(before);
    }
    await context.close();
  });

  test('the page’s text follows the reader’s own font size (the browser’s setting), 16 px unless they chose another', async () => {
    const { page, context } = await env.open('', { viewport: { width: 1280, height: 900 }, closedPanels: true });
    const sizes = () =>
      page.evaluate(() =>
        ['html', '.story-lead', '#figure-contentScores .relpos-caption'].map((selector) =>
          parseFloat(getComputedStyle(document.querySelector(selector)).fontSize),
        ),
      );
    const usual = await sizes();
    expect(usual[0]).toBe(16);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 24 } });
    const larger = await sizes();
    expect(larger[0]).toBe(24);
    larger.forEach((size, index) => expect(size / usual[index]).toBeCloseTo(1.5, 5));
    await context.close();
  });
});
