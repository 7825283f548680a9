// The training workers, on the task pool (task-pool.js) and its protocol: worker TRAINER holds
// the session (train-worker.js: init, train, sentence, …); with two, the second computes half of
// each step's gradients (its serveShards task, a long one), the two talking over a MessageChannel
// of their own. The numbers are the same with one worker or two (docs/training.md, "A step in
// shards").
import { TaskPool } from '../api/task-pool.js';
import { startTrainWorker } from './start-train-worker.js';

/** The worker that holds the session: every call of the page's goes to it. */
export const TRAINER = 0;

/**
 * A pool of `workers` (1, or 2: a second computing half of each step) training workers.
 * Their calls have no time limit: a call waits on a slice of training, on the corpus's
 * download, on a whole run; a worker that fails is found by its `error` event and replaced.
 * onLost(error): a worker could not start; onTrainerReplaced(error): the worker that held the
 * session was replaced, so the session is gone (the calls made before it reject).
 */
export function openTrainPool({ workers = 1, onLost = () => {}, onTrainerReplaced = () => {} } = {}) {
  let serving = null;
  // The two workers' channel, made again whenever either is replaced: a new worker has no port.
  const connect = () => {
    serving?.abort();
    serving = new AbortController();
    const { port1, port2 } = new MessageChannel();
    pool.run('shardPeer', [port1], { worker: TRAINER, transfer: [port1] }).catch(() => {});
    pool
      .run('serveShards', [port2], { worker: 1, long: true, transfer: [port2], signal: serving.signal })
      .catch(() => {});
  };
  const pool = new TaskPool({
    size: workers >= 2 ? 2 : 1,
    createWorker: startTrainWorker,
    where: 'the training worker',
    timeoutMs: Infinity,
    onLost,
    onReplaced: (index, error) => {
      // Until the channel is made again, the first computes every step's halves itself
      // (train-worker.js, PEER_TIMEOUT_MS).
      if (pool.size === 2) connect();
      if (index === TRAINER) onTrainerReplaced(error);
    },
  });
  if (pool.size === 2) connect();
  return pool;
}
