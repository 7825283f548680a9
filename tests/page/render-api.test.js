// relpos-wasm/render in Chromium: the public heatmap, colour bar and line plot draw a user's own
// numbers; each cell's colour is checked against d3-scale-chromatic's colour of its value
// (computed here in Node, independently of the build's tables).
import { interpolateRdBu, interpolateViridis } from 'd3-scale-chromatic';
import { beforeAll, describe, expect, test } from 'vitest';
import { useRenderPage } from './render-page.js';

const env = useRenderPage({ width: 800, height: 900 });
let page;

beforeAll(async () => {
  ({ page } = env);
  await page.waitForFunction(() => window.render);
});

// d3 writes "#rrggbb" (viridis) or "rgb(r, g, b)" (RdBu).
const rgb = (css) =>
  css.startsWith('#')
    ? [1, 3, 5].map((at) => parseInt(css.slice(at, at + 2), 16))
    : css.match(/\d+/g).slice(0, 3).map(Number);

// Draws with `options` on a fresh canvas and returns the centre pixel of every cell.
const drawAndRead = (matrix, options) =>
  page.evaluate(
    ([m, o]) => {
      const canvas = document.createElement('canvas');
      document.body.append(canvas);
      // maskFrom crosses into the page as the source of its body.
      const maskFrom = o.maskFrom ? new Function('i', o.maskFrom) : undefined;
      const layout = window.render.heatmap(canvas, m, { ...o, maskFrom, width: 600 });
      const g = canvas.getContext('2d');
      const ratio = devicePixelRatio;
      const { rows, cols } = window.render.toMatrix(m);
      const pixels = [];
      for (let i = 0; i < rows; i += 1)
        for (let j = 0; j < cols; j += 1) {
          const x = Math.floor((layout.x0 + (j + 0.5) * layout.cellW) * ratio);
          const y = Math.floor((layout.y0 + (i + 0.5) * layout.cellH) * ratio);
          pixels.push(Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3)));
        }
      return { pixels, layout };
    },
    [matrix, options],
  );

const close = (got, want) => got.every((c, i) => Math.abs(c - want[i]) <= 3);

