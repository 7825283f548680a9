// The training section's default run in headless Chromium (the page of build/site, as a reader
// gets it): press Train, read the status line (steps, held-out loss every 25 steps) until
// `--steps` steps, then report when the held-out loss first came within 10 % of its plateau
// (the mean of the last four readings), the steps per second, and the machine's load.
// `npm run bench:train-page` (builds first) or `node bench/train-page-bench.mjs --steps 2500`.
// Never part of npm test.
import { cpus, loadavg } from 'node:os';
import { launchBrowser } from '../tests/page/browser.js';
import { serveFolder } from '../tests/page/static-server.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const totalSteps = Number(option('steps', 2500));
const preset = option('preset', 'small');
const task = option('task', 'masked');

const server = await serveFolder(new URL('../build/site/', import.meta.url).pathname);
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(server.url);
await page.waitForSelector('body[data-ready="true"]');
await page.click('#train-open');
const ready = () =>
  page.waitForFunction(
    () => document.querySelector('#train-start') && !document.querySelector('#train-start').disabled,
    null,
    { timeout: 120_000 },
  );
await ready();
if (preset !== 'small' || task !== 'masked') {
  await page.selectOption('#train-preset', preset);
  await ready();
  await page.selectOption('#train-task', task);
  await ready();
}
// Long tasks (over 50 ms) on the page's thread while it trains.
await page.evaluate(() => {
  window.longTasks = [];
  new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({
    type: 'longtask',
  });
});
const load = loadavg()[0];
const readings = [];
await page.click('#train-start');
const start = Date.now();
for (;;) {
  await page.waitForTimeout(250);
  const status = await page.textContent('#train-status');
  const step = Number(/step (\d+)/.exec(status)?.[1] ?? 0);
  const heldOut = Number(/held-out loss ([\d.]+)/.exec(status)?.[1] ?? NaN);
  const seconds = (Date.now() - start) / 1000;
  if (Number.isFinite(heldOut) && (readings.length === 0 || readings.at(-1).step !== step) && step % 25 === 0)
    readings.push({ step, seconds, heldOut });
  if (step >= totalSteps) break;
}
await page.click('#train-pause');
const longTasks = await page.evaluate(() => window.longTasks);
const plateau = readings.slice(-4).reduce((s, r) => s + r.heldOut, 0) / 4;
const within = readings.find((r) => r.heldOut <= 1.1 * plateau);
const last = readings.at(-1);
console.log(
  `relpos training section, headless Chromium, ${task} / ${preset}; ${cpus().length} cores (${cpus()[0].model}), load average ${load.toFixed(1)} at the start`,
);
console.log('| step | seconds | held-out loss |');
console.log('|-----:|--------:|--------------:|');
for (const r of readings.filter((_, i) => i % 4 === 3 || i === readings.length - 1))
  console.log(`| ${r.step} | ${r.seconds.toFixed(1)} | ${r.heldOut.toFixed(3)} |`);
console.log(`plateau (mean of the last 4 readings, steps ${readings.at(-4).step}–${last.step}): ${plateau.toFixed(3)}`);
console.log(
  `within 10 % of it (≤ ${(1.1 * plateau).toFixed(3)}): step ${within.step}, ${within.seconds.toFixed(1)} s after Train`,
);
console.log(
  `mean speed: ${(last.step / last.seconds).toFixed(1)} steps/s (${((1000 * last.seconds) / last.step).toFixed(1)} ms per step, wall); load average now ${loadavg()[0].toFixed(1)}`,
);
console.log(
  `page thread while training: ${longTasks.length} long tasks (> 50 ms)${longTasks.length ? `, longest ${Math.max(...longTasks).toFixed(0)} ms` : ''}`,
);
await browser.close();
await server.close();
