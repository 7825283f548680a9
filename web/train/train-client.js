// The page's side of the training worker (train-worker.js): commands carry a sequence number and
// every reply carries the number of the command that caused it, so a late reply (the `ready` of a
// Reset followed at once by Train, the `ready` of the first load after the menus changed) is told
// from the reply to the latest command and does not undo what the reader did since.

/**
 * start(): a new Worker; onReply(data, latest): each reply, `latest` true when it answers the
 * latest command sent. Returns { command(message, transfer) → its seq, send(message) (a request
 * that is not a command: a sentence, an export), worker, terminate() }.
 */
export function createTrainClient(start, onReply, onFailure) {
  const worker = start();
  let latest = 0;
  worker.onmessage = ({ data }) => onReply(data, data.seq === latest);
  worker.onerror = (event) => onFailure(event.message ?? 'unknown error');
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
    },
  };
}
