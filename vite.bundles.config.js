// The single-file bundles, built after the page (scripts/build.sh):
//   --mode single:   the page as one classic script (IIFE), which scripts/make-single-html.mjs
//                    inlines into dist/relpos.html (browsers refuse module scripts from file://),
//                    with its workers inlined too (started from Blob URLs) and the training
//                    section (its worker, the training engine's module and the corpus inside);
//   --mode elements: the figures' custom elements as one ES module with everything inside,
//                    dist/relpos-elements.js, for pages without a bundler;
//   --mode elements-iife: the same as one classic script, dist/relpos-elements.iife.js, for
//                    settings that make a classic <script> (MkDocs' extra_javascript), an LMS
//                    upload, an inline <script> (a Jupyter output) and pages opened from disk;
//   --mode train:    <relpos-train> as one ES module, dist/relpos-train.js, with its worker, the
//                    training engine's module and the corpus inside;
//   --mode train-iife: the same as one classic script, dist/relpos-train.iife.js, which also
//                    loads from file:// (browsers refuse module scripts there);
//   --mode slim:     the API (web/api/index.js) as one ES module with no binary inside,
//                    dist/relpos-slim.js: relpos-wasm/slim, which loads relpos-core.wasm from
//                    options.wasmUrl, options.wasmBinary or options.wasmModule.
// Every bundle's own code uses the module without the training engine (dist/relpos-core-lite*),
// inlined once: its pool workers are posted that module compiled and carry no binary
// (web/api/worker-tasks.js); only the training worker takes the full one, as a file inlined once
// (a data: URL it compiles).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { liteCore } from './vite.config.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
// The single-file bundles' pool workers (the page's views, the elements above
// MAIN_THREAD_POSITIONS) and training worker start from Blob URLs.
const INLINE_WORKERS = [
  { find: /^.*\/start-view-worker\.js$/, replacement: here('./web/workers/start-view-worker-inline.js') },
  { find: /^.*\/start-train-worker\.js$/, replacement: here('./web/train/start-train-worker-inline.js') },
];

const BUNDLES = {
  single: {
    entry: 'web/page/one-file-page.js',
    formats: ['iife'],
    name: 'relposPage',
    fileName: () => 'relpos-page.js',
  },
  elements: { entry: 'web/elements/index.js', formats: ['es'], fileName: () => 'relpos-elements.js' },
  'elements-iife': {
    entry: 'web/elements/index.js',
    formats: ['iife'],
    name: 'relposElements',
    fileName: () => 'relpos-elements.iife.js',
  },
  train: { entry: 'web/elements/relpos-train.js', formats: ['es'], fileName: () => 'relpos-train.js' },
  'train-iife': {
    entry: 'web/elements/relpos-train.js',
    formats: ['iife'],
    name: 'relposTrain',
    fileName: () => 'relpos-train.iife.js',
  },
  slim: { entry: 'web/api/index.js', formats: ['es'], fileName: () => 'relpos-slim.js' },
};

/**
 * The page's scripts run for their effects, which package.json's sideEffects (written for the
 * package's users) does not list: kept in the one-file page.
 */
const pageEffects = () => ({
  name: 'relpos-page-effects',
  transform(code, id) {
    const page = id.includes('/web/page/') || id.endsWith('/web/train/train-loader.js');
    return page ? { code, moduleSideEffects: true } : null;
  },
});

/**
 * In the one-file page the script is inline, so it has no address of its own, and a classic
 * script has no `import.meta`: `import.meta.url` (after Vite has inlined the assets it names as
 * data: URLs, which need it only as a base) is the page's.
 */
const inlinePageUrl = () => ({
  name: 'relpos-inline-page-url',
  enforce: 'post',
  transform(code) {
    return code.includes('import.meta.url')
      ? { code: code.replaceAll('import.meta.url', 'document.baseURI'), map: null }
      : null;
  },
});

/** For the slim build: the inlined binary's module becomes an empty stand-in (load-core.js then asks for one). */
const noInlinedCore = () => ({
  name: 'relpos-no-inlined-core',
  enforce: 'pre',
  resolveId(source, importer) {
    const inlined = source === '../../dist/relpos-core-wasm.mjs' && importer?.endsWith('/web/api/load-core.js');
    return inlined ? '\0relpos-no-inlined-core' : null;
  },
  load(id) {
    return id === '\0relpos-no-inlined-core' ? 'export const wasmBase64 = null;' : null;
  },
});

export default defineConfig(({ mode }) => ({
  plugins: [
    mode === 'slim' ? noInlinedCore() : liteCore(),
    pageEffects(),
    ...(mode === 'single' || mode === 'train-iife' ? [inlinePageUrl()] : []),
  ],
  resolve: {
    alias: INLINE_WORKERS,
  },
  worker: { format: 'iife', plugins: () => [liteCore()] },
  build: {
    outDir: `build/${mode}`,
    emptyOutDir: true,
    target: 'es2022',
    minify: mode !== 'slim', // the slim entry is for bundlers, which minify
    lib: BUNDLES[mode],
    rollupOptions: { output: { codeSplitting: false } }, // one file: import() inlined too
  },
}));
