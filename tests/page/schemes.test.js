// The position schemes side by side (docs/schemes.md) in headless Chromium, in one browser session:
// the comparison view draws (non-blank canvases, no console errors), its table says what the
// page computed, its URL state round-trips, and the iframe view shows it alone when asked.
import { describe, expect, test } from 'vitest';
import { screenshot } from './browser.js';
import { canvasHash, usePage } from './page-fixture.js';

const env = usePage();

const columnIds = (page) => page.$$eval('.schemes-column', (list) => list.map((c) => c.dataset.scheme));
const tableCells = (page) =>
  page.$$eval('.schemes-table tbody tr', (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.scheme, [...r.querySelectorAll('td')].map((td) => td.textContent)])),
  );
// A canvas has something drawn: more than one distinct colour among its pixels.
const drawnColours = (page, selector) =>
  page.$eval(selector, (canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4 * 13) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return seen.size;
  });

describe('position schemes side by side', () => {
  test('draws four columns by default, each panel non-blank; the table holds what was computed', async () => {
    const { page, context, problems } = await env.open('', { viewport: { width: 1280, height: 900 } });
    await page.waitForSelector('#schemes-section[data-drawn]');
    expect(await columnIds(page)).toEqual(['shaw', 't5', 'alibi', 'rope']);
    for (const id of ['shaw', 't5', 'alibi', 'rope']) {
      for (const panel of ['bias', 'weights', 'profile']) {
        expect(
          await drawnColours(page, `#schemes-column-${id} canvas[data-panel="${panel}"]`),
          `${id} ${panel}`,
        ).toBeGreaterThan(3);
      }
    }
    for (const panel of ['buckets', 'slopes', 'angles'])
      expect(await drawnColours(page, `.schemes-facts canvas[data-panel="${panel}"]`), panel).toBeGreaterThan(3);
    const cells = await tableCells(page);
    // depends on the query? translation-invariant? parameters, extrapolation
    expect(cells.shaw[0]).toMatch(/^yes: other queries move the bias/);
    expect(cells.t5[0]).toBe('no: other queries leave the bias unchanged');
    expect(cells.alibi[0]).toBe('no: other queries leave the bias unchanged');
    expect(cells.rope[0]).toMatch(/^yes/);
    for (const id of ['shaw', 't5', 'alibi', 'rope']) expect(cells[id][1], id).toMatch(/^yes: max \|Δ score\| /);
    // k = 3, d_k = 4: a^K and a^V have 7 rows of 4 numbers each; T5 has 32 buckets.
    expect(cells.shaw[2]).toBe('56 per head (aK and aV rows)');
    expect(cells.t5[2]).toBe('32 per head (one per bucket)');
    expect(cells.t5[3]).toBe('offsets from 91 on share the last bucket: one bias for every longer distance');
    expect(await page.textContent('.schemes-facts')).toContain('0.5, 0.25, 0.13');
    // The shift line of a relative scheme reports at most rounding.
    const shift = await page.textContent('#schemes-column-rope .schemes-shift');
    const difference = Number(shift.match(/at most (\S+)\.$/)[1].replace('−', '-'));
    expect(difference).toBeLessThanOrEqual(1e-12);
    await screenshot(page, 'schemes-light.png');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  test('the URL keeps the schemes, m and the RoPE pairing; picking a scheme writes it back', async () => {
    const { page, context, problems } = await env.open('?schemes=shaw,sinusoidal&shift=5&rope=half', {
      viewport: { width: 1000, height: 900 },
      colorScheme: 'dark',
    });
    await page.waitForSelector('#schemes-section[data-drawn]');
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
    await page.waitForSelector('#schemes-section[data-drawn]');
    expect(await columnIds(page)).toEqual(['shaw', 'sinusoidal', 'none']);
    // The shift button runs the experiment again and marks the table.
    const before = await canvasHash(page, '#schemes-column-none canvas[data-panel="weights"]');
    await page.click('#schemes-run-shift');
    await page.waitForSelector('.schemes-table.schemes-flash');
    expect(await canvasHash(page, '#schemes-column-none canvas[data-panel="weights"]')).toBe(before);
    // A link with wrong values is corrected, with a note.
    await page.goto(url.replace('schemes=shaw%2Csinusoidal%2Cnone', 'schemes=xpos'));
    await page.waitForSelector('#schemes-section[data-drawn]');
    expect(await columnIds(page)).toEqual(['shaw', 't5', 'alibi', 'rope']);
    expect(await page.textContent('#notes')).toMatch(/schemes must be 2 to 4 of/);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  test('a phone: odd d_k leaves RoPE a message, nothing overflows', async () => {
    const { page, context, problems } = await env.open('?schemes=t5,rope&dk=5', {
      viewport: { width: 360, height: 800 },
    });
    await page.waitForSelector('#schemes-section[data-drawn]');
    expect(await page.textContent('#schemes-column-rope .schemes-error')).toMatch(/d_?k = 5 is odd/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, 'schemes-phone.png');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  test('the iframe view: ?embed=1&panels=schemes shows the comparison alone; without it, not at all', async () => {
    const { page, context, problems } = await env.open('?embed=1&panels=schemes&schemes=alibi,none', {
      viewport: { width: 900, height: 700 },
    });
    await page.waitForSelector('#schemes-section[data-drawn]');
    expect(await page.isVisible('#schemes-section')).toBe(true);
    expect(await columnIds(page)).toEqual(['alibi', 'none']);
    for (const selector of ['.page-header', '.controls', '.export', '#figure-combinedWeights'])
      expect(await page.isVisible(selector), selector).toBe(false);
    await page.goto(page.url().replace('panels=schemes', 'panels=combinedWeights'));
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.isVisible('#schemes-section')).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
