// The worker side of the task pool (task-pool.js): a worker registers its tasks by name and
// answers the pool's messages. The first message is { init }, from which the worker makes its
// context (a RelPos instance from the pool's compiled module); it answers { ready: true } (or
// { ready: false, error }), then runs each { id, task, args } and transfers the arrays of each
// result back ({ id, result } or { id, error: { name, message } }). A task may report before
// its result ({ id, progress }); { cancel: id } aborts the running call's signal.
import { buffersOf } from './transfer.js';

const describeError = (error) => ({ name: error?.name ?? 'Error', message: error?.message ?? String(error) });

/**
 * Serves `tasks` ({ name: (context, ...args) => result or a Promise of it }) in this worker;
 * `start(init)` makes the context. Each task is called with `this` set to its call:
 * { signal (an AbortSignal that aborts when the caller cancels the call: a long task may stop
 * early), report(progress, transfer) (posted to the caller's onProgress before the result) }.
 * The task `taskCounts` is built in: how many calls of each task this worker has run (what was
 * computed, for tests and probes).
 */
export function serveTasks(tasks, start, scope = globalThis) {
  const counts = {};
  let context = null;
  /** The calls running, by id: their AbortControllers. */
  const running = new Map();
  const builtIn = { taskCounts: () => ({ ...counts }) };
  scope.addEventListener('message', async ({ data }) => {
    if (data && Object.hasOwn(data, 'init')) {
      try {
        context = await start(data.init);
        scope.postMessage({ ready: true });
      } catch (error) {
        scope.postMessage({ ready: false, error: describeError(error) });
      }
      return;
    }
    if (data && Object.hasOwn(data, 'cancel')) {
      running.get(data.cancel)?.abort(new DOMException('cancelled', 'AbortError'));
      return;
    }
    const { id, task, args } = data;
    const controller = new AbortController();
    running.set(id, controller);
    const call = {
      signal: controller.signal,
      report: (progress, transfer = []) => scope.postMessage({ id, progress }, transfer),
    };
    try {
      let run = null;
      if (Object.hasOwn(builtIn, task)) run = builtIn[task];
      else if (Object.hasOwn(tasks, task)) {
        counts[task] = (counts[task] ?? 0) + 1;
        run = tasks[task];
      } else throw new TypeError(`worker: no task ${JSON.stringify(task)}`);
      const result = await run.call(call, context, ...args);
      scope.postMessage({ id, result }, buffersOf(result));
    } catch (error) {
      scope.postMessage({ id, error: describeError(error) });
    } finally {
      running.delete(id);
    }
  });
}
