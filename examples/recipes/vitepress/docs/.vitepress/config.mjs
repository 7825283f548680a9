// VitePress pre-renders every page on Node, where there is no DOM: Vue must leave the relpos
// elements alone (isCustomElement), and the elements are imported in the browser only
// (theme/index.js).
import { defineConfig } from 'vitepress';

export default defineConfig({
  title: 'relpos in VitePress',
  vue: {
    template: {
      compilerOptions: {
        isCustomElement: (tag) => tag.startsWith('relpos-'),
      },
    },
  },
});
