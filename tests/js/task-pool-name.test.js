// pool.run's `name` option (web/api/task-pool.js): what a call's errors call it, on a pool of
// real Node worker threads; a name that is not a string is a TypeError naming the option.
import { afterAll, expect, test } from 'vitest';
import { startNodePool } from './pool/node-pool.js';

const pools = [];
afterAll(() => pools.forEach((pool) => pool.terminate()));

test("a call's time limit names it by `name`, else by its task", async () => {
  const pool = await startNodePool({ size: 1, delays: [5000], timeoutMs: 300 });
  pools.push(pool);
  await expect(pool.run('randn', [1, 2], { name: 'attention' })).rejects.toThrow(
    /^relpos-wasm\/worker: a worker did not answer attention within 300 ms; it was stopped and replaced$/,
  );
  await expect(pool.run('randn', [1, 2])).rejects.toThrow(
    /^relpos-wasm\/worker: a worker did not answer randn within 300 ms; it was stopped and replaced$/,
  );
});

test('a name that is not a string is refused before anything is sent', async () => {
  const pool = await startNodePool({ size: 1 });
  pools.push(pool);
  await expect(pool.run('randn', [1, 2], { name: 7 })).rejects.toThrow(
    new TypeError('relpos-wasm/worker: run(randn): options.name must be a string, got number'),
  );
  expect(await pool.taskCounts()).toEqual({});
});
