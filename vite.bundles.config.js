// Two single-file bundles, built after the page (scripts/build.sh):
//   --mode single:   the page as one classic script (IIFE), which scripts/make-single-html.mjs
//                    inlines into dist/relpos.html (browsers refuse module scripts from file://),
//                    with the long view's worker inlined too (started from a Blob URL);
//   --mode elements: the custom elements as one ES module with everything inside,
//                    dist/relpos-elements.js, for pages without a bundler;
//   --mode elements-iife: the same as one classic script, dist/relpos-elements.iife.js, for
//                    settings that make a classic <script> (MkDocs' extra_javascript), an LMS
//                    upload, an inline <script> (a Jupyter output) and pages opened from disk.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const INLINE_WORKER = fileURLToPath(new URL('./web/workers/start-view-worker-inline.js', import.meta.url));
const INLINE_POOL_WORKER = fileURLToPath(new URL('./web/workers/start-pool-worker-inline.js', import.meta.url));
// Both bundles are single files: the pool's workers (elements above n = 64) start from Blob URLs.
const POOL_ALIAS = { find: /^.*\/start-pool-worker\.js$/, replacement: INLINE_POOL_WORKER };

const BUNDLES = {
  single: { entry: 'web/page/main.js', formats: ['iife'], name: 'relposPage', fileName: () => 'relpos-page.js' },
  elements: { entry: 'web/elements/index.js', formats: ['es'], fileName: () => 'relpos-elements.js' },
  'elements-iife': {
    entry: 'web/elements/index.js',
    formats: ['iife'],
    name: 'relposElements',
    fileName: () => 'relpos-elements.iife.js',
  },
};

export default defineConfig(({ mode }) => ({
  resolve: {
    alias:
      mode === 'single'
        ? [{ find: /^.*\/start-view-worker\.js$/, replacement: INLINE_WORKER }, POOL_ALIAS]
        : [POOL_ALIAS],
  },
  worker: { format: 'iife' },
  build: {
    outDir: `build/${mode}`,
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    lib: BUNDLES[mode],
    rollupOptions: { output: { codeSplitting: false } }, // one file: import() inlined too
  },
}));
