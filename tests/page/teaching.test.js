// What the page teaches, checked on the page itself (Chromium): stable numbers (a change of k,
// a new word, a repeated word), the handbook's numbers still exact, the locality table's band,
// the profile as the diagonals of panel 2 and the tables figure (the story: story-states.test.js).
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { canvasHash, layoutOf, pageExample, significant, usePage, useSharedPage, whenDrawn } from './page-fixture.js';

const env = usePage();
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

const VIEW = { viewport: { width: 1280, height: 900 } };
// One page for the file: each test starts at its link (loaded) or at the defaults (Reset).
const { atLink, atDefaults } = useSharedPage(env, VIEW);
const matrixOf = (page, panel) =>
  page.evaluate((p) => {
    const { n } = window.relposPage.state().long ? { n: 0 } : { n: window.relposPage.state().seqLen };
    return Array.from({ length: n * n }, (_, index) => window.relposPage.valueAt(p, Math.floor(index / n), index % n));
  }, panel);

describe('stable numbers on the page', () => {
  test('changing k keeps the content panels and every bias with |j − i| ≤ min(k₁, k₂)', async () => {
    // Each weight panel its own colour scale, so the content-only panel's pixels cannot change either.
    const { page, problems } = await atLink('?k=3&wscale=panel');
    const before = { scores: await matrixOf(page, 'contentScores'), biases: await matrixOf(page, 'positionBiases') };
    const before2 = { weights: await matrixOf(page, 'contentWeights') };
    const hashes = {
      scores: await canvasHash(page, '#figure-contentScores canvas'),
      weights: await canvasHash(page, '#figure-contentWeights canvas'),
    };
    await page.fill('#maxDistance', '1');
    await whenDrawn(page);
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
  });

  test('appending a word keeps every content score of the words already there; a repeated word has equal rows', async () => {
    const { page } = await atDefaults();
    const before = await matrixOf(page, 'contentScores');
    await page.fill('#tokens', 'the cat sat on the mat today');
    await whenDrawn(page);
    const after = await matrixOf(page, 'contentScores');
    for (let i = 0; i < 6; i += 1) for (let j = 0; j < 6; j += 1) expect(after[i * 7 + j]).toBe(before[i * 6 + j]);
    // "the" stands at 0 and 4: the same content row and column.
    for (let j = 0; j < 7; j += 1) expect(after[4 * 7 + j]).toBe(after[0 * 7 + j]);
    for (let i = 0; i < 7; i += 1) expect(after[i * 7 + 4]).toBe(after[i * 7 + 0]);
  });

  test('draw=handbook shows the handbook’s numbers, bit for bit (the old page with table=random)', async () => {
    const { page } = await atLink('?draw=handbook&table=random&seed=7&n=8&k=2');
    const ex = rp.example({ seed: 7, seqLen: 8, dModel: 8, dK: 4, maxDistance: 2 });
    for (const panel of ['contentScores', 'positionBiases', 'combinedWeights']) {
      expect(await matrixOf(page, panel), panel).toEqual(Array.from(ex[panel].data));
    }
    await page.selectOption('#table', 'locality');
    await whenDrawn(page);
    const local = pageExample(rp, { draw: 'handbook', seed: 7, seqLen: 8, maxDistance: 2 });
    expect(await matrixOf(page, 'positionBiases')).toEqual(Array.from(local.positionBiases.data));
    // …whose table is the handbook's simulated one, at bump height 8.
    const handbook = rp.localityProfile({ seed: 7, dK: 4, maxDistance: 2, noise: 0.1 });
    expect(local.inputs.relKeys.data[0]).toBeCloseTo(handbook.embeddings.data[0] + 7 * Math.exp(-0.5 * 4), 12);
    expect(await page.textContent('#draw-explain')).toContain('np.random.seed(seed)');
  });
});

describe('locality you can see', () => {
  const SENTENCE = 'the quick brown fox jumps over the lazy dog while the cat sat on the warm mat';

  test('with the same query in every row, panel 2 is the profile along each diagonal and the weights form a band', async () => {
    const { page } = await atLink(`?sameq=1&k=4&tokens=${encodeURIComponent(SENTENCE)}`);
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
  });

  test('the profile describes the panels’ table: u · aᴷ/√dₖ for its k, d_k and seed', async () => {
    const { page } = await atLink('?k=5&dk=8&seed=3');
    const ex = pageExample(rp, { maxDistance: 5, dK: 8, seed: 3 });
    const want = Array.from(
      { length: 11 },
      (_, c) => ex.inputs.relKeys.data.slice(c * 8, c * 8 + 8).reduce((a, b) => a + b, 0) / 8,
    );
    const got = await page.evaluate(() => window.relposPage.profile());
    got.forEach((value, c) => expect(Math.abs(value - want[c])).toBeLessThanOrEqual(1e-15));
  });
});

