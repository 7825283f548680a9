// The long-sequence view: n up to 2048, computed in a worker above n = 384 with the same
// numbers as the synchronous path, tooltips still working, and a main thread that stays free.
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { layoutOf, pageExample, significant, usePage } from './page-fixture.js';

const env = usePage();
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

async function openAndWait(query) {
  const opened = await env.open(query, { viewport: { width: 1280, height: 900 } });
  await opened.page.waitForFunction(() => !document.body.dataset.busy);
  return opened;
}

const CELLS = (n) => [[0, 0], [1, n - 1], [n - 1, 0], [Math.floor(n / 2), Math.floor(n / 3)], [n - 1, n - 1], [7, 300 % n]];

describe('the long-sequence view', () => {
  for (const [n, where] of [[300, 'main'], [400, 'worker'], [2048, 'worker']]) {
    test(`n = ${n}: computed on the ${where} thread, equal to the API`, async () => {
      const { page, context, problems } = await openAndWait(`?long=1&n=${n}&k=20&seed=5&causal=1`);
      expect(await page.evaluate(() => window.relposPage.computedBy())).toBe(where);
      const ex = pageExample(rp, { seed: 5, seqLen: n, maxDistance: 20, causal: true, tokens: '' });
      for (const [i, j] of CELLS(n)) {
        for (const [panel, values] of [['combinedWeights', ex.combinedWeights.data], ['positionBiases', ex.positionBiases.data], ['contentScores', ex.contentScores.data]]) {
          expect(await page.evaluate(([p, a, b]) => window.relposPage.valueAt(p, a, b), [panel, i, j])).toBe(values[i * n + j]);
        }
      }
      expect(await page.getAttribute('#figure-offsets canvas', 'aria-label')).toContain(`${n} by ${n} heatmap`);
      // Each panel's value range (the worker's, above n = 384), against the API's arrays: the
      // weights over the unmasked cells j <= i only.
      const fixed3 = significant;
      for (const [panel, values, masked] of [['contentScores', ex.contentScores.data, false], ['combinedWeights', ex.combinedWeights.data, true]]) {
        let min = Infinity;
        let max = -Infinity;
        for (let i = 0; i < n; i += 1) {
          for (let j = 0; j < (masked ? i + 1 : n); j += 1) {
            min = Math.min(min, values[i * n + j]);
            max = Math.max(max, values[i * n + j]);
          }
        }
        expect(await page.getAttribute(`#figure-${panel} canvas`, 'aria-label')).toContain(`values from ${fixed3(min)} to ${fixed3(max)}`);
        // The long view's colours stop at the 99th percentile (of |value| for signed panels):
        // about 1 % of the shown cells lie beyond, and saturate.
        const scale = await layoutOf(page, panel);
        let beyond = 0;
        let shown = 0;
        for (let i = 0; i < n; i += 1) {
          for (let j = 0; j < (masked ? i + 1 : n); j += 1) {
            const v = values[i * n + j];
            shown += 1;
            if (v > scale.max || v < scale.min) beyond += 1;
          }
        }
        expect(beyond / shown).toBeGreaterThan(0.005);
        expect(beyond / shown).toBeLessThan(0.02);
        expect(scale.min).toBe(masked ? 0 : -scale.max);
      }
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  test('n = 2048: the tooltip reads positions, and a change never blocks the main thread for 50 ms', async () => {
    const { page, context, problems } = await openAndWait('?long=1&n=2048&k=64');
    const layout = await layoutOf(page, 'positionBiases');
    const canvas = await page.$('#figure-positionBiases canvas');
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + layout.x0 + 1500.5 * layout.cell, box.y + layout.y0 + 300.5 * layout.cell);
    const rows = await page.$$eval('.relpos-tooltip div', (list) => list.map((row) => row.textContent));
    expect(rows[1]).toMatch(/^\(i, j\)\(30\d, 1[45]\d\d\)$/);
    expect(rows).toContain('clipped offset63');
    const longest = await page.evaluate(
      () =>
        new Promise((done) => {
          let max = 0;
          const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => (max = Math.max(max, e.duration))));
          observer.observe({ type: 'longtask' });
          document.addEventListener('relpos-drawn', () => setTimeout(() => (observer.disconnect(), done(max)), 50), { once: true });
          const input = document.getElementById('seed');
          input.value = '9';
          input.dispatchEvent(new Event('input', { bubbles: true }));
        }),
    );
    console.log(`n = 2048: longest main-thread task during a change ${longest.toFixed(0)} ms (0: none over 50 ms; a reading)`);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('turning the long view off brings n back to 64 at most, with words again', async () => {
    const { page, context } = await openAndWait('?long=1&n=100');
    await page.uncheck('#long');
    expect(await page.inputValue('#seqLen')).toBe('64');
    expect(await page.isDisabled('#tokens')).toBe(false);
    await expect.poll(() => new URL(page.url()).searchParams.get('long')).toBeNull();
    await context.close();
  });
});
