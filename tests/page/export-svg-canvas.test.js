// A panel's SVG file as Chromium renders it, beside the panel's canvas, one CSS px one pixel in
// both (on a phone, 360 px, dark; the file without title, caption and settings, so that it is
// the canvas's size): the ink of the colour bar's tick marks stands in the canvas's ticks'
// columns (the canvas's layout, bar.ticks); under the bar (tick marks, numbers, the note) and
// beside the rows (their labels) the rows with ink are the canvas's, within a pixel; the note's
// <text>s are the canvas's lines (layout.noteLines), word for word. And with OffscreenCanvas
// deleted from the page (Safari before 16.4 has none) the file is the same.
import { describe, expect, test } from 'vitest';
import { parseMath } from '../../web/render/math-text.js';
import { downloadedBytes } from './browser.js';
import { usePage } from './page-fixture.js';

const env = usePage();

const save = async (page, selector) => {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return (await downloadedBytes(file)).toString('utf8');
};

/** Darker or lighter than the background by this much in a channel: ink (about half a glyph's cover). */
const INK = 64;

// The panel's canvas and `svg` rendered, each on the file's background (its top left pixel):
// { columns: the x runs of ink along row `tickRow`, under: the y runs of rows with ink from row
// `below` down, beside: the y runs of rows with ink between x = from and x = to }, for each.
const inkOf = (page, panel, svg, { tickRow, below, from, to }) =>
  page.evaluate(
    async ([id, source, at]) => {
      const image = new Image();
      image.src = URL.createObjectURL(new Blob([source], { type: 'image/svg+xml' }));
      await image.decode();
      const shown = document.querySelector(`#figure-${id} canvas`);
      const pixelsOf = (draw, background) => {
        const canvas = document.createElement('canvas');
        [canvas.width, canvas.height] = [shown.width, shown.height];
        const g = canvas.getContext('2d', { willReadFrequently: true });
        if (background) {
          g.fillStyle = background;
          g.fillRect(0, 0, canvas.width, canvas.height);
        }
        draw(g);
        return g.getImageData(0, 0, canvas.width, canvas.height);
      };
      const file = pixelsOf((g) => g.drawImage(image, 0, 0));
      const bg = file.data.slice(0, 3);
      const drawn = pixelsOf((g) => g.drawImage(shown, 0, 0), `rgb(${bg.join(',')})`);
      const runs = (count, inked) => {
        const out = [];
        for (let k = 0; k < count; k += 1)
          if (inked(k)) {
            if (out.length && out.at(-1)[1] === k - 1) out.at(-1)[1] = k;
            else out.push([k, k]);
          }
        return out;
      };
      const measure = ({ data, width, height }) => {
        const ink = (x, y) => {
          const i = (y * width + x) * 4;
          return [0, 1, 2].some((c) => Math.abs(data[i + c] - bg[c]) > at.INK);
        };
        const rowInk = (y, x0, x1) => {
          for (let x = x0; x < x1; x += 1) if (ink(x, y)) return true;
          return false;
        };
        return {
          columns: runs(width, (x) => ink(x, at.tickRow)),
          under: runs(height, (y) => y >= at.below && rowInk(y, 0, width)),
          beside: runs(height, (y) => rowInk(y, at.from, at.to)),
        };
      };
      return { file: measure(file), canvas: measure(drawn), ratio: shown.width / parseFloat(shown.style.width) };
    },
    [panel, svg, { tickRow, below, from, to, INK }],
  );

// Runs of pixels, [first, last] each, the same as `expected` within a pixel at each end.
const expectRuns = (runs, expected, where) => {
  expect(runs.length, `${where}: ${JSON.stringify(runs)} against ${JSON.stringify(expected)}`).toBe(expected.length);
  runs.forEach(([first, last], index) => {
    expect(Math.abs(first - expected[index][0]), `${where}, run ${index}`).toBeLessThanOrEqual(1);
    expect(Math.abs(last - expected[index][1]), `${where}, run ${index}`).toBeLessThanOrEqual(1);
  });
};

describe('an exported SVG beside its canvas', () => {
  test('at 360 px, dark: the tick marks, the rows under the bar and beside the matrix, the note’s lines; the same file without OffscreenCanvas', async () => {
    const { page, context, problems } = await env.open('', {
      acceptDownloads: true,
      viewport: { width: 360, height: 800 },
      colorScheme: 'dark',
      deviceScaleFactor: 1,
    });
    await page.uncheck('#image-text');
    await page.uncheck('#image-settings');
    const panels = await page.$$eval('figure[id^="figure-"]', (figures) =>
      figures.filter((f) => f.querySelector('button[data-svg]')).map((f) => f.id.slice('figure-'.length)),
    );
    expect(panels.length).toBeGreaterThanOrEqual(6);
    const files = new Map();
    for (const panel of panels) {
      const svg = await save(page, `#figure-${panel} button[data-svg]`);
      files.set(panel, svg);
      const layout = JSON.parse(await page.$eval(`#figure-${panel} canvas`, (c) => c.dataset.layout));
      const { bar } = layout;
      const ink = await inkOf(page, panel, svg, {
        tickRow: bar.bottom + 2,
        below: bar.bottom,
        from: 22, // right of the y axis title
        to: layout.x0 - 2,
      });
      expect(ink.ratio).toBe(1);
      // The tick marks: in the columns of the canvas's ticks (its layout), and where its pixels have them.
      expect(ink.canvas.columns.map(([first]) => first)).toEqual(bar.ticks.map((t) => Math.round(t.x)));
      expectRuns(ink.file.columns, ink.canvas.columns, `${panel}: tick marks`);
      expectRuns(ink.file.under, ink.canvas.under, `${panel}: rows under the bar`);
      expectRuns(ink.file.beside, ink.canvas.beside, `${panel}: rows of the row labels`);
      // The note: the canvas's lines, the same words on each (its sub- and superscripts as text).
      const lines = await page.evaluate((source) => {
        const holder = document.createElement('div');
        holder.innerHTML = source;
        return [...holder.querySelectorAll('text[font-style="italic"]')].map((t) => t.textContent);
      }, svg);
      const words = (line) =>
        parseMath(line)
          .map((piece) => piece.text)
          .join('');
      expect(lines, panel).toEqual(layout.noteLines.map(words));
    }
    // The notes of the default view: positionBiases's on two lines, with q_i and a^K.
    const biases = JSON.parse(await page.$eval('#figure-positionBiases canvas', (c) => c.dataset.layout));
    expect(biases.noteLines.length).toBe(2);
    expect(biases.noteLines.join(' ')).toContain('q_i');
    // Without OffscreenCanvas: the same file, measured on a document canvas.
    await page.evaluate(() => delete window.OffscreenCanvas);
    const failed = new Promise((_, reject) => page.once('pageerror', reject));
    failed.catch(() => {}); // a failure after the file came is in `problems`
    const without = await Promise.race([save(page, '#figure-positionBiases button[data-svg]'), failed]);
    expect(without).toBe(files.get('positionBiases'));
    expect(problems).toEqual([]);
    await context.close();
  });
});
