// bench/call-forms.js in headless Chromium (bench/call-forms-page.js), for bench/run.mjs; run
// alone with `node bench/call-forms-bench.mjs`: the same measurements in Node, then Chromium, and
// the pool's table (`--pools`: that table alone).
import os from 'node:os';
import { launchBrowser } from '../tests/page/browser.js';
import { serveFolder } from '../tests/page/static-server.js';
import { createRelPos } from '../web/api/index.js';
import { callForms, copyForms } from './call-forms.js';

const ROOT = new URL('../', import.meta.url).pathname;

/** { forms: [callForms at each size], copies: copyForms, pools: poolForms } measured in Chromium. */
export async function runInChromium({
  sizes = [[1024, 16]],
  poolSizes = [1, 2],
  poolRuns = [
    [1024, 16],
    [2048, 16],
  ],
  copies = true,
} = {}) {
  const server = await serveFolder(ROOT);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}bench/call-forms.html`);
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    const forms = [];
    for (const [n, k] of sizes) forms.push(await page.evaluate((size) => window.callForms(size), { n, k }));
    const copied = copies ? await page.evaluate(() => window.copyForms({})) : null;
    const pools = poolRuns.length
      ? await page.evaluate((config) => window.poolForms(config), { sizes: poolRuns, poolSizes })
      : null;
    return { forms, copies: copied, pools };
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The pool's table: n, k, the main thread and each pool size, ms and (×) = main thread / that. */
export function poolTable({ results, cores }, poolSizes) {
  const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
  const head = ['n', 'k', 'page main thread', ...poolSizes.map((w) => `${w} worker${w > 1 ? 's' : ''}`)];
  if (poolSizes.includes(1) && poolSizes.includes(2)) head.push('2 workers / 1 worker');
  const rows = results.map((r) => {
    const row = [
      r.n,
      r.k,
      fmt(r.single),
      ...poolSizes.map((w) => `${fmt(r.pools[w])} (${(r.single / r.pools[w]).toFixed(2)}×)`),
    ];
    if (poolSizes.includes(1) && poolSizes.includes(2)) row.push((r.pools[1] / r.pools[2]).toFixed(2));
    return row.map(String);
  });
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
  const line = (cells) => `| ${cells.map((cell, c) => cell.padStart(widths[c])).join(' | ')} |`;
  return [
    `Chromium, float32, d_k = 64, fresh result arrays, ms (medians, in alternation; ${cores} cores); (×) = main thread / that; 2 workers / 1 worker = the speed-up of the second worker`,
    line(head),
    `|${widths.map((w) => `${'-'.repeat(w + 1)}:`).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // --pools: only relpos-wasm/worker against the main thread, 1 / 2 / all workers, n = 1024 and 2048.
  const poolSizes = [...new Set([1, 2, os.cpus().length])];
  if (process.argv.includes('--pools')) {
    const { pools } = await runInChromium({ sizes: [], poolSizes, copies: false });
    console.log(poolTable(pools, poolSizes));
  } else {
    const rp = await createRelPos();
    console.log('node', JSON.stringify(await callForms(rp, 1024, 16)));
    console.log('node copies', JSON.stringify(await copyForms({})));
    rp.dispose();
    const chromium = await runInChromium({ poolSizes });
    console.log('chromium', JSON.stringify(chromium, null, 1));
    console.log(poolTable(chromium.pools, poolSizes));
  }
}
