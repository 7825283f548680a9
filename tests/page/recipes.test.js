// The course-tool recipes of the README (examples/recipes/), each built by the real tool and
// checked in one Chromium session: VitePress 1.6 (npm), reveal.js 6 (npm), MkDocs and Jupyter's
// nbconvert (Debian; scripts/setup.sh installs them), and an LMS page that allows only iframes.
// For each: the figure draws, no console errors, hover reads the cell under the pointer; and
// what each tool is known to break: VitePress's dark switch, reveal's scale, keys and
// ?print-pdf, MkDocs' classic script, file:// and light theme on a dark system, the LMS's
// sandbox. Screenshots in tests/artifacts/recipe-*.png.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser.js';
import { serveFolder } from './static-server.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const RECIPES = join(ROOT, 'examples/recipes');
const DIST = join(ROOT, 'dist');
const OUT = mkdtempSync(join(tmpdir(), 'relpos-recipes-'));
/** A tool's run, in the background: resolves when it has ended well, rejects with its output otherwise. */
const run = (command, args, cwd) =>
  promisify(execFile)(command, args, { cwd, timeout: 180_000, maxBuffer: 64 << 20 }).then(({ stdout }) => stdout);

let browser;
/** The sites the tools build (each test awaits its own): { vitepress, mkdocs, jupyter }. */
const built = {};
const servers = [];
const serve = async (folder) => {
  const server = await serveFolder(folder);
  servers.push(server);
  return server.url;
};

beforeAll(async () => {
  // VitePress: `vitepress build` of the recipe's docs (the elements come from this package).
  built.vitepress = run(
    'node',
    [
      join(ROOT, 'node_modules/vitepress/bin/vitepress.js'),
      'build',
      join(RECIPES, 'vitepress/docs'),
      '--outDir',
      join(OUT, 'vitepress'),
    ],
    ROOT,
  ).then(() => {
    writeFileSync(join(OUT, 'vitepress/favicon.ico'), ''); // the site's own icon, not the recipe's business
  });
  // reveal.js: the recipe's page with reveal.js's dist/ and the elements bundle next to it.
  cpSync(join(RECIPES, 'reveal'), join(OUT, 'reveal'), { recursive: true });
  cpSync(join(ROOT, 'node_modules/reveal.js/dist'), join(OUT, 'reveal/reveal.js/dist'), { recursive: true });
  cpSync(join(DIST, 'relpos-elements.js'), join(OUT, 'reveal/relpos-elements.js'));
  writeFileSync(join(OUT, 'reveal/favicon.ico'), '');
  // MkDocs: the classic-script bundle in docs/, `mkdocs build`.
  cpSync(join(RECIPES, 'mkdocs'), join(OUT, 'mkdocs-src'), { recursive: true });
  cpSync(join(DIST, 'relpos-elements.iife.js'), join(OUT, 'mkdocs-src/docs/relpos-elements.iife.js'));
  built.mkdocs = run('mkdocs', ['build', '--quiet', '--site-dir', join(OUT, 'mkdocs')], join(OUT, 'mkdocs-src'));
  // Jupyter: the notebook executed and exported to HTML by nbconvert.
  cpSync(join(RECIPES, 'jupyter'), join(OUT, 'jupyter'), { recursive: true });
  cpSync(join(DIST, 'relpos-elements.iife.js'), join(OUT, 'jupyter/relpos-elements.iife.js'));
  built.jupyter = run('jupyter', ['nbconvert', '--to', 'html', '--execute', 'relpos.ipynb'], join(OUT, 'jupyter'));
  // An LMS page: scripts forbidden (CSP script-src 'none'), the fragment pasted in, relpos.html uploaded.
  cpSync(join(DIST, 'relpos.html'), join(OUT, 'lms/relpos.html'));
  writeFileSync(
    join(OUT, 'lms/course.html'),
    `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="script-src 'none'">
<link rel="icon" href="data:,"><title>A course page</title></head><body style="max-width: 760px; margin: 20px auto; font-family: sans-serif">
<h1>Week 3: relative positions</h1>${readFileSync(join(RECIPES, 'lms/fragment.html'), 'utf8')}</body></html>`,
  );
  // A build that fails fails the test that awaits it (and is not an unhandled rejection before then).
  for (const building of Object.values(built)) building.catch(() => {});
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  for (const server of servers) await server.close();
});

