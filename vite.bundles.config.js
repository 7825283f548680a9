// Two single-file bundles, built after the page (scripts/build.sh):
//   --mode single:   the page as one classic script (IIFE), which scripts/make-single-html.mjs
//                    inlines into dist/relpos.html (browsers refuse module scripts from file://);
//   --mode elements: the custom elements as one ES module with everything inside,
//                    dist/relpos-elements.js, for pages without a bundler.
import { defineConfig } from 'vite';

const BUNDLES = {
  single: { entry: 'web/page/main.js', formats: ['iife'], name: 'relposPage', fileName: () => 'relpos-page.js' },
  elements: { entry: 'web/elements/index.js', formats: ['es'], fileName: () => 'relpos-elements.js' },
};

export default defineConfig(({ mode }) => ({
  build: {
    outDir: `build/${mode}`,
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    lib: BUNDLES[mode],
  },
}));
