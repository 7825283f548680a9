// The iframe view fits its frame: over a grid of frame sizes and panel choices, nothing
// overflows and the figures fill the height they can; with fit=width it tells the host page its
// height (postMessage) and the documented snippet resizes the frame; captions and actions can be
// turned off and on; and a sandboxed frame (sandbox="allow-scripts") works with the one-file
// page and says what to do with the multi-file one.
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser.js';
import { SITE } from './page-fixture.js';
import { serveFolder } from './static-server.js';

let site;
let hosts;
let browser;
beforeAll(async () => {
  site = await serveFolder(SITE);
  // Host pages on another origin, framing the site (as an LMS would).
  const folder = mkdtempSync(join(tmpdir(), 'relpos-hosts-'));
  copyFileSync(new URL('../../dist/relpos.html', import.meta.url), join(folder, 'relpos.html'));
  copyFileSync(new URL('../../examples/iframe-resize.js', import.meta.url), join(folder, 'iframe-resize.js'));
  const frame = (src, extra = '') =>
    `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script src="iframe-resize.js"></script></head><body style="margin: 0">
<iframe id="frame" src="${src}" ${extra} style="border: 0; display: block; width: 100%" height="300"></iframe></body></html>`;
  writeFileSync(join(folder, 'auto.html'), frame(`${site.url}?embed=1&fit=width&panels=combinedWeights,profile`));
  // A page of another origin that claims to be the relpos view (what a link followed inside the
  // frame could load), and a second frame of the same relpos view beside the first.
  writeFileSync(
    join(folder, 'foreign.html'),
    `<!doctype html><script>setInterval(() => parent.postMessage({ type: 'relpos:height', height: 1e9, href: location.href }, '*'), 20);</script>`,
  );
  writeFileSync(
    join(folder, 'sandbox-single.html'),
    frame('relpos.html?embed=1&panels=combinedWeights', 'sandbox="allow-scripts"'),
  );
  writeFileSync(
    join(folder, 'sandbox-multi.html'),
    frame(`${site.url}?embed=1&panels=combinedWeights`, 'sandbox="allow-scripts"'),
  );
  hosts = await serveFolder(folder);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await hosts?.close();
});

const measure = (page) =>
  page.evaluate(() => {
    const main = document.querySelector('main');
    const figures = [...document.querySelectorAll('#panels > figure')].filter((f) => f.offsetParent);
    return {
      scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
      inner: [innerWidth, innerHeight],
      bottom: main.getBoundingClientRect().bottom,
      zoom: Number(main.style.zoom || 1),
      boxes: figures.map((f) => f.getBoundingClientRect().toJSON()),
      sides: [...document.querySelectorAll('#panels canvas[data-layout]')]
        .filter((c) => c.offsetParent)
        .map((c) => {
          const layout = JSON.parse(c.dataset.layout);
          return layout.cell * layout.n;
        }),
    };
  });

