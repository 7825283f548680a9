// <relpos-train> opened from disk (file://), as docs/troubleshooting.md says: the classic-script
// build dist/relpos-train.iife.js trains there (the held-out loss falls, the profile is drawn);
// the module build cannot load there (Chromium refuses module scripts from an opaque origin),
// and the element's fallback text the docs give says why and what to use instead. Screenshots
// light and dark in tests/artifacts/train-file-url-*.png.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchBrowser, screenshot } from './browser.js';

const DIST = new URL('../../dist/', import.meta.url);
export const FALLBACK =
  'The training widget did not load. Opened from disk (file://), browsers refuse module scripts: use relpos-train.iife.js, or serve the page over http(s).';
const page = (
  script,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Week 5</title><link rel="icon" href="data:,">
${script}</head><body><h1>Week 5: what a model learns</h1>
<relpos-train id="t" size="tiny"><p>${FALLBACK}</p></relpos-train></body></html>`;

let folder;
let browser;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'relpos-train-file-'));
  for (const file of ['relpos-train.iife.js', 'relpos-train.js']) copyFileSync(new URL(file, DIST), join(folder, file));
  writeFileSync(join(folder, 'classic.html'), page('<script src="relpos-train.iife.js"></script>'));
  writeFileSync(join(folder, 'module.html'), page('<script type="module" src="relpos-train.js"></script>'));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(folder, { recursive: true, force: true });
});

test('the classic script trains from file://: the held-out loss falls and the profile is drawn', async () => {
  const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
  const tab = await context.newPage();
  const problems = [];
  tab.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  tab.on('pageerror', (e) => problems.push(e.message));
  await tab.goto(pathToFileURL(join(folder, 'classic.html')).href);
  const inShadow = (selector) =>
    tab.evaluate((s) => document.getElementById('t').shadowRoot?.querySelector(s) ?? null, selector);
  await tab.waitForFunction(
    () => document.getElementById('t').shadowRoot?.querySelector('#train-start:not([disabled])'),
    null,
    {
      timeout: 120_000,
    },
  );
  expect(await inShadow('#train-start')).not.toBeNull();
  // The fallback text is the element's light DOM: not drawn once the element has its shadow root.
  expect(await tab.evaluate(() => document.getElementById('t').getBoundingClientRect().height)).toBeGreaterThan(100);
  expect(await tab.getByText('did not load').isVisible()).toBe(false);
  await tab.evaluate(() => document.getElementById('t').shadowRoot.querySelector('#train-start').click());
  const status = () =>
    tab.evaluate(() => document.getElementById('t').shadowRoot.querySelector('#train-status')?.textContent ?? '');
  const heldOut = async () => Number(/held-out loss ([\d.]+)/.exec(await status())?.[1]);
  await expect.poll(status, { timeout: 120_000 }).toMatch(/held-out loss \d/);
  const first = await heldOut();
  await tab.waitForFunction(
    () => Number(document.getElementById('t').shadowRoot.querySelector('.relpos-train').dataset.analysisStep) >= 100,
    null,
    { timeout: 120_000 },
  );
  await tab.evaluate(() => document.getElementById('t').shadowRoot.querySelector('#train-pause').click());
  expect(await heldOut()).toBeLessThan(first);
  const inked = await tab.evaluate(() => {
    const canvas = document.getElementById('t').shadowRoot.querySelector('#train-profile canvas');
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    return canvas.width > 0 && data.some((v, i) => i % 4 === 3 && v > 0);
  });
  expect(inked).toBe(true);
  for (const scheme of ['light', 'dark']) {
    await tab.emulateMedia({ colorScheme: scheme });
    await tab.waitForTimeout(300);
    await screenshot(tab, `train-file-url-classic-${scheme}.png`);
  }
  expect(problems).toEqual([]);
  await context.close();
}, 240_000);

test('the module build from file:// does not load, and the fallback text says why and what to use', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 600 } });
  const tab = await context.newPage();
  const problems = [];
  tab.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await tab.goto(pathToFileURL(join(folder, 'module.html')).href);
  await tab.waitForTimeout(1000);
  expect(await tab.evaluate(() => customElements.get('relpos-train') === undefined)).toBe(true);
  const fallback = tab.getByText('did not load');
  expect(await fallback.isVisible()).toBe(true);
  expect(await fallback.textContent()).toBe(FALLBACK);
  expect(problems.join('\n')).toMatch(/CORS|origin 'null'/); // the cause the text names
  await screenshot(tab, 'train-file-url-module.png');
  await context.close();
});
