// One static server and one Chromium per test file, and helpers that read the page's canvases.
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, openPage } from './browser.js';
import { serveFolder } from './static-server.js';

export const SITE = new URL('../../build/site/', import.meta.url).pathname;

/** Starts the server and browser for the calling test file; `env.open(query, options)` opens the page. */
export function usePage() {
  const env = {};
  beforeAll(async () => {
    env.server = await serveFolder(SITE);
    env.browser = await launchBrowser();
    env.open = async (query = '', options = {}) => {
      const opened = await openPage(env.browser, `${env.server.url}${query}`, options);
      await opened.page.waitForSelector('body[data-ready="true"]');
      return opened;
    };
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

export const MATRIX_PANELS = ['contentScores', 'positionBiases', 'contentWeights', 'combinedWeights', 'difference', 'offsets'];

/** A short fingerprint of a canvas's pixels (changes when anything drawn changes). */
export function canvasHash(page, selector) {
  return page.$eval(selector, (canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let hash = 2166136261;
    for (let i = 0; i < data.length; i += 7) hash = Math.imul(hash ^ data[i], 16777619);
    return `${canvas.width}x${canvas.height}:${(hash >>> 0).toString(16)}`;
  });
}

/** Fingerprints of every canvas on the page, by figure id. */
export async function allHashes(page) {
  const ids = [...MATRIX_PANELS.map((id) => `#figure-${id} canvas`), '#profile-canvas'];
  return Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await canvasHash(page, id)])));
}

/** [r, g, b] of a canvas's pixel at CSS coordinates (x, y). */
export function pixelAt(page, selector, x, y) {
  return page.$eval(
    selector,
    (canvas, [cx, cy]) => {
      const ratio = canvas.width / canvas.getBoundingClientRect().width;
      return Array.from(canvas.getContext('2d').getImageData(Math.floor(cx * ratio), Math.floor(cy * ratio), 1, 1).data.slice(0, 3));
    },
    [x, y],
  );
}

/** The heatmap's layout (CSS px) as the page drew it. */
export async function layoutOf(page, panelId) {
  return JSON.parse(await page.getAttribute(`#figure-${panelId} canvas`, 'data-layout'));
}
