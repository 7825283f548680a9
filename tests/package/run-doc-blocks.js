// Runs the doc test's programs (tests/package/doc-blocks.js) in an app where the packed package
// is installed: every Node program in one child process (tests/package/doc-node-runner.mjs, each
// program imported in turn), the TypeScript programs in one tsc run, the shell blocks with bash,
// and the HTML pages and browser programs in one Chromium, served from the package's folder with
// an import map of its exports. Each returns [{ program, error }]: error null when it ran.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const NODE_RUNNER = new URL('./doc-node-runner.mjs', import.meta.url).pathname;
/** How the runner's result lines start (the programs print too). */
const RESULT = '@@doc-block ';
const name = (program) => `${program.file.replace(/[^\w]+/g, '-')}-${program.line}`;
const label = (program) => `${program.file}:${program.lines.join('+')}`;

/** Every Node program, each imported in turn by one child process, at most `timeout` ms each. */
export function runNodePrograms(app, list, { timeout = 30_000 } = {}) {
  if (!list.length) return [];
  const dir = join(app, 'doc-blocks');
  mkdirSync(dir, { recursive: true });
  const paths = list.map((program) => {
    const path = join(dir, `${name(program)}.mjs`);
    writeFileSync(path, program.code);
    return path;
  });
  const child = spawnSync(process.execPath, [NODE_RUNNER, String(timeout), ...paths], {
    cwd: app,
    encoding: 'utf8',
    timeout: timeout * list.length + 30_000,
  });
  const results = child.stdout
    .split('\n')
    .filter((line) => line.startsWith(RESULT))
    .map((line) => JSON.parse(line.slice(RESULT.length)));
  return list.map((program, i) => ({
    program: label(program),
    error: results[i]
      ? results[i].error
      : `the runner stopped before it (status ${child.status}): ${child.stderr.slice(-800)}`,
  }));
}

/** Every TypeScript program type-checked by one tsc run (strict, moduleResolution bundler). */
export function checkTypeScriptPrograms(app, tsc, list) {
  if (!list.length) return [];
  const dir = join(app, 'doc-types');
  mkdirSync(dir, { recursive: true });
  const files = list.map((program) => {
    const file = `${name(program)}.ts`;
    // A module of its own, so that programs' names do not clash.
    writeFileSync(join(dir, file), `${program.code}\nexport {};\n`);
    return file;
  });
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        strict: true,
        noEmit: true,
        lib: ['ES2022', 'DOM', 'ESNext.Disposable'],
        types: [],
      },
      files,
    }),
  );
  const out = spawnSync(tsc, ['-p', join(dir, 'tsconfig.json')], { cwd: dir, encoding: 'utf8' });
  return list.map((program, i) => {
    const errors = out.stdout.split('\n').filter((line) => line.startsWith(files[i]));
    return { program: label(program), error: errors.length ? errors.join('\n') : null };
  });
}

/** Every shell program run by bash in the app, with its node_modules/.bin on the PATH. */
export function runShellPrograms(app, list) {
  return list.map((program) => {
    try {
      execFileSync('bash', ['-euo', 'pipefail', '-c', program.code], {
        cwd: app,
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 120_000,
        env: { ...process.env, PATH: `${join(app, 'node_modules/.bin')}:${process.env.PATH}` },
      });
      return { program: label(program), error: null };
    } catch (error) {
      return { program: label(program), error: `${error.message}\n${error.stderr ?? ''}`.slice(0, 1500) };
    }
  });
}

/** The import map of a package's exports (the browser's entry of each: `default` or `import`). */
export function importMap(packageDir) {
  const { name: pkg, exports } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const imports = {};
  for (const [key, target] of Object.entries(exports)) {
    const file = typeof target === 'string' ? target : (target.import ?? target.default);
    imports[key === '.' ? pkg : `${pkg}/${key.slice(2)}`] = file.replace(/^\.\//, '/');
  }
  return { imports };
}

/**
 * An HTML block as a page of its own, or inside a blank page when it is a fragment; a browser
 * program as a module script on a blank page with the import map.
 */
export function pageOf(program, map) {
  if (program.lang === 'html')
    return /<html[\s>]/i.test(program.code)
      ? program.code
      : `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>doc block</title><link rel="icon" href="data:,"></head><body>\n${program.code}</body></html>`;
  // The program as written (its imports first), then a mark that it ran to the end; an error
  // it throws is the page's uncaught error.
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>doc block</title><link rel="icon" href="data:,">
<script type="importmap">${JSON.stringify(map)}</script></head><body>
<script type="module">
${program.code}
window.__docBlockDone = true;
</script></body></html>`;
}

/**
 * Loads one page in Chromium: fails on a console error, an uncaught error, a failed request, a
 * browser program's error, or a relpos element that is not defined and drawn within 20 s.
 */
export async function checkPage(browser, url, program) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  try {
    await page.goto(url);
    // Until the program ran to its end (or every relpos element is defined and drawn), or something failed.
    const done =
      program.lang === 'js'
        ? () => window.__docBlockDone === true
        : () =>
            [...document.querySelectorAll('*')]
              .filter((el) => el.localName.startsWith('relpos-'))
              .every(
                (el) => customElements.get(el.localName) && el.shadowRoot?.querySelector('canvas, figure, button'),
              );
    const start = Date.now();
    while (!problems.length && !(await page.evaluate(done))) {
      if (Date.now() - start > 20_000) {
        problems.push(program.lang === 'js' ? 'did not run to its end in 20 s' : 'relpos elements not drawn in 20 s');
        break;
      }
      await page.waitForTimeout(100);
    }
    // Frames the block made (an iframe's page) load to the end before the page closes.
    for (const frame of page.frames()) await frame.waitForLoadState('load', { timeout: 120_000 });
  } catch (error) {
    problems.push(error.message.split('\n')[0]);
  }
  await context.close();
  return { program: label(program), error: problems.length ? problems.join('\n') : null };
}
