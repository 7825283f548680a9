// The page as one classic script (IIFE) for dist/relpos.html, the self-contained page that
// works opened from disk: browsers refuse ES module scripts from file://.
// scripts/make-single-html.mjs inlines it into index.html.
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: 'build/single',
    emptyOutDir: true,
    target: 'es2022',
    lib: {
      entry: 'web/page/main.js',
      formats: ['iife'],
      name: 'relposPage',
      fileName: () => 'relpos-page.js',
    },
  },
});
