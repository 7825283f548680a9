// Reading values on a touch screen and from the keyboard:
// a tap reads the tapped cell and keeps it; the tooltip follows its cell when the page scrolls
// (and hides once the cell has left the window); Escape then an arrow key resumes from the last
// cell instead of jumping to (0, 0).
import { describe, expect, test } from 'vitest';
import { layoutOf, usePage, significant } from './page-fixture.js';

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
    // A second tap on another cell of another panel moves the reading there.
    const next = await cellCentre(page, 'positionBiases', 5, 1);
    await page.touchscreen.tap(next.x, next.y);
    await expect.poll(async () => (await tooltipRows(page))['(i, j)']).toBe('(5, 1)');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('the tooltip follows its cell when the page scrolls, and hides once the cell is out of sight', async () => {
    const { page, context } = await env.open('', PHONE);
    // The cell low enough in the window and in its panel that the tooltip (about 200 px tall with
    // the cell's breakdown) fits above it, below the panel's top, before and after the scroll, so
    // it is not flipped below.
    const first = await cellCentre(page, 'contentScores', 5, 2);
    await page.evaluate((dy) => window.scrollBy(0, dy), first.y - 520);
    const point = { x: first.x, y: 520 };
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
});

describe('the tooltip on a phone', () => {
  test('a tap on a top row, near the top of the window, leaves the rows under the finger in view', async () => {
    const { page, context } = await env.open('', PHONE);
    const first = await cellCentre(page, 'combinedWeights', 0, 2);
    await page.evaluate((dy) => window.scrollBy(0, dy), first.y - 60); // row 0 at 60 px from the top
    const layout = await layoutOf(page, 'combinedWeights');
    await page.touchscreen.tap(first.x, 60);
    await expect.poll(() => tooltipBox(page)).not.toBeNull();
    const tip = await tooltipBox(page);
    // No room above the cell: the tooltip is below rows 0–2, at the foot of the window.
    const rowsEnd = 60 + 2.5 * layout.cell;
    expect(tip.y).toBeGreaterThan(rowsEnd);
    expect(Math.abs(tip.y + tip.height - (740 - 8))).toBeLessThanOrEqual(1);
    await context.close();
  });
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
