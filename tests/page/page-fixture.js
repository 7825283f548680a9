// One static server per test file and its lease on the run's Chromium (tests/page/browser.js), and
// helpers that read the page's canvases.
import { afterAll, beforeAll } from 'vitest';
import { COMPARISONS } from '../../web/train/language-comparison.js';
import { PANEL_IDS } from '../../web/views/panels.js';
import { ARTIFACTS_WANTED, launchBrowser, openPage, screenshot, within } from './browser.js';
import { serveFolder } from './static-server.js';

export const SITE = new URL('../../build/site/', import.meta.url).pathname;

/**
 * Starts the server and browser for the calling test file; `env.open(query, options)` opens the
 * page in a browser context of its own, new or one a finished test closed (tests/page/browser.js)
 * (options: the context's, `closedSettings: true` to leave "More settings" and
 * `closedPanels: true` to leave "More panels" closed, as a reader first sees them;
 * by default the tests open both, as a reader does with one click each, to reach the controls and
 * panels 5–8); `env.load(page, query, options)` loads a link in a page already open.
 */
export function usePage() {
  const env = {};
  beforeAll(async () => {
    env.server = await serveFolder(SITE);
    env.browser = await launchBrowser();
    env.open = async (query = '', { closedSettings = false, closedPanels = false, ...options } = {}) => {
      const opened = await openPage(env.browser, `${env.server.url}${query}`, options);
      await whenReady(opened.page, { closedSettings, closedPanels });
      return opened;
    };
    // The same page (and browser context) loading another link, as a reader following it does.
    env.load = async (page, query = '', { closedSettings = false, closedPanels = false } = {}) => {
      await page.goto(`${env.server.url}${query}`);
      await whenReady(page, { closedSettings, closedPanels });
    };
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

/** Resolves once the training section's Train button can be pressed (a model is ready). */
export const trainReady = (page) =>
  page.waitForFunction(
    () => document.querySelector('#train-start') && !document.querySelector('#train-start').disabled,
  );

/**
 * Menus or boxes changed as a reader does, all in one turn of the page (nothing the page waits for
 * comes between them), without the scroll a click would make: `click` (a selector) clicked first
 * when given, then for each [selector, value] of `changes` the value set and its change event sent.
 * With `read` (a selector), `property` of that element (its textContent unless told) is read after
 * each change: the readings in order, else [].
 */
export const changeAtOnce = (page, changes, { click = null, read = null, property = 'textContent' } = {}) =>
  page.evaluate(
    ([first, list, reading, key]) => {
      if (first) document.querySelector(first).click();
      const readings = [];
      for (const [selector, value] of list) {
        const input = document.querySelector(selector);
        input.value = value;
        input.dispatchEvent(new Event('change', { bubbles: true }));
        if (reading) readings.push(document.querySelector(reading)[key]);
      }
      return readings;
    },
    [click, changes, read, property],
  );

/** One menu or box changed as a reader does: changeAtOnce with one change. */
export const choose = (page, selector, value, options) => changeAtOnce(page, [[selector, value]], options);

/**
 * Clicks "Open the training section" as a reader does, once the schemes section above it has
 * drawn: that section grows by about 2 600 px when it first nears the view, and a click made
 * just then could land where the button had been (the sentence view; the long view draws none).
 */
export async function clickTrainOpen(page) {
  await page.$eval('#train-open', (button) => button.scrollIntoView({ block: 'center' }));
  await page.waitForFunction(
    () => document.querySelector('#schemes-section').dataset.drawn || window.relposPage?.state().long,
  );
  await page.click('#train-open');
}

/**
 * A page at 1280 × 900, opened as a reader first sees it, with the training section opened and
 * its first model ready: { page, context, problems } (usePage's env).
 */
export async function openTrainingSection(env) {
  const opened = await env.open('', {
    viewport: { width: 1280, height: 900 },
    closedSettings: true,
    closedPanels: true,
  });
  await clickTrainOpen(opened.page);
  await trainReady(opened.page);
  return opened;
}

/**
 * On a page loaded (not yet ready): opens the training section, then yields each language
 * comparison (COMPARISONS, in order) once the section has drawn it.
 */
export async function* eachLanguageComparison(page) {
  await page.waitForSelector('body[data-ready="true"]');
  await clickTrainOpen(page);
  await page.waitForSelector('#language-section[data-drawn="ja"]', { timeout: 120_000 });
  for (const comparison of COMPARISONS) {
    await page.selectOption('#language-pick', comparison.id);
    await page.waitForSelector(`#language-section[data-drawn="${comparison.id}"]`);
    yield comparison;
  }
}

/**
 * One page (one browser context, `contextOptions`) shared by a test file's tests that need no new
 * context: `atLink(query)` loads a link in it, as a reader following the link does;
 * `atDefaults()` puts it back at the defaults without a load, as a reader does: the pointer off
 * the panels, the Reset button, scrolled to the top. Each returns `{ page, problems }`, the
 * problems since that call.
 */
export function useSharedPage(env, contextOptions) {
  let shared = null;
  afterAll(async () => {
    await shared?.context.close();
  });
  async function atLink(query = '') {
    if (!shared) shared = await env.open(query, contextOptions);
    else {
      shared.problems.length = 0;
      try {
        await env.load(shared.page, query);
      } catch (error) {
        // A page that failed to load is closed: the next test (or the retry) starts in a new one.
        const failed = shared;
        shared = null;
        await failed.context.close().catch(() => {});
        throw error;
      }
    }
    return shared;
  }
  async function atDefaults() {
    if (!shared) return atLink('');
    const { page, problems } = shared;
    problems.length = 0;
    await page.mouse.move(0, 0);
    await page.click('#reset');
    await whenDrawn(page);
    await page.waitForFunction(() => location.search === '?more=1'); // the defaults, "More panels" open
    await page.evaluate(() => scrollTo(0, 0));
    return shared;
  }
  return { atLink, atDefaults };
}

/**
 * At most `size` pages (each its own browser context, `contextOptions`) shared by a test file's
 * concurrent tests: `withPage(query, run, options)` takes a page no test is using (opening one
 * while fewer than `size` are open, else waiting for one), loads the link in it as a reader
 * following it does (`options` as env.open's: `closedSettings`, `closedPanels`; `query` null: a
 * page already open is taken as it was left, a new one opens at the defaults), and runs
 * `run({ page, problems })`, the problems since then; the page is given back when `run` ends.
 */
export function usePagePool(env, size, contextOptions) {
  const all = [];
  const free = [];
  const waiting = [];
  afterAll(async () => {
    await Promise.all(all.map(({ context }) => context?.close()));
  });
  const giveBack = (opened) => {
    free.push(opened);
    waiting.shift()?.();
  };
  async function take(query, options) {
    const kept = free.pop();
    if (kept) {
      kept.problems.length = 0;
      if (query === null) return kept;
      try {
        await env.load(kept.page, query, options);
      } catch (error) {
        // Closed, not given back: the next test to ask opens a new page in its place.
        all.splice(all.indexOf(kept), 1);
        await kept.context.close().catch(() => {});
        waiting.shift()?.();
        throw error;
      }
      return kept;
    }
    if (all.length < size) {
      const slot = {};
      all.push(slot);
      return Object.assign(slot, await env.open(query ?? '', { ...contextOptions, ...options }));
    }
    await new Promise((done) => waiting.push(done));
    return take(query, options);
  }
  async function withPage(query, run, options) {
    const opened = await take(query, options);
    try {
      return await run(opened);
    } finally {
      giveBack(opened);
    }
  }
  return { withPage };
}

/**
 * What a page that never became ready shows: its address, document state, the message of a failed
 * start (web/page/main.js), and the resources it fetched with their sizes (a fetch still pending
 * is missing), so that a timeout says where the start stopped; or that the page did not answer.
 */
async function pageStartNote(page) {
  const state = await within(
    5000,
    page.evaluate(() => ({
      href: location.href,
      readyState: document.readyState,
      fatal: document.querySelector('.fatal')?.textContent ?? null,
      fetched: performance
        .getEntriesByType('resource')
        .map((r) => `${r.name.split('/').pop()} ${r.transferSize} B in ${Math.round(r.duration)} ms`),
      since: Math.round(performance.now()),
    })),
    { unreadable: 'the page did not answer within 5 s (its main thread busy or hung)' },
  );
  return `The page when the wait ended: ${JSON.stringify(state)}`;
}

/** Waits until a loaded page is ready, then opens "More settings" and "More panels" unless told not to. */
async function whenReady(page, { closedSettings, closedPanels }) {
  try {
    await page.waitForSelector('body[data-ready="true"]');
  } catch (error) {
    error.message += `\n${await pageStartNote(page)}`;
    throw error;
  }
  if (!closedSettings) await page.evaluate(() => document.getElementById('more-settings')?.setAttribute('open', ''));
  if (!closedPanels) await openMorePanels(page);
}

/**
 * Waits until the page shows its latest change: an edit of a control is drawn in the next
 * animation frame, a large view when its workers answer; until then body[data-busy] is set. A
 * change the page hears of only at a rendering update (a new viewport size: its media queries'
 * events, its resize observers) is heard first: two frames pass before busy is read.
 */
export async function whenDrawn(page, { timeout } = {}) {
  try {
    await page.evaluate(() => new Promise((next) => requestAnimationFrame(() => requestAnimationFrame(next))));
    await page.waitForFunction(() => !document.body.dataset.busy, null, { timeout });
  } catch (error) {
    // What the page said while it stayed busy, for the failure's message.
    const notes = await page.textContent('#notes').catch(() => '(unreadable)');
    error.message += `\n  the page's notes: ${JSON.stringify(notes)}`;
    throw error;
  }
}

/**
 * `locator`'s box once it stands still (the same over two frames): after a scroll into view, what
 * the page draws as it nears the view can still move it, and a pointer sent there at once misses.
 */
export async function settledBox(page, locator) {
  let box = await locator.boundingBox();
  for (;;) {
    await page.evaluate(() => new Promise((next) => requestAnimationFrame(() => requestAnimationFrame(next))));
    const now = await locator.boundingBox();
    if (JSON.stringify(now) === JSON.stringify(box)) return now;
    box = now;
  }
}

/** Opens "More panels" (panels 5–8), as a click on it does, and waits until they are drawn. */
export async function openMorePanels(page) {
  const opened = await page.evaluate(() => {
    const drawer = document.getElementById('more-panels');
    if (!drawer || drawer.open || document.body.classList.contains('embed')) return false;
    drawer.open = true;
    return true;
  });
  if (opened)
    await page.waitForFunction(() => {
      const canvas = document.querySelector('#figure-offsets canvas');
      return !canvas || canvas.dataset.layout !== undefined || document.body.dataset.busy === 'true';
    });
}

/** The page's matrix panels, in the order drawn: the page's own table (web/views/panels.js). */
export const MATRIX_PANELS = PANEL_IDS;

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

/** [r, g, b] of a canvas's pixels at CSS points [[x, y], …], read in one round trip to the page. */
export function pixelsAt(page, selector, points) {
  return page.$eval(
    selector,
    (canvas, list) => {
      const ratio = canvas.width / canvas.getBoundingClientRect().width;
      const context = canvas.getContext('2d');
      return list.map(([cx, cy]) =>
        Array.from(context.getImageData(Math.floor(cx * ratio), Math.floor(cy * ratio), 1, 1).data.slice(0, 3)),
      );
    },
    points,
  );
}

/** [r, g, b] of a canvas's pixel at CSS coordinates (x, y). */
export async function pixelAt(page, selector, x, y) {
  return (await pixelsAt(page, selector, [[x, y]]))[0];
}

/** The heatmap's layout (CSS px) as the page drew it. */
export async function layoutOf(page, panelId) {
  return JSON.parse(await page.getAttribute(`#figure-${panelId} canvas`, 'data-layout'));
}

/**
 * The page's numbers, from the API, for page settings (the page's defaults, as the README
 * documents them: stable numbers, the locality table with bump height 8, width 1, no asymmetry,
 * noise 0.1; seed 42, d_k 4, k 3, d_model 8; the words of "the cat sat on the mat", position i
 * without a word being the word "#i").
 */
export function pageExample(
  rp,
  {
    draw = 'stable',
    table = 'locality',
    strength = 8,
    width = 1,
    asymmetry = 0,
    noise = 0.1,
    sameQuery = false,
    seed = 42,
    dK = 4,
    maxDistance = 3,
    causal = false,
    tokens = 'the cat sat on the mat',
    seqLen,
  } = {},
) {
  const words = tokens.split(' ').filter(Boolean);
  const n = seqLen ?? words.length;
  const options = {
    draw,
    table,
    locality: { strength, width, asymmetry, noise },
    sameQuery,
    seed,
    dModel: 8,
    dK,
    maxDistance,
    causal,
  };
  if (draw === 'stable') options.tokens = Array.from({ length: n }, (_, i) => words[i] ?? `#${i}`);
  else options.seqLen = n;
  return rp.example(options);
}

/**
 * A value as the page's readouts print it: `digits` significant digits (3 in the matrix view, 4 in
 * the long view), a true minus sign, exponent form below 1e-4.
 */
export const significant = (value, digits = 3) =>
  (value === 0
    ? '0'
    : Math.abs(value) < 1e-4
      ? value.toExponential(digits - 1)
      : String(Number(value.toPrecision(digits)))
  ).replace(/-/g, '−');

/** Whether a canvas has anything drawn on it (a pixel that is not transparent). */
export const canvasDrawn = (page, selector) =>
  page.$eval(selector, (canvas) =>
    canvas
      .getContext('2d')
      .getImageData(0, 0, canvas.width, canvas.height)
      .data.some((v, i) => i % 4 === 3 && v > 0),
  );

/**
 * tests/artifacts/<name>, with RELPOS_ARTIFACTS=1: a screenshot of `selector`'s box as it is now
 * (never compared). A locator's screenshot first waits for the element to stay still over two
 * frames, which a page on a loaded machine once did not give it in two minutes.
 */
export async function artifactShot(page, selector, name) {
  if (!ARTIFACTS_WANTED) return;
  const clip = await page.$eval(selector, (element) => {
    element.scrollIntoView({ block: 'start' });
    const box = element.getBoundingClientRect();
    return { x: box.left + scrollX, y: box.top + scrollY, width: box.width, height: box.height };
  });
  await screenshot(page, name, { clip });
}
