// Reading values on a touch screen and from the keyboard:
// a tap reads the tapped cell and keeps it; the tooltip follows its cell when the page scrolls
// (and hides once the cell has left the window); on a phone it never covers the tapped cell, and
// hides no cell and not the panel's title where the window has room; Escape then an arrow key
// resumes from the last cell instead of jumping to (0, 0).
import { describe, expect, test } from 'vitest';
import { screenshot } from './browser.js';
import { layoutOf, usePage, significant, whenDrawn } from './page-fixture.js';

const env = usePage();
const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

const tooltipRows = (page) =>
  page.$$eval('.relpos-tooltip div', (rows) =>
    Object.fromEntries(rows.map((row) => [row.children[0].textContent, row.children[1].textContent])),
  );

/** The cell's centre in client (viewport) pixels, after scrolling the panel into view. */
async function cellCentre(page, panel, i, j) {
  const canvas = await page.$(`#figure-${panel} canvas`);
  await canvas.scrollIntoViewIfNeeded();
  const layout = await layoutOf(page, panel);
  const box = await canvas.boundingBox();
  return { x: box.x + layout.x0 + (j + 0.5) * layout.cell, y: box.y + layout.y0 + (i + 0.5) * layout.cell };
}

const tooltipBox = (page) =>
  page.$eval('.relpos-tooltip', (tip) => (tip.hidden ? null : tip.getBoundingClientRect().toJSON()));

