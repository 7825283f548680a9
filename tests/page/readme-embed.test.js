// The README's "Embed in a course page" snippets, pasted into blank pages as an author would,
// on a server with a strict CSP: the custom elements beside dist/relpos-elements.js, and the
// iframe of the one-file relpos.html (uploaded next to the page, served without that policy: it
// is one file with inline scripts).
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchBrowser } from './browser.js';
import { serveFolder } from './static-server.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('## Embed in a course page'), readme.indexOf('## The API in one screen'));
const [elementsSnippet, iframeSnippet] = [...section.matchAll(/```html\n([\s\S]*?)```/g)].map((m) => m[1]);
const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:";

let folder;
let server;
let browser;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'relpos-course-'));
  cpSync(new URL('../../build/site/', import.meta.url), folder, { recursive: true });
  copyFileSync(new URL('../../dist/relpos-elements.js', import.meta.url), join(folder, 'relpos-elements.js'));
  const page = (body) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>course</title><link rel="icon" href="data:,"></head><body><h1>Week 3</h1>${body}</body></html>`;
  writeFileSync(join(folder, 'course-elements.html'), page(elementsSnippet));
  writeFileSync(join(folder, 'course-iframe.html'), page(iframeSnippet));
  server = await serveFolder(folder, {
    headers: (path) => (path === '/relpos.html' ? {} : { 'content-security-policy': CSP }),
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function open(path) {
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}${path}`);
  return { page, problems };
}

test('the custom-element snippet draws its figures', async () => {
  expect(elementsSnippet).toContain('<relpos-attention');
  const { page, problems } = await open('course-elements.html');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('relpos-attention, relpos-profile')].every((el) => el.view),
  );
  const figures = await page.$eval('relpos-attention', (el) =>
    [...el.shadowRoot.querySelectorAll('figure')].map((f) => f.dataset.panel),
  );
  expect(figures).toEqual(['combinedWeights', 'offsets']);
  expect(problems).toEqual([]);
  await page.close();
});

test('the iframe snippet shows the chosen panels', async () => {
  expect(iframeSnippet).toContain('embed=1');
  const { page, problems } = await open('course-iframe.html');
  const frame = page.frameLocator('iframe');
  await frame.locator('body[data-ready="true"]').waitFor();
  expect(await frame.locator('figure:visible').count()).toBe(2);
  expect(problems).toEqual([]);
  await page.close();
});