describe('the iframe view fits its frame (fit=frame, the default)', () => {
  for (const panels of ['combinedWeights', 'combinedWeights,profile', 'positionBiases,offsets']) {
    test(`${panels}: widths 320–1280 × heights 300–900, no overflow, the height used`, async () => {
      const { page, context, problems } = await openPage(browser, `${site.url}?embed=1&panels=${panels}&k=2`, {
        viewport: { width: 320, height: 300 },
      });
      await page.waitForSelector('body[data-ready="true"]');
      const rows = [];
      for (const width of [320, 480, 700, 1000, 1280]) {
        for (const height of [300, 450, 620, 900]) {
          await page.setViewportSize({ width, height });
          await page.waitForSelector(`body[data-fit="${width}x${height}"]`);
          const m = await measure(page);
          rows.push({
            size: `${width}×${height}`,
            bottom: Math.round(m.bottom),
            zoom: m.zoom,
            side: Math.round(Math.min(...m.sides)),
          });
          expect(m.scroll, `${panels} at ${width}×${height}: scroll size`).toEqual([width, height]);
          for (const box of m.boxes) {
            expect(box.bottom, `${panels} at ${width}×${height}`).toBeLessThanOrEqual(height + 0.5);
            expect(box.right).toBeLessThanOrEqual(width + 0.5);
          }
          // The height is used: the content reaches near the frame's bottom, unless the matrices
          // are as large as they get (560 px) or as the width allows.
          if (m.zoom === 1 && Math.min(...m.sides) < 540) {
            const widthBound = await page.evaluate(() =>
              [...document.querySelectorAll('#panels canvas[data-layout]')]
                .filter((c) => c.offsetParent)
                .some((c) => parseFloat(c.style.width) >= c.parentElement.clientWidth - 1),
            );
            if (!widthBound) expect(m.bottom, `${panels} at ${width}×${height}: filled`).toBeGreaterThan(height - 60);
          }
        }
      }
      console.table(rows);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  test('four panels without captions in a 1280 × 400 frame: one row, the matrices near the frame’s height, inside it', async () => {
    const panels = 'contentScores,positionBiases,contentWeights,combinedWeights';
    const { page, context, problems } = await openPage(browser, `${site.url}?embed=1&panels=${panels}&captions=0`, {
      viewport: { width: 1280, height: 400 },
    });
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('body[data-fit="1280x400"]');
    const m = await measure(page);
    expect(new Set(m.boxes.map((box) => Math.round(box.top))).size).toBe(1);
    expect(m.boxes).toHaveLength(4);
    expect(m.scroll).toEqual([1280, 400]);
    for (const box of m.boxes) expect(box.bottom).toBeLessThanOrEqual(400.5);
    // Each column is about 300 px wide and the frame 400 px tall; a panel's title, labels and
    // colour bar take about 150. In the page's own grid (two a row at most, then scaled down to
    // one row) they were 116 px.
    for (const side of m.sides) expect(side * m.zoom).toBeGreaterThan(180);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('with the training or schemes section the frame scrolls at the page’s size: nothing scaled down, the matrices 560 px at most as on the page', async () => {
    for (const panels of ['train', 'offsets,schemes']) {
      const { page, context, problems } = await openPage(browser, `${site.url}?embed=1&panels=${panels}&theme=dark`, {
        viewport: { width: 700, height: 500 },
      });
      await page.waitForSelector('body[data-ready="true"]');
      await page.waitForSelector('body[data-fit="700x500"]');
      const m = await measure(page);
      const shown = await page.evaluate(() => ({
        text: parseFloat(getComputedStyle(document.querySelector('main p, main h2')).fontSize),
        visible: [...document.querySelectorAll('#train-section, #schemes-section')].filter((s) => !s.hidden).length,
      }));
      expect([m.zoom, shown.visible], panels).toEqual([1, 1]);
      expect(shown.text, panels).toBeGreaterThanOrEqual(14);
      expect(m.scroll[1], panels).toBeGreaterThan(500); // it scrolls
      for (const side of m.sides) expect(side, panels).toBeGreaterThan(300); // as on the page at 700 px
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  test('zoomed down to fit a tiny frame, hover still reads the cell under the pointer', async () => {
    const { page, context, problems } = await openPage(browser, `${site.url}?embed=1&panels=combinedWeights,offsets`, {
      viewport: { width: 320, height: 300 },
    });
    await page.waitForSelector('body[data-ready="true"]');
    const m = await measure(page);
    expect(m.zoom).toBeLessThan(1);
    const { box, layout } = await page.$eval('#figure-combinedWeights canvas', (c) => ({
      box: c.getBoundingClientRect().toJSON(),
      layout: JSON.parse(c.dataset.layout),
    }));
    const zoom = m.zoom;
    await page.mouse.move(
      box.left + zoom * (layout.x0 + 3.5 * layout.cell),
      box.top + zoom * (layout.y0 + 1.5 * layout.cell),
    );
    expect(await page.textContent('.relpos-tooltip')).toContain('(i, j)(1, 3)');
    await screenshot(page, 'embed-fit-320x300.png');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('captions=0 hides the captions, actions=1 shows the buttons', async () => {
    const { page, context } = await openPage(browser, `${site.url}?embed=1&panels=offsets&captions=0&actions=1`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.isVisible('#figure-offsets .relpos-caption')).toBe(false);
    expect(await page.isVisible('#figure-offsets .relpos-actions')).toBe(true);
    await page.goto(`${site.url}?embed=1&panels=offsets&captions=maybe`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.isVisible('#figure-offsets .relpos-caption')).toBe(true);
    expect(await page.isVisible('#figure-offsets .relpos-actions')).toBe(false);
    expect(await page.textContent('#notes')).toContain(
      'captions: unknown maybe; choose from 1, true, on, yes, 0, false, off, no; using on',
    );
    await context.close();
  });
});

describe('the host page', () => {
  test('fit=width: the frame posts its height and the snippet (examples/iframe-resize.js) resizes the frame', async () => {
    for (const width of [480, 1100]) {
      const { page, context, problems } = await openPage(browser, `${hosts.url}auto.html`, {
        viewport: { width, height: 700 },
      });
      const messages = [];
      await page.exposeFunction('seen', (data) => messages.push(data));
      await page.evaluate(() => addEventListener('message', (e) => window.seen(e.data)));
      const frame = page.frameLocator('#frame');
      await frame.locator('body[data-ready="true"]').waitFor();
      await page.waitForFunction(() => document.querySelector('#frame').style.height !== '');
      const inner = await page
        .frames()
        .find((f) => f !== page.mainFrame())
        .evaluate(() => [document.documentElement.scrollHeight, innerHeight]);
      const outer = await page.$eval('#frame', (f) => f.getBoundingClientRect().height);
      expect(inner[0], `${width}: the frame shows all its content`).toBe(inner[1]);
      expect(outer).toBe(inner[1]);
      expect(outer).toBeGreaterThan(300); // grown from the frame's height attribute
      await page.evaluate(() => window.dispatchEvent(new Event('resize'))); // a message after the listener
      await page.waitForFunction(() => true);
      await screenshot(page, `embed-auto-${width}.png`);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  test('the resize snippet ignores a foreign page in the frame and clamps the height', async () => {
    const { page, context, problems } = await openPage(browser, `${hosts.url}auto.html`, {
      viewport: { width: 800, height: 700 },
    });
    await page.frameLocator('#frame').locator('body[data-ready="true"]').waitFor();
    await page.waitForFunction(() => document.querySelector('#frame').style.height !== '');
    const height = () => page.$eval('#frame', (f) => f.getBoundingClientRect().height);
    const fitted = await height();
    const relposFrame = page.frames().find((f) => f !== page.mainFrame());
    // The relpos view itself posting an absurd height: the snippet clamps it to 10 000 px.
    await relposFrame.evaluate(() => parent.postMessage({ type: 'relpos:height', height: 1e9 }, '*'));
    await page.waitForFunction(() => document.querySelector('#frame').style.height === '10000px');
    await relposFrame.evaluate(() => parent.postMessage({ type: 'relpos:height', height: 512 }, '*'));
    await page.waitForFunction(() => document.querySelector('#frame').style.height === '512px');
    // The page the frame was opened on (the relpos view's origin) is left for another origin's
    // page, which posts height 1e9 every 20 ms: nothing changes.
    await relposFrame.goto(`${hosts.url}foreign.html`);
    await page.waitForTimeout(300);
    expect(await height()).toBe(512);
    // The host page's own window posting to itself is not a frame either.
    await page.evaluate(() => postMessage({ type: 'relpos:height', height: 700 }, '*'));
    await page.waitForTimeout(100);
    expect(await height()).toBe(512);
    expect(fitted).toBeGreaterThan(300);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('sandbox="allow-scripts": the one-file relpos.html works; the multi-file page says what to do', async () => {
    {
      const { page, context, problems } = await openPage(browser, `${hosts.url}sandbox-single.html`);
      const frame = page.frameLocator('#frame');
      await frame.locator('body[data-ready="true"]').waitFor();
      expect(await frame.locator('figure:visible').count()).toBe(1);
      expect(problems).toEqual([]);
      await context.close();
    }
    {
      const { page, context } = await openPage(browser, `${hosts.url}sandbox-multi.html`);
      const message = page.frameLocator('#frame').locator('.no-script');
      await message.waitFor({ state: 'visible', timeout: 120_000 });
      expect(await message.textContent()).toMatch(/relpos\.html.*allow-same-origin/s);
      const box = await message.boundingBox();
      expect(box.y + box.height, 'the message is in the frame').toBeLessThanOrEqual(300);
      await screenshot(page, 'embed-sandbox-multi.png');
      await context.close();
    }
  });
});