describe('relpos-wasm/render', () => {
  test('heatmap: each cell has the colour d3 gives its value (sequential, fixed range)', async () => {
    const data = [0, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 1, 0.05, 0.95, 0.33];
    const { pixels, layout } = await drawAndRead({ rows: 3, cols: 4, data }, { min: 0, max: 1, label: 'weight' });
    expect(layout.cellW).toBeGreaterThan(20);
    data.forEach((value, index) =>
      expect(
        close(pixels[index], rgb(interpolateViridis(value))),
        `${value}: ${pixels[index]} vs ${interpolateViridis(value)}`,
      ).toBe(true),
    );
  });

  test('heatmap: { data, dims } (onnxruntime) and { data, shape }, diverging around 0, values beyond the range saturate', async () => {
    const data = [-2, -1, 0, 1, 2, 4];
    for (const matrix of [
      { data, dims: [2, 3] },
      { data, shape: [2, 3] },
    ]) {
      const { pixels } = await drawAndRead(matrix, { scale: 'diverging', max: 2 });
      data.forEach((value, index) => {
        const t = (Math.min(value, 2) + 2) / 4;
        expect(close(pixels[index], rgb(interpolateRdBu(1 - t))), `${value}`).toBe(true);
      });
    }
  });

  test('heatmap: an onnxruntime-style Tensor as is (data a getter of the class), n_q ≠ n_k (2 × 5)', async () => {
    const data = [0.1, 0.2, 0.3, 0.15, 0.25, 0.6, 0.1, 0.1, 0.1, 0.1];
    const result = await page.evaluate((values) => {
      class Tensor {
        constructor(array, dims) {
          this.cpuData = array;
          this.dims = dims;
          this.type = 'float32';
        }
        get data() {
          return this.cpuData;
        }
      }
      const canvas = document.createElement('canvas');
      document.body.append(canvas);
      const layout = window.render.heatmap(canvas, new Tensor(Float32Array.from(values), [2, 5]), { width: 600 });
      const g = canvas.getContext('2d');
      const pixels = [];
      for (let i = 0; i < 2; i += 1)
        for (let j = 0; j < 5; j += 1) {
          const x = Math.floor((layout.x0 + (j + 0.5) * layout.cellW) * devicePixelRatio);
          const y = Math.floor((layout.y0 + (i + 0.5) * layout.cellH) * devicePixelRatio);
          pixels.push(Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3)));
        }
      return pixels;
    }, data);
    const stored = Float32Array.from(data);
    const [low, high] = [Math.min(...stored), Math.max(...stored)];
    stored.forEach((value, index) =>
      expect(close(result[index], rgb(interpolateViridis((value - low) / (high - low)))), `cell ${index}`).toBe(true),
    );
  });

  test('heatmap: maskFrom draws the masked cells in the masked colour', async () => {
    const { pixels } = await drawAndRead(
      { rows: 3, cols: 3, data: [1, 2, 3, 4, 5, 6, 7, 8, 9] },
      { maskFrom: 'return i + 1', colours: { masked: '#808080' } },
    );
    const masked = [1, 2, 5];
    pixels.forEach((pixel, index) =>
      expect(close(pixel, [128, 128, 128]), `cell ${index}`).toBe(masked.includes(index)),
    );
  });

  test('heatmap: drawn at the pixel ratio of the moment (devicePixelRatio 2, then 1, then inside a 2× scaled box)', async () => {
    // The same canvas drawn again after the screen's ratio changes, then a canvas in a box scaled
    // by a CSS transform: the backing store is the CSS box times the ratio, each cell a whole
    // number of device pixels, and each cell's colour d3's.
    const data = [0, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 1, 0.05, 0.95, 0.33];
    const draw = (scaled) =>
      page.evaluate(
        ([values, inBox]) => {
          let canvas = document.getElementById('ratio-canvas');
          if (!canvas || inBox) {
            canvas = document.createElement('canvas');
            canvas.id = inBox ? 'scaled-canvas' : 'ratio-canvas';
            const box = document.createElement('div');
            if (inBox) Object.assign(box.style, { transform: 'scale(2)', transformOrigin: '0 0', width: '600px' });
            box.append(canvas);
            document.body.prepend(box);
          }
          const layout = window.render.heatmap(
            canvas,
            { rows: 3, cols: 4, data: values },
            { min: 0, max: 1, width: 600 },
          );
          const g = canvas.getContext('2d');
          const ratio = canvas.width / parseFloat(canvas.style.width);
          const pixels = [];
          for (let i = 0; i < 3; i += 1)
            for (let j = 0; j < 4; j += 1) {
              const x = Math.floor((layout.x0 + (j + 0.5) * layout.cellW) * ratio);
              const y = Math.floor((layout.y0 + (i + 0.5) * layout.cellH) * ratio);
              pixels.push(Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3)));
            }
          return {
            screen: devicePixelRatio,
            backing: [canvas.width, canvas.height],
            css: [parseFloat(canvas.style.width), parseFloat(canvas.style.height)],
            cellDevice: [layout.cellW * ratio, layout.cellH * ratio, layout.x0 * ratio, layout.y0 * ratio],
            pixels,
          };
        },
        [data, scaled],
      );
    const session = await page.context().newCDPSession(page);
    const drawn = [await draw(false)];
    await session.send('Emulation.setDeviceMetricsOverride', {
      width: 800,
      height: 900,
      deviceScaleFactor: 1,
      mobile: false,
    });
    drawn.push(await draw(false), await draw(true));
    await session.send('Emulation.clearDeviceMetricsOverride');
    expect(drawn.map(({ screen }) => screen)).toEqual([2, 1, 1]);
    drawn.forEach(({ backing, css, cellDevice, pixels }, index) => {
      const ratio = [2, 1, 2][index];
      expect(backing, `draw ${index}`).toEqual(css.map((side) => Math.round(side * ratio)));
      for (const length of cellDevice)
        expect(Math.abs(length - Math.round(length)), `draw ${index}`).toBeLessThan(1e-9);
      data.forEach((value, cell) =>
        expect(close(pixels[cell], rgb(interpolateViridis(value))), `draw ${index}, cell ${cell}`).toBe(true),
      );
    });
  });

  test('wrapMath (titles in canvases): a word wider than the room is cut to end in “…” inside it; more text than lines ends in “…”', async () => {
    // Plain words, measured here with the canvas's own measureText in the same font.
    const cases = [
      ['difference', 40, 2],
      ['a verylongwordindeed b', 60, 2],
      ['output value blue below zero red above', 90, 2],
      ['fits in one line', 400, 2],
    ];
    await page.addScriptTag({
      type: 'module',
      content: "import { wrapMath } from '/web/render/math-text.js'; window.wrapMath = wrapMath;",
    });
    await page.waitForFunction(() => window.wrapMath);
    const got = await page.evaluate((list) => {
      const { wrapMath } = window;
      const g = document.createElement('canvas').getContext('2d');
      const font = { size: 13, family: 'sans-serif', style: '600' };
      g.font = '600 13px sans-serif';
      return list.map(([text, width, lines]) =>
        wrapMath(g, text, width, font, lines).map((line) => ({ line, width: g.measureText(line).width })),
      );
    }, cases);
    cases.forEach(([text, width, lines], c) => {
      expect(got[c].length, text).toBeLessThanOrEqual(lines);
      for (const { line, width: drawn } of got[c]) expect(drawn, `${text}: “${line}”`).toBeLessThanOrEqual(width);
    });
    expect(got[0].map((l) => l.line)).toHaveLength(1);
    expect(got[0][0].line).toMatch(/^diff.*…$/);
    expect(got[1].map((l) => l.line).join(' ')).toMatch(/^a .*… b$|^a .*…$/);
    expect(got[2].at(-1).line.endsWith('…')).toBe(true);
    expect(got[3].map((l) => l.line)).toEqual(['fits in one line']);
  });

  test('colour bar and line plot draw; wrong input is refused with a named error', async () => {
    const result = await page.evaluate(() => {
      const inked = (canvas) => {
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        return data.some((v, i) => i % 4 === 3 && v > 0);
      };
      const bar = document.createElement('canvas');
      document.body.append(bar);
      window.render.colourBar(bar, { min: -1, max: 1, scale: 'diverging', label: 'bias' });
      const holder = document.createElement('div');
      holder.style.width = '400px';
      const plot = document.createElement('canvas');
      holder.append(plot);
      document.body.append(holder);
      const mapping = window.render.linePlot(plot, {
        x: [-2, -1, 0, 1, 2],
        y: [0.1, 0.5, 1, 0.5, 0.1],
        xLabel: 'offset',
      });
      const errors = [];
      for (const call of [
        () => window.render.heatmap(bar, { data: [1, 2, 3], dims: [2, 2] }),
        () => window.render.heatmap(bar, { data: [1, 2], dims: [1, 1, 2] }),
        () => window.render.heatmap(bar, [1, 2]),
        () => window.render.heatmap(bar, { rows: 1, cols: 2, data: [1, 2] }, { scale: 'rainbow' }),
        () => window.render.linePlot(plot, { x: [1, 2], y: [1] }),
      ]) {
        try {
          call();
          errors.push(null);
        } catch (error) {
          errors.push(`${error.constructor.name}: ${error.message}`);
        }
      }
      return { bar: inked(bar), plot: inked(plot), middle: mapping.px(0) > mapping.px(-2), errors };
    });
    expect(result.bar).toBe(true);
    expect(result.plot).toBe(true);
    expect(result.middle).toBe(true);
    expect(result.errors).toEqual([
      'RangeError: heatmap: matrix.data must hold rows × cols = 2 × 2 = 4 numbers, got 3',
      'RangeError: heatmap: matrix must have 2 dimensions, got 3 ([1, 1, 2])',
      'RangeError: heatmap: matrix.rows must be a positive integer, got undefined',
      "RangeError: heatmap: scale must be 'sequential' or 'diverging', got \"rainbow\"",
      'RangeError: linePlot: x and y must have the same length, got 2 and 1',
    ]);
  });
});
