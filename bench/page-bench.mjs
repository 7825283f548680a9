// The page in headless Chromium (npm run bench:page): how long drawing one heatmap takes, how
// long from a control change to the finished frame, and the longest main-thread task while a
// long sequence is recomputed. One run; medians of a few repetitions.
import { launchBrowser } from '../tests/page/browser.js';
import { serveFolder } from '../tests/page/static-server.js';

const SITE = new URL('../build/site/', import.meta.url).pathname;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function openPage(browser, url, query, workers) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // The long view's pool has one worker per core (navigator.hardwareConcurrency): set to
  // `workers` for the rows that compare pool sizes.
  if (workers)
    await page.addInitScript(
      (count) => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => count }),
      workers,
    );
  await page.goto(`${url}${query}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForFunction(() => !document.body.dataset.busy);
  // The reader looks at the panels: the first at the top of the viewport. Panels outside the
  // viewport are drawn when they scroll in, so "all panels drawn" means all visible ones.
  await page.evaluate(() => window.scrollTo(0, document.getElementById('figure-contentScores').offsetTop - 10));
  await page.waitForTimeout(300);
  return page;
}

// A control change (the seed or k, as a user types it) until the frame after the last panel is drawn.
const changeToFrame = (page, value, control = 'seed') =>
  page.evaluate(
    ([to, id]) =>
      new Promise((done) => {
        const input = document.getElementById(id);
        const start = performance.now();
        const drawnBefore = window.relposPage.panelsDrawn();
        document.addEventListener(
          'relpos-drawn',
          (event) =>
            requestAnimationFrame(() =>
              done({
                work: event.detail.ms,
                frame: performance.now() - start,
                panels: window.relposPage.panelsDrawn() - drawnBefore,
              }),
            ),
          { once: true },
        );
        input.value = String(to);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }),
    [value, control],
  );

const longestTask = (page, seed) =>
  page.evaluate(
    (value) =>
      new Promise((done) => {
        let longest = 0;
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
        });
        observer.observe({ type: 'longtask' });
        const input = document.getElementById('seed');
        document.addEventListener('relpos-drawn', () => setTimeout(() => (observer.disconnect(), done(longest)), 50), {
          once: true,
        });
        input.value = String(value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }),
    seed,
  );

const server = await serveFolder(SITE);
const browser = await launchBrowser();
const rows = [];
// The sentence view draws square n × n panels; the long view draws them in offset space,
// n × (2k + 1) (k = 2047: 4095 columns, the most there can be).
// `workers`: the long view's pool size (default: one per core of this machine); `control`:
// what a change changes (the seed: every panel; k: the content panels are kept).
const CASES = [
  { n: 64, k: 16, view: 'sentence, n × n' },
  { n: 64, k: 16, view: 'long, n × (2k + 1)' },
  { n: 256, k: 16, view: 'long, n × (2k + 1)' },
  { n: 1024, k: 16, view: 'long, n × (2k + 1)' },
  { n: 1024, k: 16, view: 'long, n × (2k + 1)', workers: 1 },
  { n: 1024, k: 16, view: 'long, n × (2k + 1)', control: 'maxDistance' },
  { n: 2048, k: 16, view: 'long, n × (2k + 1)' },
  { n: 2048, k: 16, view: 'long, n × (2k + 1)', workers: 1 },
  { n: 2048, k: 16, view: 'long, n × (2k + 1)', control: 'maxDistance' },
  { n: 2048, k: 2047, view: 'long, n × (2k + 1)' },
];
for (const { n, k, view, workers, control = 'seed' } of CASES) {
  const page = await openPage(
    browser,
    server.url,
    `?${view.startsWith('long') ? 'long=1&' : ''}n=${n}&k=${k}`,
    workers,
  );
  const draws = [];
  for (let r = 0; r < 5; r += 1)
    draws.push(await page.evaluate(() => window.relposPage.timePanelDraw('combinedWeights')));
  // Three changes to warm up (JIT, caches), then the median of 15 (5 above n = 384). A change of
  // k goes k + 1, k, k + 1, …
  const value = (r) => (control === 'seed' ? 100 + r : k + ((r + 1) % 2));
  for (let r = 0; r < 3; r += 1) await changeToFrame(page, control === 'seed' ? 900 + r : value(r), control);
  const frames = [];
  for (let r = 0; r < (n > 384 ? 5 : 15); r += 1) frames.push(await changeToFrame(page, value(r), control));
  const longest = n >= 1024 && control === 'seed' ? await longestTask(page, 7) : null;
  const by = await page.evaluate(() => window.relposPage.computedBy());
  const pool = by === 'main' ? '—' : String(await page.evaluate(() => navigator.hardwareConcurrency));
  rows.push({
    n,
    k,
    view,
    change: control === 'seed' ? 'seed' : 'k',
    draw: median(draws),
    work: median(frames.map((f) => f.work)),
    frame: median(frames.map((f) => f.frame)),
    panels: median(frames.map((f) => f.panels)),
    by,
    pool,
    longest,
  });
  await page.close();
}
await browser.close();
await server.close();

console.log(
  'relpos page benchmark (headless Chromium, 1280 × 900, devicePixelRatio 1), one run: medians of 5 draws, and of 15 changes after 3 to warm up (5 above n = 384)',
);
console.log(
  '\n|    n |    k | view               | change | one heatmap drawn | change → visible panels drawn | panels drawn | change → next frame shown | computed on | workers | longest main-thread task |',
);
console.log(
  '|-----:|-----:|:-------------------|:-------|------------------:|------------------------------:|-------------:|--------------------------:|:------------|--------:|-------------------------:|',
);
for (const { n, k, view, change, draw, work, frame, panels, by, pool, longest } of rows) {
  const ms = (value) => `${value.toFixed(1)} ms`;
  console.log(
    `| ${String(n).padStart(4)} | ${String(k).padStart(4)} | ${view.padEnd(18)} | ${change.padEnd(6)} | ${ms(draw).padStart(17)} | ${ms(work).padStart(29)} | ${String(panels).padStart(12)} | ${ms(frame).padStart(25)} | ${by.padEnd(11)} | ${pool.padStart(7)} | ${(longest === null ? '—' : `${longest.toFixed(0)} ms`).padStart(24)} |`,
  );
}
console.log(
  '\nThe page is scrolled so that the first panel is at the top of the 900 px viewport; "panels drawn" counts the panels a change redrew (those in or within 100 px of the viewport; the others are drawn when they scroll in). Up to n = 384 a change is computed and drawn on the main thread in one task; above, a pool of workers (one per core; "workers") computes blocks of query rows and the panels are drawn one per task. A change of k (k + 1, k, …) keeps the content scores and weights in the workers. "next frame shown" adds the wait for the display\'s next frame (up to 16.7 ms at 60 Hz). Long tasks are those over 50 ms (0 ms: none).',
);