// The element's shadow root holds the panels; the point over cell (i, j) of panel `index`,
// from the drawn layout and the scale the test knows the host applies.
async function pointOver(target, host, index, i, j, scale = 1) {
  return target.evaluate(
    ([selector, n, ci, cj, s]) => {
      const canvas = document.querySelector(selector).shadowRoot.querySelectorAll('canvas')[n];
      const box = canvas.getBoundingClientRect();
      const layout = JSON.parse(canvas.dataset.layout);
      return [
        box.left + s * (layout.x0 + (cj + 0.3) * layout.cell),
        box.top + s * (layout.y0 + (ci + 0.7) * layout.cell),
      ];
    },
    [host, index, i, j, scale],
  );
}
const tooltipText = (target, host) =>
  target.evaluate((selector) => {
    const tip = document.querySelector(selector).shadowRoot.querySelector('.relpos-tooltip');
    return tip.hidden ? null : tip.textContent;
  }, host);
const drawn = (target, host = 'relpos-attention') =>
  target.waitForFunction(
    (selector) =>
      [...document.querySelectorAll(selector)].every(
        (el) => el.view && el.shadowRoot.querySelector('canvas[data-layout]'),
      ),
    host,
  );
const panelBackground = (target, host) =>
  target.evaluate(
    (selector) => getComputedStyle(document.querySelector(selector).shadowRoot.querySelector('figure')).backgroundColor,
    host,
  );

