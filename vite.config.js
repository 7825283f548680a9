// The page and the examples are plain static files once built: `vite build` writes build/site,
// which any static server (or `npm start`, which uses `vite preview`) can serve.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/** Whether a build's input is the training worker (which needs the full module). */
const buildsTrainWorker = (options) => {
  const inputs = Array.isArray(options.input) ? options.input : Object.values(options.input ?? {});
  return inputs.some((input) => input.includes('/web/train/train-worker.js'));
};

/**
 * The page's own bundles take the WebAssembly module built without the training engine
 * (dist/relpos-core-lite*.mjs, 51 KiB less gzipped); here workers keep the full one (top-level
 * plugins do not apply to worker bundles in a build), so the training section's worker can
 * train. The one-file bundles (vite.bundles.config.js) give it to their other workers too; the
 * training worker's build never takes it.
 */
export const liteCore = () => {
  let skip = false;
  return {
    name: 'relpos-lite-core',
    enforce: 'pre',
    buildStart(options) {
      skip = buildsTrainWorker(options);
    },
    resolveId(source, importer) {
      if (skip || !/\/web\/api\/load-(given-)?core\.js$/.test(importer ?? '')) return null;
      const lite = {
        '../../dist/relpos-core.mjs': 'dist/relpos-core-lite.mjs',
        '../../dist/relpos-core-wasm.mjs': 'dist/relpos-core-lite-wasm.mjs',
      }[source];
      return lite ? resolve(import.meta.dirname, lite) : null;
    },
  };
};

const SERVED_CORE = '\0relpos-served-core-url';
const NO_INLINED_CORE = '\0relpos-no-inlined-core';

/**
 * For the served page: the core is a .wasm file of its own (dist/relpos-core-lite.wasm, emitted
 * as an asset), whose address web/api/core-url.js gives, so the page compiles it streaming while
 * it downloads, and the inlined base64 copy (a third larger gzipped) is left out.
 */
export const servedCore = () => ({
  name: 'relpos-served-core',
  enforce: 'pre',
  resolveId(source, importer) {
    if (!importer?.endsWith('/web/api/load-core.js')) return null;
    if (source === './core-url.js') return SERVED_CORE;
    return source === '../../dist/relpos-core-wasm.mjs' ? NO_INLINED_CORE : null;
  },
  load(id) {
    if (id === SERVED_CORE) {
      const wasm = resolve(import.meta.dirname, 'dist/relpos-core-lite.wasm');
      return `import url from ${JSON.stringify(`${wasm}?url`)};\nexport const coreUrl = url;`;
    }
    return id === NO_INLINED_CORE ? 'export const wasmBase64 = null;' : null;
  },
});

export default defineConfig({
  base: './',
  plugins: [servedCore(), liteCore()],
  // The view workers take the page's glue code too (the pool posts them the page's compiled lite
  // core; they carry no binary: web/api/worker-tasks.js); the training worker keeps the full one.
  worker: { plugins: () => [liteCore()] },
  build: {
    outDir: 'build/site',
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: {
        page: resolve(import.meta.dirname, 'index.html'),
        elements: resolve(import.meta.dirname, 'examples/elements.html'),
        iframe: resolve(import.meta.dirname, 'examples/iframe.html'),
        train: resolve(import.meta.dirname, 'examples/train.html'),
        iframeAuto: resolve(import.meta.dirname, 'examples/iframe-auto.html'),
      },
    },
  },
  preview: { host: 'localhost' },
});
