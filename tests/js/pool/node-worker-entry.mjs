// relpos-wasm/worker's worker (web/api/worker-entry.js) on a Node thread: the same tasks and
// the same serveTasks, over node:worker_threads' parentPort instead of a Web Worker's scope.
// A `delay` in the worker data (ms) makes every answer wait: a slow worker.
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
serveTasks(tasks, startInstance, {
  addEventListener: (type, listener) => parentPort.on(type, (data) => listener({ data })),
  postMessage: (data, transfer) => parentPort.postMessage(data, transfer),
});