describe('touch', () => {
  test('the first tap in a panel reads the tapped cell, and keeps it', async () => {
    const { page, context, problems } = await env.open('', PHONE);
    const point = await cellCentre(page, 'combinedWeights', 3, 4);
    await page.touchscreen.tap(point.x, point.y);
    // The compatibility mouse events and focus come after the touch.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('figure')?.id))
      .toBe('figure-combinedWeights');
    expect(await page.isVisible('.relpos-tooltip')).toBe(true);
    const rows = await tooltipRows(page);
    expect(rows['(i, j)']).toBe('(3, 4)');
    expect(rows['Combined weights']).toBe(
      significant(await page.evaluate(() => window.relposPage.valueAt('combinedWeights', 3, 4))),
    );
    expect(await page.textContent('.relpos-visually-hidden[aria-live]')).toContain('row 3 “on”, column 4 “the”');
    // A second tap on another cell of another panel moves the reading there, the tooltip shown
    // (the first panel's focus leaving once hid it: a second tap was needed).
    const next = await cellCentre(page, 'positionBiases', 5, 1);
    await page.touchscreen.tap(next.x, next.y);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('figure')?.id))
      .toBe('figure-positionBiases');
    await expect.poll(async () => (await tooltipRows(page))['(i, j)']).toBe('(5, 1)');
    expect(await page.isVisible('.relpos-tooltip')).toBe(true);
    expect(await page.textContent('.relpos-visually-hidden[aria-live]')).toContain('row 5 “mat”, column 1 “cat”');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('a tap on the column labels (beside the cells) reads no cell: its focus selects none', async () => {
    const { page, context, problems } = await env.open('', PHONE);
    const canvas = await page.$('#figure-combinedWeights canvas');
    await canvas.scrollIntoViewIfNeeded();
    const layout = await layoutOf(page, 'combinedWeights');
    const box = await canvas.boundingBox();
    // Over column 2's label, 10 px above the matrix's first row.
    await page.touchscreen.tap(box.x + layout.x0 + 2.5 * layout.cell, box.y + layout.y0 - 10);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('figure')?.id))
      .toBe('figure-combinedWeights');
    await page.waitForTimeout(200);
    expect(await tooltipBox(page)).toBe(null);
    // The next tap, on a cell, reads that cell.
    const point = await cellCentre(page, 'combinedWeights', 4, 1);
    await page.touchscreen.tap(point.x, point.y);
    await expect.poll(async () => (await tooltipRows(page))['(i, j)']).toBe('(4, 1)');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('a phone turned sideways (640 × 360): the tooltip of a tapped cell of the first row never covers it', async () => {
    const { page, context, problems } = await env.open('', { ...PHONE, viewport: { width: 640, height: 360 } });
    const point = await cellCentre(page, 'positionBiases', 0, 0);
    await page.touchscreen.tap(point.x, point.y);
    await expect.poll(async () => (await tooltipRows(page))['(i, j)']).toBe('(0, 0)');
    await page.waitForTimeout(200); // the focus after the tap places it again
    const layout = await layoutOf(page, 'positionBiases');
    const canvas = await page.$eval('#figure-positionBiases canvas', (c) => c.getBoundingClientRect().toJSON());
    const cell = {
      left: canvas.left + layout.x0,
      right: canvas.left + layout.x0 + layout.cell,
      top: canvas.top + layout.y0,
      bottom: canvas.top + layout.y0 + layout.cell,
    };
    const tip = await tooltipBox(page);
    const overlaps = tip.left < cell.right && cell.left < tip.right && tip.top < cell.bottom && cell.top < tip.bottom;
    expect(overlaps, JSON.stringify({ tip, cell })).toBe(false);
    // Story step 2 scrolls to panel 2: its whole matrix (6 × 6 cells) fits the 360 px tall window,
    // so the Toeplitz pattern the step asks about is seen at once (a 560 px matrix showed 2 rows).
    await page.keyboard.press('Escape');
    await page.evaluate(() => {
      document.querySelector('[data-story="same-query"]').closest('details.step').open = true;
    });
    await page.click('[data-story="same-query"]:not([data-own])');
    await whenDrawn(page);
    const matrixInWindow = async () => {
      const { y0, cell: side } = await layoutOf(page, 'positionBiases');
      const top = await page.$eval('#figure-positionBiases canvas', (c) => c.getBoundingClientRect().top);
      return top + y0 >= 0 && top + y0 + 6 * side <= 360;
    };
    await expect.poll(matrixInWindow).toBe(true);
    // A height-only change (the browser's toolbar hidden, the window made taller): the matrices
    // take the size a page opened at the new height gives them.
    const sideAt360 = (await layoutOf(page, 'positionBiases')).cell;
    await page.setViewportSize({ width: 640, height: 480 });
    const opened = await env.open('', { ...PHONE, viewport: { width: 640, height: 480 } });
    await whenDrawn(opened.page);
    const sideAt480 = (await layoutOf(opened.page, 'positionBiases')).cell;
    expect(sideAt480).toBeGreaterThan(sideAt360);
    await expect.poll(async () => (await layoutOf(page, 'positionBiases')).cell).toBe(sideAt480);
    expect([...problems, ...opened.problems]).toEqual([]);
    await opened.context.close();
    await context.close();
  });

  test('a phone turned sideways (740 × 360, 844 × 390): a tooltip too tall for above or below its cell stands beside it, whole in the window', async () => {
    for (const [[width, height], panel, [i, j]] of [
      [[740, 360], 'combinedWeights', [4, 5]],
      [[740, 360], 'contentScores', [4, 1]],
      [[844, 390], 'positionBiases', [0, 5]],
    ]) {
      const where = `${width} × ${height}, ${panel} (${i}, ${j})`;
      const { page, context, problems } = await env.open('', { ...PHONE, viewport: { width, height } });
      const point = await cellCentre(page, panel, i, j);
      await page.touchscreen.tap(point.x, point.y);
      await expect.poll(async () => (await tooltipRows(page))['(i, j)'], where).toBe(`(${i}, ${j})`);
      await page.waitForTimeout(200); // the focus after the tap places it again
      const layout = await layoutOf(page, panel);
      const canvas = await page.$eval(`#figure-${panel} canvas`, (c) => c.getBoundingClientRect().toJSON());
      const cell = {
        left: canvas.left + layout.x0 + j * layout.cell,
        right: canvas.left + layout.x0 + (j + 1) * layout.cell,
        top: canvas.top + layout.y0 + i * layout.cell,
        bottom: canvas.top + layout.y0 + (i + 1) * layout.cell,
      };
      const tip = await tooltipBox(page);
      // Its last row is the one that says why the weight moved: the whole tooltip in the window.
      expect(tip.top, where).toBeGreaterThanOrEqual(0);
      expect(tip.bottom, where).toBeLessThanOrEqual(height);
      expect(tip.left, where).toBeGreaterThanOrEqual(0);
      expect(tip.right, where).toBeLessThanOrEqual(width);
      const overlaps = tip.left < cell.right && cell.left < tip.right && tip.top < cell.bottom && cell.top < tip.bottom;
      expect(overlaps, JSON.stringify({ where, tip, cell })).toBe(false);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  test('what a finger taps outside the panels is at least 24 px tall (WCAG 2.5.8): the story’s summaries and buttons, the sliders, the switches, the selects, the schemes’ picks', async () => {
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 768, height: 1024 },
    ]) {
      const { page, context, problems } = await env.open('?more=1', { ...PHONE, viewport });
      await page.$eval('#schemes-section', (section) => section.scrollIntoView());
      await page.waitForFunction(() => document.getElementById('schemes-section').dataset.drawn);
      const small = await page.evaluate(() => {
        const selector = [
          '.story-steps summary',
          '.story .handbook > summary',
          '.story-steps button',
          'input[type="range"]',
          'label:has(> input[type="checkbox"])',
          'label.check',
          'select',
          '.schemes-pick',
        ].join(', ');
        return [...document.querySelectorAll(selector)]
          .filter((element) => element.getClientRects().length > 0 && !element.closest('.train-section'))
          .map((element) => ({
            what: element.id || element.textContent.trim().slice(0, 30) || element.className,
            height: element.getBoundingClientRect().height,
          }))
          .filter(({ height }) => height < 24);
      });
      expect(small, `${viewport.width} px`).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  test('a vertical swipe that starts on the k slider scrolls the page and leaves k as it was; a tap and a sideways drag set k', async () => {
    const { page, context, problems } = await env.open('?k=2', {
      ...PHONE,
      viewport: { width: 390, height: 844 },
      closedSettings: true,
    });
    const cdp = await context.newCDPSession(page);
    const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points });
    // The slider in the middle of the window, and a point on it (fraction fx of its width).
    const onSlider = async (fx) => {
      await page.evaluate(() => document.getElementById('maxDistance').scrollIntoView({ block: 'center' }));
      const box = await page.locator('#maxDistance').boundingBox();
      return { x: box.x + box.width * fx, y: box.y + box.height / 2 };
    };
    const k = () =>
      page.evaluate(() => [window.relposPage.state().maxDistance, document.getElementById('maxDistance').value]);
    for (const fx of [0.9, 0.1]) {
      const start = await onSlider(fx);
      const scrolled = await page.evaluate(() => scrollY);
      await touch('touchStart', [start]);
      for (let step = 1; step <= 12; step++) {
        await touch('touchMove', [{ x: start.x, y: start.y - 20 * step }]);
        await page.waitForTimeout(16);
      }
      await touch('touchEnd', []);
      await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(scrolled + 100);
      // The swipe's fling ends before the next touch: a touch during a fling only stops it.
      await page.evaluate(
        () =>
          new Promise((settled) => {
            let last = scrollY;
            let still = 0;
            const frame = () => {
              still = scrollY === last ? still + 1 : 0;
              last = scrollY;
              if (still >= 10) settled();
              else requestAnimationFrame(frame);
            };
            requestAnimationFrame(frame);
          }),
      );
      await whenDrawn(page);
      expect(await k(), `a swipe from ${fx} of the slider's width`).toEqual([2, '2']);
    }
    expect(new URL(page.url()).searchParams.get('k')).toBe('2');
    // A tap at the far right sets k to its largest value; a drag sideways from there to the left end sets 0.
    const right = await onSlider(0.99);
    await page.touchscreen.tap(right.x, right.y);
    await whenDrawn(page);
    const largest = Number(await page.getAttribute('#maxDistance', 'max'));
    expect(await k()).toEqual([largest, String(largest)]);
    const left = await onSlider(0.01);
    await touch('touchStart', [right]);
    for (let step = 1; step <= 12; step++) {
      await touch('touchMove', [{ x: right.x + ((left.x - right.x) * step) / 12, y: right.y }]);
      await page.waitForTimeout(16);
    }
    await touch('touchEnd', []);
    await whenDrawn(page);
    expect(await k()).toEqual([0, '0']);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('the tooltip follows its cell when the page scrolls, and hides once the cell is out of sight', async () => {
    const { page, context } = await env.open('', PHONE);
    // The cell (on the matrix's last row) high enough in the window that the tooltip (about 230 px
    // tall with the cell's breakdown) fits under the matrix before and after the scroll, so that
    // it keeps its place by the cell.
    const first = await cellCentre(page, 'contentScores', 5, 2);
    await page.evaluate((dy) => window.scrollBy(0, dy), first.y - 300);
    const point = { x: first.x, y: 300 };
    await page.touchscreen.tap(point.x, point.y);
    await expect.poll(() => tooltipBox(page)).not.toBeNull();
    const before = await tooltipBox(page);
    await page.evaluate(() => window.scrollBy(0, 60));
    // Shown, and moved with its cell (to within half a pixel).
    await expect.poll(async () => Math.abs((await tooltipBox(page))?.y - (before.y - 60)) < 0.5).toBe(true);
    await page.evaluate(() => window.scrollBy(0, 2000));
    await expect.poll(() => page.isVisible('.relpos-tooltip')).toBe(false);
    await page.evaluate(() => window.scrollBy(0, -2000));
    await expect.poll(() => page.isVisible('.relpos-tooltip')).toBe(true); // the cell is still selected
    expect((await tooltipRows(page))['(i, j)']).toBe('(5, 2)');
    await context.close();
  });

  test('a phone turned sideways, or a window resized, with a cell read: its tooltip moves beside the cell where it now stands', async () => {
    const { page, context, problems } = await env.open('', { ...PHONE, viewport: { width: 390, height: 844 } });
    // The tooltip in the window (once it stayed where it was, below a turned phone's window, or
    // over the page's title after a resize), beside the matrix (over it, or within a cell of its edges; a
    // phone's placement is under or over the matrix, about its width).
    const near = async () => {
      const tip = await tooltipBox(page);
      const matrix = await page.$eval('#figure-positionBiases canvas', (canvas) => {
        const { x0, y0, cell, n } = JSON.parse(canvas.dataset.layout);
        const box = canvas.getBoundingClientRect();
        return {
          left: box.left + x0,
          top: box.top + y0,
          right: box.left + x0 + n * cell,
          bottom: box.top + y0 + n * cell,
          cell,
        };
      });
      if (!tip) return 'no tooltip';
      const { width, height } = page.viewportSize();
      // (A tooltip taller than a turned phone's window may run past its foot: most of it in sight.)
      const inWindow = tip.x >= 0 && tip.x + tip.width <= width + 1 && tip.y >= 0 && tip.y + tip.height / 2 <= height;
      const across = tip.x < matrix.right + matrix.cell && tip.x + tip.width > matrix.left - matrix.cell;
      const down = Math.max(tip.y - matrix.bottom, matrix.top - (tip.y + tip.height), 0) <= matrix.cell;
      return (inWindow && across && down) || JSON.stringify({ tip, matrix, width, height });
    };
    const first = await cellCentre(page, 'positionBiases', 3, 2);
    await page.touchscreen.tap(first.x, first.y);
    await expect.poll(() => tooltipBox(page)).not.toBeNull();
    expect(await near()).toBe(true);
    // Turned (844 × 390), upright again, then a desktop's window: the panel's cell keeps being
    // read; at once its tooltip is beside it, or hidden while the cell is out of sight; with the
    // panel scrolled to, beside it.
    for (const [width, height] of [
      [844, 390],
      [390, 844],
      [1920, 1080],
    ]) {
      await page.setViewportSize({ width, height });
      await whenDrawn(page);
      await expect.poll(async () => (await tooltipBox(page)) === null || (await near()) === true).toBe(true);
      await page
        .locator('#figure-positionBiases canvas')
        .evaluate((canvas) => canvas.scrollIntoView({ block: 'center' }));
      await expect.poll(near).toBe(true);
      expect((await tooltipRows(page))['(i, j)']).toBe('(3, 2)');
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the tooltip on a phone', () => {
  // A finger is rarely at a cell's centre: each tap lands three quarters of the way down its cell.
  // Rows near the top and the bottom of the matrix, each tapped with its cell at several heights
  // in the window, at n = 6 (cells 36.5 px) and n = 16 (13.5 px) in a 360 × 740 and a 360 × 640
  // window.
  test.each([
    ['n = 6', 740, '', [0, 1, 4, 5]],
    ['n = 16', 640, '?n=16', [0, 1, 14, 15]],
  ])(
    'at 360 px (%s, %i px tall): the tooltip never covers the tapped cell, and hides no cell or title where the window has room',
    async (name, height, query, rows) => {
      const { page, context, problems } = await env.open(query, { ...PHONE, viewport: { width: 360, height } });
      const panel = 'combinedWeights';
      const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const boxes = (i, j) =>
        page.evaluate(
          ([id, row, col]) => {
            const canvas = document.querySelector(`#figure-${id} canvas`);
            const { x0, y0, cell, n } = JSON.parse(canvas.dataset.layout);
            const box = canvas.getBoundingClientRect();
            const tip = document.querySelector('.relpos-tooltip');
            return {
              cell: {
                left: box.left + x0 + col * cell,
                right: box.left + x0 + (col + 1) * cell,
                top: box.top + y0 + row * cell,
                bottom: box.top + y0 + (row + 1) * cell,
              },
              matrix: {
                left: box.left + x0,
                right: box.left + x0 + n * cell,
                top: box.top + y0,
                bottom: box.top + y0 + n * cell,
              },
              title: document.querySelector(`#figure-${id} h2`).getBoundingClientRect().toJSON(),
              tip: tip.hidden ? null : tip.getBoundingClientRect().toJSON(),
            };
          },
          [panel, i, j],
        );
      let tapped = 0;
      for (const i of rows) {
        const j = i < 2 ? 2 : 1;
        for (const at of [60, 230, 360, 560].filter((y) => y < height - 60)) {
          // Row i's top at `at` px from the window's top, as near as the page scrolls.
          const before = await boxes(i, j);
          await page.evaluate((dy) => window.scrollBy(0, dy), before.cell.top - at);
          const { cell } = await boxes(i, j);
          await page.touchscreen.tap((cell.left + cell.right) / 2, cell.top + 0.75 * (cell.bottom - cell.top));
          await expect.poll(async () => (await tooltipRows(page))['(i, j)']).toBe(`(${i}, ${j})`);
          const { tip, matrix, title } = await boxes(i, j);
          const where = `(${i}, ${j}) at ${Math.round(cell.top)} px`;
          expect(overlap(tip, cell), `${where}: the cell`).toBe(false);
          expect(tip.top, where).toBeGreaterThanOrEqual(0);
          expect(tip.bottom, where).toBeLessThanOrEqual(height);
          // Room for it under the matrix, or above the matrix (over the column labels, which the
          // tooltip's "(i, j)" and "query → key" stand for): then it hides no cell; and where that
          // room is clear of the title too (under the matrix, or above the title), not the title.
          const under = matrix.bottom + 4 + tip.height <= height - 8;
          const aboveTitle = title.top - 4 - tip.height >= 8;
          const aboveMatrix = matrix.top - 4 - tip.height >= 8;
          if (under || aboveMatrix) expect(overlap(tip, matrix), `${where}: the matrix`).toBe(false);
          if (under || aboveTitle) expect(overlap(tip, title), `${where}: the title`).toBe(false);
          tapped += 1;
        }
      }
      expect(tapped).toBeGreaterThanOrEqual(12);
      await screenshot(page, `tooltip-phone-${height}.png`, { fullPage: false });
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});

describe('keyboard', () => {
  test('Escape, then an arrow key, resumes from the last cell', async () => {
    const { page, context } = await env.open('', { viewport: { width: 1280, height: 900 } });
    await page.focus('#figure-contentScores .relpos-canvas-wrap');
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight'])
      await page.keyboard.press(key);
    expect((await tooltipRows(page))['(i, j)']).toBe('(3, 2)');
    await page.keyboard.press('Escape');
    expect(await page.isVisible('.relpos-tooltip')).toBe(false);
    await page.keyboard.press('ArrowRight');
    expect((await tooltipRows(page))['(i, j)']).toBe('(3, 3)');
    // Leaving the panel and coming back also resumes there.
    await page.keyboard.press('Escape');
    await page.focus('#seed');
    await page.focus('#figure-contentScores .relpos-canvas-wrap');
    expect((await tooltipRows(page))['(i, j)']).toBe('(3, 3)');
    await context.close();
  });

  test('the keyboard follows a hovered or tapped cell: the mouse picks (4, 1), then an arrow moves from there', async () => {
    const { page, context } = await env.open('', { viewport: { width: 1280, height: 900 } });
    const point = await cellCentre(page, 'offsets', 4, 1);
    await page.mouse.click(point.x, point.y);
    await page.keyboard.press('ArrowUp');
    expect((await tooltipRows(page))['(i, j)']).toBe('(3, 1)');
    await context.close();
  });
});
