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

// What a test may change on a context or its page that a later test must not inherit (a CDP
// session can change anything): a context where one of these was called is closed, not kept (see
// keptContexts).
const PAGE_CHANGES = [
  'route',
  'routeFromHAR',
  'routeWebSocket',
  'addInitScript',
  'exposeBinding',
  'exposeFunction',
  'setExtraHTTPHeaders',
  'setDefaultTimeout',
  'setDefaultNavigationTimeout',
];
const CONTEXT_CHANGES = [
  ...PAGE_CHANGES,
  'grantPermissions',
  'setGeolocation',
  'setOffline',
  'setHTTPCredentials',
  'addCookies',
  'newCDPSession',
];

// The listeners an emitter has now, to remove every one added later.
const listenersOf = (emitter) => new Map(emitter.eventNames().map((name) => [name, emitter.listeners(name)]));
function removeListenersSince(emitter, before) {
  for (const name of emitter.eventNames())
    for (const listener of emitter.listeners(name))
      if (!before.get(name)?.includes(listener)) emitter.removeListener(name, listener);
}

/**
 * Every context and page the browser makes gets WAIT_TIMEOUT_MS, and a context a test closes is
 * kept for the next `newContext` with the same options: its page, back at about:blank, is the
 * next `context.newPage()`. A new context costs a new renderer process: the page loaded in one
 * took about 0.8 CPU s of Chromium, in a kept page about 0.46 (docs/testing.md); loading a link in
 * a kept page is what a reader following a link does. Kept only when nothing else carries over: the test's listeners
 * are removed, a changed viewport or emulated media is put back, other pages are closed, and a
 * context whose routes, scripts, permissions, cookies, timeouts or CDP sessions a test touched is
 * closed instead.
 */
function keptContexts(browser) {
  const KEPT_PER_OPTIONS = 4; // at most this many idle renderers for one set of options
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  const kept = new Map(); // options as JSON → contexts ready to lend
  async function open(options) {
    const context = await newContext(options);
    context.setDefaultTimeout(WAIT_TIMEOUT_MS);
    const page = await context.newPage();
    const state = { context, page, options, changed: false, viewport: false, media: false, lent: false, taken: false };
    const close = context.close.bind(context);
    const createPage = context.newPage.bind(context);
    for (const name of CONTEXT_CHANGES) {
      const method = context[name].bind(context);
      context[name] = (...args) => ((state.changed = true), method(...args));
    }
    for (const name of PAGE_CHANGES) {
      const method = page[name].bind(page);
      page[name] = (...args) => ((state.changed = true), method(...args));
    }
    for (const [name, flag] of [
      ['setViewportSize', 'viewport'],
      ['emulateMedia', 'media'],
    ]) {
      const method = page[name].bind(page);
      page[name] = (...args) => ((state[flag] = true), method(...args));
    }
    context.newPage = async () => {
      if (state.lent && !state.taken && !page.isClosed()) {
        state.taken = true;
        return page;
      }
      return createPage();
    };
    context.close = async (closeOptions) => {
      if (state.kept) return undefined; // closed again after it was given back
      if (!state.lent) return close(closeOptions);
      state.lent = false;
      try {
        await giveBack(state);
      } catch {
        await close(closeOptions).catch(() => {});
      }
    };
    return state;
  }
  async function giveBack(state) {
    const { context, page, options } = state;
    for (const other of context.pages()) if (other !== page) await other.close();
    if (state.changed || page.isClosed()) throw new Error('not kept');
    removeListenersSince(context, state.contextListeners);
    removeListenersSince(page, state.pageListeners);
    await page.goto('about:blank', { timeout: 10_000 });
    if (state.viewport) await page.setViewportSize(options.viewport ?? { width: 1280, height: 720 });
    if (state.media)
      await page.emulateMedia({
        media: options.media ?? null,
        colorScheme: options.colorScheme ?? 'light',
        reducedMotion: options.reducedMotion ?? 'no-preference',
        forcedColors: options.forcedColors ?? 'none',
        contrast: options.contrast ?? 'no-preference',
      });
    state.viewport = state.media = state.taken = false;
    const key = JSON.stringify(options ?? {});
    if ((kept.get(key)?.length ?? 0) >= KEPT_PER_OPTIONS) throw new Error('enough kept');
    kept.set(key, [...(kept.get(key) ?? []), state]);
    state.kept = true;
  }
  browser.newContext = async (options) => {
    const state = kept.get(JSON.stringify(options ?? {}))?.pop() ?? (await open(options));
    state.lent = true;
    state.kept = false;
    state.contextListeners = listenersOf(state.context);
    state.pageListeners = listenersOf(state.page);
    return state.context;
  };
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.setDefaultTimeout(WAIT_TIMEOUT_MS);
    return page;
  };
  return browser;
}

