// The consumer apps of the package test (tests/package/package.test.js): one per bundler (Vite,
// esbuild, rollup, webpack) and element entry point, a page with both elements and
// `import 'relpos-wasm/<entry>'`, and a Vite app of relpos-wasm/worker; each built for production
// into <app>/out/<name>/ from the package installed in <app>. Each build returns { name, problems }:
// the bundler's warnings (esbuild, rollup) or errors (webpack).
//
// Run as a program, `node consumer-apps.mjs <app> <bundler>:<entry>... [worker]` builds those
// apps one after another and prints one JSON line per app: the package test runs two at once, so
// that rollup's, webpack's and terser's JavaScript runs on both cores.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const write = (path, text) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

// One app per bundler and entry point: a page with both elements and `import 'relpos-wasm/<entry>'`.
export const page = (script, extra = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>consumer</title><link rel="icon" href="data:,">
${script}</head><body>
<relpos-attention id="a" seq-len="5" panels="combined-weights"></relpos-attention>
<relpos-profile id="p" width="2"></relpos-profile>${extra}</body></html>`;

/** Vite's production build of src/index.html (its main.js) into out, as a consumer's app would build. */
async function viteBuild(src, out) {
  write(join(src, 'index.html'), page('<script type="module" src="./main.js"></script>'));
  const { build } = await import('vite');
  await build({
    root: src,
    base: './',
    configFile: false,
    logLevel: 'silent',
    build: { outDir: out, emptyOutDir: true, target: 'es2022' },
  });
}

export async function buildApp(app, bundler, entry) {
  const name = `${bundler}-${entry.replace('/', '-')}`;
  const src = join(app, 'src', name);
  const out = join(app, 'out', name);
  const main = join(src, 'main.js');
  const problems = [];
  if (bundler === 'vite') {
    // The Vite app also compiles relpos-wasm/relpos-core.wasm itself, streaming, and loads the
    // API from the module: createRelPos({ wasmModule }).
    write(
      main,
      `import 'relpos-wasm/${entry}';
import wasmUrl from 'relpos-wasm/relpos-core.wasm?url';
import { createRelPos } from 'relpos-wasm';
const wasmModule = await WebAssembly.compileStreaming(fetch(wasmUrl));
window.__fromModule = (await createRelPos({ wasmModule })).randn(42, 1)[0];
`,
    );
    await viteBuild(src, out);
    return { name, problems };
  }
  write(main, `import 'relpos-wasm/${entry}';\n`);
  if (bundler === 'esbuild') {
    const esbuild = await import('esbuild');
    const result = await esbuild.build({
      entryPoints: [main],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      outfile: join(out, 'main.js'),
      logLevel: 'silent',
    });
    problems.push(...result.warnings.map((w) => w.text));
  } else if (bundler === 'rollup') {
    const { rollup } = await import('rollup');
    const { nodeResolve } = await import('@rollup/plugin-node-resolve');
    const warnings = [];
    const bundle = await rollup({
      input: main,
      plugins: [nodeResolve({ browser: true })],
      onwarn: (w) => warnings.push(w.message),
    });
    await bundle.write({ dir: out, entryFileNames: 'main.js', format: 'es' }); // chunks beside it (the lazy export code)
    await bundle.close();
    problems.push(...warnings);
  } else {
    const { default: webpack } = await import('webpack');
    const stats = await new Promise((done, fail) =>
      webpack({ mode: 'production', entry: main, output: { path: out, filename: 'main.js' } }, (error, result) =>
        error ? fail(error) : done(result),
      ),
    );
    problems.push(...stats.toJson({ all: false, errors: true }).errors.map((e) => e.message ?? String(e)));
  }
  write(join(out, 'index.html'), page('<script type="module" src="./main.js"></script>'));
  return { name, problems };
}

// A Vite app (Vite's defaults) whose page runs attention in the module workers of
// relpos-wasm/worker (Vite emits worker-entry.js, found by `new Worker(new URL(…,
// import.meta.url), { type: 'module' })`, as a file of its own) and on the main thread, float64 and float32, and records whether the two
// agree bit for bit. n = 70 spans three blocks of 32 query rows, so two workers share the rows.
export async function buildWorkerApp(app) {
  const name = 'vite-worker';
  const src = join(app, 'src', name);
  write(
    join(src, 'main.js'),
    `import { createRelPos } from 'relpos-wasm';
import { createRelPosWorker } from 'relpos-wasm/worker';

const rp = await createRelPos();
const pool = await createRelPosWorker({ workers: 2 });
const [n, d, k] = [70, 8, 3];
// Every array of the result as bytes, by name: equal bytes are equal bits.
const bytes = (result) =>
  Object.fromEntries(
    Object.entries(result)
      .filter(([, value]) => value?.data)
      .map(([key, { rows, cols, data }]) => [key, [rows, cols, data.constructor.name, Array.from(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))]]),
  );
const runs = {};
for (const type of [Float64Array, Float32Array]) {
  let seed = 0;
  const m = (rows, cols) => ({ rows, cols, data: type.from(rp.randn((seed += 1), rows * cols)) });
  const inputs = { q: m(n, d), k: m(n, d), v: m(n, d), relKeys: m(2 * k + 1, d), relValues: m(2 * k + 1, d), causal: true };
  const inWorkers = bytes(await pool.attention(inputs));
  const onMain = bytes(rp.attention(inputs));
  runs[type.name] = {
    names: Object.keys(onMain),
    same: JSON.stringify(inWorkers) === JSON.stringify(onMain),
    weights: onMain.combinedWeights.slice(0, 3),
  };
}
window.__worker = { size: pool.size, runs };
`,
  );
  await viteBuild(src, join(app, 'out', name));
  return { name, problems: [] };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [app, ...builds] = process.argv.slice(2);
  for (const build of builds) {
    const [bundler, entry] = build.split(':');
    const built = bundler === 'worker' ? await buildWorkerApp(app) : await buildApp(app, bundler, entry);
    console.log(JSON.stringify(built));
  }
}
