// relpos-wasm/worker in Chromium under a strict Content-Security-Policy: a pool of module
// workers (one WebAssembly instance each) gives every panel bit for bit as one instance does,
// at block edges, with causal and with k >= n, with a scale, masks and heads, and the
// instance's errors.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, openPage } from './browser.js';
import { serveFolder } from './static-server.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'";
const env = {};

beforeAll(async () => {
  env.server = await serveFolder(ROOT, { headers: { 'content-security-policy': STRICT_CSP } });
  env.browser = await launchBrowser();
  env.opened = await openPage(env.browser, `${env.server.url}tests/page/pool-page.html`);
  await env.opened.page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
});
afterAll(async () => {
  await env.browser?.close();
  await env.server?.close();
});

describe('relpos-wasm/worker', () => {
  test('package.json exports ./worker as the file this page imports, with types', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(pkg.exports['./worker']).toEqual({
      types: './web/api/worker.d.ts',
      import: './web/api/worker.js',
      default: './web/api/worker.js',
    });
  });

  test('the pool equals one instance bit for bit: every panel, block edges, causal, k >= n', async () => {
    const cases = [];
    for (const causal of [false, true]) {
      for (const [n, k] of [
        [31, 2],
        [32, 5],
        [33, 0],
        [64, 70],
        [97, 3],
        [200, 16],
      ]) {
        cases.push({ n, k, causal, double: false }, { n, k, causal, double: true });
      }
    }
    cases.push({ n: 130, k: 4, causal: true, double: false, outputs: ['combinedWeights', 'output'] });
    // Bands of more than 256 table rows: the value term's depth passes then depend on the block.
    cases.push({ n: 600, k: 300, causal: false, double: false, outputs: ['output'] });
    // Scale, masks (the allowed rows sliced per block) and heads (shared or per-head tables).
    cases.push(
      { n: 97, k: 3, causal: true, double: false, scale: 0.7, padding: true, mask: true },
      { n: 130, k: 5, causal: false, double: true, heads: 2, padding: true },
      { n: 130, k: 5, causal: true, double: false, heads: 4, shared: true, mask: true },
      { n: 70, k: 2, causal: true, double: false, heads: 2, outputs: ['combinedWeights', 'output'], mask: true },
    );
    for (const workers of [1, 2, 3]) {
      const { differences, size } = await env.opened.page.evaluate(
        ([c, w]) => window.comparePool(c, w),
        [cases, workers],
      );
      expect(size).toBe(workers);
      expect(differences, `${workers} workers`).toEqual([]);
    }
    // Real failed requests are listed as "HTTP 404: url"; the bare console line is the favicon.
    expect(env.opened.problems.filter((line) => !line.startsWith('console: Failed to load resource'))).toEqual([]);
  });

  test('a worker that stops or fails: its call rejects, a new worker takes its place, later calls work', async () => {
    const got = await env.opened.page.evaluate(() => window.poolFailures());
    // One compiled module, posted to every worker: none compiled its own.
    expect(got.loadedFrom).toEqual(['wasmModule', 'wasmModule', 'wasmModule']);
    // Stopped: no event, so the time limit (1000 ms + the block's work) finds it.
    expect(got.stopped.message).toMatch(
      /^relpos-wasm\/worker: a worker did not answer attention within \d+ ms; it was stopped and replaced$/,
    );
    expect(got.stopped.ms).toBeLessThan(30_000);
    expect(got.afterStopped).toEqual({ same: true, randn: true, size: 3 });
    expect(got.failed.message).toBe(
      'relpos-wasm/worker: a worker failed while running attention (out of memory); it was replaced',
    );
    expect(got.afterFailed).toEqual({ same: true, randn: true, size: 3 });
    expect(got.started).toBe(5); // 3, then one for each lost worker
  });

  test('errors keep their type and message; other calls go to a worker', async () => {
    const { caught, offsets } = await env.opened.page.evaluate(() => window.poolErrors());
    expect(caught[0]).toMatch(/^RangeError: attention: outputs\[0\] must be one of 'contentScores'/);
    expect(caught[1]).toBe('RangeError: randn: seed must be an integer from 0 to 4294967295, got -1');
    expect(offsets).toEqual([0, 1, 1, -1, 0, 1, -1, -1, 0]);
  });
});
