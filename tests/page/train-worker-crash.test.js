// A training worker that dies (an uncaught error in it) while a model trains: the page says so
// once, starts a new worker with a new model of the menus' size at step 0, and that model trains;
// the second worker dying is replaced without a word, and the run goes on. Headless Chromium,
// the built page (tests/page/page-fixture.js's SITE), its two training workers.
import { expect, test } from 'vitest';
import { openTrainingSection, trainReady as ready, usePage } from './page-fixture.js';

const env = usePage();

const steps = (page) => page.$eval('.relpos-train', (lab) => Number(lab.dataset.steps));
/** The training workers' Playwright handles: the page's module workers that run train-worker's code. */
async function trainingWorkers(page) {
  const found = [];
  for (const worker of page.workers()) {
    if (/train-worker|start-train-worker/.test(worker.url())) found.push(worker);
  }
  return found;
}
/** An uncaught error in a worker: its `error` event reaches the page's pool. */
const crash = (worker) =>
  worker.evaluate(() => {
    setTimeout(() => {
      throw new Error('a crash made by the test');
    });
  });

test('the worker holding the model dies mid-run: said once, a new model at step 0 trains; the second dies: the run goes on', async () => {
  const { page, context, problems } = await openTrainingSection(env);
  try {
    await page.selectOption('#train-preset', 'tiny');
    await page.waitForFunction(() => document.querySelector('#train-preset').value === 'tiny');
    await ready(page);
    await page.click('#train-start');
    await page.waitForFunction(() => Number(document.querySelector('.relpos-train').dataset.steps) >= 50);
    const workers = await trainingWorkers(page);
    expect(workers.length).toBe(2);

    // The second worker (half of each step) dies: the first computes every half itself, then over
    // a new channel with its replacement; nothing is said, and the steps go on.
    const second = workers.find((w) => w !== workers[0]);
    const [first] = workers;
    // Which is which: the trainer is the one that has taken steps (its own account, self.trainTiming).
    const holdsSession = (await first.evaluate(() => self.trainTiming.steps)) > 0;
    const [trainer, helper] = holdsSession ? [first, second] : [second, first];
    const before = await steps(page);
    await crash(helper);
    await page.waitForFunction((n) => Number(document.querySelector('.relpos-train').dataset.steps) >= n + 50, before);
    expect(await page.textContent('#train-message')).toBe('');
    expect(await page.getAttribute('.relpos-train', 'data-running')).toBe('true');

    // The trainer dies: the page says so, once, and makes a new model at step 0 of the menus' size.
    await crash(trainer);
    await page.waitForFunction(() =>
      document.querySelector('#train-message').textContent.includes('the model it held is gone'),
    );
    expect(await page.textContent('#train-message')).toMatch(
      /^the training worker: a worker failed \(.*a crash made by the test.*\); it was replaced: the model it held is gone; a new one starts from step 0\.$/,
    );
    await ready(page);
    expect(await steps(page)).toBe(0);
    expect(await page.getAttribute('.relpos-train', 'data-running')).toBe('false');
    expect(await page.inputValue('#train-preset')).toBe('tiny');
    // The message stays the one sentence: no "Training stopped" for each call the dead worker held.
    expect(await page.textContent('#train-message')).toMatch(/^the training worker: a worker failed/);

    // The new model trains.
    await page.click('#train-start');
    await page.waitForFunction(() => Number(document.querySelector('.relpos-train').dataset.steps) >= 50);
    expect((await trainingWorkers(page)).length).toBe(2);
    // The only problems are the two crashes the test made (each an uncaught error in a worker).
    expect(problems.filter((p) => !p.includes('a crash made by the test'))).toEqual([]);
  } finally {
    await context.close();
  }
});
