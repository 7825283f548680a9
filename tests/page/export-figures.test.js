// Figure files for slides and papers: each panel's SVG opens in Chromium and its cells have the
// canvas's colours, its text is text; the PNG is the panel's CSS size times the chosen scale
// whatever the screen's pixel density, opaque, in the chosen theme.
import { writeFileSync } from 'node:fs';
import { downloadedBytes, screenshot } from './browser.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { heatmapLayout } from '../../web/render/heatmap.js';
import { usePage } from './page-fixture.js';

const env = usePage();

const save = async (page, selector) => {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: file.suggestedFilename(), bytes: await downloadedBytes(file) };
};

// Pixels of an image file (SVG or PNG) as Chromium renders it, at its own size: [r, g, b, a] at points.
const imagePixels = (page, bytes, type, points) =>
  page.evaluate(
    async ([base64, mime, pts]) => {
      const blob = await (await fetch(`data:${mime};base64,${base64}`)).blob();
      const image = new Image(); // as an <img> shows it (createImageBitmap takes no SVG)
      image.src = URL.createObjectURL(blob);
      await image.decode();
      const canvas = new OffscreenCanvas(image.width, image.height);
      const g = canvas.getContext('2d');
      g.drawImage(image, 0, 0);
      const { data } = g.getImageData(0, 0, image.width, image.height);
      let transparent = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) transparent += 1;
      return {
        width: image.width,
        height: image.height,
        transparent,
        at: pts.map(([x, y]) =>
          Array.from(
            data.slice(
              (Math.floor(y) * image.width + Math.floor(x)) * 4,
              (Math.floor(y) * image.width + Math.floor(x)) * 4 + 4,
            ),
          ),
        ),
      };
    },
    [bytes.toString('base64'), type, points],
  );

