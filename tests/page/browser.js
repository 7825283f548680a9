// Debian's Chromium (its headless shell for the tests), driven by playwright-core (Playwright's
// own browser download does not work here). Collects console errors and failed requests for every
// page it opens.
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const ARTIFACTS = new URL('../artifacts/', import.meta.url);

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * The tests' browser: Debian's chromium-headless-shell, Chromium's headless shell (the same
 * Blink and V8 as the browser, without its user interface), as Playwright itself runs headless
 * tests: a page load and a full-page screenshot take about half the CPU of the browser's own
 * headless mode (docs/testing.md).
 */
export const CHROMIUM_OPTIONS = { executablePath: '/usr/bin/chromium-headless-shell', args: CHROMIUM_ARGS };

/** The benchmarks' browser: the Chromium readers run, headless. */
export const BENCH_CHROMIUM_OPTIONS = { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS };

/**
 * How long a Playwright wait (a click, a selector, a function, a navigation) may take before it
 * fails, on every page this module's browsers open: a guard against a hang, like Vitest's
 * timeouts (vitest.config.js), never a measure of speed. Playwright's own 30 s is less than a
 * page at n = 2048 takes on a loaded machine.
 */
export const WAIT_TIMEOUT_MS = 120_000;

// Every context and page the browser makes gets WAIT_TIMEOUT_MS.
function withWaitTimeout(browser) {
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(WAIT_TIMEOUT_MS);
    return context;
  };
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.setDefaultTimeout(WAIT_TIMEOUT_MS);
    return page;
  };
  return browser;
}

/**
 * A browser to open pages in: under Vitest, a connection to the run's one headless shell
 * (tests/page/shared-chromium.js); elsewhere (the benchmarks), a Chromium of its own. Either way
 * `close()` ends what this call started.
 */
export async function launchBrowser() {
  const endpoint = process.env.VITEST ? (await import('vitest')).inject('chromiumEndpoint') : undefined;
  return withWaitTimeout(
    await (endpoint
      ? chromium.connect(endpoint, { timeout: WAIT_TIMEOUT_MS })
      : chromium.launch(BENCH_CHROMIUM_OPTIONS)),
  );
}

/** A new page whose console errors, page errors and failed requests are recorded in `problems`. */
export async function openPage(browser, url, contextOptions = {}) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(url);
  return { page, context, problems };
}

export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = new URL(name, ARTIFACTS).pathname;
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The bytes of a finished download (read through Playwright: the browser may be a shared one). */
export async function downloadedBytes(download) {
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  return Buffer.concat(chunks);
}
