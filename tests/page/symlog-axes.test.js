// The line chart on its symmetric-log axes (web/render/symlog-axes.js), in Chromium at 2× pixels:
// x ↦ sign(x)·log₂(1 + |x|) across the plot, the y axis fitted to the finite values (an infinite
// one left out), a non-finite point a gap in the line, and `points: false` drawing the lines
// alone (no squares), read from the canvas's pixels.
import { beforeAll, describe, expect, test } from 'vitest';
import { useRenderPage } from './render-page.js';

const env = useRenderPage({ width: 800, height: 600 });
let page;

beforeAll(async () => {
  ({ page } = env);
  await page.addScriptTag({
    type: 'module',
    content: `import { drawLineChart } from '/web/render/line-chart.js';
      import { symlogAxes } from '/web/render/symlog-axes.js';
      Object.assign(window, { drawLineChart, symlogAxes });`,
  });
  await page.waitForFunction(() => window.drawLineChart && window.symlogAxes);
});

// Draws two series on symlogAxes({ reach: 256, marks: [128] }) in a 600 px wide box and reads, in
// device pixels (2 per CSS px), the RGBA of each [x, y] of `probes(px, py)` (CSS px).
const drawAndRead = (options, probes) =>
  page.evaluate(
    ([o, probeSource]) => {
      const { drawLineChart, symlogAxes } = window;
      const box = document.createElement('div');
      box.style.cssText = 'width: 600px; --relpos-fg: #222222; --relpos-grid: #dddddd';
      const canvas = document.createElement('canvas');
      box.append(canvas);
      document.body.replaceChildren(box);
      const offsets = Array.from({ length: 513 }, (_, i) => i - 256);
      const drawn = drawLineChart(canvas, {
        series: [
          {
            label: 'steps',
            x: offsets,
            y: offsets.map((c) => (c === 10 ? Infinity : c === 20 ? NaN : c < 0 ? -1 : 1)),
            colour: '#0072b2',
          },
          { label: 'five points', x: [-200, -100, 0, 100, 200], y: [0.3, 0.3, 0.3, 0.3, 0.3], colour: '#d55e00' },
        ],
        axes: symlogAxes({ reach: 256, marks: [128] }),
        xLabel: 'offset',
        yLabel: 'bias',
        ...o,
      });
      const g = canvas.getContext('2d');
      const places = new Function('px', 'py', `return (${probeSource})(px, py)`)(drawn.px, drawn.py);
      const at = ([x, y]) => Array.from(g.getImageData(Math.floor(2 * x), Math.floor(2 * y), 1, 1).data);
      return {
        yMin: drawn.yMin,
        yMax: drawn.yMax,
        xs: [-256, -15, 0, 15, 256].map(drawn.px),
        pixels: places.map(at),
      };
    },
    [options, probes.toString()],
  );

// Is `rgba` the opaque colour `hex`?
const isColour = (rgba, hex) =>
  rgba[3] === 255 && [1, 3, 5].every((at, k) => Math.abs(rgba[k] - parseInt(hex.slice(at, at + 2), 16)) <= 2);

describe('symlogAxes', () => {
  test('places offsets by sign(x)·log₂(1 + |x|) and fits y to the finite values', async () => {
    const r = await drawAndRead({}, () => []);
    const [left, minus15, centre, plus15, right] = r.xs;
    expect(centre).toBeCloseTo((left + right) / 2, 9);
    // log₂(1 + 15) = 4 of log₂(1 + 256) on each side.
    expect((plus15 - centre) / (right - centre)).toBeCloseTo(4 / Math.log2(257), 9);
    expect(centre - minus15).toBeCloseTo(plus15 - centre, 9);
    // The finite values run −1…1 (padded by 6 % and out to round ticks); the infinite one is left out.
    expect(Number.isFinite(r.yMin) && Number.isFinite(r.yMax)).toBe(true);
    expect(r.yMin).toBeLessThanOrEqual(-1.12);
    expect(r.yMax).toBeGreaterThanOrEqual(1.12);
    expect(r.yMax - r.yMin).toBeLessThan(3);
  });

  test('the lines, their skipped non-finite points, the zero line and the marks, by pixel', async () => {
    // Where the line would run at y = 1 from offset 9 to 11 and from 19 to 21: a gap there, at the
    // infinite 10 and the NaN 20 (a missing value is not drawn over); beside each gap the line; the zero line at offset −100 (no tick there); the dashed mark at 128 somewhere
    // down the plot; 1.5 CSS px above the five-point series' point at −100, where only its 4 px
    // square reaches (its line is 1.8 px wide).
    const probes = (px, py) => [
      [px(10), py(1)],
      [px(20), py(1)],
      [px(-100), Math.round(py(0)) + 0.5],
      ...Array.from({ length: 12 }, (_, i) => [Math.round(px(128)) + 0.5, py(1) + i]),
      [px(-100), py(0.3) - 1.5],
      [px(8.5), py(1)],
      [px(22), py(1)],
    ];
    const marked = await drawAndRead({}, probes);
    const bare = await drawAndRead({ points: false, lineWidth: 1.8 }, probes);
    for (const r of [marked, bare]) {
      expect(isColour(r.pixels[0], '#0072b2')).toBe(false); // the grid line at y = 1 shows through
      expect(isColour(r.pixels[1], '#0072b2')).toBe(false);
      expect(isColour(r.pixels[16], '#0072b2')).toBe(true);
      expect(isColour(r.pixels[17], '#0072b2')).toBe(true);
      expect(isColour(r.pixels[2], '#222222')).toBe(true);
      const mark = r.pixels.slice(3, 15);
      expect(mark.some((p) => isColour(p, '#222222'))).toBe(true);
      expect(mark.some((p) => !isColour(p, '#222222'))).toBe(true); // dashed
    }
    expect(isColour(marked.pixels[15], '#d55e00')).toBe(true);
    expect(bare.pixels[15][3]).toBe(0);
  });
});
