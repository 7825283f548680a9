// The long view does only the work a change needs: after a change, the panels in (or near) the
// viewport are drawn and the others only when they scroll in (counted, not timed).
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { PANEL_IDS as PANELS } from '../../web/views/panels.js';
import { canvasHash, pageExample, usePage, whenDrawn } from './page-fixture.js';

const env = usePage();
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

/** Cell (i, c) of a panel in offset space, derived here from the API's n × n matrices. */
function derivedCell(ex, n, k, panel, i, c) {
  const keys = [];
  for (let j = 0; j < n; j += 1) if (Math.min(k, Math.max(-k, j - i)) === c) keys.push(j);
  if (!keys.length) return null;
  const sum = (m) => keys.reduce((total, j) => total + m.data[i * n + j], 0);
  if (panel === 'offsets') return c;
  if (panel === 'contentScores' || panel === 'positionBiases') return ex[panel].data[i * n + i + c];
  if (panel === 'difference') return sum(ex.combinedWeights) - sum(ex.contentWeights);
  return sum(ex[panel]);
}

async function setControl(page, id, value) {
  await page.evaluate(
    ([name, to]) => {
      const input = document.getElementById(name);
      if (input.type === 'checkbox') input.checked = to;
      else input.value = String(to);
      input.dispatchEvent(
        new Event(input.type === 'checkbox' || input.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }),
      );
    },
    [id, value],
  );
  await whenDrawn(page);
}

const inViewport = (page) =>
  page.evaluate((ids) => {
    const margin = 100; // the observer's rootMargin
    return ids.filter((id) => {
      const box = document.getElementById(`figure-${id}`).getBoundingClientRect();
      return (
        box.bottom > -margin && box.top < innerHeight + margin && box.right > -margin && box.left < innerWidth + margin
      );
    });
  }, PANELS);

