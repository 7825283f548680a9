// The worker pool in headless Chromium (relpos-wasm/worker): attention at d_k = 64, float32,
// fresh result arrays, on one instance in the page and on pools of 1, 2, … workers, one after
// another, with each pool's slowest worker's core time and the time expected with more cores.
// Run alone with `node bench/pool-bench.mjs [n:k …]`; bench/run.mjs times the pools in
// alternation instead (bench/call-forms.js, poolForms).
import { launchBrowser } from '../tests/page/browser.js';
import { serveFolder } from '../tests/page/static-server.js';

const ROOT = new URL('../', import.meta.url).pathname;

/** [{ n, k, singleMs, singleCoreMs, pools: [{ workers, ms, slowestCoreMs }], cores }] */
export async function runPoolBench(sizes, { poolSizes = [1, 2, 3, 4], reps = 9 } = {}) {
  const server = await serveFolder(ROOT);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}bench/pool-bench.html`);
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    const results = [];
    for (const [n, k] of sizes) {
      results.push(await page.evaluate((config) => window.benchPool(config), { n, k, poolSizes, reps }));
      process.stderr.write(`  pool measured n = ${n}, k = ${k}\n`);
    }
    return results;
  } finally {
    await browser.close();
    await server.close();
  }
}

/**
 * The pool-size table: measured time and speed-up for each pool size, and the expected time on
 * a machine with enough cores: the slowest worker's core time scales as 1/workers (the rows are
 * independent), and the rest (messages, transfer, putting the blocks together) is what the
 * 1-worker pool measured above its core time, held constant.
 */
export function poolTable(result, extraSizes = [4, 6, 8]) {
  const one = result.pools.find((p) => p.workers === 1);
  const overhead = one.ms - one.slowestCoreMs;
  const rows = result.pools.map((p) => [
    p.workers,
    p.ms.toFixed(1),
    p.slowestCoreMs.toFixed(1),
    (p.ms - p.slowestCoreMs).toFixed(1),
    `${(result.singleMs / p.ms).toFixed(2)}×`,
  ]);
  const expected = [...new Set([...result.pools.map((p) => p.workers), ...extraSizes])].map((workers) => {
    const ms = one.slowestCoreMs / workers + overhead;
    return [workers, ms.toFixed(1), `${(result.singleMs / ms).toFixed(2)}×`];
  });
  return { rows, expected, overhead };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.length > 2 ? process.argv.slice(2).map((s) => s.split(':').map(Number)) : [[1024, 16]];
  for (const result of await runPoolBench(sizes)) {
    console.log(JSON.stringify(result));
    console.log(poolTable(result));
  }
}
