// The page uses a wide screen (two larger panels a row, room for whole labels), and one panel
// can fill the window with large type for projection: the "Present" button or ?present=<panel>,
// Escape to leave.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { LABEL_FONT } from '../../web/render/heatmap.js';
import { layoutOf, MATRIX_PANELS, usePage } from './page-fixture.js';

const env = usePage();
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SENTENCE = '?tokens=the+cat+sat+on+the+mat+and+then+it+saw+the+big+brown+waterfall&k=2'; // n = 14
const EIGHTEEN = `?tokens=${'the quick brown fox jumps over lazy dogs while seven small birds sing above green hills near quiet'.replaceAll(' ', '+')}`;
const TWENTY = `?tokens=${'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty'.replaceAll(' ', '+')}`;

const panelBoxes = (page) =>
  page.$$eval('#panels > figure, #more-panels-grid > figure', (list) =>
    list.map((figure) => ({ id: figure.dataset.panel, ...figure.getBoundingClientRect().toJSON() })),
  );

describe('the width of the screen is used', () => {
  // Beside the story: a sentence of 14 words two a row at 1280 px and at 1920 px (up to 8 words:
  // four); 30 positions get panels at least 580 px wide; 18 and 20 words at 1280 px, whose cells two
  // a row would be too small for words (positions instead) or stand them nearly upright, one a row.
  // Words on the axes in each, slanted 70° at most. Panels 1–4, then 5–6 under "More panels"
  // (opened).
  for (const [width, height, query, n, rows, side] of [
    [1280, 800, SENTENCE, 14, 3, 220],
    [1280, 800, TWENTY, 20, 6, 520],
    [1280, 800, EIGHTEEN, 18, 6, 520], // two a row would stand its words nearly upright in 14 px cells
    [1920, 1080, SENTENCE, 14, 3, 400], // panels 1–2, 3–4 (one colour scale, side by side), 5–6
    [1920, 1080, '?n=6', 6, 2, 200], // the lesson's sentence: panels 1–4 in one row, then 5–6
    [1280, 800, '?n=30', 30, 6, 520],
    [1920, 1080, '?n=30', 30, 3, 520],
  ]) {
    test(`${width} px, n = ${n}: six panels in ${rows} rows, matrices of ${side} px and more, no label cut short`, async () => {
      const { page, context, problems } = await env.open(query, { viewport: { width, height } });
      const boxes = await panelBoxes(page);
      expect(new Set(boxes.map((box) => Math.round(box.y))).size).toBe(rows);
      // The two weight panels (one colour scale) side by side, wherever two fit a row.
      const top = (id) => Math.round(boxes.find((box) => box.id === id).y);
      if (width === 1920) expect(top('combinedWeights')).toBe(top('contentWeights'));
      for (const id of MATRIX_PANELS) {
        const layout = await layoutOf(page, id);
        expect(layout.n).toBe(n);
        expect(layout.cell * layout.n, id).toBeGreaterThanOrEqual(side);
        expect(layout.labelsCut, `${id}: labels shortened with …`).toBe(0);
        expect(layout.axisLabels, `${id}: the axes labelled by word`).toBe('words');
        expect(layout.labelSlant, `${id}: the column labels' slant`).toBeLessThanOrEqual(70);
      }
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});

describe('the present view', () => {
  test('"Present" fills the window with one panel in large type; Escape goes back', async () => {
    const { page, context, problems } = await env.open(SENTENCE, { viewport: { width: 1280, height: 720 } });
    const before = await layoutOf(page, 'combinedWeights');
    await page.click('#figure-combinedWeights button[data-present]');
    const box = await page.$eval('#figure-combinedWeights', (figure) => figure.getBoundingClientRect().toJSON());
    expect([box.x, box.y, box.width, box.height]).toEqual([0, 0, 1280, 720]);
    // On top of everything else: the window's centre and corners belong to the panel.
    for (const [x, y] of [
      [640, 360],
      [5, 5],
      [1275, 715],
    ]) {
      expect(await page.evaluate(([px, py]) => document.elementFromPoint(px, py)?.closest('figure')?.id, [x, y])).toBe(
        'figure-combinedWeights',
      );
    }
    const presented = await layoutOf(page, 'combinedWeights');
    expect(presented.fontScale).toBeGreaterThan(1);
    expect(presented.cell).toBeGreaterThan(before.cell);
    expect(presented.labelsCut).toBe(0);
    expect(presented.y0 + presented.cell * 14).toBeLessThan(720); // the whole matrix in sight
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden');
    expect(await page.textContent('#figure-combinedWeights button[data-present]')).toBe('Leave (Esc)');
    // Modal: what lies behind it is inert, so Tab and screen readers stay in the panel.
    expect(
      await page.evaluate(() =>
        ['#seed', '#figure-contentScores', '.page-footer'].map((s) =>
          Boolean(document.querySelector(s).closest('[inert]')),
        ),
      ),
    ).toEqual([true, true, true]);
    const reachable = await page.$$eval('a[href], button, input, [tabindex]', (list) =>
      list
        .filter((element) => !element.closest('[inert]') && !element.closest('[hidden]'))
        .map((element) => element.closest('figure')?.id ?? element.tagName),
    );
    expect(new Set(reachable)).toEqual(new Set(['figure-combinedWeights']));
    await page.addScriptTag({ content: AXE });
    const violations = await page.evaluate(async () =>
      (await globalThis.axe.run(document, { resultTypes: ['violations'] })).violations.map(
        (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
    );
    expect(violations).toEqual([]);
    // Reading a cell works there too.
    const canvas = await page.$('#figure-combinedWeights canvas');
    const c = await canvas.boundingBox();
    await page.mouse.move(c.x + presented.x0 + 4.5 * presented.cell, c.y + presented.y0 + 3.5 * presented.cell);
    expect(await page.isVisible('.relpos-tooltip')).toBe(true);
    expect(await page.$$eval('.relpos-tooltip div', (rows) => rows[1].textContent)).toContain('(3, 4)');
    // The address keeps the view.
    await page.waitForFunction(() => location.search.includes('present=combinedWeights'));
    await page.keyboard.press('Escape');
    const after = await page.$eval('#figure-combinedWeights', (figure) => figure.getBoundingClientRect().toJSON());
    expect(after.width).toBeLessThan(700);
    expect(await page.evaluate(() => document.activeElement?.dataset.present)).toBe('combinedWeights');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe('hidden');
    expect(await page.$$eval('[inert]', (list) => list.length)).toBe(0);
    expect((await layoutOf(page, 'combinedWeights')).fontScale).toBe(1);
    await page.waitForFunction(() => !location.search.includes('present='));
    expect(problems).toEqual([]);
    await context.close();
  });

  test('an element’s Present fills the window and keeps its buttons inside it (1280 × 720, 1920 × 1080 dark)', async () => {
    for (const [width, height, colorScheme] of [
      [1280, 720, 'light'],
      [1920, 1080, 'dark'],
    ]) {
      const context = await env.browser.newContext({ viewport: { width, height }, colorScheme });
      const page = await context.newPage();
      const problems = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${env.server.url}examples/elements.html`);
      await page.waitForFunction(() => document.getElementById('attention')?.view);
      const figure = page.locator('#attention figure').first();
      await figure.locator('button[data-present]').click();
      const boxes = await figure.evaluate((panel) => ({
        panel: panel.getBoundingClientRect().toJSON(),
        parts: [...panel.querySelectorAll('button, canvas, h2, h3')].map((part) =>
          part.getBoundingClientRect().toJSON(),
        ),
      }));
      expect([boxes.panel.x, boxes.panel.y, boxes.panel.width, boxes.panel.height], `${width}`).toEqual([
        0,
        0,
        width,
        height,
      ]);
      for (const part of boxes.parts) {
        expect(part.bottom, `${width}`).toBeLessThanOrEqual(height);
        expect(part.right, `${width}`).toBeLessThanOrEqual(width);
      }
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  test('?present=offsets (in any case) opens it, at 1920 × 1080 with type up to twice the usual size; an unknown panel is a note', async () => {
    const { page, context, problems } = await env.open(`${SENTENCE}&present=Offsets`, {
      viewport: { width: 1920, height: 1080 },
    });
    const box = await page.$eval('#figure-offsets', (figure) => figure.getBoundingClientRect().toJSON());
    expect([box.width, box.height]).toEqual([1920, 1080]);
    const layout = await layoutOf(page, 'offsets');
    expect(layout.fontScale).toBeGreaterThanOrEqual(1.7);
    expect(layout.cell * 14).toBeGreaterThanOrEqual(600);
    // A link opening the view focuses the presented matrix, not its Leave button (Enter there
    // would leave), reading no cell: no tooltip over the projected matrix until a key asks.
    const focused = await page.evaluate(() => ({
      figure: document.activeElement?.closest('figure')?.id,
      role: document.activeElement?.getAttribute('role'),
    }));
    expect(focused).toEqual({ figure: 'figure-offsets', role: 'application' });
    expect(await page.isVisible('.relpos-tooltip')).toBe(false);
    const readout = () => page.textContent('.relpos-visually-hidden[aria-live]');
    expect(await readout()).not.toMatch(/row \d/);
    await page.keyboard.press('ArrowRight');
    expect(await readout()).toMatch(/, row 0 [^,]*, column 1 /);
    expect(await page.isVisible('.relpos-tooltip')).toBe(true);
    await page.keyboard.press('Enter'); // a cell's key, not the button's: still presenting
    expect(await page.$$eval('.relpos-presenting', (list) => list.length)).toBe(1);
    // Written back as the panel's id.
    await page.waitForFunction(() => new URLSearchParams(location.search).get('present') === 'offsets');
    await page.click('#figure-offsets button[data-present]'); // "Leave" as a button too
    expect(await page.$eval('#figure-offsets', (figure) => figure.getBoundingClientRect().width)).toBeLessThan(1000);
    expect(problems).toEqual([]);
    await context.close();

    // An unknown panel is said beside the link's other corrections, not instead of them; given
    // twice, the first is read, and said.
    const wrong = await env.open('?present=nonsense&present=offsets&k=99', { viewport: { width: 1280, height: 800 } });
    const notes = await wrong.page.textContent('#notes');
    expect(notes).toContain('present is given 2 times (nonsense, offsets); the first is read');
    expect(notes).toContain('present: unknown nonsense');
    expect(notes).toContain('k must be an integer from 0 to 63');
    expect(await wrong.page.evaluate(() => window.relposPage.state().maxDistance)).toBe(63);
    expect(await wrong.page.$$eval('.relpos-presenting', (list) => list.length)).toBe(0);
    // Said at the top of the page as well, where a phone's reader sees it without scrolling down to
    // the inputs' notes (below the panel and the story there); Close puts it away.
    // Several, as a list under "Link corrected:" (the notes say each as its own sentence).
    expect(await wrong.page.textContent('#link-note p')).toBe('Link corrected:');
    const items = await wrong.page.$$eval('#link-note li', (list) => list.map((item) => item.textContent));
    expect(items.map((item) => `Link corrected: ${item}`).join(' · ')).toBe(notes);
    expect(items.length).toBe(3);
    await wrong.page.setViewportSize({ width: 390, height: 844 });
    const top = (selector) => wrong.page.$eval(selector, (el) => el.getBoundingClientRect().top + scrollY);
    expect(await top('#notes')).toBeGreaterThan(844);
    expect(await wrong.page.$eval('#link-note', (el) => el.getBoundingClientRect().bottom + scrollY)).toBeLessThan(400);
    await wrong.page.click('#link-note button');
    expect(await wrong.page.isHidden('#link-note')).toBe(true);
    expect(await wrong.page.textContent('#notes')).toBe(notes);
    // A figure of the drawer without a Present view (the tables): corrected, the drawer left as it was.
    await env.load(wrong.page, '?present=tables', { closedPanels: true });
    expect(await wrong.page.textContent('#notes')).toContain('present: unknown tables');
    expect(await wrong.page.textContent('#link-note p')).toBe(await wrong.page.textContent('#notes')); // one: its sentence
    expect(await wrong.page.$eval('#more-panels', (drawer) => drawer.open)).toBe(false);
    await expect.poll(() => wrong.page.evaluate(() => location.search), { timeout: 5_000 }).toBe('');
    await wrong.context.close();
  });

  test('the long view presented at 1920 × 1080: its type as large as the sentence view’s, its matrix wider than the page’s 560 px', async () => {
    const { page, context, problems } = await env.open('?long=1&n=400&k=3&present=difference', {
      viewport: { width: 1920, height: 1080 },
    });
    await page.waitForFunction(() => !document.body.dataset.busy);
    const layout = await layoutOf(page, 'difference');
    expect(layout.rows).toBe(400);
    // The sentence view's scale at this size (the test above: 1.7 or more); it was 1 (12 px notes,
    // 13 px labels, the matrix at most 560 px, as on the page).
    const size = Number(/(\d+(\.\d+)?)px/.exec(layout.noteFont)[1]);
    expect(size).toBeGreaterThanOrEqual(12 * 1.7);
    expect(layout.cellW * layout.cols).toBeGreaterThan(560);
    // Still inside the window: the canvas ends above its bottom.
    const bottom = await page.$eval('#figure-difference canvas', (canvas) => canvas.getBoundingClientRect().bottom);
    expect(bottom).toBeLessThanOrEqual(1080);
    // Focused by the link before the workers had computed it (nothing to read then): once drawn,
    // the arrow keys read its cells.
    expect(await page.evaluate(() => document.activeElement?.closest('figure')?.id)).toBe('figure-difference');
    await page.keyboard.press('ArrowRight');
    // Column 1 of the offset space at k = 3 is clipped offset c = 1 − 3 = −2.
    expect(await page.textContent('.relpos-visually-hidden[aria-live]')).toMatch(/, query 0, clipped offset −2\b/);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('its tooltip’s type grows with the panel’s labels; on a phone the tooltip keeps off the buttons and a tap beside the matrix closes it', async () => {
    // 1920 × 1080: the panel's labels are LABEL_FONT px times its type scale; the tooltip's
    // type, 0.85 rem on the page, grows by the same scale (it was 0.85 rem there too).
    const { page, context, problems } = await env.open(`${SENTENCE}&present=combinedWeights`, {
      viewport: { width: 1920, height: 1080 },
    });
    const tipFont = () =>
      page.evaluate(() => ({
        tip: parseFloat(getComputedStyle(document.querySelector('.relpos-tooltip')).fontSize),
        rem: parseFloat(getComputedStyle(document.documentElement).fontSize),
      }));
    const layout = await layoutOf(page, 'combinedWeights');
    expect(layout.fontScale).toBeGreaterThanOrEqual(1.7);
    await page.keyboard.press('ArrowRight');
    expect(await page.isVisible('.relpos-tooltip')).toBe(true);
    const presented = await tipFont();
    expect(presented.tip).toBeGreaterThanOrEqual(LABEL_FONT * layout.fontScale);
    expect(presented.tip).toBeCloseTo(0.85 * presented.rem * layout.fontScale, 1);
    // Back on the page, the usual size.
    await page.keyboard.press('Escape'); // the cell
    await page.keyboard.press('Escape'); // the view
    await page.focus('#figure-combinedWeights .relpos-canvas-wrap');
    expect(await page.isVisible('.relpos-tooltip')).toBe(true);
    expect((await tipFont()).tip).toBeCloseTo(0.85 * presented.rem, 1);
    expect(problems).toEqual([]);
    await context.close();

    // A phone (no Escape key): the long view's combined weights presented, cells tapped near
    // its top and its foot, towards the right (where a tooltip under the matrix reached over
    // "Leave"). The tooltip's box meets none of the panel's buttons, and Leave, at its centre,
    // is the button a finger meets.
    const phone = await env.open('?long=1&n=700&present=combinedWeights', {
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    await phone.page.waitForFunction(() => !document.body.dataset.busy);
    // The panel covers the window to its foot: no strip of the page under its buttons.
    const covered = await phone.page.evaluate(() => {
      const box = document.querySelector('.relpos-presenting').getBoundingClientRect();
      return [box.left, box.top, box.right, box.bottom, innerWidth, innerHeight];
    });
    expect(covered).toEqual([0, 0, 390, 844, 390, 844]);
    const long = await layoutOf(phone.page, 'combinedWeights');
    const canvas = await (await phone.page.$('#figure-combinedWeights canvas')).boundingBox();
    // The picture first: the matrix under its title, the caption under the matrix; "Leave" without
    // "Esc" on a phone, which has no Escape key.
    const title = await (await phone.page.$('#figure-combinedWeights h2')).boundingBox();
    const under = await (await phone.page.$('#figure-combinedWeights .relpos-caption')).boundingBox();
    expect(canvas.y).toBeGreaterThanOrEqual(title.y + title.height);
    expect(canvas.y - (title.y + title.height)).toBeLessThan(40);
    expect(under.y).toBeGreaterThanOrEqual(canvas.y + canvas.height);
    expect(await phone.page.textContent('#figure-combinedWeights button[data-present]')).toBe('Leave');
    const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    for (const [across, down] of [
      [0.75, 0.97],
      [0.75, 0.03],
      [0.25, 0.97],
      [0.25, 0.03],
    ]) {
      await phone.page.touchscreen.tap(
        canvas.x + long.x0 + long.cols * long.cellW * across,
        canvas.y + long.y0 + long.rows * long.cellH * down,
      );
      expect(await phone.page.isVisible('.relpos-tooltip')).toBe(true);
      const { tip, buttons, leave, atLeave } = await phone.page.evaluate(() => {
        const box = (element) => element.getBoundingClientRect().toJSON();
        const button = document.querySelector('#figure-combinedWeights button[data-present]');
        const centre = box(button);
        return {
          tip: box(document.querySelector('.relpos-tooltip')),
          buttons: [...document.querySelectorAll('#figure-combinedWeights .relpos-actions button')].map(box),
          leave: centre,
          atLeave: document.elementFromPoint(centre.x + centre.width / 2, centre.y + centre.height / 2) === button,
        };
      });
      expect(meets(tip, leave), `${across}, ${down}: ${JSON.stringify([tip, leave])}`).toBe(false);
      for (const button of buttons) expect(meets(tip, button), `${across}, ${down}`).toBe(false);
      expect(atLeave).toBe(true);
    }
    // A tap beside the matrix (on the caption) closes the tooltip; the view stays.
    const caption = await (await phone.page.$('#figure-combinedWeights .relpos-caption')).boundingBox();
    await phone.page.touchscreen.tap(caption.x + caption.width / 2, caption.y + caption.height - 6);
    expect(await phone.page.isVisible('.relpos-tooltip')).toBe(false);
    expect(await phone.page.$$eval('.relpos-presenting', (list) => list.length)).toBe(1);
    // Leave, tapped, leaves.
    await phone.page.tap('#figure-combinedWeights button[data-present]');
    expect(await phone.page.$$eval('.relpos-presenting', (list) => list.length)).toBe(0);
    expect(phone.problems).toEqual([]);
    await phone.context.close();
  });
});