describe('captions and tooltips true to the state', () => {
  const weightTop = (m) => Math.max(...m);
  test('the weight panels share one colour scale by default, each its own as an option, and the captions say which', async () => {
    const { page, problems } = await atDefaults();
    const ex = pageExample(rp);
    const shared = Math.max(weightTop(ex.contentWeights.data), weightTop(ex.combinedWeights.data));
    expect(weightTop(ex.contentWeights.data)).toBeLessThan(shared); // the two tops differ here
    for (const panel of ['contentWeights', 'combinedWeights']) {
      expect((await layoutOf(page, panel)).max, panel).toBe(shared);
      expect(await page.textContent(`#figure-${panel} .relpos-caption`)).toContain('one scale for both weight panels');
    }
    await page.selectOption('#weightScale', 'panel');
    await whenDrawn(page);
    await expect.poll(() => new URL(page.url()).search).toContain('wscale=panel');
    for (const panel of ['contentWeights', 'combinedWeights']) {
      expect((await layoutOf(page, panel)).max, panel).toBe(weightTop(ex[panel].data));
      expect(await page.textContent(`#figure-${panel} .relpos-caption`)).toContain('each weight panel its own scale');
    }
    expect(await page.textContent('#more-settings-summary')).toContain('each weight panel its own colours');
    expect(problems).toEqual([]);
  });

  test('panel 1 says its columns are constant with the same query (and they are); panel 2 says when diagonals are', async () => {
    const { page } = await atDefaults();
    expect(await page.textContent('#figure-positionBiases .relpos-caption')).toContain(
      'a diagonal is constant only with the same query in every row',
    );
    expect(await page.textContent('#figure-contentScores .relpos-caption')).not.toContain('each column is constant');
    // The default view says at once why "the" is pushed from itself: the rows whose offset-0 bias is negative.
    const b = pageExample(rp).positionBiases.data;
    const away = [0, 1, 2, 3, 4, 5].filter((i) => b[i * 7] < 0);
    expect(away).toContain(0);
    expect(await page.getAttribute('#figure-positionBiases canvas', 'aria-label')).toContain(
      `Offset 0 is negative in rows ${away.join(', ')}: qᵢ points away from the bump aᴷ[0] there.`,
    );
    await page.check('#sameQuery');
    await whenDrawn(page);
    expect(await page.textContent('#figure-contentScores .relpos-caption')).toContain('each column is constant');
    const scores = pageExample(rp, { sameQuery: true }).contentScores.data;
    for (let i = 1; i < 6; i += 1) for (let j = 0; j < 6; j += 1) expect(scores[i * 6 + j]).toBe(scores[j]);
    // One word repeated, each its own query: the queries are one vector (stable numbers), so the
    // diagonals are constant without the setting, and panel 2 says so, not that they differ.
    const { page: repeated } = await atLink('?tokens=a+a+a+a');
    const biases = await matrixOf(repeated, 'positionBiases');
    expect(biases).toHaveLength(16);
    for (let i = 0; i < 3; i += 1)
      for (let j = 0; j < 3; j += 1) expect(biases[(i + 1) * 4 + j + 1]).toBe(biases[i * 4 + j]);
    const caption = await repeated.textContent('#figure-positionBiases .relpos-caption');
    expect(caption).not.toContain('values along a diagonal differ');
    expect(caption).toContain('Every token here is the same word, so every row has the same query');
    expect(caption).toContain('so it is constant (a Toeplitz matrix)');
    // Two words: the queries differ, and so do the diagonals' cells.
    await atLink('?tokens=a+b+a+b');
    expect(await repeated.textContent('#figure-positionBiases .relpos-caption')).toContain(
      'values along a diagonal differ',
    );
  });

  test('the tooltip says why a positive bias lowered a weight, naming the row’s largest bias', async () => {
    const { page } = await atDefaults();
    const ex = pageExample(rp);
    const [b, cw, w] = [ex.positionBiases.data, ex.contentWeights.data, ex.combinedWeights.data];
    let cell = null;
    for (let at = 0; at < 36 && !cell; at += 1)
      if (b[at] > 0 && w[at] < cw[at]) cell = { i: Math.floor(at / 6), j: at % 6 };
    expect(cell).not.toBeNull();
    const row = Array.from(b.slice(cell.i * 6, cell.i * 6 + 6));
    const largest = row.indexOf(Math.max(...row));
    const layout = await layoutOf(page, 'combinedWeights');
    const canvas = await page.$('#figure-combinedWeights canvas');
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    await page.mouse.move(
      box.x + layout.x0 + (cell.j + 0.5) * layout.cell,
      box.y + layout.y0 + (cell.i + 0.5) * layout.cell,
    );
    const tip = await page.textContent('.relpos-tooltip');
    const word = 'the cat sat on the mat'.split(' ')[largest];
    expect(tip).toContain('why it fell');
    expect(tip).toContain(`the largest: ${significant(row[largest])} at key ${largest} “${word}”`);
  });
});

