// The training section's set-up in the page's address (web/train/train-link.js, docs/training.md
// "A link to the section"), in headless Chromium, on one page: a closed section adds nothing to
// the address (the loader's ?train-workers stays as given), an open one its task, size and seed,
// which follow the menus and the Seed box and stay through a change of the attention figures; the
// seed reaches the model (the same seed, the same first held-out loss; another, another) and Reset
// and the Seed box say what they do; a link opens the section on its set-up and reproduces the run
// set up by hand (with one training worker there, two here: the same numbers); a bad value is corrected
// with a note beside the page's own and the rest of the link applies; the iframe view keeps its
// own address; <relpos-train seed> sets the model's seed. Copy-offset on the tiny model: no corpus, a few steps.
import { expect, test } from 'vitest';
import { choose, clickTrainOpen, trainReady, usePage } from './page-fixture.js';
import { resetText, seedText } from '../../web/train/train-controls.js';

const env = usePage();

/**
 * The address's query, once the page's writer has written it (150 ms after a change; polled for
 * longer, as a page shared with the training workers on a loaded machine may take).
 */
const addressIs = (page, search) => expect.poll(() => new URL(page.url()).search, { timeout: 10_000 }).toBe(search);

/**
 * Train until the run's first held-out reading (step 25) is shown, then Pause (pressed in the page
 * as it is drawn: the copy task is learned in a few hundred steps): that status line
 * ("… held-out loss 2.705 (at step 25) …"), read as it was first drawn.
 */
async function firstReading(page) {
  await trainReady(page);
  await page.evaluate(() => {
    window.firstReading = null;
    const output = document.querySelector('#train-status');
    const seen = new MutationObserver(() => {
      if (!/held-out loss \d/.test(output.textContent)) return;
      window.firstReading = output.textContent;
      seen.disconnect();
      document.querySelector('#train-pause').click();
    });
    seen.observe(output, { childList: true });
  });
  await page.click('#train-start');
  await page.waitForFunction(() => / · paused$/.test(document.querySelector('#train-status').textContent));
  const line = await page.evaluate(() => window.firstReading);
  const [, loss] = /^step 25 of \d+ · (?:[^·]+ steps\/s · )?held-out loss (\d\.\d{3}) \(at step 25\)/.exec(line) ?? [];
  expect(loss, line).toBeDefined();
  return loss;
}

/** The set-up the section's controls show. */
const shown = (page) =>
  page.evaluate(() => ({
    task: document.querySelector('#train-task').value,
    preset: document.querySelector('#train-preset').value,
    seed: document.querySelector('#train-seed').value,
  }));

