// Soak: 1 000 random control changes on the page and 1 000 attribute changes on the elements,
// drawn in Node from the project's generator (web/api/seeded-random.js). The page's changes come
// in bursts within one task, as fast typing makes them: after each frame the page shows the last
// change, and at the end its address reproduces it. No console error; WASM memory stays flat
// after the first 300 changes (and the largest sizes) have grown it to its high-water mark; and
// brought back to the same state (the page's defaults, the elements' own attributes) before and
// after the last 700 changes, the page holds the same DOM nodes, event listeners and documents
// and under 1 KiB of JS heap (after a forced garbage collection) more per change: a leak of one
// node or listener a change shows at once, of a kilobyte a change over 700 changes. The numbers
// are printed.
import { describe, test } from 'vitest';
import { seededRandom } from '../../web/api/seeded-random.js';
import { ATTENTION_SETTINGS } from '../../web/settings/settings.js';
import { stateFromQuery } from '../../web/page/url-state.js';
import { openPage } from './browser.js';
import { allHashes, usePage, whenDrawn } from './page-fixture.js';

const env = usePage();
const CHANGES = 1000;
const WARM_UP = 300;
const HEAP_GROWTH = (CHANGES - WARM_UP) * 1024; // under 1 KiB kept per change

/**
 * After a forced garbage collection: the JS heap in use, and Chromium's counts of the page's DOM
 * nodes, event listeners and documents, which are exact: one node or listener kept per change
 * shows.
 */
async function memoryAfterGc(page) {
  const session = await page.context().newCDPSession(page);
  await session.send('HeapProfiler.collectGarbage');
  await session.send('Performance.enable');
  const { usedSize } = await session.send('Runtime.getHeapUsage');
  const { metrics } = await session.send('Performance.getMetrics');
  await session.detach();
  const count = (name) => metrics.find((metric) => metric.name === name).value;
  return { heap: usedSize, nodes: count('Nodes'), listeners: count('JSEventListeners'), documents: count('Documents') };
}

// Every attention setting has a control of its id (web/settings/settings.js).
const CONTROL_IDS = ATTENTION_SETTINGS;

/**
 * `count` random changes of the controls, drawn here with the project's generator: each names its
 * input, `u` (where a slider or a menu goes, as a fraction of its range: its range depends on the
 * page's state), the text or number typed, and `frame`: whether the reader then waits a frame
 * (otherwise the next change comes in the same task, as fast typing does).
 */
function randomChanges(count, seed) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const change = { id: CONTROL_IDS[Math.floor(random() * CONTROL_IDS.length)], u: random() };
    if (change.id === 'tokens')
      change.value = Array.from(
        { length: 1 + Math.floor(random() * 12) },
        (_, i) => `w${i}${Math.floor(random() * 99)}`,
      ).join(' ');
    else if (change.id === 'seed') change.value = String(Math.floor(random() * 1e6));
    change.frame = random() < 1 / 8; // bursts of 8 changes a frame on average
    return change;
  });
}

// In the page: each change dispatched as a user's input. After each frame the page has drawn the
// latest change (no body[data-busy]) and its view is the state's (n tokens); returns the frames
// where it was not.
async function dispatchChanges(changes) {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  const stale = [];
  const check = (index) => {
    const { seqLen } = window.relposPage.state();
    if (document.body.dataset.busy || window.relposPage.tokens().length !== seqLen) stale.push(index);
  };
  for (const [index, { id, u, value, frame: wait }] of changes.entries()) {
    const input = document.getElementById(id);
    if (input.type === 'checkbox') input.checked = !input.checked;
    else if (input.type === 'select-one') input.selectedIndex = Math.floor(u * input.options.length);
    else if (input.type === 'range')
      input.value = String(Number(input.min) + u * (Number(input.max) - Number(input.min)));
    else input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    if (wait) {
      await frame(); // the page's frame, asked for by the first change since the last, comes first
      check(index);
    }
  }
  await frame();
  check(changes.length);
  return stale;
}

const ATTRIBUTE_VALUES = [
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
const ATTRIBUTES = {
  attention: ['seq-len', 'd-k', 'max-distance', 'seed', 'causal', 'tokens', 'panels', 'theme'],
  profile: ['seed', 'd-k', 'max-distance', 'noise', 'width', 'asymmetry', 'theme'],
};

/** `count` random attribute changes of the two elements (value null: the attribute removed), drawn here. */
function randomAttributeChanges(count, seed) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const id = random() < 0.6 ? 'attention' : 'profile';
    const name = ATTRIBUTES[id][Math.floor(random() * ATTRIBUTES[id].length)];
    const value = random() < 0.2 ? null : ATTRIBUTE_VALUES[Math.floor(random() * ATTRIBUTE_VALUES.length)];
    return { id, name, value };
  });
}

// In the page: each change, then its render (or 200 ms, for a change that renders nothing new).
// Removing an attribute that is not there is no change at all (the DOM calls no
// attributeChangedCallback): the next change follows at once.
async function changeAttributes(changes) {
  for (const { id, name, value } of changes) {
    const el = document.getElementById(id);
    if (value === null && !el.hasAttribute(name)) continue;
    const rendered = new Promise((done) => el.addEventListener('relpos-render', done, { once: true }));
    if (value === null) el.removeAttribute(name);
    else el.setAttribute(name, value);
    await Promise.race([rendered, new Promise((done) => setTimeout(done, 200))]);
  }
}

