// <relpos-attention> above MAIN_THREAD_POSITIONS (384, the page's cut-off too): the numbers
// come from the worker pool (off the main thread), equal the API's, and the element is capped at MAX_ELEMENT_TOKENS (512).
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { MAIN_THREAD_POSITIONS, defaultState, tokenLabels } from '../../web/settings/settings.js';
import { exampleOptions } from '../../web/views/view.js';
import { usePage } from './page-fixture.js';

const env = usePage();
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

async function addElement(page, attributes) {
  return page.evaluate(
    (attrs) =>
      new Promise((done) => {
        const el = document.createElement('relpos-attention');
        el.id = 'pooled';
        for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
        el.addEventListener(
          'relpos-render',
          (event) =>
            done({
              notes: event.detail.notes,
              computedBy: el.computedBy,
              n: el.view?.n,
              cells: [0, 7, 400 * 400 - 1, 12345].map((i) => el.view?.result.combinedWeights.data[i] ?? null),
              label: el.shadowRoot.querySelector('canvas')?.getAttribute('aria-label').slice(0, 40),
            }),
          { once: true },
        );
        document.body.append(el);
      }),
    attributes,
  );
}

describe('elements above MAIN_THREAD_POSITIONS', () => {
  test('n = 400 is computed in the worker pool, equals the API, and draws', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(`${env.server.url}examples/elements.html`);
    await page.waitForFunction(() => document.querySelector('relpos-attention')?.view);
    const got = await addElement(page, { 'seq-len': '400', seed: '5', panels: 'combined-weights' });
    expect(got.notes).toEqual([]);
    expect(got.computedBy).toBe('workers');
    expect(got.n).toBe(400);
    expect(got.label).toMatch(/^Combined weights: 400 by 400 heatmap/);
    const settings = { ...defaultState(), seqLen: 400, seed: 5 };
    const words = tokenLabels(settings.tokens, 400); // the default sentence, then unnamed positions
    const want = rp.example(exampleOptions(settings, words)).combinedWeights.data;
    expect(got.cells).toEqual([0, 7, 400 * 400 - 1, 12345].map((i) => want[i]));
    expect(problems).toEqual([]);
    await context.close();
  });

  test('at MAIN_THREAD_POSITIONS, the page’s cut-off, the element computes on the main thread', async () => {
    expect(400).toBeGreaterThan(MAIN_THREAD_POSITIONS); // the test above is past the cut-off
    const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${env.server.url}examples/elements.html`);
    await page.waitForFunction(() => document.querySelector('relpos-attention')?.view);
    const got = await addElement(page, { 'seq-len': String(MAIN_THREAD_POSITIONS), panels: 'combined-weights' });
    expect(got.computedBy).toBe('main');
    expect(got.n).toBe(MAIN_THREAD_POSITIONS);
    await context.close();
  });

  test('above 512 the element says so and draws 512', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${env.server.url}examples/elements.html`);
    await page.waitForFunction(() => document.querySelector('relpos-attention')?.view);
    const got = await addElement(page, { 'seq-len': '600', panels: 'offsets' });
    expect(got.notes.join(' ')).toMatch(/seq-len must be .* 1 to 512/);
    expect(got.n).toBe(512);
    await context.close();
  });
});
