// The render API's test page (tests/page/render-api.html, which imports web/render/ from the
// repository's own files) in headless Chromium at 2 device pixels per CSS pixel, for the tests
// that draw on it.
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.js';
import { serveFolder } from './static-server.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Opens the page before the file's tests (at `viewport`) and closes it after them; `env.page` is
 * the page once open.
 */
export function useRenderPage(viewport) {
  const env = { page: null, server: null, browser: null };
  beforeAll(async () => {
    env.server = await serveFolder(ROOT);
    env.browser = await launchBrowser();
    env.page = await env.browser.newPage({ viewport, deviceScaleFactor: 2 });
    await env.page.goto(`${env.server.url}tests/page/render-api.html`);
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}
