// What the page teaches, checked on the page itself (Chromium): stable numbers (a change of k,
// a new word, a repeated word), the handbook's numbers still exact, the locality table's band,
// the profile as the diagonals of panel 2, the story's five steps and the tables figure.
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { canvasHash, layoutOf, pageExample, usePage } from './page-fixture.js';

const env = usePage();
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

const VIEW = { viewport: { width: 1280, height: 900 } };
const matrixOf = (page, panel) =>
  page.evaluate((p) => {
    const { n } = window.relposPage.state().long ? { n: 0 } : { n: window.relposPage.state().seqLen };
    return Array.from({ length: n * n }, (_, index) => window.relposPage.valueAt(p, Math.floor(index / n), index % n));
  }, panel);
const revealOf = (page, name) => page.textContent(`[data-reveal="${name}"]`);
const press = async (page, name) => {
  await page.evaluate((n) => {
    const button = document.querySelector(`[data-story="${n}"]`);
    button.closest('details.step').open = true;
  }, name);
  await page.click(`[data-story="${name}"]`);
};

describe('stable numbers on the page', () => {
  test('changing k keeps the content panels and every bias with |j − i| ≤ min(k₁, k₂)', async () => {
    const { page, context, problems } = await env.open('?k=3', VIEW);
    const before = { scores: await matrixOf(page, 'contentScores'), biases: await matrixOf(page, 'positionBiases') };
    const before2 = { weights: await matrixOf(page, 'contentWeights') };
    const hashes = {
      scores: await canvasHash(page, '#figure-contentScores canvas'),
      weights: await canvasHash(page, '#figure-contentWeights canvas'),
    };
    await page.fill('#maxDistance', '1');
    expect(await matrixOf(page, 'contentScores')).toEqual(before.scores);
    expect(await canvasHash(page, '#figure-contentScores canvas')).toBe(hashes.scores);
    expect(await matrixOf(page, 'contentWeights')).toEqual(before2.weights);
    expect(await canvasHash(page, '#figure-contentWeights canvas')).toBe(hashes.weights); // its own colour range: unchanged
    const after = await matrixOf(page, 'positionBiases');
    let changed = 0;
    for (let index = 0; index < 36; index += 1) {
      const [i, j] = [Math.floor(index / 6), index % 6];
      if (Math.abs(j - i) <= 1) expect(after[index], `(${i}, ${j})`).toBe(before.biases[index]);
      else if (after[index] !== before.biases[index]) changed += 1;
    }
    expect(changed).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('appending a word keeps every content score of the words already there; a repeated word has equal rows', async () => {
    const { page, context } = await env.open('', VIEW);
    const before = await matrixOf(page, 'contentScores');
    await page.fill('#tokens', 'the cat sat on the mat today');
    const after = await matrixOf(page, 'contentScores');
    for (let i = 0; i < 6; i += 1) for (let j = 0; j < 6; j += 1) expect(after[i * 7 + j]).toBe(before[i * 6 + j]);
    // "the" stands at 0 and 4: the same content row and column.
    for (let j = 0; j < 7; j += 1) expect(after[4 * 7 + j]).toBe(after[0 * 7 + j]);
    for (let i = 0; i < 7; i += 1) expect(after[i * 7 + 4]).toBe(after[i * 7 + 0]);
    await context.close();
  });

  test('draw=handbook shows the handbook’s numbers, bit for bit (the old page with table=random)', async () => {
    const { page, context } = await env.open('?draw=handbook&table=random&seed=7&n=8&k=2', VIEW);
    const ex = rp.example({ seed: 7, seqLen: 8, dModel: 8, dK: 4, maxDistance: 2 });
    for (const panel of ['contentScores', 'positionBiases', 'combinedWeights']) {
      expect(await matrixOf(page, panel), panel).toEqual(Array.from(ex[panel].data));
    }
    await page.selectOption('#table', 'locality');
    const local = pageExample(rp, { draw: 'handbook', seed: 7, seqLen: 8, maxDistance: 2 });
    expect(await matrixOf(page, 'positionBiases')).toEqual(Array.from(local.positionBiases.data));
    // …whose table is the handbook's simulated one, at bump height 8.
    const handbook = rp.localityProfile({ seed: 7, dK: 4, maxDistance: 2, noise: 0.1 });
    expect(local.inputs.relKeys.data[0]).toBeCloseTo(handbook.embeddings.data[0] + 7 * Math.exp(-0.5 * 4), 12);
    expect(await page.textContent('#draw-explain')).toContain('np.random.seed(seed)');
    await context.close();
  });
});

describe('locality you can see', () => {
  const SENTENCE = 'the quick brown fox jumps over the lazy dog while the cat sat on the warm mat';

  test('with the same query in every row, panel 2 is the profile along each diagonal and the weights form a band', async () => {
    const { page, context } = await env.open(`?sameq=1&k=4&tokens=${encodeURIComponent(SENTENCE)}`, VIEW);
    const n = 17;
    const profile = await page.evaluate(() => window.relposPage.profile());
    expect(profile).toHaveLength(9);
    const biases = await matrixOf(page, 'positionBiases');
    for (let i = 0; i < n; i += 1) {
      for (let j = 0; j < n; j += 1) {
        expect(Math.abs(biases[i * n + j] - profile[Math.min(4, Math.max(-4, j - i)) + 4])).toBeLessThanOrEqual(1e-15);
      }
    }
    const near = (m) => {
      let share = 0;
      for (let i = 0; i < n; i += 1)
        for (let j = Math.max(0, i - 1); j <= Math.min(n - 1, i + 1); j += 1) share += m[i * n + j];
      return share / n;
    };
    expect(near(await matrixOf(page, 'combinedWeights'))).toBeGreaterThan(
      2 * near(await matrixOf(page, 'contentWeights')),
    );
    expect(await page.textContent('#figure-positionBiases .relpos-caption')).toContain('constant (a Toeplitz matrix)');
    expect(await page.textContent('#figure-profile .relpos-caption')).toContain(
      'each diagonal of panel 2 is one point of this plot',
    );
    await context.close();
  });

  test('the profile describes the panels’ table: u · aᴷ/√dₖ for its k, d_k and seed', async () => {
    const { page, context } = await env.open('?k=5&dk=8&seed=3', VIEW);
    const ex = pageExample(rp, { maxDistance: 5, dK: 8, seed: 3 });
    const want = Array.from(
      { length: 11 },
      (_, c) => ex.inputs.relKeys.data.slice(c * 8, c * 8 + 8).reduce((a, b) => a + b, 0) / 8,
    );
    const got = await page.evaluate(() => window.relposPage.profile());
    got.forEach((value, c) => expect(Math.abs(value - want[c])).toBeLessThanOrEqual(1e-15));
    await context.close();
  });
});

describe('the story', () => {
  test('1. shuffling the words only moves the content-only weights', async () => {
    const { page, context, problems } = await env.open('', VIEW);
    const words = 'the cat sat on the mat'.split(' ');
    const before = await matrixOf(page, 'contentWeights');
    await press(page, 'shuffle');
    const shuffled = (await page.evaluate(() => window.relposPage.state().tokens)).split(' ');
    expect([...shuffled].sort()).toEqual([...words].sort());
    expect(shuffled).not.toEqual(words);
    const after = await matrixOf(page, 'contentWeights');
    // Each row of the new matrix is a row of the old one, its entries moved with their words.
    const sortedRows = (m) =>
      Array.from({ length: 6 }, (_, i) =>
        m
          .slice(i * 6, i * 6 + 6)
          .sort((a, b) => a - b)
          .map((v) => v.toFixed(12))
          .join(),
      ).sort();
    expect(sortedRows(after)).toEqual(sortedRows(before));
    const reveal = await revealOf(page, 'shuffle');
    const [, bound] = reveal.match(/differ by at most ([^ ]+) \(rounding\)/);
    expect(Number(bound.replace('−', '-'))).toBeLessThanOrEqual(1e-15);
    expect(reveal).toMatch(/combined weights differ by up to 0\.\d+/);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('2. the same query in every row makes panel 2 Toeplitz', async () => {
    const { page, context } = await env.open('', VIEW);
    await press(page, 'same-query');
    expect(await page.isChecked('#sameQuery')).toBe(true);
    await expect.poll(() => new URL(page.url()).search).toContain('sameq=1');
    expect(await revealOf(page, 'same-query')).toContain('largest difference 0)');
    await context.close();
  });

  test('3. lowering k to 1 changes only the cells beyond |j − i| = 1', async () => {
    const { page, context } = await env.open('', VIEW);
    await press(page, 'clip');
    expect(await page.inputValue('#maxDistance')).toBe('1');
    const reveal = await revealOf(page, 'clip');
    const [, changed, total, near] = reveal
      .match(/(\d+) of (\d+) cells of panel 2 changed, (\d+) of them within/)
      .map(Number);
    expect(total).toBe(36);
    expect(changed).toBeGreaterThan(0);
    expect(near).toBe(0);
    await context.close();
  });

  test('4. the locality table keeps more weight near one shared query than a random table; real queries differ', async () => {
    const { page, context } = await env.open('?table=random', VIEW);
    await press(page, 'locality');
    expect(await page.inputValue('#table')).toBe('locality');
    expect(await page.isChecked('#sameQuery')).toBe(true);
    const reveal = await revealOf(page, 'locality');
    const [, local, random] = reveal
      .match(/(\d+) % of the weight stays within one position with the locality table, (\d+) % with a random table/)
      .map(Number);
    expect(local).toBeGreaterThan(random);
    // The count of queries the bump attracts, against the API's queries for the page's words.
    const q = pageExample(rp).inputs.q;
    const positive = Array.from({ length: 6 }, (_, i) => q.data[i * 4]).filter((v) => v > 0).length;
    expect(reveal).toContain(`as it is for ${positive} of these 6 queries`);
    await context.close();
  });

  test('5. one query’s output, split in two, in the tables figure', async () => {
    const { page, context } = await env.open('', VIEW);
    await press(page, 'output');
    await expect.poll(() => page.textContent('#figure-tables .relpos-caption')).toContain('The selected cell (2, 3)');
    expect(await revealOf(page, 'output')).toContain('depends only on how the query’s weight spreads over offsets');
    await context.close();
  });
});

describe('the tables figure follows the hovered cell', () => {
  test('hovering (1, 5) at k = 3 outlines the rows of offset 3 and names the clipping', async () => {
    const { page, context } = await env.open('', VIEW);
    const layout = await layoutOf(page, 'combinedWeights');
    const canvas = await page.$('#figure-combinedWeights canvas');
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    const before = await canvasHash(page, '#tables-canvas');
    await page.mouse.move(box.x + layout.x0 + 5.5 * layout.cell, box.y + layout.y0 + 1.5 * layout.cell);
    expect(await page.textContent('#figure-tables .relpos-caption')).toContain('(1, 5), offset 4, clipped to 3');
    expect(await page.getAttribute('#tables-canvas', 'aria-label')).toContain('row 3 outlined');
    expect(await canvasHash(page, '#tables-canvas')).not.toBe(before);
    await context.close();
  });

  test('is not shown in the long view', async () => {
    const { page, context } = await env.open('?long=1&n=100', VIEW);
    expect(await page.isVisible('#figure-tables')).toBe(false);
    await context.close();
  });
});
