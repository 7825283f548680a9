// The clipping-band edges sit where a row's shared run begins (between offsets k − 1 and k: the
// |j − i| = k diagonal already uses the edge row), never on the matrix border; under the causal
// mask only the lower edge is drawn and a note says why. The captions say it once, the same way;
// the notes say what they mean; the maths is written one way (<sub>/<sup>) and the main
// equation is typeset once.
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { layoutOf, pixelAt, usePage } from './page-fixture.js';

const env = usePage();
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

const VIEW = { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 };
const N = 12;
const K = 2;

/** The pixel on the vertical line x = column `x` (cell units), a fifth of the way down row i. */
async function onColumnLine(page, panel, x, i) {
  const l = await layoutOf(page, panel);
  return pixelAt(page, `#figure-${panel} canvas`, l.x0 + x * l.cell, l.y0 + (i + 0.2) * l.cell);
}
/** The pixel on the horizontal line y = row `y` (cell units), a fifth of the way into column j. */
async function onRowLine(page, panel, y, j) {
  const l = await layoutOf(page, panel);
  return pixelAt(page, `#figure-${panel} canvas`, l.x0 + (j + 0.2) * l.cell, l.y0 + y * l.cell);
}
async function cellColour(page, panel, i, j) {
  const l = await layoutOf(page, panel);
  return pixelAt(page, `#figure-${panel} canvas`, l.x0 + (j + 0.2) * l.cell, l.y0 + (i + 0.2) * l.cell);
}

