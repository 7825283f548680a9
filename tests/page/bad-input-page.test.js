// Every URL parameter and every element attribute against wrong values: the page and the
// elements clamp or fall back with a visible note, never an uncaught error, a frozen tab or a
// WASM abort. Each row sets every parameter (or attribute) to the same bad value at once.
import { describe, test } from 'vitest';
import { CONTROLS, maxDistanceLimit } from '../../web/settings/settings.js';
import { openPage } from './browser.js';
import { usePage, usePagePool, whenDrawn } from './page-fixture.js';

const env = usePage();
// Two pages for the links, each loading the next test's link as a reader following it does, beside
// the elements' page: the tests run at once, on separate pages.
const { withPage } = usePagePool(env, 2, { viewport: { width: 1280, height: 900 } });
const LONG_TEXT = Array.from({ length: 10000 }, (_, i) => `w${i}`).join(' ');
const BAD = [
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '2.5',
  '1e308',
  '',
  'abc',
  '0x10',
  ' 3 ',
  LONG_TEXT,
  '<img src=x onerror=alert(1)>',
  'javascript:alert(2)',
  '"><svg onload=alert(3)>',
];
const label = (value) => (value.length > 30 ? `${value.slice(0, 12)}… (${value.length} chars)` : JSON.stringify(value));

describe.concurrent('bad URL parameters', () => {
  for (const value of BAD) {
    test(`every parameter = ${label(value)}`, async ({ expect }) => {
      const params = new URLSearchParams();
      // A 10 000-word link goes in `tokens` alone: 59 KB of URL is already past what common
      // servers accept (nginx: 8 KB); 13 such parameters would be a 760 KB URL.
      for (const { param } of Object.values(CONTROLS))
        if (value !== LONG_TEXT || param === 'tokens') params.set(param, value);
      await withPage(`?${params}`, async ({ page, problems }) => {
        // "1e308" is the long view at n = 2048, k = 2047 in the workers: 16 s alone at load 4,
        // over 20 s beside the other pages at load 16.
        await whenDrawn(page, { timeout: 120_000 });
        const state = await page.evaluate(() => window.relposPage.state());
        for (const [name, c] of Object.entries(CONTROLS)) {
          if (c.kind === 'int' || c.kind === 'number') {
            expect(Number.isFinite(state[name]), name).toBe(true);
            expect(state[name], name).toBeGreaterThanOrEqual(c.min);
            // k's limit is n − 1 in the long view (at least 63), else 63.
            expect(state[name], name).toBeLessThanOrEqual(name === 'maxDistance' ? maxDistanceLimit(state) : c.max);
          }
        }
        const numeric = Number(value.trim());
        if (value !== LONG_TEXT && (value.trim() === '' || !Number.isFinite(numeric)))
          expect(await page.textContent('#notes')).toMatch(/must be/);
        if (value === LONG_TEXT) expect(state.seqLen).toBe(64); // the words set n, up to the sentence view's 64
        expect(await page.$$eval('figure.relpos-panel', (list) => list.length)).toBe(8);
        expect(problems).toEqual([]);
      });
    });
  }
});

describe.concurrent('bad element attributes', () => {
  test('every attribute of both elements, for each bad value', async ({ expect }) => {
    const { page, context, problems } = await openPage(env.browser, `${env.server.url}examples/elements.html`, {
      viewport: { width: 1000, height: 900 },
    });
    await page.waitForFunction(() =>
      [...document.querySelectorAll('relpos-attention, relpos-profile')].every((el) => el.view),
    );
    const dialogs = [];
    const requests = [];
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    page.on('request', (request) => requests.push(request.url()));
    for (const value of BAD) {
      const result = await page.evaluate(async (bad) => {
        const out = {};
        for (const el of document.querySelectorAll('relpos-attention, relpos-profile')) {
          const rendered = new Promise((done) =>
            el.addEventListener('relpos-render', (e) => done(e.detail.notes), { once: true }),
          );
          // src (a file to fetch) has its bad values in checkpoint-section.test.js.
          for (const name of el.constructor.observedAttributes) if (name !== 'src') el.setAttribute(name, bad);
          out[el.id] = {
            notes: await rendered,
            drawn: el.view !== null,
            message: el.shadowRoot.querySelector('[part="message"]').hidden ? '' : 'shown',
          };
        }
        return out;
      }, value);
      for (const [id, { notes, drawn, message }] of Object.entries(result)) {
        expect(drawn, `${id} ${label(value)}`).toBe(true);
        expect(message, `${id} ${label(value)}`).toBe(notes.length ? 'shown' : '');
        expect(notes.length, `${id} ${label(value)}`).toBeGreaterThan(0); // theme or panels is always wrong here
      }
    }
    // Markup and script URLs in attributes ran nothing and became no element.
    const injected = await page.evaluate(() =>
      [...document.querySelectorAll('relpos-attention, relpos-profile')].reduce(
        (count, el) => count + el.shadowRoot.querySelectorAll('img, svg, script, iframe, a').length,
        0,
      ),
    );
    expect(injected).toBe(0);
    expect(dialogs).toEqual([]);
    // The only request allowed: the page pool's own worker script (a seq-len past the
    // main-thread cut-off, MAIN_THREAD_POSITIONS).
    expect(requests.filter((url) => !/\/assets\/view-worker-[\w-]+\.js$/.test(url))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
