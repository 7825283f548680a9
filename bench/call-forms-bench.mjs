// bench/call-forms.js in headless Chromium (bench/call-forms-page.js), for bench/run.mjs; run
// alone with `node bench/call-forms-bench.mjs`: the same measurements in Node, then Chromium.
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
} = {}) {
  const server = await serveFolder(ROOT);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}bench/call-forms.html`);
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    const forms = [];
    for (const [n, k] of sizes) forms.push(await page.evaluate((size) => window.callForms(size), { n, k }));
    const copies = await page.evaluate(() => window.copyForms({}));
    const pools = poolRuns.length
      ? await page.evaluate((config) => window.poolForms(config), { sizes: poolRuns, poolSizes })
      : null;
    return { forms, copies, pools };
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rp = await createRelPos();
  console.log('node', JSON.stringify(await callForms(rp, 1024, 16)));
  console.log('node copies', JSON.stringify(await copyForms({})));
  rp.dispose();
  console.log('chromium', JSON.stringify(await runInChromium(), null, 1));
}