describe('band edges', () => {
  test('a row’s constant run starts at offset k: at n = 12, k = 2, bias (1, 3) equals (1, 4…11)', () => {
    const ex = rp.example({ seqLen: N, maxDistance: K });
    const row = Array.from(ex.positionBiases.data.slice(N, 2 * N));
    expect(new Set(row.slice(1 + K)).size).toBe(1); // offsets 2..10: one value
    expect(row[1 + K - 1]).not.toBe(row[1 + K]); // offset 1 differs
    const last = Array.from(ex.positionBiases.data.slice((N - 1) * N, N * N)); // row 11
    expect(new Set(last.slice(0, N - K)).size).toBe(1); // offsets −11..−2: one value
    expect(last[N - K]).not.toBe(last[N - K - 1]); // offset −1 differs
  });

  test('the dashed edges run between offsets k − 1 and k, not k and k + 1, and never on the border', async () => {
    const { page, context, problems } = await env.open(`?n=${N}&k=${K}`, VIEW);
    for (const panel of ['positionBiases', 'offsets']) {
      for (let i = 0; i + K <= N - 1; i += 1) {
        const cell = await cellColour(page, panel, i, i + K);
        // On the edge: the line (its white halo or its dash), not the cell's colour.
        expect(await onColumnLine(page, panel, i + K, i), `${panel} upper edge, row ${i}`).not.toEqual(cell);
        // Where the edge used to be (between offsets k and k + 1): the run's colour, no line.
        if (i + K + 1 <= N - 1)
          expect(await onColumnLine(page, panel, i + K + 1, i), `${panel} row ${i}, offsets k | k + 1`).toEqual(cell);
        // The mirror: between offsets −k + 1 and −k, as a horizontal line above cell (i + k, i).
        const below = await cellColour(page, panel, i + K, i);
        expect(await onRowLine(page, panel, i + K, i), `${panel} lower edge, column ${i}`).not.toEqual(below);
        if (i + K + 1 <= N - 1)
          expect(await onRowLine(page, panel, i + K + 1, i), `${panel} column ${i}, offsets −k | −k − 1`).toEqual(
            await cellColour(page, panel, i + K + 1, i),
          );
      }
      // No dashes on the matrix border: the last column's right edge and the last row's bottom.
      const l = await layoutOf(page, panel);
      for (let i = 0; i < N; i += 1) {
        const right = await pixelAt(page, `#figure-${panel} canvas`, l.x0 + N * l.cell - 1, l.y0 + (i + 0.2) * l.cell);
        expect(right, `${panel} right border, row ${i}`).toEqual(await cellColour(page, panel, i, N - 1));
        const bottom = await pixelAt(page, `#figure-${panel} canvas`, l.x0 + (i + 0.2) * l.cell, l.y0 + N * l.cell - 1);
        expect(bottom, `${panel} bottom border, column ${i}`).toEqual(await cellColour(page, panel, N - 1, i));
      }
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  test('causal: only the lower edge, and a note that a decoder never uses offsets 1…k', async () => {
    const { page, context } = await env.open(`?n=${N}&k=${K}&causal=1`, VIEW);
    for (const panel of ['positionBiases', 'offsets']) {
      for (let i = 0; i + K <= N - 1; i += 1) {
        expect(await onColumnLine(page, panel, i + K, i), `${panel} no upper edge, row ${i}`).toEqual(
          await cellColour(page, panel, i, i + K),
        );
        expect(await onRowLine(page, panel, i + K, i), `${panel} lower edge, column ${i}`).not.toEqual(
          await cellColour(page, panel, i + K, i),
        );
      }
      expect(await page.getAttribute(`#figure-${panel} canvas`, 'aria-label')).toContain(
        'A decoder never uses offsets 1…k: only the lower edge is drawn.',
      );
    }
    // No panel's note cut short, at 1280 and on a phone.
    for (const viewport of [VIEW.viewport, { width: 390, height: 844 }]) {
      await page.setViewportSize(viewport);
      await page.goto(`${env.server.url}?causal=1`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.evaluate(() => (document.getElementById('more-panels').open = true));
      await expect.poll(() => page.$eval('#figure-offsets canvas', (c) => c.dataset.layout !== undefined)).toBe(true);
      const cut = await page.$$eval('#panels canvas[data-layout], #more-panels canvas[data-layout]', (list) =>
        list.filter((c) => JSON.parse(c.dataset.layout).noteCut).map((c) => c.closest('figure').id),
      );
      expect(cut, `${viewport.width}`).toEqual([]);
    }
    await context.close();
  });

  test('no edges where nothing is shared: k = 0 and k ≥ n − 1', async () => {
    for (const [query, k] of [
      ['?n=8&k=0', 0],
      ['?n=8&k=7', 7],
    ]) {
      const { page, context } = await env.open(query, VIEW);
      for (let i = 0; i < 8; i += 1) {
        for (const x of [k, k + 1].filter((v) => v >= 1 && v <= 7)) {
          if (i + x > 7) continue;
          expect(await onColumnLine(page, 'offsets', i + x, i), `${query} row ${i}`).toEqual(
            await cellColour(page, 'offsets', i, i + x),
          );
        }
      }
      // No dashed line drawn, none named in the captions.
      for (const id of ['positionBiases', 'offsets'])
        expect(await page.textContent(`#figure-${id} .relpos-caption`), `${query} ${id}`).not.toMatch(/dashed/);
      await context.close();
    }
  });
});

describe('captions and notes', () => {
  test('the edge rule is said once, with ≥ k everywhere; the uniform reference reads as a reference', async () => {
    const { page, context } = await env.open('', VIEW);
    const captions = await page.$$eval('.relpos-caption', (list) => list.map((p) => p.textContent));
    const all = captions.join('\n');
    expect(all).not.toContain('|j − i| > k');
    expect(all.split('the |j − i| = k diagonal already').length - 1).toBe(1);
    for (const id of ['positionBiases', 'offsets'])
      expect(await page.textContent(`#figure-${id} .relpos-caption`)).toContain('|j − i| ≥ k');
    expect(await page.getAttribute('#figure-contentWeights canvas', 'aria-label')).toContain(
      'For reference, uniform attention would give 1/n = 0.17 per key.',
    );
    expect(await page.getAttribute('#figure-contentWeights canvas', 'aria-label')).not.toContain('Uniform attention:');
    // The content weights' caption says the mask's state, off here and on after the checkbox.
    const weightsCaption = () => page.textContent('#figure-contentWeights .relpos-caption');
    expect(await weightsCaption()).toContain('the causal mask is off, so every key gets some weight');
    expect(await weightsCaption()).not.toContain('is on');
    await page.check('#causal');
    await expect.poll(weightsCaption).toContain('the causal mask is on: keys after the query (j > i) get weight 0');
    expect(await weightsCaption()).not.toContain('is off');
    await context.close();
  });

  test('maths: <sub>/<sup> in every text, no Unicode sub- or superscripts; the equation typeset once', async () => {
    const { page, context } = await env.open('', VIEW);
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).not.toMatch(/[ᵢⱼₖᴷⱽ₀-₉]/u);
    expect(
      await page.$$eval('#figure-positionBiases .relpos-caption sup', (list) => list.map((e) => e.textContent)),
    ).toContain('K');
    expect(
      await page.$$eval('#figure-contentScores .relpos-caption sub', (list) => list.map((e) => e.textContent)),
    ).toEqual(['i', 'j', 'k']);
    expect(await page.$$eval('#figure-profile .relpos-caption sup', (list) => list.length)).toBeGreaterThan(0);
    expect(await page.$$eval('math', (list) => list.length)).toBe(1);
    // The typeset equation is laid out as maths (MathML Core), not as a line of plain text.
    const box = await page.$eval('.page-header math', (m) => m.getBoundingClientRect().toJSON());
    expect(box.height).toBeGreaterThan(100); // three rows, two of them fractions
    await context.close();
  });
});
