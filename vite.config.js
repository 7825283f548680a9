// The page and the examples are plain static files once built: `vite build` writes build/site,
// which any static server (or `npm start`, which uses `vite preview`) can serve.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  build: {
    outDir: 'build/site',
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: {
        page: resolve(import.meta.dirname, 'index.html'),
        elements: resolve(import.meta.dirname, 'examples/elements.html'),
        iframe: resolve(import.meta.dirname, 'examples/iframe.html'),
        iframeAuto: resolve(import.meta.dirname, 'examples/iframe-auto.html'),
      },
    },
  },
  preview: { host: 'localhost' },
});
