// relpos-wasm/worker's worker (web/api/worker-entry.js) on a Node thread: the same tasks and
// the same serveTasks, over node:worker_threads' parentPort instead of a Web Worker's scope.
// A `delay` in the worker data (ms) makes every answer wait: a slow worker. Two tasks for the
// pool's own tests: `ticks` (a long task that reports 1, 2, … every `ms` up to `count` and stops
// early when its call is cancelled) and `lastTicks` (where the last `ticks` stopped, and why;
// null while one runs), and `throwLater` (an uncaught error in the worker: it fails).
import { parentPort, workerData } from 'node:worker_threads';
import { serveTasks } from '../../../web/api/task-worker.js';
import { API_TASKS, startInstance } from '../../../web/api/worker-tasks.js';

const delay = workerData?.delay ?? 0;
const wait = (ms) => new Promise((done) => setTimeout(done, ms));
const tasks = Object.fromEntries(
  Object.entries(API_TASKS).map(([name, run]) => [
    name,
    async (...args) => {
      if (delay) await wait(delay);
      return run(...args);
    },
  ]),
);
let lastTicks = null;
tasks.ticks = async function ticks(_context, count, ms) {
  let reached = 0;
  lastTicks = null;
  while (reached < count && !this.signal.aborted) {
    await wait(ms);
    reached += 1;
    this.report(reached);
  }
  lastTicks = { reached, aborted: this.signal.aborted };
  return lastTicks;
};
tasks.lastTicks = () => lastTicks;
// An uncaught error in this worker, 200 ms after the call returns: the worker fails. Not at once:
// the worker's error event and the call's result come by different channels, so an error thrown
// in the next task could reach the pool first and fail this call instead of the one running beside it.
tasks.throwLater = () => {
  setTimeout(() => {
    throw new Error('thrown by the test');
  }, 200);
};
serveTasks(tasks, startInstance, {
  addEventListener: (type, listener) => parentPort.on(type, (data) => listener({ data })),
  postMessage: (data, transfer) => parentPort.postMessage(data, transfer),
});
