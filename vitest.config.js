import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/js/**/*.test.js', 'tests/page/**/*.test.js', 'tests/package/**/*.test.js'],
    environment: 'node',
    // One Chromium for the run, which the page and package tests connect to (tests/page/browser.js).
    globalSetup: ['tests/page/shared-chromium.js'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
