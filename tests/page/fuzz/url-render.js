// Property-based fuzzing of the page's URL state and the render API's labels and sizes
// (fast-check) in headless Chromium, under a time budget. A URL case opens the page with random
// tokens (long words of up to 3,000 characters, markup, other scripts, many words) and random
// values of other parameters; a render case draws heatmap() with random sizes (or a data array
// that claims a huge length), long labels and options. The oracle: every case ends within the
// budget with no page error; the page reaches its drawn state; heatmap() draws or throws a
// TypeError or RangeError starting "heatmap: "; no label is measured more than a few dozen
// times (fitLabel bisects), and a matrix claiming too many cells is refused before its data is read.
// Run bounded by tests/page/boundary-fuzz.test.js, for longer by `npm run fuzz:js`.
import fc from 'fast-check';
import { launchBrowser } from '../browser.js';
import { serveFolder } from '../static-server.js';

/** The budget of one case, in seconds of wall time. */
export const PAGE_CASE_SECONDS = 45;
const ROOT = new URL('../../../', import.meta.url).pathname;
const SITE = new URL('../../../build/site/', import.meta.url).pathname;

// Counts measureText calls by the first 24 characters of texts longer than 24 (long labels).
function countMeasures() {
  window.measures = new Map();
  const measure = CanvasRenderingContext2D.prototype.measureText;
  CanvasRenderingContext2D.prototype.measureText = function measureText(text) {
    const t = String(text);
    if (t.length > 24) window.measures.set(t.slice(0, 24), (window.measures.get(t.slice(0, 24)) ?? 0) + 1);
    return measure.call(this, t);
  };
}

const token = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('the', 'cat', 'sat', 'on', 'mat', 'a') },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('<b>x</b>', '<img src=x onerror=alert(1)>', '猫', 'é', '😀😀', '&amp;') },
  { weight: 1, arbitrary: fc.integer({ min: 30, max: 3000 }).map((n) => `L${'ab'.repeat(n >> 1)}`) },
);
const urlCase = fc.record({
  tokens: fc.array(token, { minLength: 1, maxLength: 40 }),
  k: fc.option(fc.oneof(fc.integer({ min: -3, max: 80 }).map(String), fc.string({ maxLength: 4 })), { freq: 2 }),
  n: fc.option(fc.integer({ min: 0, max: 600 }).map(String), { freq: 4 }),
  causal: fc.option(fc.constantFrom('1', '0', 'yes'), { freq: 2 }),
});
const label = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.integer({ min: 30, max: 3000 }).map((n) => `R${'cd'.repeat(n >> 1)}`) },
);
const renderCase = fc.record({
  rows: fc.integer({ min: 1, max: 60 }),
  cols: fc.integer({ min: 1, max: 60 }),
  claim: fc.oneof(
    { weight: 6, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom(30000, 4096, 2049, 100000) },
  ),
  rowLabels: fc.option(fc.array(label, { maxLength: 60 }), { freq: 3 }),
  colLabels: fc.option(fc.array(label, { maxLength: 60 }), { freq: 3 }),
  width: fc.oneof(fc.integer({ min: 40, max: 1400 }), fc.constantFrom(0, -5)),
  scale: fc.constantFrom('sequential', 'diverging'),
});

/** The page fuzzing environment: a Chromium, the site and the repository served. */
export async function pageEnvironment() {
  const env = {
    browser: await launchBrowser(),
    site: await serveFolder(SITE),
    root: await serveFolder(ROOT),
    counts: { urls: 0, heatmaps: 0, refused: 0, maxMeasures: 0 },
  };
  env.context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await env.context.addInitScript(countMeasures);
  env.render = await env.context.newPage();
  await env.render.goto(`${env.root.url}tests/page/render-api.html`);
  await env.render.waitForFunction(() => window.render);
  env.close = async () => {
    await env.browser.close();
    await env.site.close();
    await env.root.close();
  };
  return env;
}

