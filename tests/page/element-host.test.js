// The elements in a host page: fit="box" fits the element's own height (reserved by the host's
// CSS before the script runs: no layout shift), max-height caps it, captions="off" and
// actions="off" hide those; theme="inherit" follows the host (see the theme tests below).
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser.js';
import { SITE } from './page-fixture.js';
import { serveFolder } from './static-server.js';

let server;
let browser;
const folder = mkdtempSync(join(tmpdir(), 'relpos-element-host-'));
const page = (name, head, body) =>
  writeFileSync(
    join(folder, `${name}.html`),
    `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">${head}</head><body>${body}</body></html>`,
  );
beforeAll(async () => {
  copyFileSync(join(SITE, 'relpos-elements.js'), join(folder, 'relpos-elements.js'));
  copyFileSync(join(SITE, 'relpos-train.js'), join(folder, 'relpos-train.js'));
  page(
    'fit',
    // The script comes late (as a slow network would): the space is reserved before it.
    '<style>body { margin: 0; width: 900px } #box { display: block; height: 520px }</style>',
    `<relpos-attention id="box" fit="box" panels="combined-weights offsets" tokens="a b c d e f g h"></relpos-attention>
     <relpos-attention id="capped" max-height="380" captions="off" actions="off" panels="position-biases"></relpos-attention>
     <p id="after">after</p>
     <script type="module">
       window.before = document.querySelector('#box').getBoundingClientRect().height;
       await new Promise((resume) => setTimeout(resume, 300));
       await import('./relpos-elements.js');
     </script>`,
  );
  // Five panels (and one the element does not draw) in a short, wide box.
  page(
    'six',
    '<script type="module" src="relpos-elements.js"></script><style>body { margin: 0 } #six { display: block; width: 900px; height: 420px }</style>',
    '<relpos-attention id="six" fit="box" panels="content-scores position-biases content-weights combined-weights offsets profile"></relpos-attention>',
  );
  page(
    'theme',
    `<style>html.dark { --relpos-panel: rgb(1, 2, 3); } html.dark body { background: #1b1b1f }</style>
     <script type="module" src="relpos-elements.js"></script>`,
    `<relpos-attention id="a" theme="inherit" panels="combined-weights"></relpos-attention>
     <div data-theme="light"><relpos-profile id="p" theme="inherit"></relpos-profile></div>
     <div style="background: #101010"><relpos-attention id="bg" theme="inherit" panels="offsets"></relpos-attention></div>`,
  );
  // A dark course page by its background only (no class, no attribute), the system light.
  page(
    'train-theme',
    `<style>body { background: #111; color: #eee } body.light { background: #fff; color: #222 }</style>
     <script type="module" src="relpos-train.js"></script>`,
    '<relpos-train id="t" theme="inherit" size="tiny"></relpos-train>',
  );
  server = await serveFolder(folder);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const rendered = (p, selector) =>
  p.waitForFunction(
    (s) => document.querySelector(s)?.view && document.querySelector(s).shadowRoot.querySelector('canvas').width > 1,
    selector,
  );

describe('fit, max-height, captions, actions', () => {
  test('fit="box" fills the reserved box without overflow and nothing moves; max-height caps; captions and actions off', async () => {
    const {
      page: p,
      context,
      problems,
    } = await openPage(browser, `${server.url}fit.html`, {
      viewport: { width: 900, height: 900 },
    });
    await rendered(p, '#box');
    await rendered(p, '#capped');
    await p.waitForTimeout(100);
    const m = await p.evaluate(() => {
      const box = document.querySelector('#box');
      const grid = box.shadowRoot.querySelector('.relpos-grid');
      const capped = document.querySelector('#capped');
      return {
        boxHeight: box.getBoundingClientRect().height,
        gridBottom: grid.getBoundingClientRect().bottom - box.getBoundingClientRect().top,
        cappedHeight: capped.getBoundingClientRect().height,
        afterBefore: window.before,
        cappedTop: capped.getBoundingClientRect().top,
        captionShown: capped.shadowRoot.querySelector('.relpos-caption').offsetParent !== null,
        actionsShown: capped.shadowRoot.querySelector('.relpos-actions').offsetParent !== null,
      };
    });
    expect(m.afterBefore).toBe(520); // reserved before the script ran
    expect(m.boxHeight).toBe(520);
    expect(m.gridBottom).toBeLessThanOrEqual(520.5);
    expect(m.gridBottom).toBeGreaterThan(520 - 60); // the height is used
    expect(m.cappedTop).toBe(520); // the reserved box did not move what follows it
    expect(m.cappedHeight).toBeLessThanOrEqual(380.5);
    expect(m.cappedHeight).toBeGreaterThan(300);
    expect(m.captionShown).toBe(false);
    expect(m.actionsShown).toBe(false);
    // Another box height: fitted again.
    await p.evaluate(() => (document.querySelector('#box').style.height = '400px'));
    await p.waitForFunction(() => {
      const box = document.querySelector('#box');
      const grid = box.shadowRoot.querySelector('.relpos-grid');
      const bottom = grid.getBoundingClientRect().bottom - box.getBoundingClientRect().top;
      return bottom <= 400.5 && bottom > 340;
    });
    await screenshot(p, 'element-fit.png');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('fit="box" with five panels and a message in 900 × 420 px: one row, larger than the grid’s own columns allow, all inside the box', async () => {
    const {
      page: p,
      context,
      problems,
    } = await openPage(browser, `${server.url}six.html`, {
      viewport: { width: 960, height: 700 },
    });
    await rendered(p, '#six');
    await p.waitForFunction(() => !document.querySelector('#six').shadowRoot.querySelector('.relpos-message').hidden);
    const m = await p.evaluate(() => {
      const box = document.querySelector('#six');
      const grid = box.shadowRoot.querySelector('.relpos-grid');
      const figures = [...grid.querySelectorAll('figure')];
      return {
        tops: figures.map((f) => Math.round(f.getBoundingClientRect().top)),
        zoom: Number(grid.style.zoom || 1),
        bottom: grid.getBoundingClientRect().bottom - box.getBoundingClientRect().top,
        message: box.shadowRoot.querySelector('.relpos-message').textContent,
      };
    });
    expect(m.message).toMatch(/^panels: unknown profile; choose from /);
    expect(m.tops).toHaveLength(5);
    expect(new Set(m.tops).size).toBe(1);
    // The figures fit under the message, which takes its room after the first fit.
    expect(m.bottom).toBeLessThanOrEqual(420.5);
    // In the grid's own columns (320 px at least, 12 px apart) five stand in a row only when
    // scaled to 900 / (5 × 320 + 4 × 12) = 0.546 or less.
    expect(m.zoom).toBeGreaterThan(0.56);
    await screenshot(p, 'element-fit-five.png');
    // Without fit, the grid's own columns again: at least 320 px each, two in 900 px.
    await p.evaluate(() => document.querySelector('#six').removeAttribute('fit'));
    await p.waitForFunction(() => {
      const grid = document.querySelector('#six').shadowRoot.querySelector('.relpos-grid');
      return !grid.style.gridTemplateColumns && getComputedStyle(grid).gridTemplateColumns.split(' ').length === 2;
    });
    expect(problems).toEqual([]);
    await context.close();
  });
});

// The row labels' pixels (left of the matrix) close to a colour: the labels are drawn in it.
const labelPixels = (p, selector, [r, g, b]) =>
  p.evaluate(
    ([s, rgb]) => {
      const canvas = document.querySelector(s).shadowRoot.querySelector('canvas');
      const layout = JSON.parse(canvas.dataset.layout);
      const ratio = canvas.width / parseFloat(canvas.style.width);
      const x1 = Math.floor((layout.x0 - 2) * ratio);
      const y0 = Math.floor(layout.y0 * ratio);
      const h = Math.floor(layout.cell * layout.n * ratio);
      const { data } = canvas.getContext('2d').getImageData(0, y0, x1, h);
      let count = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i + 3] > 200 && Math.hypot(data[i] - rgb[0], data[i + 1] - rgb[1], data[i + 2] - rgb[2]) < 30)
          count += 1;
      return count;
    },
    [selector, [r, g, b]],
  );
const panelBackground = (p, selector) =>
  p.evaluate(
    (s) => getComputedStyle(document.querySelector(s).shadowRoot.querySelector('figure')).backgroundColor,
    selector,
  );

describe('theme="inherit"', () => {
  test('follows html.dark (VitePress’s switch) at once, canvas labels included; a light ancestor wins over a dark system; a dark background reads as dark', async () => {
    const {
      page: p,
      context,
      problems,
    } = await openPage(browser, `${server.url}theme.html`, {
      viewport: { width: 900, height: 900 },
      colorScheme: 'dark', // the system is dark; the page (no class) is light
    });
    for (const id of ['#a', '#p', '#bg']) await rendered(p, id);
    const LIGHT_FG = [0x1b, 0x1b, 0x1f];
    const DARK_FG = [0xec, 0xec, 0xf1];
    // No class and a white page: light, though the system is dark (the page's background decides).
    expect(await panelBackground(p, '#a')).toBe('rgb(255, 255, 255)');
    expect(await labelPixels(p, '#a', LIGHT_FG)).toBeGreaterThan(20);
    expect(await labelPixels(p, '#a', DARK_FG)).toBe(0);
    expect(await panelBackground(p, '#p')).toBe('rgb(255, 255, 255)'); // data-theme="light"
    expect(await panelBackground(p, '#bg')).toBe('rgb(28, 28, 33)'); // on #101010: the dark panel colour
    // VitePress's switch: html.dark, and the page's own --relpos-panel under it.
    await p.evaluate(() => document.documentElement.classList.add('dark'));
    await p.waitForFunction(
      () =>
        getComputedStyle(document.querySelector('#a').shadowRoot.querySelector('figure')).backgroundColor ===
        'rgb(1, 2, 3)',
    );
    await p.waitForTimeout(50);
    expect(await labelPixels(p, '#a', DARK_FG)).toBeGreaterThan(20); // redrawn, no resize needed
    expect(await labelPixels(p, '#a', LIGHT_FG)).toBe(0);
    // Its light ancestor is nearer: light colours, but the page's own --relpos-panel, set on
    // html.dark, reaches it too (a page variable applies wherever it is inherited).
    expect(await p.evaluate(() => getComputedStyle(document.querySelector('#p')).getPropertyValue('--relpos-fg'))).toBe(
      '#1b1b1f',
    );
    expect(await panelBackground(p, '#p')).toBe('rgb(1, 2, 3)');
    await screenshot(p, 'theme-inherit-dark.png');
    await p.evaluate(() => document.documentElement.classList.remove('dark'));
    await p.waitForFunction(
      () =>
        getComputedStyle(document.querySelector('#a').shadowRoot.querySelector('figure')).backgroundColor ===
        'rgb(255, 255, 255)',
    );
    await p.waitForTimeout(50);
    expect(await labelPixels(p, '#a', LIGHT_FG)).toBeGreaterThan(20);
    for (const id of ['#a', '#p', '#bg'])
      expect(await p.$eval(id, (el) => el.shadowRoot.querySelector('.relpos-message').hidden)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('<relpos-train theme="inherit">', () => {
  // The section's panel (the handbook's claims), its text, and its menus' color-scheme.
  const trainColours = (p) =>
    p.evaluate(() => {
      const root = document.querySelector('#t').shadowRoot;
      const figure = getComputedStyle(root.querySelector('.relpos-train figure'));
      return {
        panel: figure.backgroundColor,
        text: figure.color,
        menus: getComputedStyle(root.querySelector('.relpos-train select')).colorScheme,
      };
    });
  const DARK = { panel: 'rgb(28, 28, 33)', text: 'rgb(236, 236, 241)', menus: 'dark' }; // #1c1c21, #ececf1
  const LIGHT = { panel: 'rgb(255, 255, 255)', text: 'rgb(27, 27, 31)', menus: 'light' }; // #ffffff, #1b1b1f
  /** Runs `change` in the page, waits for the widget's panel to take `want`'s colour, and checks all of `want`. */
  const switchTo = async (p, change, want) => {
    await p.evaluate(change);
    await p.waitForFunction(
      (panel) =>
        getComputedStyle(document.querySelector('#t').shadowRoot.querySelector('.relpos-train figure'))
          .backgroundColor === panel,
      want.panel,
    );
    expect(await trainColours(p)).toEqual(want);
  };

  test('follows a dark page on a light system, then the page switched to light and back, as the other elements', async () => {
    const {
      page: p,
      context,
      problems,
    } = await openPage(browser, `${server.url}train-theme.html`, {
      viewport: { width: 900, height: 900 },
      colorScheme: 'light',
    });
    await p.waitForFunction(() => document.querySelector('#t')?.shadowRoot?.querySelector('.relpos-train figure'));
    expect(await trainColours(p)).toEqual(DARK);
    await screenshot(p, 'train-theme-inherit-dark.png');
    await switchTo(p, () => document.body.classList.add('light'), LIGHT);
    await switchTo(p, () => document.body.classList.remove('light'), DARK);
    // theme="light" on the dark page: light whatever the page.
    await switchTo(p, () => document.querySelector('#t').setAttribute('theme', 'light'), LIGHT);
    expect(problems).toEqual([]);
    await context.close();
  });
});
