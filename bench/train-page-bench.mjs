// The training section's default run (DEFAULT_RUN: masked words, its preset) in headless Chromium, on the page of
// build/site as a reader gets it: press Train and wait for the run's end (run-end.js: the held-out
// loss within the criterion of the reference run's, or the step budget). Prints
// `time to conclusion: N s (M steps)`, why it ended, the held-out loss curve, the verdicts the run
// reached beside the reference's (web/train/reference-run.js) and the machine's load.
// `npm run bench:train-page` (builds first) or `node bench/train-page-bench.mjs [--one-worker]`. Never part of npm test.
import { cpus, loadavg } from 'node:os';
import { launchBrowser } from '../tests/page/browser.js';
import { serveFolder } from '../tests/page/static-server.js';
import { REFERENCE_RUN } from '../web/train/reference-run.js';
import { claimsAcrossRuns } from '../web/train/pos-verdicts.js';
import { DEFAULT_RUN, PRESETS } from '../web/train/train-session.js';

const server = await serveFolder(new URL('../build/site/', import.meta.url).pathname);
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
// ?train-workers=1 measures the run in one training worker (default: two on two cores or more).
const workersAsked = process.argv.includes('--one-worker') ? '?train-workers=1' : '';
const trainWorkers = [];
page.on('worker', (worker) => /train-worker/.test(worker.url()) && trainWorkers.push(worker));
await page.goto(`${server.url}${workersAsked}`);
await page.waitForSelector('body[data-ready="true"]');
await page.click('#train-open');
await page.waitForFunction(
  () => document.querySelector('#train-start') && !document.querySelector('#train-start').disabled,
  null,
  { timeout: 120_000 },
);
const atOpen = await page.textContent('#train-summary');
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
let seconds;
for (;;) {
  await page.waitForTimeout(250);
  const status = await page.textContent('#train-status');
  const step = Number(/step (\d+)/.exec(status)?.[1] ?? 0);
  const heldOut = Number(/held-out loss ([\d.]+)/.exec(status)?.[1] ?? NaN);
  seconds = (Date.now() - start) / 1000;
  if (Number.isFinite(heldOut) && step % 25 === 0 && readings.at(-1)?.step !== step)
    readings.push({ step, seconds, heldOut });
  if (await page.$('.relpos-train[data-ended]')) break;
}
const ended = await page.$eval('.relpos-train', (lab) => ({
  reason: lab.dataset.ended,
  step: Number(lab.dataset.endStep),
}));
await page.waitForFunction(() => {
  const lab = document.querySelector('.relpos-train').dataset;
  return Number(lab.analysisStep) === Number(lab.endStep) && lab.readingsDrawn === lab.readings;
});
const status = await page.textContent('#train-status');
const summary = await page.textContent('#train-summary');
const longTasks = await page.evaluate(() => window.longTasks);
const reference = claimsAcrossRuns(REFERENCE_RUN.seeds);
// The training worker's own account of its time (self.trainTiming; the second worker has none).
const timings = await Promise.all(trainWorkers.map((w) => w.evaluate(() => self.trainTiming).catch(() => null)));
const timing = timings.find((t) => t?.steps > 0);
console.log(
  `relpos training section, headless Chromium, the default run (${DEFAULT_RUN.task}, ${PRESETS[DEFAULT_RUN.preset].label}) in ${trainWorkers.length} training worker${trainWorkers.length === 1 ? '' : 's'}; ${cpus().length} cores (${cpus()[0].model}), load average ${load.toFixed(1)} at the start`,
);
console.log('| step | seconds | held-out loss |');
console.log('|-----:|--------:|--------------:|');
for (const r of readings.filter((_, i) => i % 4 === 3 || i === readings.length - 1))
  console.log(`| ${r.step} | ${r.seconds.toFixed(1)} | ${r.heldOut.toFixed(3)} |`);
console.log(`time to conclusion: ${seconds.toFixed(1)} s (${ended.step} steps)`);
console.log(`ended by: ${ended.reason}; ${status}`);
console.log(
  `reference: held-out ${REFERENCE_RUN.heldOut} (mean of ${REFERENCE_RUN.seeds.length} seeds, ${REFERENCE_RUN.seeds[0].steps} steps each)`,
);
console.log('| claim | this run | the reference |');
console.log('|---|---|---|');
for (const c of Object.values(reference)) {
  const said = new RegExp(`${c.short}: (.*?)(?:; |\\. Across)`).exec(summary)?.[1] ?? '?';
  console.log(`| ${c.short} | ${said} | holds in ${c.holds} of ${c.of} seeds |`);
}
if (timing) {
  const ms = (total, count) =>
    `${(total / 1000).toFixed(1)} s (${count} × ${(total / Math.max(1, count)).toFixed(1)} ms)`;
  console.log(
    `in the training worker: steps ${ms(timing.stepMs, timing.steps)}; held-out readings ${ms(timing.heldOutMs, timing.heldOutReadings)}; heads' readings ${ms(timing.headMs, timing.headReadings)}`,
  );
}
console.log(`summary at the end: ${summary}`);
console.log(`summary at open: ${atOpen}`);
console.log(
  `mean speed: ${(ended.step / seconds).toFixed(1)} steps/s; load average now ${loadavg()[0].toFixed(1)}; page thread while training: ${longTasks.length} long tasks (> 50 ms)${longTasks.length ? `, longest ${Math.max(...longTasks).toFixed(0)} ms` : ''}`,
);
await browser.close();
await server.close();