// Both soaks measure memory at the same state before and after (the page's defaults, the elements'
// own attributes), after the first WARM_UP changes have grown every buffer to its high-water mark.
// The two run at once, each on its own page (its own renderer): what each measures is its page's.
describe.concurrent('soak', () => {
  test(`${CHANGES} random control changes on the page`, async ({ expect }) => {
    const { page, context, problems } = await env.open('', { viewport: { width: 1280, height: 900 } });
    const soak = async (count, seed) =>
      expect(await page.evaluate(dispatchChanges, randomChanges(count, seed))).toEqual([]);
    // Reset to the defaults, drawn.
    const reset = async () => {
      await page.click('#reset');
      await whenDrawn(page);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done())));
    };
    // The schemes section computes only near the view (web/page/schemes-section.js): brought there
    // for the warm-up and the largest sizes, its buffers reach their high-water mark too.
    await page.locator('#schemes-section').scrollIntoViewIfNeeded();
    await page.waitForSelector('#schemes-section[data-drawn]');
    await soak(WARM_UP, 1);
    // Reach the largest sizes once: buffers grow to their high-water mark and stay there. The
    // core's projection workspace is largest at the largest k with 2k + 1 <= n (k = 31 at n = 64).
    await page.evaluate(async () => {
      const set = async (id, value) => {
        const input = document.getElementById(id);
        input.value = String(value ?? input.max);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((done) => requestAnimationFrame(done)); // drawn
      };
      for (const id of ['seqLen', 'dK', 'maxDistance']) await set(id);
      await set('maxDistance', 31);
    });
    const wasmBefore = await page.evaluate(() => window.relposPage.memory());
    await allHashes(page); // (Playwright's helper script, which $eval puts in the page, there at both measurements)
    await reset();
    const before = await memoryAfterGc(page);
    await soak(CHANGES - WARM_UP, 2);
    const wasmAfter = await page.evaluate(() => window.relposPage.memory());
    expect(wasmAfter.wasmBytes).toBe(wasmBefore.wasmBytes);
    expect(wasmAfter.heapInUseBytes).toBeLessThanOrEqual(wasmBefore.heapInUseBytes);
    expect(await page.evaluate(() => document.querySelectorAll('figure.relpos-panel').length)).toBe(8);
    // The address holds the last change's state, and opening it draws what the page shows.
    const state = await page.evaluate(() => window.relposPage.state());
    await expect.poll(() => stateFromQuery(new URL(page.url()).search).state).toEqual(state);
    const restored = await env.open(new URL(page.url()).search, { viewport: { width: 1280, height: 900 } });
    expect(await allHashes(restored.page)).toEqual(await allHashes(page));
    await restored.context.close();
    await reset();
    const after = await memoryAfterGc(page);
    console.log(
      `page soak: WASM ${wasmBefore.wasmBytes} -> ${wasmAfter.wasmBytes} bytes, malloc in use ${wasmBefore.heapInUseBytes} -> ${wasmAfter.heapInUseBytes}; at the defaults ${JSON.stringify(before)} -> ${JSON.stringify(after)}`,
    );
    expect(after.heap - before.heap).toBeLessThan(HEAP_GROWTH);
    expect(after).toMatchObject({ nodes: before.nodes, listeners: before.listeners, documents: before.documents });
    expect([...problems, ...restored.problems]).toEqual([]);
    await context.close();
  });

  test(`${CHANGES} random attribute changes on the elements`, async ({ expect }) => {
    const { page, context, problems } = await openPage(env.browser, `${env.server.url}examples/elements.html`, {
      viewport: { width: 1000, height: 900 },
    });
    await page.waitForFunction(() =>
      [...document.querySelectorAll('relpos-attention, relpos-profile')].every((el) => el.view),
    );
    const soak = (count, seed) => page.evaluate(changeAttributes, randomAttributeChanges(count, seed));
    // The two elements' attributes as the page has them, given back (each element rendered).
    const original = await page.evaluate(() =>
      ['attention', 'profile'].map((id) => [
        id,
        document
          .getElementById(id)
          .getAttributeNames()
          .map((name) => [name, document.getElementById(id).getAttribute(name)]),
      ]),
    );
    const restore = () =>
      page.evaluate(async (elements) => {
        await Promise.all(
          elements.map(([id, attributes]) => {
            const el = document.getElementById(id);
            const rendered = new Promise((done) => el.addEventListener('relpos-render', done, { once: true }));
            for (const name of el.getAttributeNames()) el.removeAttribute(name);
            for (const [name, value] of attributes) el.setAttribute(name, value);
            return rendered;
          }),
        );
        await new Promise((done) => requestAnimationFrame(() => done()));
      }, original);
    await soak(WARM_UP, 3);
    await restore();
    const before = await memoryAfterGc(page);
    await soak(CHANGES - WARM_UP, 4);
    await restore();
    const after = await memoryAfterGc(page);
    console.log(`elements soak, before -> after: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
    expect(after.heap - before.heap).toBeLessThan(HEAP_GROWTH);
    expect(after).toMatchObject({ nodes: before.nodes, listeners: before.listeners, documents: before.documents });
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});
