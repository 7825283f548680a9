import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    // As many test files at once as there are cores (at least two): a page test spends much of
    // its time waiting for Chromium, so two files overlap well even on two cores (docs/testing.md).
    maxWorkers: Math.max(2, availableParallelism()),
    // Timeouts catch a hang, never measure speed (that is `npm run bench:*`): the slowest tests take
    // 80 s on a machine loaded by the suite itself, and a loaded CI machine may take twice that, so
    // every test and hook gets 300 s.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'js',
          include: ['tests/js/**/*.test.js'],
          // The JS API's files share a worker's modules (each builds its own instances and
          // restores what it stubs): importing the API and compiling the core once per worker, not
          // once per file, took about a third of their time (docs/testing.md).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'page',
          include: ['tests/page/**/*.test.js', 'tests/package/**/*.test.js'],
          // A page test that fails is run once more: a wait in Chromium has timed out
          // now and then (a page never ready, a download never started: 2 of about 12 runs of
          // this project in a day) and not again in the same test's next runs. Every failed
          // attempt's error and its open pages (whether they answer) go to the log
          // (tests/page/failure-note.js), and the report marks the test "retry x1".
          retry: 1,
          setupFiles: ['tests/page/failure-note.js'],
          // A worker runs file after file with its modules (Playwright, the fixtures) and its own
          // headless Chromium (tests/page/browser.js) loaded once: each file makes its own server,
          // pages and contexts and changes no global, and a fresh process per file cost about
          // 1.2 CPU s each (docs/testing.md).
          isolate: false,
        },
      },
    ],
  },
});
