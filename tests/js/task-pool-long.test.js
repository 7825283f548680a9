// The pool's protocol for long tasks (web/api/task-pool.js, task-worker.js), on a pool of real
// Node worker threads: a task's reports reach onProgress before its result; a long call has no
// time limit and does not hold its worker; a call cancelled while it runs is told to its task,
// which stops early; a worker that fails or does not answer is replaced, and onReplaced says which.
import { afterAll, expect, test } from 'vitest';
import { TaskPool } from '../../web/api/task-pool.js';
import { compileCore } from '../../web/api/load-core.js';
import { nodeWorker, startNodePool } from './pool/node-pool.js';

const pools = [];
afterAll(() => pools.forEach((pool) => pool.terminate()));
const started = async (options) => {
  const pool = await startNodePool(options);
  pools.push(pool);
  return pool;
};

test('reports reach onProgress in order, each before the result', async () => {
  const pool = await started({ size: 1 });
  const seen = [];
  const result = await pool.run('ticks', [5, 5], { onProgress: (reached) => seen.push(reached) });
  expect(seen).toEqual([1, 2, 3, 4, 5]);
  expect(result).toEqual({ reached: 5, aborted: false });
  await expect(pool.run('ticks', [1, 1], { onProgress: 'each' })).rejects.toThrow(
    new TypeError('relpos-wasm/worker: run(ticks): options.onProgress must be a function, got string'),
  );
  await expect(pool.run('ticks', [1, 1], { long: 1 })).rejects.toThrow(
    new TypeError('relpos-wasm/worker: run(ticks): options.long must be a boolean, got number'),
  );
});

test('a long call outlives the time limit, and its worker answers other calls meanwhile', async () => {
  const pool = await started({ size: 1, timeoutMs: 300 });
  // 12 ticks of 100 ms: four times the limit.
  const order = [];
  const long = pool.run('ticks', [12, 100], { long: true }).then((result) => (order.push('ticks'), result));
  const beside = pool.run('randn', [7, 3], { worker: 0 }).then((drawn) => (order.push('randn'), drawn));
  expect(Array.from(await beside)).toHaveLength(3);
  expect(await long).toEqual({ reached: 12, aborted: false });
  expect(order).toEqual(['randn', 'ticks']);
  // The same call, not long: the time limit stops its worker.
  await expect(pool.run('ticks', [12, 100])).rejects.toThrow(
    /^relpos-wasm\/worker: a worker did not answer ticks within 300 ms; it was stopped and replaced$/,
  );
});

test('a call cancelled while it runs rejects at once, and its task sees its signal abort and stops', async () => {
  const pool = await started({ size: 1 });
  for (const long of [true, false]) {
    const controller = new AbortController();
    const seen = [];
    const run = pool.run('ticks', [1000, 10], {
      long,
      signal: controller.signal,
      onProgress: (reached) => {
        seen.push(reached);
        if (reached === 3) controller.abort(new DOMException('paused', 'AbortError'));
      },
    });
    await expect(run).rejects.toThrow('paused');
    expect(seen).toEqual([1, 2, 3]); // nothing after the cancel reaches the caller
    // The task stops a tick or so after the third (a call that is not long holds its worker until
    // then; a long one does not, so its end is waited for).
    let last = null;
    while (!last) last = await pool.run('lastTicks', [], { worker: 0 });
    expect(last.aborted).toBe(true);
    expect(last.reached).toBeGreaterThanOrEqual(3);
    expect(last.reached).toBeLessThan(20);
  }
});

test('onReplaced names the worker that failed or did not answer, after its calls rejected; the new one answers', async () => {
  const replaced = [];
  const order = [];
  const pool = new TaskPool({
    size: 2,
    createWorker: () => nodeWorker(),
    init: compileCore().then((wasmModule) => ({ wasmModule })),
    where: 'test pool',
    timeoutMs: 300,
    onReplaced: (index, error) => {
      order.push('replaced');
      replaced.push([index, error.message]);
    },
  });
  pools.push(pool);
  await pool.ready();
  // Worker 1 does not answer within the limit: its call rejects, then onReplaced(1, …).
  await expect(
    pool.run('ticks', [12, 100], { worker: 1 }).catch((error) => {
      order.push('rejected');
      throw error;
    }),
  ).rejects.toThrow(/^test pool: a worker did not answer ticks within 300 ms; it was stopped and replaced$/);
  expect(replaced).toEqual([[1, 'test pool: a worker did not answer ticks within 300 ms; it was replaced']]);
  expect(order).toEqual(['replaced', 'rejected']); // told at once; the call's rejection is seen after
  expect(Array.from(await pool.run('randn', [7, 3], { worker: 1 }))).toHaveLength(3);
  // Worker 0 fails (an uncaught error in it): onReplaced(0, …) with the reason.
  const failing = pool.run('ticks', [1000, 10], { worker: 0, long: true });
  await pool.run('throwLater', [], { worker: 0 });
  await expect(failing).rejects.toThrow(
    /^test pool: a worker failed while running ticks \(.*thrown by the test.*\); it was replaced$/,
  );
  expect(replaced[1][0]).toBe(0);
  expect(replaced[1][1]).toMatch(/^test pool: a worker failed \(.*thrown by the test.*\); it was replaced$/);
  expect(Array.from(await pool.run('randn', [7, 3], { worker: 0 }))).toHaveLength(3);
  expect(replaced).toHaveLength(2);
});