async function change(page, seed) {
  await page.evaluate((value) => {
    const input = document.getElementById('seed');
    input.value = String(value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, seed);
  await whenDrawn(page);
}

describe('long view: only the work a change needs', () => {
  test('a change draws the panels in view; the others are drawn when they scroll in', async () => {
    const { page, context } = await env.open('?long=1&n=1024&k=16', { viewport: { width: 1280, height: 900 } });
    await whenDrawn(page);
    await page.evaluate(() => window.scrollTo(0, document.getElementById('figure-contentScores').offsetTop - 20));
    await page.waitForTimeout(300); // the observer reports
    const visible = await inViewport(page);
    expect(visible.length).toBeGreaterThan(0);
    expect(visible.length).toBeLessThan(PANELS.length);
    const hidden = PANELS.filter((id) => !visible.includes(id));

    const before = await page.evaluate(() => window.relposPage.panelsDrawn());
    const hashes = Object.fromEntries(
      await Promise.all(PANELS.map(async (id) => [id, await canvasHash(page, `#figure-${id} canvas`)])),
    );
    await change(page, 77);
    await page.waitForTimeout(200);
    const afterChange = await page.evaluate(() => window.relposPage.panelsDrawn());
    // The offsets do not depend on the seed: the visible panels other than the offsets are drawn.
    const redrawnVisible = visible.filter((id) => id !== 'offsets');
    expect(afterChange - before).toBe(redrawnVisible.length);
    for (const id of redrawnVisible) expect(await canvasHash(page, `#figure-${id} canvas`)).not.toBe(hashes[id]);
    const stale = hidden.filter((id) => id !== 'offsets');
    for (const id of stale) expect(await canvasHash(page, `#figure-${id} canvas`)).toBe(hashes[id]);

    // Scrolling the last stale panel in draws it, then (all scrolled past) every one is drawn.
    const last = stale.at(-1);
    await page.evaluate((id) => document.getElementById(`figure-${id}`).scrollIntoView(), last);
    await page.waitForFunction(
      ([id, old]) => {
        const canvas = document.querySelector(`#figure-${id} canvas`);
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let hash = 2166136261;
        for (let i = 0; i < data.length; i += 7) hash = Math.imul(hash ^ data[i], 16777619);
        return `${canvas.width}x${canvas.height}:${(hash >>> 0).toString(16)}` !== old;
      },
      [last, hashes[last]],
    );
    for (const id of stale) {
      await page.evaluate((panel) => document.getElementById(`figure-${panel}`).scrollIntoView(), id);
      await page.waitForTimeout(100);
    }
    expect(await page.evaluate(() => window.relposPage.panelsDrawn())).toBe(afterChange + stale.length);
    await context.close();
  });

  test('a change of k, causal or the table (content panels kept in the workers) shows the numbers of a fresh computation', async () => {
    const n = 1024;
    const { page, context, problems } = await env.open(`?long=1&n=${n}&k=16&seed=6`, {
      viewport: { width: 1280, height: 900 },
    });
    await whenDrawn(page);
    const steps = [
      ['maxDistance', 20, { maxDistance: 20 }],
      ['causal', true, { maxDistance: 20, causal: true }],
      ['table', 'random', { maxDistance: 20, causal: true, table: 'random' }],
      ['maxDistance', 9, { maxDistance: 9, causal: true, table: 'random' }],
    ];
    for (const [control, value, settings] of steps) {
      await setControl(page, control, value);
      expect(await page.evaluate(() => window.relposPage.computedBy())).toBe('worker');
      const k = settings.maxDistance;
      const ex = pageExample(rp, { seed: 6, seqLen: n, tokens: '', ...settings });
      // Rows at the pool's block edges (512 with two workers, multiples of 32) and the ends.
      const rows = [0, 31, 32, 511, 512, 513, 700, n - k - 1, n - 1];
      const offsets = [-k, -k + 1, -1, 0, 1, k - 1, k];
      const got = await page.evaluate(
        ([ids, is, cs]) =>
          Promise.all(
            ids.map((p) =>
              Promise.all(is.map((i) => Promise.all(cs.map((c) => window.relposPage.offsetCell(p, i, c))))),
            ),
          ),
        [PANELS, rows, offsets],
      );
      PANELS.forEach((panel, p) =>
        rows.forEach((i, r) =>
          offsets.forEach((c, o) => {
            const want = derivedCell(ex, n, k, panel, i, c);
            const { drawn, exact } = got[p][r][o];
            const where = `${control} → ${value}: ${panel} (${i}, ${c})`;
            if (want === null) expect(drawn, where).toBeNull();
            else {
              expect(exact, where).toBe(want);
              expect(drawn, where).toBe(Math.fround(want));
            }
          }),
        ),
      );
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  test('a change of colour scheme redraws the panels and computes nothing', async () => {
    const { page, context, problems } = await env.open('?long=1&n=1024&k=16', {
      viewport: { width: 1280, height: 900 },
    });
    await whenDrawn(page);
    // Every message to a worker (the pool's requests), counted from here on.
    await page.evaluate(() => {
      window.workerMessages = 0;
      const send = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function count(...args) {
        window.workerMessages += 1;
        return send.apply(this, args);
      };
    });
    await change(page, 12);
    expect(await page.evaluate(() => window.workerMessages)).toBeGreaterThan(0); // a change of seed: computed
    await page.evaluate(() => (window.workerMessages = 0));
    const drawn = await page.evaluate(() => window.relposPage.panelsDrawn());
    const before = await canvasHash(page, '#figure-combinedWeights canvas');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction((count) => window.relposPage.panelsDrawn() > count, drawn);
    expect(await canvasHash(page, '#figure-combinedWeights canvas')).not.toBe(before);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => window.workerMessages)).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('thirty changes in quick succession: the superseded ones are not computed, the last is shown', async () => {
    const { page, context, problems } = await env.open('?long=1&n=2048&k=16', {
      viewport: { width: 1280, height: 900 },
    });
    await whenDrawn(page);
    // The line over the panels while the workers compute: empty once drawn, its room kept.
    const computingLine = () =>
      page.evaluate(() => {
        const line = document.getElementById('computing');
        const shown = !line.hidden && line.getBoundingClientRect().height > 0;
        return {
          shown,
          text: line.textContent,
          panelsTop: document.getElementById('panels').getBoundingClientRect().top,
        };
      });
    const idle = await computingLine();
    expect(idle).toMatchObject({ shown: true, text: '' });
    const before = await page.evaluate(() => window.relposPage.workerTasks());
    const workers = navigatorCores(await page.evaluate(() => navigator.hardwareConcurrency));
    // The workers are held busy with the first change's blocks while the other 29 come (the
    // messages to them wait, in order, until released): whatever the machine's speed, every
    // change after the first is superseded while the workers are busy.
    await page.evaluate(() => {
      const send = Worker.prototype.postMessage;
      const held = [];
      window.holdWorkers = true;
      window.releaseWorkers = () => {
        window.holdWorkers = false;
        for (const [worker, args] of held.splice(0)) send.apply(worker, args);
      };
      Worker.prototype.postMessage = function holdOrSend(...args) {
        if (window.holdWorkers) held.push([this, args]);
        else send.apply(this, args);
      };
    });
    // Seeds 101 … 130, one input event every 5 ms (each in its own task, as a slider drags).
    await page.evaluate(
      () =>
        new Promise((done) => {
          let seed = 101;
          const step = () => {
            const input = document.getElementById('seed');
            input.value = String(seed);
            input.dispatchEvent(new Event('input', { bubbles: true }));
            seed += 1;
            if (seed <= 130) setTimeout(step, 5);
            else done();
          };
          step();
        }),
    );
    // Two animation frames: the last change's request is made (the page asks in the frame after a change).
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    // Until the workers answer, the line says what they compute (the last change's settings), and the panels stay put.
    expect(await computingLine()).toEqual({
      shown: true,
      text: 'Computing n = 2048, k = 16…',
      panelsTop: idle.panelsTop,
    });
    await page.evaluate(() => window.releaseWorkers());
    await whenDrawn(page);
    expect(await computingLine()).toEqual(idle);
    const after = await page.evaluate(() => window.relposPage.workerTasks());
    expect(await page.evaluate(() => window.relposPage.state().seed)).toBe(130);
    // The view drawn is seed 130's: a cell read from it equals the API's for that seed.
    const cell = await page.evaluate(() => window.relposPage.valueAt('combinedWeights', 5, 3));
    const ex = pageExample(rp, { seed: 130, seqLen: 2048, maxDistance: 16, tokens: '' });
    expect(cell).toBe(ex.combinedWeights.data[5 * 2048 + 3]);
    // Each change computed would be `workers` blocks (30 changes: 30 × workers); the ones
    // superseded before their turn were not computed: the first (already sent) and the last.
    const blocks = after.longViewBlock - (before.longViewBlock ?? 0);
    expect(blocks).toBeGreaterThanOrEqual(workers);
    expect(blocks).toBeLessThanOrEqual(2 * workers);
    // Every view worker instantiated the page's compiled core: none compiled its own.
    expect(await page.evaluate(() => window.relposPage.workerModules())).toEqual(Array(workers).fill('wasmModule'));
    expect(problems).toEqual([]);
    await context.close();
  });
});

/** The page's pool size for `cores` (workers/long-view.js): one per core, 1 … 8. */
const navigatorCores = (cores) => Math.max(1, Math.min(8, cores ?? 2));
