// A view worker that fails while it computes a block of the long view (its `error` event, as a
// crash delivers it, reaches the page's pool): the page asks once more on the new worker and
// draws the numbers the API gives, saying nothing; when every attempt fails, the page says why,
// logs it, and is no longer busy (a waiting reader, or test, is never left hanging).
import { beforeAll, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { pageExample, usePage, whenDrawn } from './page-fixture.js';

const env = usePage();
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

/**
 * Before the page's scripts run: every Worker made is kept in window.testWorkers, and the first
 * `crashes` longViewBlock calls sent to a worker see it fail while they run.
 */
function failBlocks(crashes) {
  let left = crashes;
  window.testWorkers = [];
  window.Worker = class extends window.Worker {
    constructor(...args) {
      super(...args);
      window.testWorkers.push(this);
    }

    postMessage(message, transfer) {
      super.postMessage(message, transfer);
      if (message?.task !== 'longViewBlock' || left <= 0) return;
      left -= 1;
      setTimeout(() => this.dispatchEvent(new ErrorEvent('error', { message: 'a crash made by the test' })));
    }
  };
}

const LINK = '?long=1&n=512&k=16&seed=3';

async function openFailing(crashes) {
  const opened = await env.open('');
  await opened.page.addInitScript(failBlocks, crashes);
  opened.problems.length = 0;
  // "More panels" left closed: when every attempt fails, its panels are never drawn, and the
  // fixture's wait for them (openMorePanels) would catch the page busy only by chance.
  await env.load(opened.page, LINK, { closedPanels: true });
  await whenDrawn(opened.page);
  return opened;
}

test('a worker that fails mid-block: the page asks again, draws the API’s numbers, says nothing', async () => {
  const { page, context, problems } = await openFailing(1);
  expect(await page.evaluate(() => window.relposPage.computedBy())).toBe('worker');
  // The pool's workers, and the one made in the failed one's place.
  const pool = await page.evaluate(() => navigator.hardwareConcurrency);
  expect(await page.evaluate(() => window.testWorkers.length)).toBe(Math.min(8, pool) + 1);
  const ex = pageExample(rp, { seed: 3, seqLen: 512, maxDistance: 16, tokens: '' });
  for (const [i, j] of [
    [0, 0],
    [300, 310],
    [511, 500],
  ])
    expect(await page.evaluate(([a, b]) => window.relposPage.valueAt('combinedWeights', a, b), [i, j])).toBe(
      ex.combinedWeights.data[i * 512 + j],
    );
  expect(await page.textContent('#notes')).not.toContain('failed');
  expect(problems).toEqual([]);
  await context.close();
});

test('every attempt fails: the page says why, logs it, and is no longer busy', async () => {
  const { page, context, problems } = await openFailing(1e9);
  const notes = await page.textContent('#notes');
  expect(notes).toContain('a worker failed while running longViewBlock (a crash made by the test); it was replaced');
  expect(problems).toEqual([expect.stringContaining("console: the page's workers: a worker failed while running")]);
  expect(await page.evaluate(() => document.body.dataset.busy)).toBeUndefined();
  await context.close();
});
