// The long-sequence view: n up to 2048, computed in a worker above n = 384 with the same
// numbers as the synchronous path, drawn in offset space (query i × clipped offset c, the
// layout of Shaw et al.'s efficient implementation), tooltips reading the cell under the
// pointer with significant digits, k up to n − 1, and a main thread that stays free.
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { ATTENTION_PANEL_IDS, PANEL_IDS as PANELS } from '../../web/views/panels.js';
import { numberDifferences } from '../js/helpers.js';
import { downloadedBytes } from './browser.js';
import {
  changeAtOnce,
  layoutOf,
  pageExample,
  pixelAt,
  significant as significantDigits,
  usePage,
  useSharedPage,
  whenDrawn,
} from './page-fixture.js';

const env = usePage();
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

// One page for the file (a link loaded in it for each test, as a reader following it does): the
// page's downloads are accepted, for the JSON export.
const { atLink } = useSharedPage(env, { viewport: { width: 1280, height: 900 }, acceptDownloads: true });
let shared = null;
// The link the shared page shows as it was drawn (a test that only read it, hovered and scrolled,
// and passed sets it): a test that changes the same view may start from it without a load.
let unchangedAt = null;
/**
 * The shared page at a link, drawn: `{ page, problems }`, the problems since this call. With
 * `reuse`, a page left unchanged at that link is taken as it is, the pointer off the panels and
 * scrolled to the top.
 */
async function openAndWait(query, { reuse = false } = {}) {
  const unchanged = reuse && unchangedAt === query;
  unchangedAt = null;
  await shared?.page.mouse.move(0, 0); // the pointer off the panels, before the next page draws under it
  if (unchanged) {
    shared.problems.length = 0;
    await shared.page.evaluate(() => scrollTo(0, 0));
    return shared;
  }
  shared = await atLink(query);
  await whenDrawn(shared.page);
  return shared;
}

const CELLS = (n) => [
  [0, 0],
  [1, n - 1],
  [n - 1, 0],
  [Math.floor(n / 2), Math.floor(n / 3)],
  [n - 1, n - 1],
  [7, 300 % n],
];

/**
 * Offset space derived here from the API's n × n matrices, independently of the page: row i's
 * keys bucketed by clip(j − i, ±k); k′ = min(k, n − 1) columns each side.
 * Returns (panel, i, c) -> the value (undefined: no key).
 */
function derive(ex, n, k) {
  const reach = Math.min(k, n - 1);
  const clip = (d) => Math.min(k, Math.max(-k, d));
  // Row i's count of keys, and a matrix's row sums, at each clipped offset c (index c + k): each row
  // read once, its keys j in order (a block mean reads every cell of a row).
  const counts = new Map();
  const sums = new Map();
  const countsOf = (i) => {
    if (!counts.has(i)) {
      const row = new Int32Array(2 * k + 1);
      for (let j = 0; j < n; j += 1) row[clip(j - i) + k] += 1;
      counts.set(i, row);
    }
    return counts.get(i);
  };
  const sum = (name, i, c) => {
    const key = `${name} ${i}`;
    if (!sums.has(key)) {
      const row = new Float64Array(2 * k + 1);
      for (let j = 0; j < n; j += 1) row[clip(j - i) + k] += ex[name].data[i * n + j];
      sums.set(key, row);
    }
    return sums.get(key)[c + k];
  };
  return (panel, i, c) => {
    if (Math.abs(c) > reach || !countsOf(i)[c + k]) return undefined;
    if (panel === 'offsets') return c;
    if (panel === 'contentScores' || panel === 'positionBiases') return ex[panel].data[i * n + i + c]; // the key j = i + c
    if (panel === 'difference') return sum('combinedWeights', i, c) - sum('contentWeights', i, c);
    return sum(panel, i, c);
  };
}

const significant = (v) => significantDigits(v, 4);
const number = (text) => Number(text.replace(/−/g, '-'));

/** The colours' range and the drawn block means, recomputed here from the derived cells. */
function blockMeans(cell, n, cols, reach, gRows, gCols, masked) {
  const bounds = (count, size) => Array.from({ length: size + 1 }, (_, p) => Math.floor((p * count) / size));
  const by = bounds(n, gRows);
  const bx = bounds(cols, gCols);
  const means = [];
  for (let py = 0; py < gRows; py += 1) {
    for (let px = 0; px < gCols; px += 1) {
      let sum = 0;
      let count = 0;
      for (let i = by[py]; i < by[py + 1]; i += 1) {
        for (let j = bx[px]; j < bx[px + 1]; j += 1) {
          const v = cell(i, j - reach);
          if (v === undefined || (masked && j - reach > 0)) continue;
          sum += Math.fround(v);
          count += 1;
        }
      }
      means.push({ py, px, inner: bx[px] >= 1 && bx[px + 1] - 1 <= cols - 2, value: count ? sum / count : undefined });
    }
  }
  return means;
}

