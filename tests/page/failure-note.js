// Vitest setup for the page project: when a test fails (each attempt: vitest.config.js retries a
// page test once), its error and the pages still open, with whether they answer
// (tests/page/browser.js describeOpenPages), go to the log: a wait that timed out says whether the
// page was hung, busy, or lost to Playwright, even when the retry passes.
import { beforeEach } from 'vitest';
import { describeOpenPages } from './browser.js';

beforeEach(({ onTestFailed, task }) => {
  onTestFailed(async () => {
    const error = task.result?.errors?.[0]?.message?.split('\n')[0] ?? '';
    const lines = await describeOpenPages();
    console.error(
      `${task.name} failed (attempt ${(task.result?.retryCount ?? 0) + 1}): ${error}\n` +
        `  its open pages:\n  ${lines.join('\n  ') || '(none)'}`,
    );
  });
});
