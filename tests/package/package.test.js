// The npm package as a user gets it: `npm pack`, installed into a new project, used from a
// Node ESM script and from a Vite app (built with `vite build`, opened in Chromium) that uses
// the custom elements under a strict Content-Security-Policy.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser } from '../page/browser.js';
import { serveFolder } from '../page/static-server.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const VITE_VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies.vite;
const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:";

let work;
let tarball;
let files;
const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'relpos-package-'));
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], ROOT));
  tarball = join(work, packed[0].filename);
  files = packed[0].files.map((file) => file.path);
  const app = join(work, 'app');
  run('mkdir', ['-p', app], work);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball, `vite@${VITE_VERSION}`],
    app,
  );
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  test('holds what users need and nothing else', () => {
    for (const needed of [
      'package.json',
      'README.md',
      'dist/relpos-core.mjs',
      'dist/relpos-core-wasm.mjs',
      'web/api/index.js',
      'web/api/index.d.ts',
      'web/elements/index.js',
      'web/elements/index.d.ts',
    ]) {
      expect(files, needed).toContain(needed);
    }
    const unwanted = files.filter((file) =>
      /^(tests|cpp|build|scripts|examples|web\/page|\.ci)\/|\.wasm$|relpos\.html$|config/.test(file),
    );
    expect(unwanted).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(work, 'app/node_modules/relpos-wasm/package.json'), 'utf8'));
    expect(Object.keys(manifest.exports['.'])[0]).toBe('types');
    expect(Object.keys(manifest.exports['./elements'])[0]).toBe('types');
    expect(manifest.sideEffects).toEqual(['./web/elements/index.js', './web/elements/relpos-train.js']);
    // The training section's code, never the corpus built from the Brown Corpus (its terms: README).
    expect(files).toContain('web/train/train-section.js');
    expect(files.filter((file) => /brown|corpus\.bin/.test(file))).toEqual([]);
  });

  test('works from a Node ESM script', () => {
    const script = join(work, 'app/use.mjs');
    writeFileSync(
      script,
      `import { createRelPos } from 'relpos-wasm';
const rp = await createRelPos();
const { profile } = rp.localityProfile();
const ex = rp.example();
let error = null;
try { rp.attention({ q: 1 }); } catch (e) { error = e.constructor.name; }
console.log(JSON.stringify({ profile: Array.from(profile), rows: ex.combinedWeights.rows, error }));`,
    );
    const printed = JSON.parse(run(process.execPath, [script], join(work, 'app')));
    const numpy = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/locality_profile.json'), 'utf8')).cases[0].expected
      .profile;
    printed.profile.forEach((value, i) => expect(Math.abs(value - numpy[i])).toBeLessThan(1e-12));
    expect(printed.rows).toBe(6);
    expect(printed.error).toBe('TypeError');
  });

  test('works in a Vite app with the custom elements, under a strict CSP', async () => {
    const app = join(work, 'app');
    writeFileSync(
      join(app, 'index.html'),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>consumer</title><link rel="icon" href="data:,">
<script type="module" src="./main.js"></script></head><body>
<relpos-attention id="a" seq-len="7" panels="combined-weights"></relpos-attention>
<relpos-profile id="p" width="2"></relpos-profile></body></html>`,
    );
    writeFileSync(join(app, 'main.js'), `import 'relpos-wasm/elements';\n`);
    run(join(app, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], app);
    expect(existsSync(join(app, 'dist/index.html'))).toBe(true);

    const server = await serveFolder(join(app, 'dist'), { headers: { 'content-security-policy': CSP } });
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext();
      await context.addInitScript(() => {
        window.__violations = [];
        document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));
      });
      const page = await context.newPage();
      const problems = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(server.url);
      await page.waitForFunction(() => document.getElementById('a').view && document.getElementById('p').view);
      const label = await page.$eval('#a', (el) => el.shadowRoot.querySelector('canvas').getAttribute('aria-label'));
      expect(label).toMatch(/^Combined weights: 7 by 7 heatmap/);
      const inked = await page.$eval('#p', (el) => {
        const canvas = el.shadowRoot.querySelector('canvas');
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        return data.some((value, i) => i % 4 === 3 && value > 0);
      });
      expect(inked).toBe(true);
      expect(await page.evaluate(() => window.__violations)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
