// The ways to embed: the iframe view, the page and the elements under a strict
// Content-Security-Policy, the self-contained dist/relpos.html from file://, and the weight of
// what the page loads.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser.js';
import { SITE, whenDrawn } from './page-fixture.js';
import { serveFolder } from './static-server.js';

const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:";
const SINGLE = new URL('../../dist/relpos.html', import.meta.url);

let plain;
let strict;
let browser;
beforeAll(async () => {
  plain = await serveFolder(SITE);
  strict = await serveFolder(SITE, { headers: { 'content-security-policy': CSP } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await plain?.close();
  await strict?.close();
});

const figuresShown = (page) =>
  page.$$eval('figure', (list) => list.filter((f) => f.offsetParent !== null).map((f) => f.id));

describe('the iframe view', () => {
  test('?embed=1&panels=… shows only those panels, without the page chrome, filling the frame', async () => {
    const { page, context, problems } = await openPage(
      browser,
      `${plain.url}?embed=1&panels=combinedWeights,profile&seed=7`,
      {
        viewport: { width: 700, height: 600 },
      },
    );
    await page.waitForSelector('body[data-ready="true"]');
    expect(await figuresShown(page)).toEqual(['figure-combinedWeights', 'figure-profile']);
    for (const selector of ['.page-header', '.controls', '.export', '.page-footer', '.profile-controls']) {
      expect(await page.isVisible(selector), selector).toBe(false);
    }
    // Side by side, filling the frame's width, and no scrolling in a 700 × 600 frame.
    const boxes = await page.$$eval('figure:not([hidden])', (list) =>
      list.filter((f) => f.offsetParent).map((f) => f.getBoundingClientRect().toJSON()),
    );
    expect(boxes[0].top).toBe(boxes[1].top);
    expect(boxes[1].right - boxes[0].left).toBeGreaterThan(650);
    expect(
      await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]),
    ).toEqual([700, 600]);
    await screenshot(page, 'iframe-view.png');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('kebab-case names work, unknown names are reported; embed is a switch like any other (Yes)', async () => {
    const { page, context } = await openPage(browser, `${plain.url}?embed=Yes&panels=position-biases,heat`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await figuresShown(page)).toEqual(['figure-positionBiases']);
    expect(await page.textContent('#notes')).toContain('panels: unknown heat');
    await context.close();
  });

  test('the example page embeds it in an iframe', async () => {
    const { page, context, problems } = await openPage(browser, `${plain.url}examples/iframe.html`);
    const frame = page.frameLocator('#frame');
    await frame.locator('body[data-ready="true"]').waitFor();
    expect(await frame.locator('figure:visible').count()).toBe(2);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('a strict Content-Security-Policy', () => {
  for (const path of ['', '?embed=1&panels=offsets', 'examples/elements.html', 'examples/iframe.html']) {
    test(`${path || 'the page'} works with no violation`, async () => {
      const context = await browser.newContext();
      await context.addInitScript(() => {
        window.__violations = [];
        document.addEventListener('securitypolicyviolation', (e) =>
          window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      const page = await context.newPage();
      const problems = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      const response = await page.goto(`${strict.url}${path}`);
      expect(response.headers()['content-security-policy']).toBe(CSP);
      if (path.startsWith('examples/elements')) {
        await page.waitForFunction(() =>
          [...document.querySelectorAll('relpos-attention, relpos-profile')].every((el) => el.view),
        );
      } else if (path.startsWith('examples/iframe')) {
        await page.frameLocator('#frame').locator('body[data-ready="true"]').waitFor();
      } else {
        await page.waitForSelector('body[data-ready="true"]');
      }
      expect(await page.evaluate(() => window.__violations)).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});

describe('dist/relpos.html, the self-contained page', () => {
  test('works opened from disk with no network', async () => {
    const requests = [];
    const { page, context, problems } = await openPage(browser, SINGLE.href, {
      viewport: { width: 1280, height: 900 },
    });
    page.on('request', (request) => requests.push(request.url()));
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.$$eval('figure.relpos-panel', (list) => list.length)).toBe(8);
    const label = await page.getAttribute('#figure-combinedWeights canvas', 'aria-label');
    expect(label).toContain('6 by 6 heatmap');
    await page.click('#more-settings > summary'); // n is under "More settings"
    await page.fill('#seqLen', '9');
    await whenDrawn(page);
    expect(await page.getAttribute('#figure-combinedWeights canvas', 'aria-label')).toContain('9 by 9 heatmap');
    expect(requests.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:'))).toEqual([]);
    expect(problems).toEqual([]);
    await page.goto(`${SINGLE.href}?embed=1&panels=offsets`); // its iframe view
    await page.waitForSelector('body[data-ready="true"]');
    expect(await figuresShown(page)).toEqual(['figure-offsets']);
    const html = readFileSync(SINGLE, 'utf8');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/); // nothing left to fetch
    await context.close();
  });

  test('its long-sequence view computes in a worker (inlined, started from a Blob URL)', async () => {
    const { page, context, problems } = await openPage(browser, `${SINGLE.href}?long=1&n=1024`, {
      viewport: { width: 1280, height: 900 },
    });
    await page.waitForSelector('body[data-ready="true"]');
    await whenDrawn(page);
    expect(await page.evaluate(() => window.relposPage.computedBy())).toBe('worker');
    await page.click('#more-panels > summary'); // panel 6 is under "More panels"
    await expect
      .poll(() => page.getAttribute('#figure-offsets canvas', 'aria-label'))
      .toContain('1024 by 7 heatmap in offset space'); // k = 3: columns −3…3
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('weight', () => {
  // The first load, as Chromium fetches it (every file requested until the page is ready): the
  // module without the training engine (relpos_wasm_lite; the training section loads its own
  // when opened) as a .wasm file compiled while it downloads, the page's scripts, style sheet
  // and the lesson. 161 KiB gzipped (160.1 measured with the core's scheme table, its contract
  // checks and its settings' ranges checked in the module, which is 60.0 of it, the model's API for training in steps of shards,
  // and the task pool's progress, cancel, long tasks and replacement, which the page's view pool
  // shares with training; the side figures, 5.5 KiB, could load with the drawer); the checkpoint reader
  // is not part of it (the page's instance is web/api/relpos.js's class: web/figures/shared-relpos.js).
  // With panel 7's output split and the tooltip's content + bias = combined written to the
  // decimals at which they add up, and a phone's tooltip placed clear of the panel's title and the
  // cell it reads; the one line chart (web/render/line-chart.js: the line plot is a call of it,
  // +0.7) and the API's calls on the instance's host (+0.2), the print layout (every panel on paper,
  // two to a row), the training section's link in the address (train=, train-size=, train-seed=) and
  // the schemes' maps read on hover (their reading code loads on the first pointer or focus). The
  // story's steps (web/page/story-steps.js, 4.5 KiB) load when the reader first comes near the
  // story: 159.0 measured with a reveal marked out of date and the way back from a step's panel on a phone;
  // 161.6 with the page's ?theme= (web/page/page-theme.js) and formulas and ranges kept on one line
  // (web/render/kept-together.js); 162.3 (161.8 before) with the present view's tooltip in the panel's
  // type and clear of its buttons on a phone, the long view's caption saying how high its cells
  // with no key are drawn, and column labels by index at the finest round step that fits; 163.2
  // with the schemes' summary table as blocks on a phone, the cells' values sized to fit and
  // drawn over a read cell's outlines, column labels steeper in narrow cells, and a read cell's
  // tooltip following its cell when the window is resized or turned; 164.3 with the line under
  // the words (what the panels draw of them, in the room of its longest sentence), a link's
  // corrections at the top, one panel a row where two would lose the words, captions keeping
  // their room while a value changes, and a tooltip's sentence under its label; 167.1 with the
  // SVG export drawn by the canvas's own layout (the figures' shared text placement and colour-bar
  // shapes; the SVG writer itself loads with the export), one switch rule, a swipe on a slider
  // scrolling, and the profile's and tables' files with their title (the way under it: the
  // schemes section and the long view's code loaded when first needed, as the story's steps are).
  test('what the page loads first is at most 168 KiB gzipped, the core a .wasm file and no base64 copy', async () => {
    const { page, context, problems } = await openPage(browser, 'about:blank', {
      viewport: { width: 1280, height: 900 },
    });
    const fetched = [];
    page.on('request', (request) => fetched.push(request.url()));
    await page.goto(plain.url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForTimeout(300);
    const files = [...new Set(fetched.filter((url) => url.startsWith(plain.url)))].map(
      (url) => new URL(url).pathname.slice(1) || 'index.html',
    );
    const rows = files.map((file) => {
      const bytes = readFileSync(`${SITE}${file}`);
      return { file, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, text: bytes.toString('latin1') };
    });
    const total = rows.reduce((sum, row) => sum + row.gzip, 0);
    console.table(rows.map(({ file, bytes, gzip }) => ({ file, bytes, gzip })));
    console.log(`page weight: ${(total / 1024).toFixed(1)} KiB gzipped`);
    expect(files.filter((file) => /^assets\/relpos-core-lite-.+\.wasm$/.test(file))).toHaveLength(1);
    expect(rows.filter((row) => /AGFzbQEAAAAB[A-Za-z0-9+/]{60000}/.test(row.text)).map((row) => row.file)).toEqual([]);
    expect(files.some((file) => file.endsWith('.js'))).toBe(true);
    // The checkpoint reader (web/api/checkpoint-file.js, one of its messages) loads with the checkpoint section.
    expect(rows.filter((row) => row.text.includes('a safetensors header may have')).map((row) => row.file)).toEqual([]);
    expect(total).toBeLessThanOrEqual(168 * 1024);
    expect(problems).toEqual([]);
    await context.close();
  });
});

// ?theme=: a course page forces the view's scheme, whatever the reader's system.
describe('?theme=', () => {
  const LIGHT = { bg: 'rgb(246, 246, 244)', panel: 'rgb(255, 255, 255)', fg: [0x1b, 0x1b, 0x1f] }; // figure-css.js
  const DARK = { bg: 'rgb(19, 19, 22)', panel: 'rgb(28, 28, 33)', fg: [0xec, 0xec, 0xf1] };
  // The page's colours, and how many pixels under the matrix (the colour bar's numbers and title)
  // are drawn in text colour `rgb` (within 10 of it on each axis together).
  const drawn = (page, rgb) =>
    page.evaluate((fg) => {
      const canvas = document.querySelector('#figure-combinedWeights canvas');
      const layout = JSON.parse(canvas.dataset.layout);
      const ratio = canvas.width / parseFloat(canvas.style.width);
      const top = Math.ceil((layout.y0 + layout.cell * layout.n) * ratio) + 2;
      const { data } = canvas.getContext('2d').getImageData(0, top, canvas.width, canvas.height - top);
      let text = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i + 3] > 200 && Math.hypot(data[i] - fg[0], data[i + 1] - fg[1], data[i + 2] - fg[2]) < 10) text += 1;
      return {
        bg: getComputedStyle(document.body).backgroundColor,
        panel: getComputedStyle(document.querySelector('#figure-combinedWeights')).backgroundColor,
        text,
        notes: document.querySelector('#notes')?.textContent ?? '',
      };
    }, rgb);
  const open = async (query, colorScheme) => {
    const opened = await openPage(browser, `${plain.url}${query}`, {
      viewport: { width: 700, height: 700 },
      colorScheme,
    });
    await opened.page.waitForSelector('body[data-ready="true"]');
    return opened;
  };

  test('theme=dark draws dark under a light system, theme=light light under a dark one', async () => {
    for (const [theme, system, colours] of [
      ['dark', 'light', DARK],
      ['light', 'dark', LIGHT],
    ]) {
      const { page, context, problems } = await open(`?embed=1&panels=combinedWeights&theme=${theme}`, system);
      const m = await drawn(page, colours.fg);
      expect(m.bg, theme).toBe(colours.bg);
      expect(m.panel, theme).toBe(colours.panel);
      expect(m.text, theme).toBeGreaterThan(20); // the colour bar's numbers in the theme's text colour
      expect(m.notes, theme).toBe('');
      if (theme === 'dark') await screenshot(page, 'iframe-view-theme-dark.png');
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  test('an unknown theme is reported and auto (the system’s) is used', async () => {
    const { page, context, problems } = await open('?embed=1&panels=combinedWeights&theme=purple', 'dark');
    const m = await drawn(page, DARK.fg);
    expect(m.notes).toContain('Link corrected: theme: unknown purple; choose from light, dark, auto; using auto.');
    expect(m.bg).toBe(DARK.bg);
    expect(m.text).toBeGreaterThan(20);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('the page keeps theme=dark in the address it writes, and its embed code offers it', async () => {
    const { page, context, problems } = await open('?draw=HANDBOOK&theme=dark', 'light');
    // The writer rewrites the address (draw as the page writes it) and keeps the theme.
    await page.waitForFunction(() => location.search.includes('draw=handbook'));
    expect(new URLSearchParams(await page.evaluate(() => location.search)).get('theme')).toBe('dark');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(DARK.bg);
    await page.click('#embed-code summary');
    await page.waitForFunction(() => document.querySelector('#embed-iframe')?.textContent);
    expect(await page.$eval('#embed-theme', (select) => select.value)).toBe('dark');
    expect(await page.textContent('#embed-iframe')).toMatch(/&amp;theme=dark"/);
    expect(await page.textContent('#embed-element')).toContain(' theme="dark"');
    await page.selectOption('#embed-theme', 'auto');
    expect(await page.textContent('#embed-iframe')).not.toContain('theme=');
    expect(await page.textContent('#embed-element')).not.toContain('theme=');
    expect(problems).toEqual([]);
    await context.close();
  });
});
