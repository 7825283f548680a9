import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/js/**/*.test.js', 'tests/page/**/*.test.js', 'tests/package/**/*.test.js'],
    environment: 'node',
    // One Chromium for the run, which the page and package tests connect to (tests/page/browser.js).
    globalSetup: ['tests/page/shared-chromium.js'],
    // As many test files at once as there are cores (at least two): a page test spends much of
    // its time waiting for Chromium, so two files overlap well even on two cores (docs/testing.md).
    maxWorkers: Math.max(2, availableParallelism()),
    // Timeouts catch a hang, never measure speed (that is `npm run bench:*`): the slowest tests take
    // 80 s on a machine loaded by the suite itself, and a loaded CI machine may take twice that, so
    // every test and hook gets 300 s.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
