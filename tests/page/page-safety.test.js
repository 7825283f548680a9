// Markup in tokens or in the URL is shown as text and runs nothing; axe-core finds no
// accessibility violations in either theme or on a phone.
import { readFileSync } from 'node:fs';
import { downloadedBytes } from './browser.js';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { layoutOf, usePage, whenDrawn } from './page-fixture.js';

const env = usePage();
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ATTACK =
  '<img src=x onerror=alert(1)> <script>alert(2)</script> "><svg/onload=alert(3)> javascript:alert(4) =HYPERLINK("x")';

async function expectNothingRan(page, events) {
  expect(events.dialogs).toEqual([]);
  expect(events.requests).toEqual([]);
  expect(await page.evaluate(() => document.querySelectorAll('img, svg, iframe, object, embed').length)).toBe(0);
  expect(await page.evaluate(() => document.querySelectorAll('script').length)).toBe(1); // the page's own module
}

async function watch(page) {
  const events = { dialogs: [], requests: [] };
  page.on('dialog', async (dialog) => {
    events.dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  page.on('request', (request) => events.requests.push(request.url()));
  return events;
}

describe('injection', () => {
  test('markup typed as tokens appears as text and runs nothing', async () => {
    const { page, context, problems } = await env.open('', {
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const events = await watch(page);
    await page.fill('#tokens', ATTACK);
    await whenDrawn(page);
    const layout = await layoutOf(page, 'contentScores');
    const canvas = await page.$('#figure-contentScores canvas');
    await canvas.scrollIntoViewIfNeeded(); // the panels are larger than the window's lower part
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + layout.x0 + 0.5 * layout.cell, box.y + layout.y0 + 3.5 * layout.cell); // row 3: the <script> word
    expect(await page.textContent('.relpos-tooltip')).toContain('<script>alert(2)</script> → <img');
    await page.focus('#figure-offsets .relpos-canvas-wrap');
    expect(await page.textContent('.relpos-visually-hidden[aria-live]')).toContain('“<img”');
    const [file] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
    const csv = (await downloadedBytes(file)).toString('utf8');
    expect(csv).toContain(`'=HYPERLINK(""x"")`); // a spreadsheet will not run it as a formula
    await page.waitForTimeout(100);
    await expectNothingRan(page, events);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('markup in a shared link appears as text and runs nothing', async () => {
    const query = `?tokens=${encodeURIComponent(ATTACK)}&seed=${encodeURIComponent('<b>1</b>')}`;
    const { page, context, problems } = await env.open(query, { viewport: { width: 1280, height: 900 } });
    const events = await watch(page);
    expect(await page.inputValue('#tokens')).toBe(ATTACK);
    expect(await page.textContent('#notes')).toContain('seed must be a number');
    await page.focus('#figure-contentScores .relpos-canvas-wrap');
    for (let row = 0; row < 3; row += 1) await page.keyboard.press('ArrowDown');
    expect(await page.textContent('.relpos-tooltip')).toContain('<script>alert(2)</script> → <img');
    await page.waitForTimeout(100);
    await expectNothingRan(page, events);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('accessibility (axe-core)', () => {
  for (const [name, options] of [
    ['light', { viewport: { width: 1280, height: 900 } }],
    ['dark', { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' }],
    ['phone, dark', { viewport: { width: 360, height: 740 }, colorScheme: 'dark' }],
  ]) {
    test(`no violations: ${name}`, async () => {
      const { page, context } = await env.open('', options);
      // The schemes' section is drawn when near the view: its maps and summary table checked too.
      await page.locator('#schemes-section').scrollIntoViewIfNeeded();
      await page.waitForSelector('#schemes-section[data-drawn]');
      await page.focus('#figure-combinedWeights .relpos-canvas-wrap'); // with the tooltip and readout showing
      await page.addScriptTag({ content: AXE });
      const violations = await page.evaluate(async () => {
        const result = await globalThis.axe.run(document, { resultTypes: ['violations'] });
        return result.violations.map(
          (v) => `${v.id} (${v.impact}): ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`,
        );
      });
      expect(violations).toEqual([]);
      await context.close();
    });
  }
});
