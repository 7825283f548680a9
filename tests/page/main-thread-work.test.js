// The bound on a main-thread call (web/api/limits.js MAX_MAIN_THREAD_WORK) in Chromium: on the
// page's main thread a call of more work is refused at once with a RangeError that points to
// relpos-wasm/worker; in a worker the same check lets it through; a call within it runs.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, openPage } from './browser.js';
import { serveFolder } from './static-server.js';
import { MAX_MAIN_THREAD_WORK } from '../../web/api/limits.js';
import { checkWork } from '../../web/api/validate.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const env = {};

beforeAll(async () => {
  env.server = await serveFolder(ROOT);
  env.browser = await launchBrowser();
  env.opened = await openPage(env.browser, `${env.server.url}tests/page/pool-page.html`);
});
afterAll(async () => {
  await env.browser?.close();
  await env.server?.close();
});

describe('work a main-thread call may take', () => {
  test('n = 4096, d_k = 1024 (float32) is refused on the main thread at once; n = 256 runs', async () => {
    // A string, so that the test runner leaves the page's import() as it is.
    const got = await env.opened.page.evaluate(`(async () => {
      const { createRelPos } = await import('/web/api/index.js');
      const rp = await createRelPos();
      const m = (rows, cols) => ({ rows, cols, data: new Float32Array(rows * cols) });
      let message = null;
      let name = null;
      try {
        rp.attention({ q: m(4096, 1024), k: m(4096, 1024), relKeys: m(9, 1024) });
      } catch (error) {
        ({ message, name } = error);
      }
      const small = rp.attention({ q: m(256, 64), k: m(256, 64), relKeys: m(9, 64) });
      return { message, name, smallRows: small.combinedWeights.rows };
    })()`);
    expect(got.name).toBe('RangeError');
    expect(got.message).toMatch(
      /^attention: n = 4096 with d_k = 1024 needs about 1\.8e\+10 multiply-adds, more than the 8\.6e\+9 a call may take on a page's main thread .*relpos-wasm\/worker \(createRelPosWorker\), or in blocks of query rows with queryOffset$/,
    );
    expect(got.smallRows).toBe(256);
  });

  test('in a worker and in Node the bound does not apply', async () => {
    const inWorker = await env.opened.page.evaluate(
      (work) =>
        new Promise((resolve) => {
          const source = `import('${location.origin}/web/api/validate.js').then(({ checkWork }) => {
            try { checkWork('attention', 'this call', ${work}); postMessage('accepted'); }
            catch (error) { postMessage(error.message); }
          });`;
          const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })), {
            type: 'module',
          });
          worker.onmessage = ({ data }) => resolve(data);
        }),
      MAX_MAIN_THREAD_WORK * 4,
    );
    expect(inWorker).toBe('accepted');
    expect(() => checkWork('attention', 'this call', MAX_MAIN_THREAD_WORK * 4)).not.toThrow();
  });
});