describe('the tables figure follows the hovered cell', () => {
  test('hovering (1, 5) and (5, 1) at k = 3 outlines the rows of offset 3 and −3 and names the clipping', async () => {
    const { page } = await atDefaults();
    const layout = await layoutOf(page, 'combinedWeights');
    const canvas = await page.$('#figure-combinedWeights canvas');
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    const before = await canvasHash(page, '#tables-canvas');
    await page.mouse.move(box.x + layout.x0 + 5.5 * layout.cell, box.y + layout.y0 + 1.5 * layout.cell);
    expect(await page.textContent('#figure-tables .relpos-caption')).toContain('(1, 5), offset 4, clipped to 3');
    expect(await page.getAttribute('#tables-canvas', 'aria-label')).toContain('row 3 outlined');
    expect(await canvasHash(page, '#tables-canvas')).not.toBe(before);
    // Below the diagonal the offset and its row are negative, with a minus sign (U+2212) in the caption and the label.
    await page.mouse.move(box.x + layout.x0 + 1.5 * layout.cell, box.y + layout.y0 + 5.5 * layout.cell);
    expect(await page.textContent('#figure-tables .relpos-caption')).toContain(
      '(5, 1), offset \u22124, clipped to \u22123',
    );
    expect(await page.getAttribute('#tables-canvas', 'aria-label')).toContain('row \u22123 outlined');
    // Why the right column mixes decimals (−1.154 beside −0.44): each element to those at which it adds up.
    expect(await page.textContent('#figure-tables .relpos-caption')).toContain(
      'each element of the two parts and of the output is written to the decimals at which the parts add up to the output as written',
    );
  });

  test('at 1280 and 360 px the outlined row of the right-hand table is drawn whole: its right side inside the canvas, right of the cells', async () => {
    const { page } = await atDefaults();
    // The canvas's last 3 CSS px columns: the longest vertical run of the outline's opaque dark grey
    // (#111114, blended with its white halo; the cells' diverging colours are never grey, and the
    // canvas is transparent where nothing is drawn).
    const outlineRun = () =>
      page.$eval('#tables-canvas', (canvas) => {
        const ratio = canvas.width / canvas.getBoundingClientRect().width;
        const { data, width, height } = canvas
          .getContext('2d')
          .getImageData(canvas.width - Math.round(3 * ratio), 0, Math.round(3 * ratio), canvas.height);
        let longest = 0;
        for (let x = 0; x < width; x += 1) {
          let run = 0;
          for (let y = 0; y < height; y += 1) {
            const [r, g, b, a] = data.slice((y * width + x) * 4, (y * width + x) * 4 + 4);
            const darkGrey = a > 200 && Math.max(r, g, b) < 130 && Math.max(r, g, b) - Math.min(r, g, b) < 12;
            run = darkGrey ? run + 1 : 0;
            longest = Math.max(longest, run / ratio);
          }
        }
        return longest;
      });
    try {
      for (const width of [1280, 360]) {
        await page.setViewportSize({ width, height: 900 });
        await whenDrawn(page);
        await page.locator('#tables-canvas').scrollIntoViewIfNeeded();
        expect(await outlineRun(), `${width} px`).toBeGreaterThanOrEqual(20); // a 20 px row, outlined
      }
    } finally {
      await page.setViewportSize(VIEW.viewport);
      await whenDrawn(page);
    }
  });

  test('is not shown in the long view', async () => {
    const { page } = await atLink('?long=1&n=100');
    expect(await page.isVisible('#figure-tables')).toBe(false);
  });
});

describe('the settings summary', () => {
  test('names a negative asymmetry with a minus sign (U+2212)', async () => {
    const { page } = await atLink('?asym=-0.4');
    expect(await page.textContent('#more-settings-summary')).toContain('asymmetry \u22120.4');
  });
});
