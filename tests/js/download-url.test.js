// A download's object URL outlives the browser's read of it: revoked a minute after the click,
// never within the second that a busy machine took to start the download (a page test then got
// no file at all).
import { afterEach, expect, test, vi } from 'vitest';
import { download, DOWNLOAD_URL_LIFETIME_MS } from '../../web/files/download.js';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

test('the object URL is revoked a minute after the click, not before', () => {
  vi.useFakeTimers();
  const events = [];
  const link = { click: () => events.push(`click ${link.href} as ${link.download}`), remove: () => {} };
  vi.stubGlobal('document', { createElement: () => link, body: { append: () => {} } });
  vi.stubGlobal('URL', {
    createObjectURL: () => 'blob:one',
    revokeObjectURL: (url) => events.push(`revoke ${url}`),
  });
  download('relpos-matrices.csv', new Blob(['a,b']));
  expect(events).toEqual(['click blob:one as relpos-matrices.csv']);
  vi.advanceTimersByTime(59_999);
  expect(events).toHaveLength(1);
  vi.advanceTimersByTime(1);
  expect(events).toEqual(['click blob:one as relpos-matrices.csv', 'revoke blob:one']);
  expect(DOWNLOAD_URL_LIFETIME_MS).toBe(60_000);
});
