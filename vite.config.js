// The page and the examples are plain static files once built: `vite build` writes build/site,
// which any static server (or `npm start`, which uses `vite preview`) can serve.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The page's own bundles take the WebAssembly module built without the training engine
 * (dist/relpos-core-lite*.mjs, 51 KiB less gzipped); workers keep the full one (top-level plugins
 * do not apply to worker bundles in a build), so the training section's worker can train.
 */
export const liteCore = () => ({
  name: 'relpos-lite-core',
  enforce: 'pre',
  resolveId(source, importer) {
    if (!importer?.endsWith('/web/api/load-core.js')) return null;
    const lite = {
      '../../dist/relpos-core.mjs': 'dist/relpos-core-lite.mjs',
      '../../dist/relpos-core-wasm.mjs': 'dist/relpos-core-lite-wasm.mjs',
    }[source];
    return lite ? resolve(import.meta.dirname, lite) : null;
  },
});

export default defineConfig({
  base: './',
  plugins: [liteCore()],
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
