// The default theme, and the relpos elements defined in the browser only (never during the
// build's pre-rendering on Node).
import DefaultTheme from 'vitepress/theme';

export default {
  extends: DefaultTheme,
  enhanceApp() {
    if (!import.meta.env.SSR) import('relpos-wasm/elements');
  },
};