describe('SVG', () => {
  test('at 360 px every text stands inside the file: the note on the canvas’s lines, whole', async () => {
    const { page, context, problems } = await env.open('', {
      acceptDownloads: true,
      viewport: { width: 360, height: 640 },
      colorScheme: 'dark',
    });
    const svg = await save(page, '#figure-positionBiases button[data-svg]');
    const text = svg.bytes.toString('utf8');
    // Each <text>'s box as Chromium lays the file out, against the file's own width.
    const boxes = await page.evaluate((source) => {
      const holder = document.createElement('div');
      holder.innerHTML = source;
      document.body.append(holder);
      const root = holder.querySelector('svg');
      const frame = root.getBoundingClientRect(); // the file's box (rotated labels: their ink's box)
      const out = [...root.querySelectorAll('text')].map((t) => {
        const box = t.getBoundingClientRect();
        return {
          text: t.textContent,
          italic: t.getAttribute('font-style') === 'italic',
          left: box.left - frame.left,
          right: box.right - frame.left,
        };
      });
      const width = Number(root.getAttribute('width'));
      holder.remove();
      return { width, out };
    }, text);
    for (const box of boxes.out) {
      expect(box.left, box.text).toBeGreaterThanOrEqual(0);
      expect(box.right, box.text).toBeLessThanOrEqual(boxes.width);
    }
    // The note (italic, under the bar): two lines at this width, its words all there, q_i and a^K
    // set as the canvas sets them (a smaller i and K, lowered and raised: their own <tspan>s).
    const note = boxes.out.filter((b) => b.italic).map((b) => b.text);
    expect(note.length).toBe(2);
    expect(note.join(' ')).toMatch(
      /^Offset 0 is negative in rows [\d, ]+: qi points away from the bump aK\[0\] there\.$/,
    );
    expect(text).toMatch(/q<\/tspan><tspan y="[\d.]+" font-size="[\d.]+">i<\/tspan>/);
    expect(text).toMatch(/a<\/tspan><tspan y="[\d.]+" font-size="[\d.]+">K<\/tspan>/);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('a note the canvas cuts short is read whole at the start of the file’s caption, as under the panel; the file names no control of the page', async () => {
    const { page, context, problems } = await env.open('?causal=1&tokens=my+dog+ate+the+big+red+apple', {
      acceptDownloads: true,
      viewport: { width: 360, height: 640 },
    });
    const shown = await page.$eval('#figure-positionBiases', (figure) => ({
      cut: JSON.parse(figure.querySelector('canvas').dataset.layout).noteCut,
      caption: figure.querySelector('.relpos-caption').textContent,
    }));
    expect(shown.cut).toBe(true);
    expect(shown.caption).toContain('(tick it to see)'); // the page's checkbox, beside the panel
    const svg = (await save(page, '#figure-positionBiases button[data-svg]')).bytes.toString('utf8');
    // The caption's lines: the plain <text>s of the header (12 px, not bold), joined.
    const caption = [
      ...svg.matchAll(/<text x="4" y="[\d.]+" font-size="12" font-weight="normal"[^>]*>([^<]*)<\/text>/g),
    ]
      .map((m) => m[1])
      .join(' ');
    expect(caption).toMatch(
      /^Unmasked \(the mask acts in the softmax\)\. A decoder never uses offsets 1…k: only the lower edge is drawn\. q/,
    );
    expect(caption).not.toContain('tick it');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('n = 20 at 390 px, labelled by position: the upright column numbers, as Chromium lays them out, never touch', async () => {
    const words = 'the quick brown fox jumps over the lazy dog while the cat sleeps on the warm mat near the door';
    const { page, context, problems } = await env.open(`?tokens=${words.replaceAll(' ', '+')}&causal=1`, {
      acceptDownloads: true,
      viewport: { width: 390, height: 800 },
      colorScheme: 'dark',
    });
    const layout = JSON.parse(await page.$eval('#figure-combinedWeights canvas', (c) => c.dataset.layout));
    expect(layout.axisLabels).toBe('positions');
    const svg = (await save(page, '#figure-combinedWeights button[data-svg]')).bytes.toString('utf8');
    // The column labels: upright numbers over the matrix, each its own text-anchor="middle" (the
    // axis title has one too; the colour bar's numbers take their group's).
    const labels = await page.evaluate((source) => {
      const holder = document.createElement('div');
      holder.innerHTML = source;
      document.body.append(holder);
      const upright = [...holder.querySelectorAll('text[text-anchor="middle"]')].filter((t) =>
        /^\d+$/.test(t.textContent),
      );
      const boxes = upright.map((t) => {
        const box = t.getBoundingClientRect();
        return { text: t.textContent, left: box.left, right: box.right };
      });
      holder.remove();
      return boxes;
    }, svg);
    const numbers = labels.map((label) => Number(label.text));
    expect(numbers[0]).toBe(0);
    expect(numbers.at(-1)).toBeGreaterThanOrEqual(10); // two-digit numbers among them
    const step = numbers[1] - numbers[0];
    expect(numbers).toEqual(numbers.map((_, index) => index * step)); // one round step
    // At 14 px a cell, "10", "11", … side by side ran together as "1011".
    for (let index = 1; index < labels.length; index += 1)
      expect(
        labels[index].left - labels[index - 1].right,
        `${numbers[index - 1]} | ${numbers[index]}`,
      ).toBeGreaterThanOrEqual(2);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('each cell is a rect in the canvas pixel colour, text is text; it opens in Chromium as a document', async () => {
    const { page, context, problems } = await env.open('?causal=1', {
      acceptDownloads: true,
      viewport: { width: 1280, height: 900 },
    });
    for (const panel of ['combinedWeights', 'positionBiases', 'offsets']) {
      const svg = await save(page, `#figure-${panel} button[data-svg]`);
      expect(svg.name).toBe(`relpos-${panel}.svg`);
      const text = svg.bytes.toString('utf8');
      const rects = [
        ...text.matchAll(/<rect data-i="(\d+)" data-j="(\d+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"/g),
      ];
      expect(rects).toHaveLength(36);
      // The cells stand where heatmapLayout puts them for the canvas's width and pixel ratio
      // (the page's matrices are at most 560 px; the header above the figure shifts them down).
      const measured = await page.$eval(`#figure-${panel} canvas`, (canvas) => ({
        width: parseFloat(canvas.style.width),
        ratio: canvas.width / parseFloat(canvas.style.width),
        fontScale: JSON.parse(canvas.dataset.layout).fontScale,
        labelSpace: JSON.parse(canvas.dataset.layout).labels, // measured from the words
      }));
      const layout = heatmapLayout({ n: 6, maxSide: 560, ...measured }, measured.ratio);
      const round = (v) => Math.round(v * 1000) / 1000;
      const header = Number(rects[0][4]) - layout.y0;
      expect(header).toBeGreaterThan(0);
      for (const [, i, j, x, y, width] of rects) {
        expect([Number(x), Number(y), Number(width)], `${panel} (${i}, ${j})`).toEqual([
          round(layout.x0 + j * layout.cell),
          round(layout.y0 + header + i * layout.cell),
          round(layout.cell),
        ]);
      }
      // Off the cell's centre on both (the printed value sits there).
      const off = (m) => [Number(m[5]) * 0.2, Number(m[5]) * 0.3];
      const points = rects.map((m) => [
        Number(m[3]) + Number(m[5]) / 2 + off(m)[0],
        Number(m[4]) + Number(m[5]) / 2 + off(m)[1],
      ]);
      const rendered = await imagePixels(page, svg.bytes, 'image/svg+xml', points);
      const canvasPixels = await page.$eval(
        `#figure-${panel} canvas`,
        (canvas, cells) => {
          const { x0, y0, cell } = JSON.parse(canvas.dataset.layout);
          const ratio = canvas.width / parseFloat(canvas.style.width);
          const g = canvas.getContext('2d');
          return cells.map(([i, j]) =>
            Array.from(
              g.getImageData(
                Math.floor((x0 + (j + 0.7) * cell) * ratio),
                Math.floor((y0 + (i + 0.8) * cell) * ratio),
                1,
                1,
              ).data,
            ),
          );
        },
        rects.map((m) => [Number(m[1]), Number(m[2])]),
      );
      for (const [index, m] of rects.entries()) {
        const [i, j] = [Number(m[1]), Number(m[2])];
        const onCanvas = canvasPixels[index];
        const inSvg = rendered.at[index];
        for (let c = 0; c < 3; c += 1)
          expect(
            Math.abs(inSvg[c] - onCanvas[c]),
            `${panel} (${i}, ${j}) channel ${c}: ${inSvg} vs ${onCanvas}`,
          ).toBeLessThanOrEqual(2);
        expect(inSvg[3]).toBe(255);
      }
      // Words and numbers are text, not pixels.
      expect(text).toContain('>0 the</text>');
      expect(text).toContain('>5 mat</text>');
      expect(text).toMatch(/<text[^>]*font-weight="bold"[^>]*>[^<]+<\/text>/); // the title
      // Opened as a document: well-formed SVG.
      const file = join(tmpdir(), `relpos-${panel}-${process.pid}.svg`);
      writeFileSync(file, svg.bytes);
      const doc = await context.newPage();
      await doc.goto(`file://${file}`);
      expect(
        await doc.evaluate(() => [document.documentElement.localName, document.querySelectorAll('parsererror').length]),
      ).toEqual(['svg', 0]);
      await screenshot(doc, `export-${panel}-svg.png`, { fullPage: false });
      await doc.close();
      // Words slant (60°) to fit their length.
      expect(text).toMatch(/<text transform="translate\([\d.]+ [\d.]+\) rotate\(-60\)">0 the<\/text>/);
    }
    // A sentence without words: its column labels, bare numbers, stand upright (a slanted "2" reads as "~").
    await page.fill('#tokens', '');
    await page.fill('#seqLen', '5');
    await page.$eval('#seqLen', (input) => input.dispatchEvent(new Event('input', { bubbles: true })));
    await page.waitForFunction(() => window.relposPage.state().seqLen === 5 && window.relposPage.state().tokens === '');
    const numbered = (await save(page, '#figure-positionBiases button[data-svg]')).bytes.toString('utf8');
    for (const j of [0, 4])
      expect(numbered).toMatch(new RegExp(`<text x="[\\d.]+" y="[\\d.]+" text-anchor="middle">${j}</text>`));
    expect(numbered).not.toContain('rotate(-60)');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('PNG', () => {
  for (const deviceScaleFactor of [1, 2]) {
    test(`at devicePixelRatio ${deviceScaleFactor}: css size × 1, 2, 4; opaque; light, dark and as shown`, async () => {
      const { page, context, problems } = await env.open('', {
        acceptDownloads: true,
        deviceScaleFactor,
        viewport: { width: 1280, height: 900 },
      });
      const cssWidth = await page.$eval('#figure-combinedWeights canvas', (c) => parseFloat(c.style.width));
      const cssHeight = await page.$eval('#figure-combinedWeights canvas', (c) => parseFloat(c.style.height));
      const heights = {};
      for (const [scale, theme, background] of [
        ['1', 'light', [255, 255, 255]],
        ['2', 'dark', [0x1c, 0x1c, 0x21]],
        ['4', 'current', [255, 255, 255]],
      ]) {
        await page.selectOption('#image-scale', scale);
        await page.selectOption('#image-theme', theme);
        const png = await save(page, '#figure-combinedWeights button[data-png]');
        const image = await imagePixels(page, png.bytes, 'image/png', [[1, 1]]);
        expect(image.width, `scale ${scale}`).toBe(cssWidth * Number(scale));
        expect(image.height % Number(scale)).toBe(0);
        heights[scale] = image.height / Number(scale);
        expect(heights[scale]).toBeGreaterThan(cssHeight); // the title, caption and settings too
        expect(image.transparent).toBe(0);
        expect(image.at[0].slice(0, 3)).toEqual(background);
      }
      expect(heights['1']).toBe(heights['2']);
      expect(heights['2']).toBe(heights['4']);
      // Without the text: the plot only.
      await page.uncheck('#image-text');
      await page.uncheck('#image-settings');
      await page.selectOption('#image-scale', '2');
      const bare = await imagePixels(
        page,
        (await save(page, '#figure-combinedWeights button[data-png]')).bytes,
        'image/png',
        [],
      );
      expect([bare.width, bare.height]).toEqual([cssWidth * 2, cssHeight * 2]);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});

describe('paper', () => {
  test('printed: every panel (More panels opened while printing, closed again after), two to a row, sharp, no buttons', async () => {
    // An A4 page's width less its margins, as Chromium lays out a print.
    const { page, context, problems } = await env.open('', {
      viewport: { width: 718, height: 1000 },
      closedPanels: true,
    });
    const boxes = () =>
      page.$$eval('figure.relpos-panel', (figures) =>
        figures.map((f) => {
          const box = f.getBoundingClientRect();
          const canvas = f.querySelector('canvas');
          return {
            id: f.id,
            top: Math.round(box.top + scrollY),
            left: Math.round(box.left),
            width: box.width,
            ratio: canvas.width / parseFloat(canvas.style.width),
          };
        }),
      );
    expect(await page.$eval('#more-panels', (d) => d.open)).toBe(false);
    await page.emulateMedia({ media: 'print' });
    await page.waitForFunction(() => document.getElementById('more-panels').open);
    // Every panel drawn for paper (at least 3 device px per CSS px), two to a row.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('figure.relpos-panel canvas')].every(
        (canvas) => canvas.width >= 3 * parseFloat(canvas.style.width) - 1,
      ),
    );
    const printed = await boxes();
    expect(printed.length).toBe(8);
    const main = printed.filter((f) => ['figure-contentScores', 'figure-positionBiases'].includes(f.id));
    expect(main[0].top).toBe(main[1].top);
    expect(main[1].left).toBeGreaterThan(main[0].left + main[0].width - 1);
    for (const f of printed.filter((p) => !['figure-tables', 'figure-profile'].includes(p.id)))
      expect(f.width, f.id).toBeLessThan(718 / 2);
    expect(await page.$$eval('button', (buttons) => buttons.filter((b) => b.offsetParent !== null).length)).toBe(0);
    await page.waitForTimeout(400); // the address's writer's delay, and more
    expect(new URL(page.url()).search).not.toContain('more=1');
    await page.emulateMedia({ media: 'screen' });
    await page.waitForFunction(() => !document.getElementById('more-panels').open);
    // The address never said "More panels" open: paper opened it, not the reader.
    await page.waitForTimeout(400);
    expect(new URL(page.url()).search).not.toContain('more=1');
    expect(await page.$eval('figure.relpos-panel button', (b) => b.offsetParent !== null)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});
