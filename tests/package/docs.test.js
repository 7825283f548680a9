// Every fenced code block of README.md and docs/*.md, run against the packed package as a reader
// would paste it (docs/testing.md, "Code blocks in the docs"): js in Node (one process for all),
// `js browser` and html in one Chromium, ts type-checked by one tsc run, sh with bash; text is
// notation, and any other block says why it is not run. The files' structure too: fences
// balanced and with a language, no file cut mid-sentence, every section the README's table of
// documents promises. A deliberately damaged copy of a doc shows that each check fails.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser } from '../page/browser.js';
import { serveFolder } from '../page/static-server.js';
import { missingSections, programs, readBlocks, shownTexts } from './doc-blocks.js';
import { writeDocFiles } from './doc-files.js';
import {
  checkPage,
  checkTypeScriptPrograms,
  importMap,
  pageOf,
  runNodePrograms,
  runShellPrograms,
} from './run-doc-blocks.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const read = (file) => readFileSync(join(ROOT, file), 'utf8');
const all = DOCS.map((file) => ({ file, ...readBlocks(file, read(file)) }));
const blocks = all.flatMap((doc) => doc.blocks);
const runnable = programs(blocks);
const isBrowser = (program) => program.lang === 'html' || /(^|\s)browser(\s|$)/.test(program.marks);

let work;
let app;
let pkg;
let server;
let browser;
const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'relpos-docs-'));
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], ROOT));
  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'reader', private: true, type: 'module' }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, packed.filename)], app);
  pkg = join(app, 'node_modules/relpos-wasm');
  // The files the docs' examples read, made here (docs/testing.md): a small T5 checkpoint.
  await writeDocFiles(app, pkg);
  // The browser's folder: the served page (build/site) and the package's files, with dist/ and
  // examples/ at the top as a reader uploads them next to a page, and the files the docs read.
  const site = join(work, 'site');
  mkdirSync(site);
  run('cp', ['-r', `${join(ROOT, 'build/site')}/.`, site], work);
  run('cp', ['-r', `${pkg}/.`, site], work);
  run('cp', ['-r', `${pkg}/dist/.`, site], work);
  run('cp', ['-r', `${pkg}/examples/.`, site], work);
  await writeDocFiles(site, pkg);
  const map = importMap(pkg);
  for (const program of runnable.filter(isBrowser))
    writeFileSync(join(site, `doc-${program.file.replace(/[^\w]+/g, '-')}-${program.line}.html`), pageOf(program, map));
  server = await serveFolder(site);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the docs as files', () => {
  test('every fence opens with a language and closes; no file is cut mid-sentence; not-run says why', () => {
    expect(all.flatMap((doc) => doc.problems)).toEqual([]);
  });

  test("every section README.md's table of documents promises is a heading or bold head of that document", () => {
    const docs = Object.fromEntries(DOCS.filter((f) => f.startsWith('docs/')).map((f) => [f.slice(5), read(f)]));
    expect(missingSections(read('README.md'), docs)).toEqual([]);
  });

  test('a block that shows a file of the repository (file=…) is that file as it is', () => {
    const shown = blocks.filter((block) => block.shows);
    expect(shown.length).toBeGreaterThan(0);
    for (const block of shown)
      expect(shownTexts(block.shows, read(block.shows)), `${block.file}:${block.line}`).toContain(block.code.trim());
  });

  test('README.md is at most 400 lines, and every block not run names its reason', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(400);
    const notRun = blocks.filter((block) => block.notRun !== null);
    for (const block of notRun) expect(block.notRun.length, `${block.file}:${block.line}`).toBeGreaterThan(10);
    // Most of the code in the docs runs.
    expect(runnable.length).toBeGreaterThan(notRun.length);
  });
});

describe('the docs run', () => {
  test('js blocks, in Node against the packed package', () => {
    const list = runnable.filter((p) => p.lang === 'js' && !isBrowser(p));
    expect(list.length).toBeGreaterThan(3);
    expect(runNodePrograms(app, list).filter((r) => r.error)).toEqual([]);
  });

  test('ts blocks type-check (strict) against the packed package', () => {
    const list = runnable.filter((p) => p.lang === 'ts');
    expect(list.length).toBeGreaterThan(0);
    expect(checkTypeScriptPrograms(app, join(ROOT, 'node_modules/.bin/tsc'), list).filter((r) => r.error)).toEqual([]);
  });

  test('sh blocks run', () => {
    const list = runnable.filter((p) => p.lang === 'sh');
    expect(list.length).toBeGreaterThan(0);
    expect(runShellPrograms(app, list).filter((r) => r.error)).toEqual([]);
  });

  test('html blocks and js browser blocks, in one Chromium', async () => {
    const list = runnable.filter(isBrowser);
    expect(list.length).toBeGreaterThan(3);
    const results = [];
    for (const program of list) {
      const url = `${server.url}doc-${program.file.replace(/[^\w]+/g, '-')}-${program.line}.html`;
      results.push(await checkPage(browser, url, program));
    }
    expect(results.filter((r) => r.error)).toEqual([]);
  }, 180_000);
});

