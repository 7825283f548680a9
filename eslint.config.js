// ESLint (flat config): the recommended rules plus a few that hold the project's style. Prettier
// owns the layout (.prettierrc.json); `npm run lint` runs both, and clang-format and clang-tidy
// for the C++ (scripts/lint.sh).
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    ignores: [
      'node_modules/',
      'build/',
      'dist/',
      'tests/artifacts/',
      'examples/recipes/vitepress/docs/.vitepress/cache/',
    ],
  },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-shadow': 'error',
      eqeqeq: ['error', 'always'],
      'prefer-const': 'error',
      'no-var': 'error',
      'object-shorthand': ['error', 'always'],
      'no-implicit-coercion': ['error', { allow: ['!!'] }],
    },
  },
  // What runs in the browser: the page, the figures, the elements, the examples.
  { files: ['web/**/*.js', 'examples/**/*.js'], languageOptions: { globals: globals.browser } },
  {
    files: ['web/workers/view-worker.js', 'web/api/worker-entry.js', 'web/api/task-worker.js'],
    languageOptions: { globals: globals.worker },
  },
  { files: ['examples/recipes/reveal/*.js'], languageOptions: { globals: { Reveal: 'readonly' } } },
  // Emscripten's JS inputs to the core module (--js-library, --post-js): scripts inside its glue,
  // with its globals; a library's functions are written as `name: function () {}`, which it reads.
  {
    files: ['cpp/js/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        Module: 'readonly',
        wasmMemory: 'readonly',
        updateGlobalBufferAndViews: 'readonly',
        mergeInto: 'readonly',
        LibraryManager: 'readonly',
        abort: 'readonly',
      },
    },
    rules: { 'object-shorthand': 'off' },
  },
  // What runs in Node; the page tests also hand functions to the browser (page.evaluate).
  {
    files: ['bin/**', 'scripts/**', 'bench/**', 'tests/**', '*.config.js'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
];