// The tools build at once (started in beforeAll) and the five recipes are checked at once, each in
// its own context: a test waits only for its own site.
describe.concurrent('recipes, built by the real tools', { timeout: 300_000 }, () => {
  test('VitePress: builds (no DOM needed), draws, follows the dark switch, hover reads the cell', async () => {
    await built.vitepress;
    const html = readFileSync(join(OUT, 'vitepress/index.html'), 'utf8');
    expect(html).toMatch(/<relpos-attention theme="inherit" fit="box"/); // pre-rendered as is, not <!---->
    const { page, context, problems } = await openPage(browser, await serve(join(OUT, 'vitepress')), {
      viewport: { width: 1280, height: 900 },
      colorScheme: 'light',
    });
    await drawn(page);
    expect(await panelBackground(page, 'relpos-attention')).toBe('rgb(255, 255, 255)');
    const [x, y] = await pointOver(page, 'relpos-attention', 0, 2, 3);
    await page.mouse.move(x, y);
    expect(await tooltipText(page, 'relpos-attention')).toContain('(i, j)(2, 3)');
    await screenshot(page, 'recipe-vitepress-light.png');
    const before = await page.$eval('relpos-attention', (el) => el.shadowRoot.querySelector('canvas').toDataURL());
    await page.mouse.move(5, 5);
    await page.click('.VPNavBarAppearance button, .VPSwitchAppearance');
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    await page.waitForFunction(
      () =>
        getComputedStyle(document.querySelector('relpos-attention').shadowRoot.querySelector('figure'))
          .backgroundColor === 'rgb(28, 28, 33)',
    );
    const after = await page.$eval('relpos-attention', (el) => el.shadowRoot.querySelector('canvas').toDataURL());
    expect(after).not.toBe(before); // the canvas labels redrawn in the dark colours
    await screenshot(page, 'recipe-vitepress-dark.png');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('reveal.js: fits the slide, hover under reveal’s scale, keys stay in the panel, sharp, ?print-pdf pages = slides', async () => {
    const url = await serve(join(OUT, 'reveal'));
    const { page, context, problems } = await openPage(browser, `${url}index.html#/1`, {
      viewport: { width: 1920, height: 1080 },
    });
    await page.waitForFunction(() => window.Reveal?.isReady());
    await drawn(page, 'section.present relpos-attention');
    const scale = await page.evaluate(() => window.Reveal.getScale());
    expect(scale).toBeGreaterThan(1.3); // 1080 / 700
    const host = 'section.present relpos-attention';
    for (const [i, j] of [
      [0, 0],
      [2, 3],
      [5, 4],
    ]) {
      const [x, y] = await pointOver(page, host, 0, i, j, scale);
      await page.mouse.move(x, y);
      const tip = await page.evaluate((s) => {
        const t = document.querySelector(s).shadowRoot.querySelector('.relpos-tooltip');
        return { text: t.textContent, box: t.getBoundingClientRect().toJSON() };
      }, host);
      expect(tip.text).toContain(`(i, j)(${i}, ${j})`);
      expect(
        Math.max(tip.box.left - x, 0, x - tip.box.right) + Math.max(tip.box.top - y, 0, y - tip.box.bottom),
      ).toBeLessThan(60);
    }
    const fit = await page.evaluate((s) => {
      const el = document.querySelector(s);
      const grid = el.shadowRoot.querySelector('.relpos-grid').getBoundingClientRect();
      const canvas = el.shadowRoot.querySelector('canvas');
      return {
        grid: grid.bottom,
        box: el.getBoundingClientRect().bottom,
        sharp: canvas.width / parseFloat(canvas.style.width),
      };
    }, host);
    expect(fit.grid).toBeLessThanOrEqual(fit.box + 0.5); // the two panels fit the 560 px given
    expect(fit.sharp).toBeGreaterThanOrEqual(scale - 0.01); // drawn for its size on screen
    await screenshot(page, 'recipe-reveal.png');
    await page.evaluate((s) => document.querySelector(s).shadowRoot.querySelector('.relpos-canvas-wrap').focus(), host);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => window.Reveal.getIndices().h)).toBe(1); // still on the slide
    expect(await tooltipText(page, host)).toContain('(i, j)(5, 5)'); // from the last hovered (5, 4)
    expect(problems).toEqual([]);
    await context.close();

    // Print to PDF, as reveal.js documents it: one page per slide.
    const print = await openPage(browser, `${url}index.html?print-pdf`, { viewport: { width: 1280, height: 900 } });
    await print.page.waitForFunction(() => window.Reveal?.isReady() && document.querySelector('.pdf-page'));
    await drawn(print.page);
    const slides = await print.page.$$eval('.slides section', (list) => list.length);
    const pdf = await print.page.pdf({ preferCSSPageSize: true, printBackground: true });
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    expect(slides).toBe(4);
    expect(pages).toBe(slides);
    expect(print.problems).toEqual([]);
    await print.context.close();
  });

  test('MkDocs: the classic script draws, the site works from disk, light inside the light theme on a dark system', async () => {
    await built.mkdocs;
    const { page, context, problems } = await openPage(browser, `file://${join(OUT, 'mkdocs/index.html')}`, {
      viewport: { width: 1280, height: 900 },
      colorScheme: 'dark',
    });
    await drawn(page);
    expect(await panelBackground(page, 'relpos-attention')).toBe('rgb(255, 255, 255)');
    const [x, y] = await pointOver(page, 'relpos-attention', 1, 4, 1);
    await page.mouse.move(x, y);
    expect(await tooltipText(page, 'relpos-attention')).toContain('(i, j)(4, 1)');
    await screenshot(page, 'recipe-mkdocs.png');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('Jupyter (nbconvert HTML): the one-liner’s output draws, opened from disk', async () => {
    await built.jupyter;
    const { page, context, problems } = await openPage(browser, `file://${join(OUT, 'jupyter/relpos.html')}`, {
      viewport: { width: 1280, height: 900 },
    });
    await drawn(page);
    const [x, y] = await pointOver(page, 'relpos-attention', 0, 3, 0);
    await page.mouse.move(x, y);
    expect(await tooltipText(page, 'relpos-attention')).toContain('(i, j)(3, 0)');
    await screenshot(page, 'recipe-jupyter.png');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('an LMS page without scripts: the sandboxed iframe of relpos.html draws and fits its frame', async () => {
    const url = await serve(join(OUT, 'lms'));
    const { page, context, problems } = await openPage(browser, `${url}course.html`, {
      viewport: { width: 900, height: 800 },
    });
    const frame = page.frames().find((f) => f !== page.mainFrame());
    await frame.waitForSelector('body[data-fit]');
    expect(await page.getAttribute('iframe', 'sandbox')).toBe('allow-scripts');
    const [scroll, inner] = await frame.evaluate(() => [
      [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
      [innerWidth, innerHeight],
    ]);
    expect(scroll).toEqual(inner); // fits: no scroll bars in the frame
    const box = await page.$eval('iframe', (f) => f.getBoundingClientRect().toJSON());
    const canvas = await frame.$eval('#figure-combinedWeights canvas', (c) => ({
      box: c.getBoundingClientRect().toJSON(),
      layout: JSON.parse(c.dataset.layout),
      zoom: Number(document.querySelector('main').style.zoom || 1),
    }));
    const s = canvas.zoom;
    await page.mouse.move(
      box.left + canvas.box.left + s * (canvas.layout.x0 + 4.3 * canvas.layout.cell),
      box.top + canvas.box.top + s * (canvas.layout.y0 + 1.7 * canvas.layout.cell),
    );
    expect(await frame.textContent('.relpos-tooltip')).toContain('(i, j)(1, 4)');
    await screenshot(page, 'recipe-lms.png');
    expect(problems).toEqual([]);
    await context.close();
  });
});