describe('the examples in the package', () => {
  test('examples/import-map.html, served from the package folder, draws the figures and computes with the API', async () => {
    const program = { file: 'examples/import-map.html', lines: [1], lang: 'html' };
    expect(await checkPage(browser, `${server.url}examples/import-map.html`, program)).toEqual({
      program: 'examples/import-map.html:1',
      error: null,
    });
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`${server.url}examples/import-map.html`);
    // The peak from numpy's profile (tests/fixtures/locality_profile.json: the defaults).
    const { offsets, profile } = JSON.parse(read('tests/fixtures/locality_profile.json')).cases[0].expected;
    const peak = offsets[profile.indexOf(Math.max(...profile))];
    await expect
      .poll(() => tab.textContent('#peak'), { timeout: 120_000 })
      .toBe(`The simulated profile peaks at offset ${peak}.`);
    await context.close();
  });
});

describe("troubleshooting's slim + ?url block", () => {
  test('Vite builds it without a chunk warning, the core as a .wasm file, and the build computes in Chromium', async () => {
    const block = blocks.find((b) => b.file === 'docs/troubleshooting.md' && b.code.includes('?url'));
    const dir = join(app, 'vite-slim');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><title>slim</title><script type="module" src="./main.js"></script>',
    );
    writeFileSync(join(dir, 'main.js'), `${block.code}document.title = String(rp.randn(42, 1)[0]);\n`);
    const built = run(join(ROOT, 'node_modules/.bin/vite'), ['build'], dir);
    expect(built).not.toMatch(/larger than 500 kB/);
    expect(built).toMatch(/relpos-core-[\w-]+\.wasm/);
    const served = await serveFolder(join(dir, 'dist'));
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(served.url);
    // np.random.seed(42); np.random.randn(1): the README's first number.
    await expect.poll(() => tab.title(), { timeout: 120_000 }).toMatch(/^0\.4967141530112327/);
    await context.close();
    await served.close();
  });
});

describe('a damaged doc fails', () => {
  const api = read('docs/api.md');
  const firstJs = api.indexOf('```js');

  test('an unclosed fence, a fence without a language, a file cut mid-sentence, a not-run without reason', () => {
    const cut = `${api.slice(0, api.lastIndexOf('.'))} each; \`a^K = randn(2k + 1, d_k)\`;\n`;
    expect(readBlocks('cut.md', cut).problems.join('\n')).toMatch(/cut\.md: the file ends mid-sentence/);
    const orphan = `${api.slice(0, firstJs)}const x = 1;\n\`\`\`\n\n${api.slice(firstJs)}`;
    expect(readBlocks('orphan.md', orphan).problems.join('\n')).toMatch(/a fence opens without a language/);
    const unclosed = `${api}\n\`\`\`js\nconst y = 2;\n`;
    expect(readBlocks('unclosed.md', unclosed).problems.join('\n')).toMatch(/never closed/);
    const lazy = '# x\n\n```sh not-run: no\nrm -rf /\n```\n';
    expect(readBlocks('lazy.md', lazy).problems.join('\n')).toMatch(/not-run needs a reason/);
    const python = '# x\n\n```python\nprint(1)\n```\n';
    expect(readBlocks('python.md', python).problems.join('\n')).toMatch(/neither run nor marked/);
  });

  test('a section the README promises, cut from its document', () => {
    const docs = { 'api.md': api.slice(0, api.indexOf('## The example scenario')) };
    const readme = read('README.md')
      .split('\n')
      .filter((line) => !line.startsWith('| [docs/') || line.includes('(docs/api.md)'));
    expect(missingSections(readme.join('\n'), docs).join('\n')).toMatch(/example scenario/);
  });

  test('a js block with a stale name, a ts block with a wrong field, an html block naming a missing file', async () => {
    const broken = [
      {
        file: 'broken.md',
        line: 1,
        lang: 'js',
        marks: '',
        notRun: null,
        code: "import { createRelpos } from 'relpos-wasm';\nawait createRelpos();\n",
      },
      {
        file: 'broken.md',
        line: 5,
        lang: 'js',
        marks: '',
        notRun: null,
        code: "const rp = await (await import('relpos-wasm')).createRelPos();\nrp.attention({ q });\n",
      },
    ];
    const node = runNodePrograms(app, programs(broken));
    expect(node[0].error).toMatch(/createRelpos/);
    expect(node[1].error).toMatch(/q is not defined/);
    const ts = [
      {
        file: 'broken.md',
        line: 9,
        lang: 'ts',
        marks: '',
        notRun: null,
        code: "import { createRelPos } from 'relpos-wasm';\nconst rp = await createRelPos();\nrp.localityProfile({ sigma: 1 });\n",
      },
    ];
    expect(checkTypeScriptPrograms(app, join(ROOT, 'node_modules/.bin/tsc'), programs(ts))[0].error).toMatch(/sigma/);
    const html = {
      file: 'broken.md',
      line: 13,
      lang: 'html',
      marks: '',
      notRun: null,
      lines: [13],
      code: '<script type="module" src="relpos-elementz.js"></script>\n<relpos-profile></relpos-profile>\n',
    };
    const dir = join(work, 'site');
    writeFileSync(join(dir, 'doc-broken.html'), pageOf(html, {}));
    expect((await checkPage(browser, `${server.url}doc-broken.html`, html)).error).toMatch(/404|relpos-elementz/);
    const sh = [
      {
        file: 'broken.md',
        line: 17,
        lang: 'sh',
        marks: '',
        notRun: null,
        code: 'npx relpos-wasm corpus missing.txt\n',
      },
    ];
    expect(runShellPrograms(app, programs(sh))[0].error).toMatch(/missing\.txt/);
  });
});
