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
      if (skip || !importer?.endsWith('/web/api/load-core.js')) return null;
      const lite = {
        '../../dist/relpos-core.mjs': 'dist/relpos-core-lite.mjs',
        '../../dist/relpos-core-wasm.mjs': 'dist/relpos-core-lite-wasm.mjs',
      }[source];
      return lite ? resolve(import.meta.dirname, lite) : null;
    },
  };
};

/**
 * The training section's worker fetches the core as a .wasm file (web/train/train-worker.js), so
 * its bundle leaves out the base64 copy the API would otherwise inline: in that worker's build
 * only, dist/relpos-core-wasm.mjs becomes an empty stand-in. (Other workers keep the copy.)
 */
export const coreFetchedByTrainWorker = () => {
  let active = false;
  return {
    name: 'relpos-train-worker-core',
    enforce: 'pre',
    buildStart(options) {
      active = buildsTrainWorker(options);
    },
    resolveId(source, importer) {
      if (!active || !importer?.endsWith('/web/api/load-core.js')) return null;
      return source === '../../dist/relpos-core-wasm.mjs' ? '\0relpos-no-inlined-core' : null;
    },
    load(id) {
      return id === '\0relpos-no-inlined-core' ? 'export const wasmBase64 = null;' : null;
    },
  };
};

export default defineConfig({
  base: './',
  plugins: [liteCore()],
  // The view workers take the page's module too (the pool posts them the page's compiled lite
  // core); the training worker keeps the full one.
  worker: { plugins: () => [coreFetchedByTrainWorker(), liteCore({ exceptTrainWorker: true })] },
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
