// The Content-Security-Policies docs/troubleshooting.md gives for each build, read from its table
// and served with each: the figures (module and classic script, above 384 positions so the pool's
// Blob URL workers run), the training widget (module and classic script, training until the
// first held-out loss), and the one-file relpos.html. Under each, nothing is reported as a
// violation, no console error, and the figures draw. Under the README's policy, which blocks its
// inline script, relpos.html says so and shows the policy that works: the table's, with this
// build's hash.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser } from './browser.js';
import { serveFolder } from './static-server.js';

const ROOT = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/troubleshooting.md', ROOT), 'utf8');
const section = doc.slice(
  doc.indexOf('## Content-Security-Policy'),
  doc.indexOf('\n## ', doc.indexOf('## Content-Security-Policy') + 4),
);
const POLICIES = Object.fromEntries(
  [...section.matchAll(/^\| the (figures|training widget|one-file page): .* \| `([^`]+)` \|$/gm)].map((m) => [
    m[1],
    m[2],
  ]),
);
const README_POLICY = /`(script-src 'self' 'wasm-unsafe-eval')`/.exec(
  readFileSync(new URL('README.md', ROOT), 'utf8'),
)[1];

const page = (head, body) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>course</title><link rel="icon" href="data:,">${head}</head><body>${body}</body></html>`;
const FIGURES =
  '<relpos-attention seq-len="400" panels="combined-weights"></relpos-attention><relpos-profile></relpos-profile>';
const PAGES = {
  'figures-module.html': page('<script type="module" src="relpos-elements.js"></script>', FIGURES),
  'figures-classic.html': page('<script src="relpos-elements.iife.js"></script>', FIGURES),
  'train-module.html': page(
    '<script type="module" src="relpos-train.js"></script>',
    '<relpos-train id="t" size="tiny"></relpos-train>',
  ),
  'train-classic.html': page(
    '<script src="relpos-train.iife.js"></script>',
    '<relpos-train id="t" size="tiny"></relpos-train>',
  ),
};

let folder;
let browser;
const servers = [];
/** The folder served with `policy` on every response. */
async function serveWith(policy) {
  const server = await serveFolder(folder, { headers: { 'content-security-policy': policy } });
  servers.push(server);
  return server.url;
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'relpos-csp-'));
  for (const file of [
    'relpos-elements.js',
    'relpos-elements.iife.js',
    'relpos-train.js',
    'relpos-train.iife.js',
    'relpos.html',
  ])
    copyFileSync(new URL(`dist/${file}`, ROOT), join(folder, file));
  for (const [name, html] of Object.entries(PAGES)) writeFileSync(join(folder, name), html);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
  rmSync(folder, { recursive: true, force: true });
});

/** Opens `url` recording policy violations, console errors and uncaught errors. */
async function open(url) {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const tab = await context.newPage();
  const problems = [];
  tab.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  tab.on('pageerror', (e) => problems.push(e.message));
  await tab.goto(url);
  const violations = () => tab.evaluate(() => window.__violations);
  return { tab, context, problems, violations };
}

test('the table gives a policy for each build', () => {
  expect(Object.keys(POLICIES).sort()).toEqual(['figures', 'one-file page', 'training widget']);
});

describe('each build under its policy', () => {
  for (const script of ['module', 'classic']) {
    test(`the figures (${script} script), 400 positions on the pool's workers`, async () => {
      const { tab, context, problems, violations } = await open(
        `${await serveWith(POLICIES.figures)}figures-${script}.html`,
      );
      await tab.waitForFunction(
        () => [...document.querySelectorAll('relpos-attention, relpos-profile')].every((el) => el.view),
        null,
        {
          timeout: 120_000,
        },
      );
      // Above 384 positions the element computes on the pool: workers from Blob URLs ran.
      expect(tab.workers().map((worker) => worker.url().slice(0, 5))).toContain('blob:');
      expect(await violations()).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    });

    test(`the training widget (${script} script) trains`, async () => {
      const { tab, context, problems, violations } = await open(
        `${await serveWith(POLICIES['training widget'])}train-${script}.html`,
      );
      // Functions, not strings: the policy forbids evaluating a string.
      await tab.waitForFunction(
        (s) => document.getElementById('t').shadowRoot?.querySelector(s),
        '#train-start:not([disabled])',
        {
          timeout: 120_000,
        },
      );
      await tab.evaluate(() => document.getElementById('t').shadowRoot.querySelector('#train-start').click());
      await tab.waitForFunction(
        () =>
          /held-out loss \d/.test(
            document.getElementById('t').shadowRoot.querySelector('#train-status')?.textContent ?? '',
          ),
        null,
        { timeout: 120_000 },
      );
      await tab.evaluate(() => document.getElementById('t').shadowRoot.querySelector('#train-pause').click());
      expect(await violations()).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  test("relpos.html under the README's policy says its inline script is blocked and shows the table's policy; under that policy it starts", async () => {
    const blocked = await open(`${await serveWith(`default-src 'self'; ${README_POLICY}`)}relpos.html`);
    const message = blocked.tab.locator('#no-script');
    await message.waitFor({ state: 'visible', timeout: 120_000 });
    expect(await message.textContent()).toMatch(/inline in this file, and was blocked.*Content-Security-Policy/s);
    const shown = await blocked.tab.locator('#no-script code.csp').textContent();
    expect(shown.replace(/'sha256-[A-Za-z0-9+/=]+'/, "'sha256-…'")).toBe(POLICIES['one-file page']);
    expect((await blocked.violations()).join('\n')).toMatch(/script-src/);
    await blocked.context.close();

    const { tab, context, problems, violations } = await open(`${await serveWith(shown)}relpos.html`);
    await tab.waitForFunction(() => !document.getElementById('no-script') && document.querySelector('canvas'), null, {
      timeout: 120_000,
    });
    const inked = await tab.evaluate(() =>
      [...document.querySelectorAll('canvas')].some((canvas) => {
        if (!canvas.width) return false;
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        return data.some((v, i) => i % 4 === 3 && v > 0);
      }),
    );
    expect(inked).toBe(true);
    expect(await violations()).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
