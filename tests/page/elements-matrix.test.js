// <relpos-attention>'s `matrix` property in Chromium ("draw your own data"): one matrix
// of the user's own, any rows × cols, drawn with the colours d3-scale-chromatic gives its values
// (computed here in Node, independently of the build's tables), square cells, a caption true for
// the numbers, the tooltip reading a cell with its labels, −Infinity cells masked, and bad values
// refused with a TypeError or RangeError naming the field while the element keeps what it drew.
import { readFileSync } from 'node:fs';
import { downloadedBytes } from './browser.js';
import { interpolateRdBu, interpolateViridis } from 'd3-scale-chromatic';
import { describe, expect, test } from 'vitest';
import { usePage } from './page-fixture.js';

const env = usePage();

async function openExamples(colorScheme = 'light') {
  const context = await env.browser.newContext({ viewport: { width: 900, height: 900 }, colorScheme });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${env.server.url}examples/elements.html`);
  await page.waitForFunction(() => document.getElementById('attention').view);
  // One element of our own, at the top, with nothing else on the page.
  await page.evaluate(() => {
    document.querySelector('main').replaceChildren();
    const el = document.createElement('relpos-attention');
    el.id = 'own';
    document.querySelector('main').append(el);
  });
  await page.waitForFunction(() => document.getElementById('own').view);
  return { page, context, problems };
}

// Sets el.matrix (the value built by `source`, the body of a function) and resolves with the
// relpos-render notes; the page's rendering of its numbers is then read by `readCells`.
const setMatrix = (page, source) =>
  page.evaluate(
    (body) =>
      new Promise((done) => {
        const el = document.getElementById('own');
        el.addEventListener('relpos-render', (event) => done(event.detail.notes), { once: true });
        el.matrix = new Function(body)();
      }),
    source,
  );

// The centre pixel of every cell, from the layout the canvas records, and the caption, title
// and aria-label.
const readCells = (page) =>
  page.$eval('#own', (el) => {
    const canvas = el.shadowRoot.querySelector('canvas');
    const layout = JSON.parse(canvas.dataset.layout);
    const ratio = canvas.width / canvas.getBoundingClientRect().width;
    const g = canvas.getContext('2d');
    const pixels = [];
    for (let i = 0; i < layout.rows; i += 1)
      for (let j = 0; j < layout.cols; j += 1) {
        const x = Math.floor((layout.x0 + (j + 0.5) * layout.cellW) * ratio);
        const y = Math.floor((layout.y0 + (i + 0.5) * layout.cellH) * ratio);
        pixels.push(Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3)));
      }
    return {
      pixels,
      layout,
      title: el.shadowRoot.querySelector('h2').textContent,
      caption: el.shadowRoot.querySelector('.relpos-caption').textContent,
      label: canvas.getAttribute('aria-label'),
      panels: el.shadowRoot.querySelectorAll('canvas').length,
      masked: getComputedStyle(canvas).getPropertyValue('--relpos-masked').trim(),
    };
  });

const rgb = (css) =>
  css.startsWith('#')
    ? [1, 3, 5].map((at) => parseInt(css.slice(at, at + 2), 16))
    : css.match(/\d+/g).slice(0, 3).map(Number);
// The tables have 256 entries: a value lands within half an entry of d3's colour.
const near = (got, want) => got.every((c, i) => Math.abs(c - want[i]) <= 3);

// Softmax rows of a 3 × 7 matrix: three queries at the end of a seven-token context (cached decoding).
const ROWS = 3;
const COLS = 7;
const weights = [];
for (let i = 0; i < ROWS; i += 1) {
  const row = Array.from({ length: COLS }, (_, j) => Math.exp(-Math.abs(j - (i + 4)) + 0.3 * Math.sin(5 * i + j)));
  const sum = row.reduce((a, b) => a + b);
  weights.push(...row.map((w) => w / sum));
}
const KEYS = ['the', 'cat', 'sat', 'on', 'the', 'mat', '.'];

describe('<relpos-attention> el.matrix: a matrix of your own', () => {
  test('weights n_q × n_k (3 × 7) from { data, dims }: one panel, square cells, each cell the viridis colour of w / max, caption and labels true', async () => {
    const { page, context, problems } = await openExamples();
    const notes = await setMatrix(
      page,
      `return { data: Float32Array.from(${JSON.stringify(weights)}), dims: [${ROWS}, ${COLS}], kind: 'weights',
        rowLabels: ['sat', 'on', 'mat'], colLabels: ${JSON.stringify(KEYS)}, title: 'Layer 2, head 3' };`,
    );
    expect(notes).toEqual([]);
    const drawn = await readCells(page);
    expect(drawn.panels).toBe(1);
    expect(drawn.title).toBe('Layer 2, head 3');
    expect(drawn.layout).toMatchObject({ rows: 3, cols: 7 });
    expect(drawn.layout.cellW).toBeCloseTo(drawn.layout.cellH, 6); // square cells
    expect(drawn.layout.cellW).toBeGreaterThan(40);
    const stored = Float32Array.from(weights); // what the element was given
    const top = Math.max(...stored);
    stored.forEach((w, index) =>
      expect(near(drawn.pixels[index], rgb(interpolateViridis(w / top))), `cell ${index}: ${drawn.pixels[index]}`).toBe(
        true,
      ),
    );
    expect(drawn.caption).toBe(
      'Row i is a query, column j a key (3 queries, 7 keys): how much query i takes from key j. Every row sums to 1. Colours: 0 to this panel’s largest weight.',
    );
    expect(drawn.label).toMatch(/^Layer 2, head 3: 3 by 7 heatmap, query rows i down, key columns j across;/);
    // Reading gives what is drawn.
    const read = await page.$eval('#own', (el) => ({ ...el.matrix, data: Array.from(el.matrix.data) }));
    expect(read).toMatchObject({ rows: 3, cols: 7, kind: 'weights', title: 'Layer 2, head 3', max: null });
    expect(read.data).toEqual(Array.from(stored));
    // Hovering a cell reads it, with the words.
    const box = await page.$eval('#own', (el) => {
      const canvas = el.shadowRoot.querySelector('canvas');
      const r = canvas.getBoundingClientRect();
      const l = JSON.parse(canvas.dataset.layout);
      return { x: r.left + l.x0 + 4.5 * l.cellW, y: r.top + l.y0 + 1.5 * l.cellH };
    });
    await page.mouse.move(box.x, box.y);
    const tip = await page.$eval('#own', (el) => el.shadowRoot.querySelector('.relpos-tooltip').innerText);
    expect(tip).toContain('(1, 4)');
    expect(tip).toContain('on → the');
    expect(tip).toContain(String(Number(stored[7 + 4].toPrecision(3))));
    // The arrow keys move on from the cell read last, within rows × cols.
    await page.mouse.move(0, 0);
    await page.$eval('#own', (el) => el.shadowRoot.querySelector('.relpos-canvas-wrap').focus());
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'End'])
      await page.keyboard.press(key);
    const readout = await page.$eval('#own', (el) => el.shadowRoot.querySelector('[aria-live]').textContent);
    expect(readout).toBe(`Layer 2, head 3, row 2, column 6: ${Number(stored[2 * 7 + 6].toPrecision(3))}.`);
    // Download PNG: by the matrix panels' exporter, as theirs: named after its title, 2× the
    // panel's CSS width whatever the screen's density, taller than the matrix by its title and
    // caption above, opaque (the panel's background in a corner).
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#own').getByRole('button', { name: 'Download PNG: Layer 2, head 3' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('relpos-layer-2-head-3.png');
    const png = await downloadedBytes(download);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const css = await page.$eval('#own', (el) => {
      const canvas = el.shadowRoot.querySelector('canvas');
      return { width: parseFloat(canvas.style.width), height: parseFloat(canvas.style.height) };
    });
    expect(png.readUInt32BE(16)).toBe(2 * css.width);
    expect(png.readUInt32BE(20)).toBeGreaterThan(2 * css.height + 2 * 30);
    const corner = await page.evaluate(async (bytes) => {
      const image = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }));
      const g = new OffscreenCanvas(image.width, image.height).getContext('2d');
      g.drawImage(image, 0, 0);
      return Array.from(g.getImageData(1, 1, 1, 1).data);
    }, Array.from(png));
    expect(corner[3]).toBe(255);
    // No SVG: its writer draws square n × n panels only.
    expect(
      await page
        .locator('#own')
        .getByRole('button', { name: /^Download SVG/ })
        .count(),
    ).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('scores from a plain array (JSON, null for −∞): diverging around 0, masked cells in --relpos-masked, light and dark; max fixes the range', async () => {
    for (const scheme of ['light', 'dark']) {
      const { page, context, problems } = await openExamples(scheme);
      const n = 5;
      const scores = Array.from({ length: n * n }, (_, k) => {
        const [i, j] = [Math.floor(k / n), k % n];
        return j > i ? null : Math.round(40 * Math.sin(3 * i + 2 * j)) / 10; // −4 … 4, causal
      });
      await page.$eval('#own', (el) => el.setAttribute('tokens', 'a b c d e'));
      const notes = await setMatrix(
        page,
        `return JSON.parse('${JSON.stringify({ data: scores, rows: n, cols: n })}');`,
      );
      expect(notes).toEqual([]);
      const drawn = await readCells(page);
      expect(drawn.title).toBe('Attention scores'); // inferred: signed values
      const m = Math.max(...scores.filter((v) => v !== null).map(Math.abs));
      scores.forEach((v, index) => {
        const want = v === null ? rgb(drawn.masked) : rgb(interpolateRdBu(1 - (v + m) / (2 * m)));
        expect(near(drawn.pixels[index], want), `${scheme} cell ${index} (${v}): ${drawn.pixels[index]}`).toBe(true);
      });
      expect(drawn.masked).toBe(scheme === 'dark' ? '#4a4a52' : '#bdbdc4');
      expect(drawn.caption).toBe(
        `Scores before the softmax. Row i is a query, column j a key. Signed: blue below 0, red above, white at 0; colours from −${m} to ${m} (this panel’s largest |value|). Grey: masked cells (−∞), which a softmax gives weight 0.`,
      );
      expect(drawn.label).toContain('; 10 masked cells (grey).');
      // The tokens attribute labels a square matrix without labels of its own.
      const box = await page.$eval('#own', (el) => {
        const canvas = el.shadowRoot.querySelector('canvas');
        const r = canvas.getBoundingClientRect();
        const l = JSON.parse(canvas.dataset.layout);
        return { x: r.left + l.x0 + 3.5 * l.cellW, y: r.top + l.y0 + 1.5 * l.cellH };
      });
      await page.mouse.move(box.x, box.y);
      const tip = await page.$eval('#own', (el) => el.shadowRoot.querySelector('.relpos-tooltip').innerText);
      expect(tip).toContain('masked (−∞)');
      expect(tip).toContain('b → d');
      // A given max: colours from −max to max, beyond it they saturate (and the caption says so).
      await setMatrix(
        page,
        `return { data: ${JSON.stringify(scores)}, rows: ${n}, cols: ${n}, kind: 'biases', max: 2 };`,
      );
      const fixed = await readCells(page);
      scores.forEach((v, index) => {
        if (v === null) return;
        const t = (Math.max(-2, Math.min(2, v)) + 2) / 4;
        expect(near(fixed.pixels[index], rgb(interpolateRdBu(1 - t))), `biases cell ${index}`).toBe(true);
      });
      expect(fixed.title).toBe('Biases');
      expect(fixed.caption).toContain('colours from −2 to 2 (as given), beyond that they saturate.');
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  test('an onnxruntime-style Tensor as is; rows that are not a softmax are said to be so; 1 × 300 and 1500 × 1700 draw (block means, said under the bar)', async () => {
    const { page, context, problems } = await openExamples();
    // A class whose data is a getter, as onnxruntime-web's Tensor: its own fields are not checked.
    await setMatrix(
      page,
      `class Tensor { constructor(data, dims) { this.cpuData = data; this.dims = dims; this.type = 'float32'; }
         get data() { return this.cpuData; } }
       return new Tensor(new Float32Array([0.5, 0.25, 0.5, 0.25, 0.5, 0.5]), [2, 3]);`,
    );
    let drawn = await readCells(page);
    expect(drawn.title).toBe('Attention weights');
    expect(drawn.caption).toContain('Row sums run from 1.25 to 1.25.');
    const top = 0.5;
    [0.5, 0.25, 0.5, 0.25, 0.5, 0.5].forEach((w, index) =>
      expect(near(drawn.pixels[index], rgb(interpolateViridis(w / top)))).toBe(true),
    );
    // One query over a long cache: one row, still visible.
    await setMatrix(page, `return { data: new Float64Array(300).fill(1 / 300), rows: 1, cols: 300 };`);
    drawn = await readCells(page);
    expect(drawn.layout).toMatchObject({ rows: 1, cols: 300 });
    expect(drawn.layout.cellH).toBeGreaterThanOrEqual(24 - 1e-9);
    // More cells than pixels: each pixel the mean of its cells.
    const big = await setMatrix(
      page,
      `const rows = 1500, cols = 1700, data = new Float32Array(rows * cols);
       for (let i = 0; i < rows; i += 1) for (let j = 0; j < cols; j += 1) data[i * cols + j] = j > i + 200 ? -Infinity : Math.sin(i / 100) * Math.cos(j / 150);
       return { data, rows, cols, kind: 'scores' };`,
    );
    expect(big).toEqual([]);
    const state = await page.$eval('#own', (el) => {
      const canvas = el.shadowRoot.querySelector('canvas');
      const layout = JSON.parse(canvas.dataset.layout);
      const ratio = canvas.width / canvas.getBoundingClientRect().width;
      const g = canvas.getContext('2d');
      // The first and last pixel of the top row: a mean of unmasked cells, and of masked ones only.
      const at = (x, y) =>
        Array.from(g.getImageData(Math.floor(x * ratio), Math.floor(y * ratio), 1, 1).data.slice(0, 3));
      const y = layout.y0 + 0.5 / ratio;
      return {
        layout,
        first: at(layout.x0 + 0.5 / ratio, y),
        last: at(layout.x0 + layout.cols * layout.cellW - 0.5 / ratio, y),
        label: canvas.getAttribute('aria-label'),
        masked: getComputedStyle(canvas).getPropertyValue('--relpos-masked').trim(),
      };
    });
    const { gRows, gCols } = state.layout;
    expect(gCols).toBeLessThan(1700);
    expect(gRows).toBeLessThan(1500);
    expect(state.label).toContain(
      `1500 × 1700 cells on ${gRows} × ${gCols} pixels: each pixel shows the mean of the cells it covers.`,
    );
    expect(state.last).toEqual(rgb(state.masked));
    expect(near(state.first, rgb(state.masked))).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("the README's example runs as written (an onnxruntime-style Tensor's head, then JSON fetched) and draws what it says", async () => {
    const readme = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Draw your own data'));
    const example = section
      .match(/```js[^\n]*\n([\s\S]*?)```/)[1]
      .replace(/^import .*$/m, '') // the page has the elements already
      .replace("document.querySelector('relpos-attention')", "document.getElementById('own')");
    const { page, context, problems } = await openExamples();
    const json = { data: [0.75, 0.25, 0, 0.5, 0.5, 0], shape: [2, 3] };
    await page.route('**/weights.json', (route) => route.fulfill({ json }));
    // dims [1, 4, 3, 5]: four heads of 3 queries × 5 keys; head h's weights are h / 4 … (uniform rows otherwise).
    const heads = await page.evaluate(async (code) => {
      const attn = {
        dims: [1, 4, 3, 5],
        data: new Float32Array(4 * 15).map((_, index) => (index % 15 === 0 ? 0.8 : 0.05)),
      };
      const queryTokens = ['sat', 'on', 'mat'];
      const keyTokens = ['the', 'cat', 'sat', 'on', 'mat'];
      const el = document.getElementById('own');
      const drawn = [];
      el.addEventListener('relpos-render', () => drawn.push({ ...el.matrix, data: Array.from(el.matrix.data) }));
      await new Function('attn', 'queryTokens', 'keyTokens', `return (async () => { ${code} })();`)(
        attn,
        queryTokens,
        keyTokens,
      );
      await new Promise((done) => el.addEventListener('relpos-render', done, { once: true }));
      return drawn;
    }, example);
    // The last render is of the JSON matrix, the example's second assignment.
    const last = heads.at(-1);
    expect(last).toMatchObject({ rows: 2, cols: 3, kind: 'weights', data: json.data });
    const drawn = await readCells(page);
    json.data.forEach((w, index) => expect(near(drawn.pixels[index], rgb(interpolateViridis(w / 0.75)))).toBe(true));
    // The first assignment alone: head 3 of the tensor, its labels and title.
    const first = await page.evaluate(async (code) => {
      const attn = {
        dims: [1, 4, 3, 5],
        data: new Float32Array(4 * 15).map((_, index) => (index === 45 ? 0.8 : 0.05)),
      };
      const el = document.getElementById('own');
      const body = code.slice(0, code.indexOf('// From PyTorch'));
      new Function('attn', 'queryTokens', 'keyTokens', body)(
        attn,
        ['sat', 'on', 'mat'],
        ['the', 'cat', 'sat', 'on', 'mat'],
      );
      await new Promise((done) => el.addEventListener('relpos-render', done, { once: true }));
      return { ...el.matrix, data: Array.from(el.matrix.data) };
    }, example);
    expect(first).toMatchObject({ rows: 3, cols: 5, title: 'Layer 2, head 3', rowLabels: ['sat', 'on', 'mat'] });
    expect(first.data[0]).toBeCloseTo(0.8, 6); // element 45 of the tensor: head 3's first cell
    expect(first.data.slice(1)).toEqual(Array(14).fill(Math.fround(0.05)));
    expect(problems).toEqual([]);
    await context.close();
  });

  test('bad values: a TypeError or RangeError naming the field, and the element keeps drawing what it had; null goes back to the example; result and matrix replace each other', async () => {
    const { page, context, problems } = await openExamples();
    await page.$eval('#own', (el) => {
      el.example = el.result;
    });
    await setMatrix(page, `return { data: [0.2, 0.8, 0.6, 0.4], rows: 2, cols: 2 };`);
    const before = await page.$eval('#own', (el) => [
      el.shadowRoot.querySelector('canvas').toDataURL(),
      Array.from(el.matrix.data),
    ]);
    const errors = await page.$eval('#own', (el) =>
      [
        () => 5,
        () => [0.1, 0.2],
        () => ({ data: [1, 2, 3], rows: 2, cols: 2 }),
        () => ({ data: [1, 2, 3, 4], rows: 2 }),
        () => ({ data: [1, 2, 3, 4], dims: [1, 2, 2] }),
        () => ({ data: new Float32Array(4 * 64 * 64), dims: [1, 4, 64, 64] }),
        () => ({ data: [1, 2, 3, 4], dims: [2, 2.5] }),
        () => ({ data: 'abcd', rows: 2, cols: 2 }),
        () => ({ data: [1, 'x', 3, 4], rows: 2, cols: 2 }),
        () => ({ data: [1, NaN, 3, 4], rows: 2, cols: 2 }),
        () => ({ data: new BigInt64Array(4), rows: 2, cols: 2 }),
        () => ({ data: [0.5, -0.1, 0.3, 0.2], rows: 2, cols: 2, kind: 'weights' }),
        () => ({ data: [1, 2, 3, 4], rows: 2, cols: 2, kind: 'heat' }),
        () => ({ data: [1, 2, 3, 4], rows: 2, cols: 2, kind: 3 }),
        () => ({ data: [1, 2, 3, 4], rows: 2, cols: 2, rowLabels: ['a'] }),
        () => ({ data: [1, 2, 3, 4], rows: 2, cols: 2, colLabels: 'a b' }),
        () => ({ data: [1, 2, 3, 4], rows: 2, cols: 2, title: 7 }),
        () => ({ data: [1, 2, 3, 4], rows: 2, cols: 2, max: -1 }),
        () => ({ data: [1, 2, 3, 4], rows: 2, cols: 2, rowlabels: ['a', 'b'] }),
        () => ({ data: new Float32Array(1), rows: 2049, cols: 2049 }),
        () => ({ data: [[1, 2], [3]] }),
        () => ({ data: [[1, 2], 'ab'] }),
        () => ({
          data: [
            [1, 2],
            [3, 4],
          ],
          dims: [3, 2],
        }),
      ].map((make) => {
        try {
          el.matrix = make();
          return null;
        } catch (error) {
          return `${error.constructor.name}: ${error.message}`;
        }
      }),
    );
    const where = 'relpos-attention: matrix';
    expect(errors).toEqual([
      `TypeError: ${where}: matrix must be { data, rows, cols } or { data, dims: [rows, cols] } (with kind, title, rowLabels, colLabels), got 5`,
      `TypeError: ${where}: matrix must be { data, rows, cols } or { data, dims: [rows, cols] } (with kind, title, rowLabels, colLabels), got an Array`,
      `RangeError: ${where}: matrix.data must hold rows × cols = 4 numbers, got 3`,
      `TypeError: ${where}: matrix.cols must be a positive integer (or give dims: [rows, cols]), got undefined`,
      `RangeError: ${where}: matrix.dims must be [rows, cols] (2 dimensions), got [1, 2, 2]; pick one head, e.g. { data: t.data.subarray(h * 2 * 2, (h + 1) * 2 * 2), dims: [2, 2] }`,
      `RangeError: ${where}: matrix.dims must be [rows, cols] (2 dimensions), got [1, 4, 64, 64]; pick one head, e.g. { data: t.data.subarray(h * 64 * 64, (h + 1) * 64 * 64), dims: [64, 64] }`,
      `RangeError: ${where}: matrix.dims[1] must be a positive integer, got 2.5`,
      `TypeError: ${where}: matrix.data must be an array of numbers or a typed array, got a string ("abcd")`,
      `TypeError: ${where}: matrix.data[1] must be a number, got a string ("x")`,
      `RangeError: ${where}: matrix.data[1] is NaN; every entry must be finite (−Infinity or null: a masked cell)`,
      `TypeError: ${where}: matrix.data must hold numbers, got a BigInt64Array (convert it with Float64Array.from)`,
      `RangeError: ${where}: matrix.data[1] is -0.1; kind 'weights' takes values from 0 to 1 (signed or masked values: kind 'scores' or 'biases')`,
      `RangeError: ${where}: matrix.kind must be one of 'weights', 'scores', 'biases', 'difference', got "heat"`,
      `TypeError: ${where}: matrix.kind must be one of 'weights', 'scores', 'biases', 'difference', got 3`,
      `RangeError: ${where}: matrix.rowLabels must have 2 entries (one per row), got 1`,
      `TypeError: ${where}: matrix.colLabels must be an array of 2 strings, got a string ("a b")`,
      `TypeError: ${where}: matrix.title must be a string, got 7`,
      `RangeError: ${where}: matrix.max must be a positive finite number, got -1`,
      `TypeError: ${where}: matrix has no field "rowlabels"; expected data, rows, cols, dims, shape, kind, title, caption, rowLabels, colLabels, max`,
      `RangeError: ${where}: matrix must have at most 4,194,304 cells (2048 × 2048), got 2,049 × 2,049 = 4,198,401; draw a part of it, or relpos-wasm/render's heatmap on a canvas of your own`,
      `RangeError: ${where}: matrix.data[1] has 1 number; every row must have as many as the first, 2`,
      `TypeError: ${where}: matrix.data[1] must be a row (an array of numbers), as data[0] is, got a string ("ab")`,
      `RangeError: ${where}: matrix.data must hold rows × cols = 6 numbers, got 4`,
    ]);
    // Nothing changed: the same matrix, the same pixels, after a redraw.
    await page.$eval('#own', (el) => el.redraw());
    const after = await page.$eval('#own', (el) => [
      el.shadowRoot.querySelector('canvas').toDataURL(),
      Array.from(el.matrix.data),
    ]);
    expect(after).toEqual(before);
    // Rows as arrays (JSON of a 2-D array, PyTorch's .tolist()): the sides are the rows', null masked.
    await setMatrix(page, 'return { data: [[0.5, -1, null], [2, 0, 1.5]], kind: "scores" };');
    expect(await page.$eval('#own', (el) => [el.matrix.rows, el.matrix.cols, Array.from(el.matrix.data)])).toEqual([
      2,
      3,
      [0.5, -1, -Infinity, 2, 0, 1.5],
    ]);
    // null: the example again (its six panels).
    await setMatrix(page, 'return null;');
    expect(
      await page.$eval('#own', (el) => [el.matrix, el.view.n, el.shadowRoot.querySelectorAll('canvas').length]),
    ).toEqual([null, 6, 6]);
    // A result replaces a matrix, and a matrix a result.
    await setMatrix(page, `return { data: [0.2, 0.8, 0.6, 0.4], rows: 2, cols: 2, caption: 'Mine.' };`);
    expect(await page.$eval('#own', (el) => el.shadowRoot.querySelector('.relpos-caption').textContent)).toBe('Mine.');
    const swapped = await page.$eval(
      '#own',
      (el) =>
        new Promise((done) => {
          const { example } = el; // the example's result, kept from before
          el.addEventListener('relpos-render', () => done([el.matrix, el.view.n, el.result === example]), {
            once: true,
          });
          el.result = example;
        }),
    );
    expect(swapped).toEqual([null, 6, true]);
    const back = await setMatrix(page, `return { data: [0.2, 0.8, 0.6, 0.4], rows: 2, cols: 2 };`);
    expect(back).toEqual([]);
    expect(await page.$eval('#own', (el) => [el.result, el.view, el.matrix.rows])).toEqual([null, null, 2]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