const withinBudget = async (what, run) => {
  let timer;
  const budget = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${PAGE_CASE_SECONDS} s`)), PAGE_CASE_SECONDS * 1000);
  });
  try {
    return await Promise.race([run(), budget]);
  } finally {
    clearTimeout(timer);
  }
};

function checkMeasures(env, measures, what) {
  const most = Math.max(0, ...measures);
  env.counts.maxMeasures = Math.max(env.counts.maxMeasures, most);
  // Each panel measures a label's text a few times (fit it, size the margins, the tooltip):
  // fitLabel's bisection is about a dozen of them; one per character would be thousands.
  if (most > 400) throw new Error(`${what}: one label was measured ${most} times`);
}

/** The URL property: the page opened with fuzzed state. */
export function urlProperty(env) {
  return fc.asyncProperty(urlCase, async (c) => {
    env.counts.urls += 1;
    const params = new URLSearchParams({ tokens: c.tokens.join(' ') });
    for (const key of ['k', 'n', 'causal']) if (c[key] !== null) params.set(key, c[key]);
    const page = await env.context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await withinBudget(`the page with ?${params}`.slice(0, 200), async () => {
        await page.goto(`${env.site.url}?${params}`);
        await page.waitForSelector('body[data-ready="true"]', { timeout: PAGE_CASE_SECONDS * 1000 });
        await page.waitForFunction(() => !document.body.dataset.busy, null, { timeout: PAGE_CASE_SECONDS * 1000 });
      });
      if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
      checkMeasures(env, await page.evaluate(() => [...window.measures.values()]), 'the page');
    } finally {
      await page.close();
    }
  });
}

/** The render property: heatmap() with fuzzed sizes, labels and options. */
export function renderProperty(env) {
  return fc.asyncProperty(renderCase, async (c) => {
    const result = await withinBudget('heatmap()', () =>
      env.render.evaluate((spec) => {
        window.measures.clear();
        const canvas = document.createElement('canvas');
        document.body.replaceChildren(canvas);
        const values = Float64Array.from({ length: spec.rows * spec.cols }, (_, i) => Math.sin(i));
        let reads = 0;
        const rows = spec.claim ?? spec.rows;
        const cols = spec.claim ?? spec.cols;
        const data = spec.claim
          ? new Proxy(values, {
              get(target, key) {
                reads += 1;
                return key === 'length' ? rows * cols : Reflect.get(target, key);
              },
            })
          : values;
        const options = { width: spec.width, scale: spec.scale };
        if (spec.rowLabels) options.rowLabels = spec.rowLabels;
        if (spec.colLabels) options.colLabels = spec.colLabels;
        try {
          window.render.heatmap(canvas, { rows, cols, data }, options);
          return { drawn: true, reads, measures: [...window.measures.values()] };
        } catch (error) {
          return {
            error: `${error.constructor.name}: ${error.message}`,
            reads,
            measures: [...window.measures.values()],
          };
        }
      }, c),
    );
    if (result.error) {
      if (!/^(TypeError|RangeError): heatmap: /.test(result.error))
        throw new Error(`an unclear refusal: ${result.error}`);
      if (c.claim && c.claim * c.claim > 2 ** 22 && result.reads > 0)
        throw new Error(`a matrix claiming ${c.claim} × ${c.claim} had its data read ${result.reads} times`);
      env.counts.refused += 1;
    } else {
      if (c.claim && c.claim * c.claim > 2 ** 22)
        throw new Error(`a matrix claiming ${c.claim} × ${c.claim} was drawn`);
      env.counts.heatmaps += 1;
    }
    checkMeasures(env, result.measures, 'heatmap()');
  });
}

/** Runs `numRuns` URLs and 5 × numRuns heatmaps (seed: fast-check's, or `seed`); returns the counts. */
export async function fuzzPage({ numRuns, seed } = {}) {
  const env = await pageEnvironment();
  const options = seed === undefined ? {} : { seed };
  try {
    await fc.assert(renderProperty(env), { numRuns: 5 * numRuns, ...options });
    await fc.assert(urlProperty(env), { numRuns, ...options });
  } finally {
    await env.close();
  }
  return env.counts;
}