test('the address keeps the section’s task, size and seed; a link opens it on them; the seed reaches the model', async () => {
  // ?train-workers=1 (one training worker: the same numbers) is the loader's own: kept as given;
  // given twice, its first is read and kept, and a note says so.
  const { page, context, problems } = await env.open('?k=2&train-workers=1&train-workers=2', {
    viewport: { width: 1280, height: 900 },
    closedSettings: true,
    closedPanels: true,
  });
  try {
    // Closed, the section adds nothing to the address (the page's writer has written it by now).
    await page.waitForTimeout(400);
    expect(new URL(page.url()).search).toBe('?k=2&train-workers=1');
    expect(await page.textContent('#notes')).toBe(
      'Link corrected: train-workers is given 2 times (1, 2); the first is read.',
    );

    // Opened: its task (the default run's sizes and seed are not written).
    await clickTrainOpen(page);
    await trainReady(page);
    await addressIs(page, '?k=2&train-workers=1&train=masked');
    expect(await shown(page)).toEqual({ task: 'masked', preset: 'small', seed: '1' });

    // The menus: a new task and size, in the address; an edit of the attention figures keeps them.
    await choose(page, '#train-task', 'copy');
    await choose(page, '#train-preset', 'tiny');
    await addressIs(page, '?k=2&train-workers=1&train=copy&train-size=tiny');
    await page.evaluate(() => {
      const k = document.querySelector('#maxDistance');
      k.value = '4';
      k.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await addressIs(page, '?k=4&train-workers=1&train=copy&train-size=tiny');

    // The seed: a new model, said, and in the address.
    await trainReady(page);
    await page.fill('#train-seed', '7');
    await page.press('#train-seed', 'Enter');
    expect(await page.textContent('#train-message')).toBe(seedText('copy', 7, 1));
    await addressIs(page, '?k=4&train-workers=1&train=copy&train-size=tiny&train-seed=7');
    const seven = await firstReading(page);
    // Reset: the same seed, said, and the same run again, step for step.
    await page.click('#train-reset');
    expect(await page.textContent('#train-message')).toBe(resetText('copy', 7));
    expect(resetText('copy', 7)).toContain('with the same seed as before (7)');
    await page.waitForFunction(() => document.querySelector('.relpos-train').dataset.steps === '0');
    expect(await firstReading(page)).toBe(seven);
    // Another seed: another start, so another first loss; the model trained so far is said to be gone.
    const trained = await page.$eval('.relpos-train', (lab) => lab.dataset.steps);
    await choose(page, '#train-seed', '8');
    expect(await page.textContent('#train-message')).toBe(
      `${seedText('copy', 8, 7)} A new model starts at step 0; the one trained for ${trained} steps is gone (Save keeps a model).`,
    );
    await addressIs(page, '?k=4&train-workers=1&train=copy&train-size=tiny&train-seed=8');
    expect(await firstReading(page)).not.toBe(seven);
    // A seed outside 0 … 2³² − 1 is corrected, and said.
    await choose(page, '#train-seed', '-4');
    expect(await page.inputValue('#train-seed')).toBe('0');
    expect(await page.textContent('#train-message')).toMatch(
      /^Seed must be an integer from 0 to 4294967295; using 0\. Seed 0: other initial weights than seed 8 /,
    );
    await addressIs(page, '?k=4&train-workers=1&train=copy&train-size=tiny&train-seed=0');
    // A seed typed, then Train pressed at once (the press commits the seed, whose new model disables
    // Train before the click lands): that model trains when it is ready.
    await trainReady(page);
    await page.fill('#train-seed', '12');
    await page.click('#train-start');
    await page.waitForFunction(() => {
      const lab = document.querySelector('.relpos-train').dataset;
      return lab.seed === '12' && Number(lab.steps) > 0;
    });
    await page.click('#train-pause');
    await page.waitForFunction(() => / · paused$/.test(document.querySelector('#train-status').textContent));
    await addressIs(page, '?k=4&train-workers=1&train=copy&train-size=tiny&train-seed=12');
    expect(problems).toEqual([]);

    // The link with seed 7, followed: the section opens on it and trains as the run set up by hand.
    await env.load(page, '?train=copy&train-size=tiny&train-seed=7', { closedSettings: true, closedPanels: true });
    await trainReady(page);
    expect(await page.isVisible('#train-open')).toBe(false);
    // The link sends the reader to the section (the page opens there, not at its top).
    expect(
      await page.$eval('#train-section', (section) => Math.round(section.getBoundingClientRect().top)),
    ).toBeLessThan(900);
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
    expect(await shown(page)).toEqual({ task: 'copy', preset: 'tiny', seed: '7' });
    expect(await page.textContent('#notes')).toBe('');
    expect(await firstReading(page)).toBe(seven);
    await addressIs(page, '?train=copy&train-size=tiny&train-seed=7');

    // A link with bad values: each corrected with a note beside the page's own, the rest applies. A
    // choice in any case is that choice (written back in the page's case); of a parameter given
    // twice, the first is read, and said.
    await env.load(page, '?k=99&draw=HANDBOOK&train=COPY&train=next&train-size=huge&train-seed=seven&train-sise=tiny', {
      closedSettings: true,
      closedPanels: true,
    });
    await trainReady(page);
    expect(await shown(page)).toEqual({ task: 'copy', preset: 'small', seed: '1' });
    await expect
      .poll(() => page.textContent('#notes'), { timeout: 10_000 })
      .toBe(
        [
          'Link corrected: k must be an integer from 0 to 63; using 63.',
          'Link corrected: train-sise: not a parameter of the training section; use train, train-size, train-seed.',
          'Link corrected: train is given 2 times (COPY, next); the first is read.',
          'Link corrected: train-size: unknown huge; choose from tiny, small, large; using small.',
          'Link corrected: train-seed must be an integer from 0 to 4294967295; using 1.',
        ].join(' · '),
      );
    await addressIs(page, '?draw=handbook&k=63&train=copy');
    // The section's own corrections are said in it too, where the link sent the reader.
    expect(await page.textContent('#train-message')).toBe(
      [
        'Link corrected: train-sise: not a parameter of the training section; use train, train-size, train-seed.',
        'Link corrected: train is given 2 times (COPY, next); the first is read.',
        'Link corrected: train-size: unknown huge; choose from tiny, small, large; using small.',
        'Link corrected: train-seed must be an integer from 0 to 4294967295; using 1.',
      ].join(' '),
    );
    expect(problems).toEqual([]);

    // The iframe view applies the link's set-up and keeps its own address, whatever the reader
    // chooses; it names the section in any case.
    const iframe = '?embed=1&panels=Train&train=copy&train-size=tiny&train-seed=7';
    await page.goto(`${env.server.url}${iframe}`);
    await trainReady(page);
    expect(await shown(page)).toEqual({ task: 'copy', preset: 'tiny', seed: '7' });
    await choose(page, '#train-seed', '9');
    await trainReady(page);
    await page.waitForTimeout(400);
    expect(new URL(page.url()).search).toBe(iframe);
    expect(problems).toEqual([]);

    // <relpos-train seed>: the model's seed; a bad one is said in the element's message, the default used.
    await page.goto(`${env.server.url}examples/train.html`);
    await page.evaluate(() => {
      // (A task and a size in any case are those choices.)
      // autostart="false" and "0" do not start it (they did: the attribute's presence did); "maybe" is said.
      for (const [id, seed, task, size, autostart, workers = '1'] of [
        ['seven', '7', 'Copy', 'TINY', 'false'],
        ['bad', 'x', 'copy', 'tiny', 'maybe', '3'],
      ]) {
        const element = document.createElement('relpos-train');
        element.id = id;
        for (const [name, value] of Object.entries({ task, size, seed, workers, autostart }))
          element.setAttribute(name, value);
        document.querySelector('main').append(element);
      }
    });
    const modelOf = (id) =>
      page.evaluate((which) => {
        const root = document.getElementById(which).shadowRoot;
        return {
          seed: root.querySelector('.relpos-train')?.dataset.seed,
          running: root.querySelector('.relpos-train')?.dataset.running,
          box: root.querySelector('#train-seed')?.value,
          set: [root.querySelector('#train-task')?.value, root.querySelector('#train-preset')?.value],
          message: root.querySelector('[part="message"]').textContent,
        };
      }, id);
    await expect.poll(async () => (await modelOf('seven')).seed, { timeout: 60_000 }).toBe('7');
    // Ready (its seed shown) and not training: an autostart would have pressed Train in the same task.
    expect(await modelOf('seven')).toEqual({
      seed: '7',
      running: 'false',
      box: '7',
      set: ['copy', 'tiny'],
      message: '',
    });
    await expect.poll(async () => (await modelOf('bad')).seed, { timeout: 60_000 }).toBe('1');
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    expect((await modelOf('bad')).running).toBe('false');
    expect((await modelOf('bad')).message).toBe(
      `seed must be an integer from 0 to 4294967295; using 1 · workers: unknown 3; choose from 1, 2; using ${cores >= 2 ? 2 : 1}, this machine’s default · autostart: unknown maybe; choose from 1, true, on, yes, 0, false, off, no; using off`,
    );
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});
