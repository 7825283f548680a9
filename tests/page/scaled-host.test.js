// Figures inside a scaled host: reveal.js scales its slides with a CSS transform, and a page may
// use CSS zoom. The cell read on hover is the cell under the pointer, the tooltip sits by the
// pointer, the canvas has enough pixels for its size on screen (and for print), and the arrow
// keys on a focused panel do not reach the host (reveal would change slide).
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser.js';
import { SITE } from './page-fixture.js';
import { serveFolder } from './static-server.js';

const STYLES = {
  0.8: 'transform: scale(0.8); transform-origin: 0 0',
  1: '',
  1.5: 'transform: scale(1.5); transform-origin: 0 0',
  'zoom-1.5': 'zoom: 1.5',
};

let server;
let browser;
beforeAll(async () => {
  // The host pages and the elements bundle in a folder of their own.
  const folder = mkdtempSync(join(tmpdir(), 'relpos-scaled-'));
  copyFileSync(join(SITE, 'relpos-elements.js'), join(folder, 'relpos-elements.js'));
  for (const [name, style] of Object.entries(STYLES)) writeFileSync(join(folder, `host-${name}.html`), hostPage(style));
  server = await serveFolder(folder);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function hostPage(style) {
  return `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="relpos-elements.js"></script></head>
<body style="margin: 0">
<div id="host" style="position: absolute; left: 30px; top: 20px; width: 640px; ${style}">
  <relpos-attention tokens="the cat sat on the mat" max-distance="2" panels="combined-weights"></relpos-attention>
</div>
<script type="module">window.keysSeen = []; document.addEventListener('keydown', (e) => keysSeen.push(e.key));</script>
</body></html>`;
}

async function openHost(name) {
  const opened = await openPage(browser, `${server.url}host-${name}.html`, { viewport: { width: 1280, height: 1100 } });
  await opened.page.waitForFunction(() => {
    const canvas = document.querySelector('relpos-attention')?.shadowRoot?.querySelector('canvas');
    return canvas?.dataset.layout;
  });
  return opened;
}

const geometry = (page) =>
  page.evaluate(() => {
    const root = document.querySelector('relpos-attention').shadowRoot;
    const canvas = root.querySelector('canvas');
    return {
      box: canvas.getBoundingClientRect().toJSON(),
      layout: JSON.parse(canvas.dataset.layout),
      cssWidth: parseFloat(canvas.style.width),
      backing: canvas.width,
    };
  });

const tooltip = (page) =>
  page.evaluate(() => {
    const tip = document.querySelector('relpos-attention').shadowRoot.querySelector('.relpos-tooltip');
    return tip.hidden ? null : { text: tip.textContent, box: tip.getBoundingClientRect().toJSON() };
  });

describe('a figure in a scaled host', () => {
  for (const [name, scale] of [
    ['0.8', 0.8],
    [1, 1],
    ['1.5', 1.5],
    ['zoom-1.5', 1.5],
  ]) {
    test(`${STYLES[name] || 'no transform'}: hover reads the cell under the pointer, the tooltip is by it, the canvas is sharp`, async () => {
      const { page, context, problems } = await openHost(name);
      const { box, layout, cssWidth, backing } = await geometry(page);
      // The host's scale, as the test set it, maps the drawn layout (CSS px of the canvas) to the screen.
      expect(box.width).toBeCloseTo(cssWidth * scale, 0);
      for (const [i, j] of [
        [0, 0],
        [2, 3],
        [5, 5],
        [4, 1],
        [1, 4],
      ]) {
        // A point a quarter into the cell (not its centre): an error of a quarter cell shows.
        const x = box.left + scale * (layout.x0 + (j + 0.25) * layout.cell);
        const y = box.top + scale * (layout.y0 + (i + 0.75) * layout.cell);
        await page.mouse.move(x, y);
        const tip = await tooltip(page);
        expect(tip?.text, `pointer over (${i}, ${j})`).toContain(`(i, j)(${i}, ${j})`);
        // The tooltip's nearest edge is within 40 px of the pointer, whatever the scale.
        const dx = Math.max(tip.box.left - x, 0, x - tip.box.right);
        const dy = Math.max(tip.box.top - y, 0, y - tip.box.bottom);
        expect(Math.hypot(dx, dy), `tooltip ${JSON.stringify(tip.box)} vs pointer ${x}, ${y}`).toBeLessThan(40);
      }
      // Enough device pixels for the size on screen: scaled up, the backing store grows with it.
      expect(backing / cssWidth).toBeGreaterThanOrEqual(Math.max(1, scale) - 0.01);
      await screenshot(page, `scaled-host-${name}.png`);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  test('the arrow keys move the cell and do not reach the host; Escape does while nothing is selected', async () => {
    const { page, context, problems } = await openHost('0.8');
    await page.evaluate(() =>
      document.querySelector('relpos-attention').shadowRoot.querySelector('.relpos-canvas-wrap').focus(),
    );
    for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp', 'End', 'Home'])
      await page.keyboard.press(key);
    expect((await tooltip(page)).text).toContain('(i, j)(0, 0)');
    await page.keyboard.press('Escape'); // clears the selection: the panel's
    await page.keyboard.press('Escape'); // nothing selected: the host's
    expect(await page.evaluate(() => window.keysSeen)).toEqual(['Escape']);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('printing redraws the canvases at 3 device pixels per CSS pixel (about 300 ppi), and back', async () => {
    const { page, context, problems } = await openHost(1);
    const before = await geometry(page);
    expect(before.backing / before.cssWidth).toBe(1);
    await page.emulateMedia({ media: 'print' });
    await page.waitForFunction(() => {
      const canvas = document.querySelector('relpos-attention').shadowRoot.querySelector('canvas');
      return canvas.width >= 3 * parseFloat(canvas.style.width) - 1;
    });
    await page.emulateMedia({ media: 'screen' });
    await page.waitForFunction(() => {
      const canvas = document.querySelector('relpos-attention').shadowRoot.querySelector('canvas');
      return canvas.width === parseFloat(canvas.style.width);
    });
    expect(problems).toEqual([]);
    await context.close();
  });
});
