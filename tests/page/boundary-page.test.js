// The breaks at the boundary that issue 35 found on the page, in headless Chromium: a long token
// (label truncation measured once per character, for every label of every panel), the render
// API's heatmap() given a matrix that claims to be huge, a gzip corpus that expands without
// bound or holds nothing to train on, and a saved model named after menus changed since. Each
// counts what the page did (text measurements, reads, bytes), never how long it took.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, openPage } from './browser.js';
import { SITE, changeAtOnce, clickTrainOpen, whenDrawn } from './page-fixture.js';
import { serveFolder } from './static-server.js';
import { encodeCorpus } from '../../web/train/corpus-format.js';

const ROOT = new URL('../../', import.meta.url).pathname;
let dir;
let server; // the repository (the render API's test page)
let siteServer; // `site` (build/site) and the corpus files beside it
let browser;

// 256 MiB of zeros, gzip-compressed to about 256 KB (streamed: never held whole here).
async function writeGzipBomb(file, bytes) {
  const chunk = Buffer.alloc(1 << 20);
  let left = bytes;
  const zeros = new Readable({
    read() {
      if (left <= 0) this.push(null);
      else {
        left -= chunk.length;
        this.push(chunk);
      }
    },
  });
  await pipeline(zeros, createGzip({ level: 1 }), createWriteStream(file));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'relpos-boundary-page-'));
  symlinkSync(SITE, join(dir, 'site'));
  await writeGzipBomb(join(dir, 'bomb.bin'), 256 * 1024 * 1024);
  // A well-formed corpus with 20 training tokens and none held out.
  const tiny = {
    header: { source: 'test', terms: 'test', settings: {}, posNames: [], words: ['<mask>', '<unk>', 'a', 'b'] },
    train: Int32Array.from({ length: 20 }, (_, i) => 2 + (i % 2)),
    trainSentenceStarts: Int32Array.from([0, 10]),
    heldOut: new Int32Array(0),
    heldOutPos: new Uint8Array(0),
    heldOutSentenceStarts: new Int32Array(0),
  };
  writeFileSync(join(dir, 'empty-held-out.bin'), gzipSync(encodeCorpus(tiny)));
  server = await serveFolder(ROOT);
  siteServer = await serveFolder(dir);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await siteServer?.close();
  rmSync(dir, { recursive: true, force: true });
});

// Counts every measureText call whose text holds `part` (of the long token).
const countMeasures = (part) => {
  window.measured = 0;
  const measure = CanvasRenderingContext2D.prototype.measureText;
  CanvasRenderingContext2D.prototype.measureText = function measureText(text) {
    if (String(text).includes(part)) window.measured += 1;
    return measure.call(this, text);
  };
};