/**
 * One test file's share of a browser: the contexts and pages it opens, and `close()` closing them
 * (the real close, kept contexts too), while the browser itself stays for the worker's next file.
 */
function fileShare(browser) {
  const closers = new Map(); // this file's contexts → their own close, taken before keptContexts wraps it
  const own = (context) => {
    closers.set(context, context.close.bind(context));
    context.on('close', () => closers.delete(context));
    return context;
  };
  const closed = [];
  return {
    newContext: async (options) => own(await browser.newContext(options)),
    newPage: async (options) => {
      const page = await browser.newPage(options);
      own(page.context());
      return page;
    },
    contexts: () => [...closers.keys()],
    isConnected: () => browser.isConnected(),
    on: (name, listener) => name === 'disconnected' && closed.push(listener),
    close: async () => {
      await Promise.all([...closers.values()].map((close) => close().catch(() => {})));
      for (const listener of closed) listener();
    },
  };
}

// This worker's headless shell, launched by its first page test file: Vitest runs a worker's files
// one after another (vitest.config.js), and each file's pages speak to it directly. Through one
// shared Chromium's server in Vitest's own process, four page files took 145 and 140 busy CPU s
// against 135 and 120 (docs/testing.md).
let workerChromium;
function chromiumOfThisWorker() {
  workerChromium ??= chromium.launch(CHROMIUM_OPTIONS).then((browser) => {
    browser.on('disconnected', () => (workerChromium = undefined));
    return browser;
  });
  return workerChromium;
}

/**
 * A browser to open pages in: under Vitest, this test file's share of its worker's headless shell
 * (`close()` closes the file's contexts, kept ones too); elsewhere (the benchmarks), a Chromium of
 * its own, which `close()` ends.
 */
export async function launchBrowser() {
  const browser = keptContexts(
    process.env.VITEST ? fileShare(await chromiumOfThisWorker()) : await chromium.launch(BENCH_CHROMIUM_OPTIONS),
  );
  connections.add(browser);
  browser.on('disconnected', () => connections.delete(browser));
  return browser;
}

/** The browsers launchBrowser gave this process, while connected (for describeOpenPages). */
const connections = new Set();

/** `promise`'s value (a rejection as "failed: …"), or `late` if it has not settled within `ms`. */
export const within = (ms, promise, late) => {
  let timer;
  return Promise.race([
    promise.catch((error) => `failed: ${error.message.split('\n')[0]}`),
    new Promise((done) => (timer = setTimeout(() => done(late), ms))),
  ]).finally(() => clearTimeout(timer));
};

/**
 * One line for each page this process has open: its address, and what its document says (ready,
 * busy) through Playwright; where Playwright gets no answer within 3 s, whether the page answers
 * Chromium's own protocol (yes: Playwright lost the page's context; no: its main thread is busy
 * or hung). Printed when a page test fails (tests/page/failure-note.js), so that a wait that timed
 * out says which it was.
 */
export async function describeOpenPages() {
  const lines = [];
  for (const browser of connections)
    for (const context of browser.contexts())
      for (const page of context.pages()) {
        const read = () => ({ ready: document.body?.dataset.ready ?? null, busy: document.body?.dataset.busy ?? null });
        let state = await within(3000, page.evaluate(read).then(JSON.stringify), null);
        if (state === null) {
          const session = await within(3000, context.newCDPSession(page), null);
          const answer =
            session &&
            (await within(
              3000,
              session.send('Runtime.evaluate', { expression: 'document.readyState', returnByValue: true }),
              null,
            ));
          state = answer
            ? `no answer through Playwright; the page answers Chromium (readyState ${answer.result?.value})`
            : 'no answer through Playwright nor Chromium: its main thread busy or hung';
        }
        lines.push(`${page.url()}: ${state}`);
      }
  return lines;
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

/**
 * Whether the tests write their screenshots to tests/artifacts/: only when asked
 * (`RELPOS_ARTIFACTS=1 npm test`). No assertion reads them; they are for a person to open, and
 * they cost about 25 CPU s of a run (docs/testing.md).
 */
export const ARTIFACTS_WANTED = process.env.RELPOS_ARTIFACTS === '1';

/**
 * tests/artifacts/<name>, with RELPOS_ARTIFACTS=1: a screenshot of `target`, a page (the whole
 * page unless `options` say otherwise) or a locator (its box); never compared.
 */
export async function screenshot(target, name, options = {}) {
  if (!ARTIFACTS_WANTED) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = new URL(name, ARTIFACTS).pathname;
  const wholePage = typeof target.goto === 'function' ? { fullPage: true } : {};
  await target.screenshot({ path, ...wholePage, ...options });
}

/** The bytes of a finished download (read through Playwright: the browser may be a shared one). */
export async function downloadedBytes(download) {
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  return Buffer.concat(chunks);
}
