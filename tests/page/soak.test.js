// Soak: 2 000 random control changes on the page and 2 000 attribute changes on the elements.
// No console error, and the JS heap (after a forced garbage collection) and WASM memory stay
// flat between the first few hundred changes and the last. The numbers are printed.
import { describe, expect, test } from 'vitest';
import { openPage } from './browser.js';
import { usePage } from './page-fixture.js';

const env = usePage();
const CHANGES = 2000;

async function heapAfterGc(page) {
  const session = await page.context().newCDPSession(page);
  await session.send('HeapProfiler.collectGarbage');
  const { usedSize } = await session.send('Runtime.getHeapUsage');
  await session.detach();
  return usedSize;
}

// In the page: `count` random changes of the controls, each dispatched as a user's input.
function randomChanges([count, seed]) {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const ids = [
    'seqLen',
    'dK',
    'maxDistance',
    'seed',
    'causal',
    'tokens',
    'draw',
    'table',
    'sameQuery',
    'strength',
    'noise',
    'width',
    'asymmetry',
  ];
  for (let change = 0; change < count; change += 1) {
    const input = document.getElementById(ids[Math.floor(random() * ids.length)]);
    if (input.type === 'checkbox') input.checked = !input.checked;
    else if (input.type === 'select-one') input.selectedIndex = Math.floor(random() * input.options.length);
    else if (input.type === 'text')
      input.value = Array.from(
        { length: 1 + Math.floor(random() * 12) },
        (_, i) => `w${i}${Math.floor(random() * 99)}`,
      ).join(' ');
    else if (input.type === 'range')
      input.value = String(Number(input.min) + random() * (Number(input.max) - Number(input.min)));
    else input.value = String(Math.floor(random() * 1e6));
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

describe('soak', () => {
  test(`${CHANGES} random control changes on the page`, async () => {
    const { page, context, problems } = await env.open('', { viewport: { width: 1280, height: 900 } });
    await page.evaluate(randomChanges, [300, 1]);
    // Reach the largest sizes once: buffers grow to their high-water mark and stay there. The
    // core's projection workspace is largest at the largest k with 2k + 1 <= n (k = 31 at n = 64).
    await page.evaluate(() => {
      const set = (id, value) => {
        const input = document.getElementById(id);
        input.value = String(value ?? input.max);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      };
      for (const id of ['seqLen', 'dK', 'maxDistance']) set(id);
      set('maxDistance', 31);
    });
    const heapBefore = await heapAfterGc(page);
    const wasmBefore = await page.evaluate(() => window.relposPage.memory());
    await page.evaluate(randomChanges, [CHANGES - 300, 2]);
    const heapAfter = await heapAfterGc(page);
    const wasmAfter = await page.evaluate(() => window.relposPage.memory());
    console.log(
      `page soak: JS heap ${heapBefore} -> ${heapAfter} bytes; WASM ${wasmBefore.wasmBytes} -> ${wasmAfter.wasmBytes} bytes, malloc in use ${wasmBefore.heapInUseBytes} -> ${wasmAfter.heapInUseBytes}`,
    );
    expect(heapAfter - heapBefore).toBeLessThan(1.5 * 2 ** 20);
    expect(wasmAfter.wasmBytes).toBe(wasmBefore.wasmBytes);
    expect(wasmAfter.heapInUseBytes).toBeLessThanOrEqual(wasmBefore.heapInUseBytes);
    expect(await page.evaluate(() => document.querySelectorAll('figure.relpos-panel').length)).toBe(8);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  test(`${CHANGES} random attribute changes on the elements`, async () => {
    const { page, context, problems } = await openPage(env.browser, `${env.server.url}examples/elements.html`, {
      viewport: { width: 1000, height: 900 },
    });
    await page.waitForFunction(() =>
      [...document.querySelectorAll('relpos-attention, relpos-profile')].every((el) => el.view),
    );
    const soak = (count, seed) =>
      page.evaluate(
        async ([total, start]) => {
          let state = start;
          const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
          const values = [
            '1',
            '7',
            '64',
            '0',
            '-3',
            '2.5',
            'NaN',
            'Infinity',
            '',
            'abc',
            '1e9',
            'x'.repeat(300),
            '<b>x</b>',
          ];
          const targets = {
            attention: ['seq-len', 'd-k', 'max-distance', 'seed', 'causal', 'tokens', 'panels', 'theme'],
            profile: ['seed', 'd-k', 'max-distance', 'noise', 'width', 'asymmetry', 'theme'],
          };
          for (let change = 0; change < total; change += 1) {
            const id = random() < 0.6 ? 'attention' : 'profile';
            const el = document.getElementById(id);
            const names = targets[id];
            const name = names[Math.floor(random() * names.length)];
            const rendered = new Promise((done) => el.addEventListener('relpos-render', done, { once: true }));
            if (random() < 0.2) el.removeAttribute(name);
            else el.setAttribute(name, values[Math.floor(random() * values.length)]);
            await Promise.race([rendered, new Promise((done) => setTimeout(done, 200))]);
          }
        },
        [count, seed],
      );
    await soak(300, 3);
    const heapBefore = await heapAfterGc(page);
    await soak(CHANGES - 300, 4);
    const heapAfter = await heapAfterGc(page);
    console.log(`elements soak: JS heap ${heapBefore} -> ${heapAfter} bytes`);
    expect(heapAfter - heapBefore).toBeLessThan(1.5 * 2 ** 20);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});
