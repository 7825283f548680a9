// The training section on the copy-offset task (random symbols, no words, no reference run) in
// headless Chromium: no page error; the handbook's claims are said to be untestable, not tested
// on a null reading; the figures follow the run's readings; the loss has no zoom once it is near 0;
// the reader's words are read as symbols, a new word as the next one, a repeated word as its own.
import { expect, test } from 'vitest';
import { choose, openTrainingSection, trainReady, usePage } from './page-fixture.js';

const env = usePage();

test('copy-offset: claims untestable, figures follow the run, words read as symbols, no page error', async () => {
  const { page, context, problems } = await openTrainingSection(env);
  try {
    // A new task: Train waits for its model (a run pressed at once would train the last one).
    const [trainDisabledAtOnce] = await choose(page, '#train-task', 'copy', {
      read: '#train-start',
      property: 'disabled',
    });
    expect(trainDisabledAtOnce).toBe(true);
    await trainReady(page);
    await page.fill('#train-sentence-input', 'the cat saw the dog');
    await page.click('#train-start');
    // The task is learned within a few hundred steps: the run ends there, long before its budget,
    // says why, and reads the heads once more, each figure drawn.
    await page.waitForSelector('.relpos-train[data-ended]');
    expect(await page.$eval('.relpos-train', (lab) => lab.dataset.ended)).toBe('learned');
    await page.waitForFunction(() => {
      const lab = document.querySelector('.relpos-train').dataset;
      return lab.analysisStep === lab.endStep && lab.readingsDrawn === lab.readings;
    });
    const [, endStep, budget, loss] = (await page.textContent('#train-status')).match(
      /^step (\d+) of (\d+) · held-out loss (\d\.\d{3}) · ended: the task is learned \(held-out loss at most 0\.01\)$/,
    );
    expect(Number(loss)).toBeLessThanOrEqual(0.01);
    expect(Number(endStep)).toBeLessThan(Number(budget) / 4);
    expect(await page.textContent('#train-loss .train-caption')).toContain(
      `This run ended at step ${endStep}: the task is learned (held-out loss ${loss}, at most 0.01).`,
    );
    expect(problems).toEqual([]);
    const card = await page.textContent('#train-verdicts');
    expect(card).toContain('cannot be tested: no words');
    expect(card).toContain('This task’s sequences are random symbols, not words');
    expect(card).not.toContain('reference');
    // A copy offset is learned: at least twice an even spread's weight on one offset, said as a structure.
    const chosen = await page.textContent('#train-chosen');
    const [, weight, times, even] = chosen.match(
      /^Showing layer \d, head \d: the clearest learned structure: (\d\.\d{3}) of its weight on offset [−+]\d+, on average over the held-out queries \((\d+\.\d)× the (\d\.\d{3}) of an even spread\); choose another above\.$/,
    );
    expect(Number(times)).toBeGreaterThanOrEqual(2);
    // The ratio said is the two numbers' own, within their rounding (each ± 0.0005, the ratio ± 0.05).
    const [w, e, r] = [weight, even, times].map(Number);
    expect(r).toBeGreaterThanOrEqual((w - 0.0005) / (e + 0.0005) - 0.05);
    expect(r).toBeLessThanOrEqual((w + 0.0005) / (e - 0.0005) + 0.05);
    // The loss has fallen near 0: nothing to zoom on.
    expect(await page.isHidden('#train-loss .train-zoom-label')).toBe(true);
    // The reader picks a layer: the line says what is shown, and which head is the default. Layer
    // 0 is read below: its queries come from the symbols alone (no position is added to them).
    const [, shownLayer, shownHead, structure] = chosen.match(
      /^Showing layer (\d), head (\d): (.*); choose another above\.$/,
    );
    const other = shownLayer === '0' ? '1' : '0';
    // The sentence's first panel in view first: a panel out of view keeps its last picture until
    // it scrolls in (AttentionFigure's progressive drawing), so it is drawn with the layer chosen.
    await page.locator('#train-sentence canvas').first().scrollIntoViewIfNeeded();
    const chooseLayer = (layer) => choose(page, '#train-layer', layer); // (no scroll, as a click on the menu would make)
    await chooseLayer(other);
    expect(await page.textContent('#train-chosen')).toBe(
      `Showing layer ${other}, head ${shownHead}, as chosen; the default is layer ${shownLayer}, head ${shownHead} (${structure}).`,
    );
    if (other !== '0') await chooseLayer('0');
    // The sentence: the, cat, saw, the, dog → s0, s1, s2, s0, s3.
    // The sentence last asked for drawn (the run's end and the layer read it again).
    await page.waitForFunction(() => {
      const lab = document.querySelector('.relpos-train').dataset;
      return lab.sentenceDrawn && lab.sentenceDrawn === lab.sentenceAsked;
    });
    expect(await page.textContent('#train-sentence .train-caption')).toContain(
      'this task knows only symbols: each new word is read as the next one, s0, s1, …, a repeated word as its symbol again',
    );
    // The words as symbols (the, cat, saw, the, dog → s0, s1, s2, s0, s3: tests/js/train-corpus.test.js)
    // drawn: five positions, and layer 0's content scores of the two "the" rows the same colours.
    const layout = await page.$eval('#train-sentence canvas', (canvas) => JSON.parse(canvas.dataset.layout));
    expect(layout.n).toBe(5);
    const rowColours = (row) =>
      page.$eval(
        '#train-sentence canvas',
        (canvas, { at, grid }) => {
          const scale = canvas.width / canvas.getBoundingClientRect().width;
          const drawn = canvas.getContext('2d');
          return Array.from({ length: grid.n }, (_, column) => {
            const x = Math.round((grid.x0 + (column + 0.5) * grid.cell) * scale);
            const y = Math.round((grid.y0 + (at + 0.5) * grid.cell) * scale);
            return Array.from(drawn.getImageData(x, y, 1, 1).data).join(',');
          });
        },
        { at: row, grid: layout },
      );
    const rows = await Promise.all([0, 1, 3].map(rowColours));
    expect(rows[2]).toEqual(rows[0]);
    expect(rows[1]).not.toEqual(rows[0]);
  } finally {
    await context.close();
  }
});