describe('the long-sequence view, in offset space', () => {
  for (const [n, k, causal, where] of [
    [300, 20, true, 'main'],
    [400, 20, false, 'worker'],
    [2048, 20, true, 'worker'],
    [200, 250, false, 'main'],
    [500, 499, true, 'worker'],
    [100, 0, false, 'main'],
  ]) {
    test(`n = ${n}, k = ${k}${causal ? ', causal' : ''}: computed on the ${where} thread; every panel's (i, c) cells as derived from the API's n × n matrices`, async () => {
      const { page, problems } = await openAndWait(`?long=1&n=${n}&k=${k}&seed=5${causal ? '&causal=1' : ''}`);
      expect(await page.evaluate(() => window.relposPage.computedBy())).toBe(where);
      const kPage = Math.min(k, Math.max(63, n - 1)); // the long view's cap (k = 250 at n = 200: 199 allowed, 63 at least)
      expect(await page.evaluate(() => window.relposPage.state().maxDistance)).toBe(kPage);
      const ex = pageExample(rp, { seed: 5, seqLen: n, maxDistance: kPage, causal, tokens: '' });
      for (const [i, j] of CELLS(n)) {
        expect(await page.evaluate(([a, b]) => window.relposPage.valueAt('combinedWeights', a, b), [i, j])).toBe(
          ex.combinedWeights.data[i * n + j],
        );
      }
      const reach = Math.min(kPage, n - 1);
      const cols = 2 * reach + 1;
      const cell = derive(ex, n, kPage);
      const rows = [0, 1, reach - 1, reach, Math.floor(n / 2), n - reach - 1, n - reach, n - 2, n - 1].filter(
        (i) => i >= 0 && i < n,
      );
      const offsets = [...new Set([-reach, -reach + 1, -1, 0, 1, reach - 1, reach, Math.floor(reach / 3)])].filter(
        (c) => Math.abs(c) <= reach,
      );
      const got = await page.evaluate(
        ([panels, is, cs]) =>
          Promise.all(
            panels.map((p) =>
              Promise.all(is.map((i) => Promise.all(cs.map((c) => window.relposPage.offsetCell(p, i, c))))),
            ),
          ),
        [PANELS, rows, offsets],
      );
      PANELS.forEach((panel, p) =>
        rows.forEach((i, r) =>
          offsets.forEach((c, o) => {
            const want = cell(panel, i, c);
            const { drawn, exact } = got[p][r][o];
            if (want === undefined) {
              expect(drawn, `${panel} (${i}, ${c})`).toBeNull();
            } else {
              expect(exact, `${panel} (${i}, ${c})`).toBe(want);
              expect(drawn, `${panel} (${i}, ${c})`).toBe(Math.fround(want));
            }
          }),
        ),
      );
      // The canvas says what it is: n by 2k′ + 1, in offset space, and the cells' range.
      const label = await page.getAttribute('#figure-offsets canvas', 'aria-label');
      expect(label).toContain(`${n} by ${cols} heatmap in offset space`);
      expect(label).toContain(`clipped offsets c from ${significant(-reach)} to ${reach}`);
      const layout = await layoutOf(page, 'combinedWeights');
      expect([layout.rows, layout.cols, layout.reach]).toEqual([n, cols, reach]);
      // The colour rule, stated on the page: the 99th percentile of what is drawn (block means
      // where a pixel covers several cells) in the columns |c| < k, from 0 for weights. About
      // 1 % of those drawn values lie beyond it.
      if (kPage < n - 1 && reach > 1) {
        const means = blockMeans(
          (i, c) => cell('combinedWeights', i, c),
          n,
          cols,
          reach,
          layout.gRows,
          layout.gCols,
          causal,
        ).filter((m) => m.value !== undefined);
        const inner = means.filter((m) => m.inner);
        const beyond = inner.filter((m) => m.value > layout.max).length / inner.length;
        expect(layout.min).toBe(0);
        expect(beyond).toBeGreaterThan(0.003);
        expect(beyond).toBeLessThan(0.02);
        // The edge columns total every clipped key: they may saturate, and the bar says so.
        if (means.some((m) => m.value > layout.max))
          expect(await page.textContent('#long-explain')).toContain(
            '99th percentile of the drawn values in the columns |c| < k',
          );
      }
      expect(await page.isVisible('#long-explain')).toBe(true);
      // A newcomer's orientation, above the panels, on screen at first.
      expect(await page.isVisible('#long-orientation')).toBe(true);
      expect(await page.$eval('#long-orientation', (p) => p.getBoundingClientRect().bottom <= innerHeight)).toBe(true);
      expect(problems).toEqual([]);
    });
  }

  test('n = 1024, k = 16: the pixels are the colour-mapped block means (no-key cells blank, masked grey)', async () => {
    const { page, problems } = await openAndWait('?long=1&n=1024&k=16&causal=1&seed=3');
    const ex = pageExample(rp, { seed: 3, seqLen: 1024, maxDistance: 16, causal: true, tokens: '' });
    const cell = derive(ex, 1024, 16);
    const layout = await layoutOf(page, 'combinedWeights');
    expect(layout.gCols).toBe(33); // every offset its own column of pixels
    const means = blockMeans((i, c) => cell('combinedWeights', i, c), 1024, 33, 16, layout.gRows, layout.gCols, true);
    const { colourTable, entryFor } = await import('../../web/render/colormaps.js');
    const table = colourTable('viridis');
    const canvas = '#figure-combinedWeights canvas';
    const grey = await pixelAt(page, canvas, layout.x0 + 30.5 * layout.cellW, layout.y0 + 500 * layout.cellH); // c = 14 > 0: masked
    const background = await pixelAt(page, canvas, layout.x0 + 0.5 * layout.cellW, layout.y0 + 0.5); // (0, −16): no key
    expect(grey).not.toEqual(background);
    for (const [py, px] of [
      [3, 16],
      [50, 10],
      [120, 1],
      [200, 15],
      [100, 0],
    ]) {
      const { value } = means.find((m) => m.py === py && m.px === px);
      const ratio = layout.gRows / layout.rows;
      const at = await pixelAt(
        page,
        canvas,
        layout.x0 + (px + 0.5) * layout.cellW,
        layout.y0 + ((py + 0.5) / ratio) * layout.cellH,
      );
      const entry = entryFor({ min: layout.min, max: layout.max }, value);
      expect(at, `pixel (${py}, ${px})`).toEqual(Array.from(table.slice(entry * 4, entry * 4 + 3)));
    }
    expect(problems).toEqual([]);
  });

  test('n = 2048, k = 64: hovering reads the cell under the pointer, weights with significant digits', async () => {
    const link = '?long=1&n=2048&k=64';
    const { page, problems } = await openAndWait(link);
    const ex = pageExample(rp, { seed: 42, seqLen: 2048, maxDistance: 64, causal: false, tokens: '' });
    const cell = derive(ex, 2048, 64);
    for (const [panel, x, y] of [
      ['positionBiases', 100.5, 300.5],
      ['combinedWeights', 70.2, 1500.5],
      ['contentWeights', 0.5, 1000.5],
      ['difference', 128.5, 2.5],
      ['offsets', 64.5, 64.5],
    ]) {
      const layout = await layoutOf(page, panel);
      const canvas = await page.$(`#figure-${panel} canvas`);
      await canvas.scrollIntoViewIfNeeded();
      const box = await canvas.boundingBox();
      const px = box.x + layout.x0 + x * layout.cellW;
      const py = box.y + layout.y0 + y * layout.cellH;
      await page.mouse.move(px, py);
      // The cell under the pointer, as the page's hit test finds it.
      const i = Math.floor((py - box.y - layout.y0) / layout.cellH);
      const c = Math.floor((px - box.x - layout.x0) / layout.cellW) - 64;
      const tip = await page.$$eval('.relpos-tooltip div', (list) =>
        list.map((row) => [row.children[0].textContent, row.children[1].textContent]),
      );
      expect(tip[1]).toEqual(['query i', String(i)]);
      expect(tip[2][0]).toBe('clipped offset c');
      expect(tip[2][1].startsWith(significant(c))).toBe(true);
      const want = cell(panel, i, c);
      expect(tip[0][1], `${panel} (${i}, ${c})`).toBe(significant(want));
      if (panel.endsWith('Weights') && Math.abs(c) < 64) {
        expect(tip[0][1]).not.toMatch(/^0\.000$/);
        expect(Math.abs(number(tip[0][1]) - want) / want).toBeLessThan(1e-3);
        expect(tip[3]).toEqual(['key', `j = ${i + c}`]);
      }
      if (Math.abs(c) === 64 && c < 0) expect(tip[3]).toEqual(['keys', `j = 0…${i - 64} (${i - 63} keys, summed)`]);
      await page.mouse.move(0, 0);
    }
    expect(problems).toEqual([]);
    unchangedAt = link; // only read: the next test changes this view
  });

  for (const k of [64, 2047]) {
    test(`n = 2048, k = ${k}: a change is computed off the main thread; hovering reads the cell`, async () => {
      const { page, problems } = await openAndWait(`?long=1&n=2048&k=${k}`, { reuse: true });
      const layout = await layoutOf(page, 'positionBiases');
      expect(layout.cols).toBe(2 * k + 1);
      // A change (a seed typed) is computed in the worker and drawn when it arrives. How long the
      // main thread's tasks take is measured by `npm run bench:page` (longest task per change),
      // not here: the machine is shared, and a timed assertion would test the machine.
      const seed = 9;
      await page.evaluate(
        (value) =>
          new Promise((done) => {
            document.addEventListener('relpos-drawn', () => done(), { once: true });
            const input = document.getElementById('seed');
            input.value = String(value);
            input.dispatchEvent(new Event('input', { bubbles: true }));
          }),
        seed,
      );
      expect(await page.evaluate(() => window.relposPage.computedBy())).toBe('worker');
      // Hovering still reads the cell under the pointer (at k = 2047 a pixel spans several offsets).
      const after = await layoutOf(page, 'combinedWeights');
      const canvas = await page.$('#figure-combinedWeights canvas');
      await canvas.scrollIntoViewIfNeeded();
      const box = await canvas.boundingBox();
      const [px, py] = [
        box.x + after.x0 + 0.45 * after.cols * after.cellW,
        box.y + after.y0 + 0.6 * after.rows * after.cellH,
      ];
      await page.mouse.move(px, py);
      const i = Math.floor((py - box.y - after.y0) / after.cellH);
      const c = Math.floor((px - box.x - after.x0) / after.cellW) - k;
      const ex = pageExample(rp, { seed, seqLen: 2048, maxDistance: k, causal: false, tokens: '' });
      const tip = await page.$$eval('.relpos-tooltip div', (list) => list.map((row) => row.children[1].textContent));
      expect(tip.slice(0, 2)).toEqual([significant(derive(ex, 2048, k)('combinedWeights', i, c)), String(i)]);
      expect(problems).toEqual([]);
    });
  }

  test('k goes up to n − 1 in the long view (63 in the sentence view); a link asking for more is clamped', async () => {
    const { page } = await openAndWait('?long=1&n=1000&k=5000');
    expect(await page.evaluate(() => window.relposPage.state().maxDistance)).toBe(999);
    expect(await page.textContent('#notes')).toContain('k must be an integer from 0 to 999');
    expect(await page.getAttribute('#maxDistance', 'max')).toBe('999');
    await page.fill('#seqLen', '700'); // a range input: sets and fires input
    await whenDrawn(page);
    expect(await page.evaluate(() => window.relposPage.state().maxDistance)).toBe(699);
    expect(await page.getAttribute('#maxDistance', 'max')).toBe('699');
    await page.fill('#maxDistance', '650');
    await whenDrawn(page);
    expect(await page.evaluate(() => window.relposPage.state().maxDistance)).toBe(650);
    // The offsets panel is below the viewport: it is drawn when it scrolls in.
    await page.evaluate(() => document.getElementById('figure-offsets').scrollIntoView());
    await expect.poll(async () => (await layoutOf(page, 'offsets')).cols).toBe(1301);
    await expect.poll(() => new URL(page.url()).searchParams.get('k')).toBe('650');
    await page.uncheck('#long');
    expect(await page.evaluate(() => window.relposPage.state().maxDistance)).toBe(63);
    expect(await page.getAttribute('#maxDistance', 'max')).toBe('63');
  });

  /** The tooltip's [name, value] rows over cell (i, column col) of a panel, the pointer on the cell's centre. */
  async function tipAt(page, panel, i, col) {
    const layout = await layoutOf(page, panel);
    const canvas = await page.$(`#figure-${panel} canvas`);
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + layout.x0 + (col + 0.5) * layout.cellW, box.y + layout.y0 + (i + 0.5) * layout.cellH);
    const tip = await page.$$eval('.relpos-tooltip div', (list) =>
      list.map((row) => [row.children[0].textContent, row.children[1].textContent]),
    );
    await page.mouse.move(0, 0);
    return tip;
  }
  /** The note under a panel's colour bar, as its canvas's accessible name ends with it (after the caption). */
  const noteOf = async (page, panel) => {
    const [label, caption] = await Promise.all([
      page.getAttribute(`#figure-${panel} canvas`, 'aria-label'),
      page.textContent(`#figure-${panel} .relpos-caption`),
    ]);
    return label.slice(label.indexOf(caption) + caption.length).trim();
  };

  test('causal, n = 400, k = 0, 1, 20: the tooltip counts the keys that carry weight, the note names only what is drawn', async () => {
    for (const k of [0, 1, 20]) {
      const { page, problems } = await openAndWait(`?long=1&n=400&k=${k}&causal=1`);
      const i = 216;
      if (k === 0) {
        // One column, every key: the weights' sum runs over the keys j ≤ i (later keys masked, weight 0).
        expect(await tipAt(page, 'combinedWeights', i, 0)).toContainEqual([
          'keys',
          `j = 0…${i} (${i + 1} keys, summed; later keys masked)`,
        ]);
        expect(await tipAt(page, 'combinedWeights', 0, 0)).toContainEqual(['key', 'j = 0 (later keys masked)']);
        expect(await tipAt(page, 'combinedWeights', 399, 0)).toContainEqual(['keys', 'j = 0…399 (400 keys, summed)']);
        // A score or a bias is every key's, masked or not (the mask acts on the weights).
        expect(await tipAt(page, 'positionBiases', i, 0)).toContainEqual(['keys', 'j = 0…399 (400 keys, one bias)']);
        // No column c > 0 is drawn: the note says none is grey.
        expect(await noteOf(page, 'combinedWeights')).toBe(
          'Colours: 99th pct. One column (k = 0): the keys j ≤ i, later keys masked.',
        );
        expect(await noteOf(page, 'positionBiases')).toBe('Colours: 99th pct. One column (k = 0): every key.');
      } else {
        expect(await tipAt(page, 'combinedWeights', i, 0)).toContainEqual([
          'keys',
          `j = 0…${i - k} (${i - k + 1} keys, summed)`,
        ]);
        // The last column: keys after the query, masked, nothing summed.
        expect(await tipAt(page, 'combinedWeights', i, 2 * k)).toEqual([
          ['Combined weights', 'masked (keys j > i)'],
          ['query i', String(i)],
          ['clipped offset c', `${k} (every j − i ≥ ${k})`],
          ['keys', `j = ${i + k}…399 (${400 - i - k} keys, masked)`],
        ]);
        expect(await noteOf(page, 'combinedWeights')).toBe('Colours: 99th pct of |c| < k. Grey: c > 0, masked.');
        expect(await noteOf(page, 'positionBiases')).toBe('Colours: 99th pct of |c| < k. Causal: c > 0 never used.');
      }
      expect(problems).toEqual([]);
    }
  });

  test('n = 1000, k = 999, causal: a pixel covers a whole number of queries and offsets; the note’s sentences stand apart', async () => {
    const { page, problems } = await openAndWait('?long=1&n=1000&k=999&causal=1');
    const layout = await layoutOf(page, 'combinedWeights');
    expect(layout.gRows).toBeLessThan(1000);
    expect(layout.gCols).toBeLessThan(1999);
    // Pixel p covers cells ⌊p·count/size⌋ … ⌊(p + 1)·count/size⌋ − 1: ⌊count/size⌋ or ⌈count/size⌉ of them.
    const covers = (count, size) => {
      const widths = new Set();
      for (let p = 0; p < size; p += 1)
        widths.add(Math.floor(((p + 1) * count) / size) - Math.floor((p * count) / size));
      return [...widths].sort((a, b) => a - b).join('–');
    };
    const [queries, offsets] = [covers(1000, layout.gRows), covers(1999, layout.gCols)];
    expect(queries).toMatch(/^\d+–\d+$/);
    expect(await noteOf(page, 'combinedWeights')).toBe(
      `A pixel: mean of ${queries} queries × ${offsets} offsets, cells with no key or masked left out. Colours: 99th pct. Nothing clipped (k ≥ n − 1). Grey: c > 0, masked.`,
    );
    expect(problems).toEqual([]);
  });

  test('the JSON export of a long view computed in the workers carries their n × n numbers and output, bit for bit the API’s', async () => {
    const n = 400;
    const { page } = await openAndWait(`?long=1&n=${n}&k=20&seed=8`);
    expect(await page.evaluate(() => window.relposPage.computedBy())).toBe('worker');
    const [file] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
    const json = JSON.parse((await downloadedBytes(file)).toString('utf8'));
    const ex = pageExample(rp, { seed: 8, seqLen: n, maxDistance: 20, tokens: '' });
    // Every number the same, by Object.is (toEqual over these 7 × 160 000 numbers takes seconds).
    for (const id of ATTENTION_PANEL_IDS) expect(numberDifferences(json.panels[id].data, ex[id].data, id)).toEqual([]);
    const difference = ex.combinedWeights.data.map((w, index) => w - ex.contentWeights.data[index]);
    expect(numberDifferences(json.panels.difference.data, difference, 'difference')).toEqual([]);
    expect(numberDifferences(json.output.data, ex.output.data, 'output')).toEqual([]);
  });

  test('a long-view panel’s Download PNG saves it (at 2× its CSS size, in its colours); it has no SVG button', async () => {
    const { page, problems } = await openAndWait('?long=1&n=400&k=20&seed=8');
    const figure = '#figure-combinedWeights';
    expect(await page.isVisible(`${figure} button[data-svg]`)).toBe(false);
    const cssWidth = await page.$eval(`${figure} canvas`, (c) => parseFloat(c.style.width));
    // The click threw ("the long view exports as PNG from its canvas only") and nothing was saved.
    const [file] = await Promise.all([page.waitForEvent('download'), page.click(`${figure} button[data-png]`)]);
    expect(file.suggestedFilename()).toBe('relpos-combinedWeights.png');
    const bytes = await downloadedBytes(file);
    const image = await page.evaluate(async (base64) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
      const g = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
      g.drawImage(bitmap, 0, 0);
      const { data } = g.getImageData(0, 0, bitmap.width, bitmap.height);
      const colours = new Set();
      for (let i = 0; i < data.length; i += 4) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      return { width: bitmap.width, height: bitmap.height, colours: colours.size };
    }, bytes.toString('base64'));
    expect(image.width).toBe(cssWidth * 2);
    expect(image.colours).toBeGreaterThan(50); // the weights' viridis, not an empty panel
    unchangedAt = '?long=1&n=400&k=20&seed=8';
    expect(problems).toEqual([]);
  });

  test('a panel a progressive redraw left undrawn (far off screen) saves the picture of the view it will show, not its last one', async () => {
    // n = 400 to 1200 (the position labels a digit wider): computed in the workers, drawn
    // progressively, the panels far below the viewport left until they scroll in.
    // Loaded at 500 px high (a resize alone is drawn at the next change, every panel at once).
    await (await atLink('')).page.setViewportSize({ width: 1280, height: 500 });
    const { page, problems } = await openAndWait('?long=1&n=400&k=20&seed=8');
    const id = PANELS.at(-1);
    const figure = `#figure-${id}`;
    const rowsDrawn = () => layoutOf(page, id).then((layout) => layout.rows);
    expect(await rowsDrawn()).toBe(400);
    await page.waitForFunction(
      (selector) => document.querySelector(selector).getBoundingClientRect().top > innerHeight + 400,
      figure,
    );
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await changeAtOnce(page, [['#seqLen', '1200']]);
    await whenDrawn(page);
    expect(await page.evaluate(() => window.relposPage.state().seqLen)).toBe(1200);
    expect(await rowsDrawn()).toBe(400); // not drawn yet: its canvas shows the last view
    const save = async (press) => {
      const [file] = await Promise.all([page.waitForEvent('download'), press()]);
      return downloadedBytes(file);
    };
    // Its Download PNG pressed without scrolling to it (a keyboard user's Enter, a script's click()).
    const early = await save(() =>
      page.evaluate((selector) => document.querySelector(`${selector} button[data-png]`).click(), figure),
    );
    // Scrolled to, drawn, and saved again: the same file.
    await page.evaluate((selector) => document.querySelector(selector).scrollIntoView(), figure);
    await expect.poll(rowsDrawn).toBe(1200);
    const late = await save(() => page.click(`${figure} button[data-png]`));
    const sizes = await page.evaluate(
      (files) =>
        Promise.all(
          files.map(async (base64) => {
            const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
            return [bitmap.width, bitmap.height];
          }),
        ),
      [early.toString('base64'), late.toString('base64')],
    );
    expect(sizes[0]).toEqual(sizes[1]);
    expect(early.equals(late)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(problems).toEqual([]);
  });

  test('n = 400, k = 20 at 360, 1920 and 1280 px, k = 40 at 360 px: the edge columns’ lines or marks never overlap the colour bar’s label', async () => {
    // The first four panels (open at first); each is drawn at a new width once it is in view.
    const ids = ['contentScores', 'positionBiases', 'contentWeights', 'combinedWeights'];
    // A mark is stroked 3 px wide (its halo); a box overlaps another where both ranges overlap.
    const overlaps = (mark, label) =>
      mark.x + 1.5 > label.left && mark.x - 1.5 < label.right && mark.bottom > label.top && mark.top < label.bottom;
    for (const [k, widths] of [
      [20, [360, 1920, 1280]],
      [40, [360]],
    ]) {
      const { page, problems } = await openAndWait(`?long=1&n=400&k=${k}`);
      for (const width of widths) {
        await page.setViewportSize({ width, height: 900 });
        for (const id of ids) {
          const where = `k = ${k} at ${width} px, ${id}`;
          await page.evaluate((panel) => document.getElementById(`figure-${panel}`).scrollIntoView(), id);
          // Drawn for this width: the canvas fits its figure (at 1920 px it is as at 1280, its widest).
          const fits = () =>
            page.$eval(
              `#figure-${id}`,
              (figure) => JSON.parse(figure.querySelector('canvas').dataset.layout).width <= figure.clientWidth,
            );
          await expect.poll(fits, { timeout: 120_000, message: where }).toBe(true);
          await whenDrawn(page);
          const layout = await layoutOf(page, id);
          expect(layout.edgeLines, where).toHaveLength(2);
          expect(layout.barLabel, where).not.toBeNull();
          // Columns of 6 px or more (k = 20 at 360 px: 41 columns in 246 px) have dashed lines down
          // the matrix; narrower ones (k = 40 at 360 px: 81 columns in about 243 px) marks under it.
          if (k === 40) expect(layout.cellW, where).toBeLessThan(6);
          const matrixBottom = layout.y0 + layout.rows * layout.cellH;
          for (const mark of layout.edgeLines) {
            if (layout.cellW < 6) expect(mark.top, where).toBeGreaterThan(matrixBottom);
            else {
              expect(mark.top, where).toBeCloseTo(layout.y0, 6);
              expect(mark.bottom, where).toBeCloseTo(matrixBottom, 6);
            }
            expect(overlaps(mark, layout.barLabel), where).toBe(false);
          }
          // The label is below the edge columns' lines or marks.
          expect(layout.barLabel.top, where).toBeGreaterThan(Math.max(...layout.edgeLines.map((m) => m.bottom)));
        }
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(problems).toEqual([]);
    }
  });

  /**
   * A panel drawn at the page's present width, in view: { canvas (its box's bottom and width),
   * ink (the bottom of the last row of the canvas with anything drawn, CSS px from the page's
   * top), caption (the top of the caption under it), layout }.
   */
  async function drawnPanel(page, id) {
    await page.evaluate((panel) => document.getElementById(`figure-${panel}`).scrollIntoView(), id);
    const fits = () =>
      page.$eval(
        `#figure-${id}`,
        (figure) =>
          JSON.parse(figure.querySelector('canvas').dataset.layout ?? '{"width":1e9}').width <= figure.clientWidth,
      );
    await expect.poll(fits, { timeout: 120_000, message: id }).toBe(true);
    await whenDrawn(page);
    return page.$eval(`#figure-${id}`, (figure) => {
      const canvas = figure.querySelector('canvas');
      const box = canvas.getBoundingClientRect();
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let lastRow = -1;
      for (let y = canvas.height - 1; y >= 0 && lastRow < 0; y -= 1)
        for (let x = 0; x < canvas.width; x += 1)
          if (pixels[(y * canvas.width + x) * 4 + 3]) {
            lastRow = y;
            break;
          }
      const scale = box.height / canvas.height;
      return {
        canvas: { top: box.top, bottom: box.bottom, width: box.width },
        ink: box.top + (lastRow + 1) * scale,
        caption: figure.querySelector('.relpos-caption').getBoundingClientRect().top,
        layout: JSON.parse(canvas.dataset.layout),
      };
    });
  }

  test('the iframe view in a 480 × 700 frame, n = 400: the matrices narrow, the axis title over the offsets and the colour bar’s label stay whole inside the canvas', async () => {
    await (await atLink('')).page.setViewportSize({ width: 480, height: 700 });
    const { page, problems } = await openAndWait('?embed=1&long=1&n=400&panels=positionBiases,combinedWeights');
    await page.waitForFunction(() => document.body.dataset.fit === '480x700');
    await whenDrawn(page);
    for (const id of ['combinedWeights', 'positionBiases']) {
      const layout = await layoutOf(page, id);
      // The fit narrowed the canvas below the title's own width ("clipped offset c = clip(j − i,
      // ±k) →" ran past both edges, "total weight at offset c" past the right one).
      expect(layout.width, id).toBeLessThan(250);
      expect(layout.barLabel.left, id).toBeGreaterThanOrEqual(0);
      expect(layout.barLabel.right, id).toBeLessThanOrEqual(layout.width);
      expect(layout.xTitle, id).toBeTruthy();
      expect(layout.xTitle.left, id).toBeGreaterThanOrEqual(0);
      expect(layout.xTitle.right, id).toBeLessThanOrEqual(layout.width);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(problems).toEqual([]);
  });

  test('n = 400 (and k = 0, causal) at 1280 px light and 360 px dark: each figure ends a few px under what its canvas draws', async () => {
    for (const query of ['?long=1&n=400', '?long=1&n=400&k=0&causal=1']) {
      const { page, problems } = await openAndWait(query);
      for (const [width, colorScheme] of [
        [1280, 'light'],
        [360, 'dark'],
      ]) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width, height: 900 });
        for (const id of ['contentScores', 'positionBiases', 'contentWeights', 'combinedWeights']) {
          const where = `${query} at ${width} px ${colorScheme}, ${id}`;
          const { canvas, ink, caption, layout } = await drawnPanel(page, id);
          // The matrix (n = 400 rows, a device pixel each at 1280 px) and the colour bar and note under it are drawn.
          expect(canvas.top + layout.y0 + layout.rows * layout.cellH, where).toBeLessThan(ink);
          // Under the last drawn row: the note's descenders' room (4 px) and a few px of rounding, never more.
          expect(canvas.bottom - ink, where).toBeGreaterThanOrEqual(0);
          expect(canvas.bottom - ink, where).toBeLessThanOrEqual(8);
          // The caption follows the canvas by its margin only.
          expect(caption - ink, where).toBeLessThanOrEqual(8 + 16);
        }
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(problems).toEqual([]);
    }
  });

  test('at 360 px every long-view note is drawn whole, wrapped between words inside the canvas, as its accessible name says it', async () => {
    for (const query of [
      '?long=1&n=400&k=0&causal=1',
      '?long=1&n=400&k=20&causal=1',
      '?long=1&n=1000&k=999&causal=1',
    ]) {
      const { page, problems } = await openAndWait(query);
      await page.setViewportSize({ width: 360, height: 900 });
      for (const id of ['contentScores', 'positionBiases', 'contentWeights', 'combinedWeights']) {
        const where = `${query} at 360 px, ${id}`;
        const { canvas, layout } = await drawnPanel(page, id);
        const note = await noteOf(page, id);
        expect(note, where).not.toBe('');
        expect(layout.noteLines.join(' '), where).toBe(note);
        for (const line of layout.noteLines) expect(line, where).not.toContain('…');
        // Each line, measured here in the note's font, inside the canvas (drawn from x = 4).
        const widths = await page.evaluate(
          ({ lines, font }) => {
            const g = document.createElement('canvas').getContext('2d');
            g.font = font;
            return lines.map((line) => g.measureText(line).width);
          },
          { lines: layout.noteLines, font: layout.noteFont },
        );
        for (const lineWidth of widths) expect(4 + lineWidth, where).toBeLessThanOrEqual(canvas.width);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(problems).toEqual([]);
    }
  });

  test('at 360 and 390 px dark on a phone (3 device px per px) each long-view heatmap takes three quarters of its card’s width or more, its column labels inside the canvas and apart, its note true for the grid drawn', async () => {
    // Pixel p of `size` covers cells ⌊p·count/size⌋ … ⌊(p + 1)·count/size⌋ − 1: the counts, as the note gives them.
    const covers = (count, size) => {
      const widths = new Set();
      for (let p = 0; p < size; p += 1)
        widths.add(Math.floor(((p + 1) * count) / size) - Math.floor((p * count) / size));
      const sorted = [...widths].sort((a, b) => a - b);
      return sorted.length === 1 ? String(sorted[0]) : `${sorted[0]}–${sorted.at(-1)}`;
    };
    const examples = new Map(); // the API's matrices of each view, for both widths
    for (const width of [360, 390]) {
      const opened = await env.open('', {
        viewport: { width, height: 800 },
        deviceScaleFactor: 3,
        colorScheme: 'dark',
        closedPanels: true,
      });
      const { page, problems } = opened;
      for (const [n, k, causal] of [
        [400, 20, false],
        [1000, 999, true],
        [300, 0, true],
      ]) {
        // "More panels" opened here, not by the fixture: at 360 px its panels are drawn only when
        // scrolled to (drawnPanel waits for each).
        await env.load(page, `?long=1&n=${n}&k=${k}${causal ? '&causal=1' : ''}`, { closedPanels: true });
        await page.evaluate(() => {
          document.getElementById('more-panels').open = true;
        });
        await whenDrawn(page);
        const reach = Math.min(k, n - 1);
        // Which panels mask, from the API's n × n matrices (independently of the page's rule): under
        // the causal mask a panel whose values at later keys (j > i) are all 0 is one of weights.
        const key = `${n} ${k} ${causal}`;
        if (!examples.has(key)) examples.set(key, pageExample(rp, { seqLen: n, maxDistance: k, causal, tokens: '' }));
        const ex = examples.get(key);
        const later = (id, i, j) =>
          id === 'offsets'
            ? j - i
            : id === 'difference'
              ? ex.combinedWeights.data[i * n + j] - ex.contentWeights.data[i * n + j]
              : ex[id].data[i * n + j];
        const masksOf = (id) =>
          causal &&
          [
            [0, 1],
            [0, n - 1],
            [n - 2, n - 1],
            [Math.floor(n / 2), Math.floor(n / 2) + 1],
          ].every(([i, j]) => later(id, i, j) === 0);
        for (const id of PANELS) {
          const where = `n = ${n}, k = ${k}${causal ? ', causal' : ''} at ${width} px, ${id}`;
          const { canvas, layout } = await drawnPanel(page, id);
          // The card's content width: the width its canvas is given.
          const content = await page.$eval(`#figure-${id} .relpos-canvas-wrap`, (wrap) => wrap.clientWidth);
          const grid = layout.cols * layout.cellW;
          expect([layout.rows, layout.cols], where).toEqual([n, 2 * reach + 1]);
          expect(canvas.width, where).toBeLessThanOrEqual(content);
          expect(grid / content, where).toBeGreaterThanOrEqual(0.75);
          expect(layout.x0 + grid, where).toBeLessThanOrEqual(canvas.width);
          // The column labels: inside the canvas, never touching one another; c = 0 always among them.
          const labels = [...layout.colLabels].sort((a, b) => a.left - b.left);
          expect(
            labels.map((label) => label.text),
            where,
          ).toContain('0');
          for (const [index, label] of labels.entries()) {
            expect(label.left, where).toBeGreaterThanOrEqual(0);
            expect(label.right, where).toBeLessThanOrEqual(canvas.width);
            if (index) expect(label.left, where).toBeGreaterThan(labels[index - 1].right);
          }
          // The note says what a pixel is for the grid drawn (none where a pixel is one cell),
          // and k = 0's one column.
          const note = await noteOf(page, id);
          const masks = masksOf(id);
          expect(/Grey: c > 0, masked|later keys masked/.test(note), where).toBe(masks);
          if (layout.gRows < n || layout.gCols < layout.cols) {
            const across = layout.gCols < layout.cols ? ` × ${covers(layout.cols, layout.gCols)} offsets` : '';
            const queries = layout.gRows < n ? `${covers(n, layout.gRows)} queries` : '1 query';
            // A pixel's mean leaves out the cells with no key (none at k = 0), and the masked ones
            // where the panel masks.
            const left =
              k > 0
                ? `, cells with ${masks ? 'no key or masked' : 'no key'} left out`
                : masks
                  ? ', masked cells left out'
                  : '';
            expect(note, where).toContain(`A pixel: mean of ${queries}${across}${left}.`);
          } else expect(note, where).not.toContain('A pixel');
          if (k === 0) expect(note, where).toContain('One column (k = 0)');
        }
      }
      expect(problems).toEqual([]);
      await opened.context.close();
    }
  });

  test('the caption says where the cells with no key are and how high they are drawn, the pixel note comes when a cell is under a device pixel, and the offsets’ labels take ±1 where they fit', async () => {
    // Leading rows (from the matrix's top in column 0, c = −k′, or from its foot in the last
    // column, c = k′) whose device pixels are the canvas's background (its corner's): no key there.
    const blankRows = (page, id, layout, fromTop) =>
      page.$eval(
        `#figure-${id} canvas`,
        (canvas, [L, top]) => {
          const ratio = canvas.width / canvas.getBoundingClientRect().width;
          const g = canvas.getContext('2d');
          const at = (x, y) => Array.from(g.getImageData(Math.floor(x * ratio), y, 1, 1).data).join();
          const background = at(0.5, 1);
          const x = L.x0 + (top ? 0.5 : L.cols - 0.5) * L.cellW;
          const first = Math.round(L.y0 * ratio);
          const last = Math.round((L.y0 + L.rows * L.cellH) * ratio) - 1;
          let count = 0;
          while (count < 50 && at(x, top ? first + count : last - count) === background) count += 1;
          return { count, ratio };
        },
        [layout, fromTop],
      );
    for (const [query, viewport, id, n, reach] of [
      ['?long=1&n=700&present=offsets', { width: 1920, height: 1080 }, 'offsets', 700, 3],
      ['?long=1&n=700', { width: 390, height: 844 }, 'contentScores', 700, 3],
      ['?long=1&n=2048&k=1', { width: 390, height: 844 }, 'contentScores', 2048, 1],
    ]) {
      const where = `${query} at ${viewport.width} px, ${id}`;
      const { page, context, problems } = await env.open(query, { viewport });
      await page.waitForFunction(() => !document.body.dataset.busy, null, { timeout: 120_000 });
      const { layout } = await drawnPanel(page, id);
      const top = await blankRows(page, id, layout, true);
      const bottom = await blankRows(page, id, layout, false);
      const caption = await page.textContent(`#figure-${id} .relpos-caption`);
      const blankPx = Math.max(top.count, bottom.count) / top.ratio; // CSS px
      const rows = reach === 1 ? 'at most 1 row' : `at most ${reach} rows`;
      if (blankPx > 0)
        expect(caption, where).toContain(
          `Blank: no key at that offset (j = i + c outside 0…n − 1), the top |c| rows of c < 0, bottom c of c > 0: ${rows}, ${blankPx} px here.`,
        );
      else
        expect(caption, where).toContain(
          `in the top |c| rows of c < 0, bottom c of c > 0: ${rows}, under a pixel here.`,
        );
      // The note on pixels comes exactly when a drawn cell is under a device pixel.
      const note = await noteOf(page, id);
      const under = n * layout.cellH * top.ratio < n - 0.5; // the matrix's device rows fewer than its queries
      expect(note.includes('A pixel: mean of'), where).toBe(under);
      // The columns' labels: c = −1 and 1 too where they fit (each apart from the next; at k = 1 they are ≤−1 and ≥1).
      const labels = [...layout.colLabels].sort((a, b) => a.left - b.left);
      if (reach > 1 && layout.cellW >= 20)
        expect(
          labels.map((label) => label.text),
          where,
        ).toEqual(expect.arrayContaining(['−1', '1']));
      for (const [index, label] of labels.entries())
        if (index) expect(label.left, where).toBeGreaterThan(labels[index - 1].right);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  test('turning the long view off brings n back to 64 at most, with words and square panels again', async () => {
    const { page } = await openAndWait('?long=1&n=100');
    await page.uncheck('#long');
    expect(await page.inputValue('#seqLen')).toBe('64');
    expect(await page.isDisabled('#tokens')).toBe(false);
    await expect.poll(() => new URL(page.url()).searchParams.get('long')).toBeNull();
    expect(await page.getAttribute('#figure-offsets canvas', 'aria-label')).toContain('64 by 64 heatmap');
  });
});