describe('9. long tokens and large matrices', () => {
  test('a 1,500-character token in ?tokens= is shortened in a few measurements per label', async () => {
    const word = `w${'x'.repeat(1499)}`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(countMeasures, 'wxxxxxxxxx');
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${siteServer.url}site/?tokens=${word}%20the%20cat%20sat`);
    await page.waitForSelector('body[data-ready="true"]');
    await whenDrawn(page);
    const measured = await page.evaluate(() => window.measured);
    const panels = await page.locator('canvas').count();
    // Two labels of the word (row and column) per panel, each about log2(200) + 2 measurements
    // (one per character before: about 3,000 a label).
    expect(measured).toBeGreaterThan(0);
    expect(measured).toBeLessThanOrEqual(panels * 2 * 12);
    expect(await page.locator('#tokens, input[name="tokens"]').first().inputValue()).toContain('the cat sat');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('the render API: labels of 3,000 characters, and a matrix claiming 30000 × 30000, are bounded', async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
    await page.addInitScript(countMeasures, 'yyyyyyyyyy');
    await page.goto(`${server.url}tests/page/render-api.html`);
    await page.waitForFunction(() => window.render);
    const result = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      document.body.append(canvas);
      const long = 'y'.repeat(3000);
      window.render.heatmap(
        canvas,
        { rows: 3, cols: 3, data: Float64Array.from({ length: 9 }, (_, i) => i) },
        { rowLabels: [long, 'b', long], colLabels: [long, long, 'c'], width: 400 },
      );
      let reads = 0;
      const data = new Proxy(new Float64Array(4), {
        get(target, key) {
          reads += 1;
          if (key === 'length') return 30000 * 30000;
          return Reflect.get(target, key);
        },
      });
      let error = '';
      try {
        window.render.heatmap(canvas, { rows: 30000, cols: 30000, data });
      } catch (e) {
        error = `${e.constructor.name}: ${e.message}`;
      }
      return { measured: window.measured, reads, error };
    });
    // Four long labels, each shortened in about log2(200) + 2 measurements.
    expect(result.measured).toBeGreaterThan(0);
    expect(result.measured).toBeLessThanOrEqual(4 * 12);
    expect(result.error).toBe(
      'RangeError: heatmap: matrix is 30000 × 30000 = 900000000 cells; a heatmap draws at most 4194304 (2048 × 2048: more cells than a screen has pixels)',
    );
    expect(result.reads).toBe(0);
    await page.close();
  });
});

describe('7 and 8. corpora the training worker loads', () => {
  // A <relpos-train> on the element example page with `corpus` pointing at `file`; its message.
  async function corpusMessage(file) {
    const { page, context } = await openPage(browser, `${siteServer.url}site/examples/train.html`, {
      viewport: { width: 1000, height: 800 },
    });
    await page.evaluate((url) => {
      const element = document.createElement('relpos-train');
      element.id = 'given';
      element.setAttribute('size', 'tiny');
      element.setAttribute('corpus', url);
      document.querySelector('main').append(element);
    }, `${siteServer.url}${file}`);
    const message = page.locator('#given .train-message');
    await expect.poll(() => message.textContent(), { timeout: 120_000 }).toMatch(/could not load the corpus/);
    const text = await message.textContent();
    await context.close();
    return text;
  }

  test('a gzip corpus that expands to 256 MiB stops at the bound, with a message naming the file', async () => {
    expect(await corpusMessage('bomb.bin')).toMatch(
      /could not load the corpus \S+bomb\.bin \(not a relpos corpus file: it expands past 16,777,216 bytes/,
    );
  });

  test('a corpus with nothing held out is refused when loaded, naming the file', async () => {
    expect(await corpusMessage('empty-held-out.bin')).toMatch(
      /could not load the corpus \S+empty-held-out\.bin \(too small to train on: 20 training tokens; a corpus needs at least 512\)/,
    );
  });
});

test('10. a saved model is named after the model it holds, even when the menus change at once', async () => {
  const { page, context } = await openPage(browser, `${siteServer.url}site/`, {
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  await page.waitForSelector('body[data-ready="true"]');
  await clickTrainOpen(page);
  const ready = () =>
    page.waitForFunction(() => !document.querySelector('#train-start')?.disabled, null, { timeout: 120_000 });
  await ready();
  await page.selectOption('#train-preset', 'tiny');
  await ready();
  const task = await page.inputValue('#train-task');
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 120_000 }),
    // The download asked for, and at once (before its answer) another task and size.
    changeAtOnce(
      page,
      [
        ['#train-task', 'copy'],
        ['#train-preset', 'small'],
      ],
      { click: '#train-save-json' },
    ),
  ]);
  const saved = JSON.parse(await (await download.createReadStream()).toArray().then((c) => Buffer.concat(c)));
  expect(saved.task).toBe(task);
  expect(saved.preset).toBe('tiny');
  expect(download.suggestedFilename()).toBe(`relpos-trained-${saved.task}-${saved.preset}-step${saved.steps}.json`);
  await context.close();
});
