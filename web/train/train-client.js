// The page's side of the training worker (train-worker.js): commands carry a sequence number and
// every reply carries the number of the command that caused it, so a late reply (the `ready` of a
// Reset followed at once by Train, the `ready` of the first load after the menus changed) is told
// from the reply to the latest command and does not undo what the reader did since.

//
// With workers = 2 a second training worker computes half of each step's gradients (train-worker.js,
// 'serve-shards'); the two talk over a MessageChannel of their own, and the page talks to the
// first only. The numbers are the same with one worker or two (docs/training.md, "A step in shards").

/**
 * start(): a new Worker; onReply(data, latest): each reply, `latest` true when it answers the
 * latest command sent; workers: 1, or 2 for a second worker computing half of each step.
 * Returns { command(message, transfer) → its seq, send(message) (a request that is not a command:
 * a sentence, an export), worker, terminate() }.
 */
export function createTrainClient(start, onReply, onFailure, { workers = 1 } = {}) {
  const worker = start();
  let latest = 0;
  worker.onmessage = ({ data }) => onReply(data, data.seq === latest);
  worker.onerror = (event) => onFailure(event.message ?? 'unknown error');
  let second = null;
  if (workers >= 2) {
    // A second worker that fails is let go: the first computes every step's halves itself.
    second = start();
    second.onerror = () => second?.terminate();
    const { port1, port2 } = new MessageChannel();
    worker.postMessage({ type: 'shard-peer', port: port1 }, [port1]);
    second.postMessage({ type: 'serve-shards', port: port2 }, [port2]);
  }
  return {
    worker,
    command(message, transfer = []) {
      latest += 1;
      worker.postMessage({ ...message, seq: latest }, transfer);
      return latest;
    },
    send(message, transfer = []) {
      worker.postMessage({ ...message, seq: latest }, transfer);
    },
    terminate() {
      worker.terminate();
      second?.terminate();
    },
  };
}
