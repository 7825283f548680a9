// A split attention() put together once, by the workers: each worker keeps its block of query
// rows in its WebAssembly memory (views, until its next call), and the result's arrays travel from worker to worker
// (transferred over a MessagePort, never copied), each writing its rows straight into them. The
// calling thread allocates the arrays (untouched pages) and routes them: no copy of its own, and
// the first write to each page (what fresh memory costs, docs/performance.md) happens in the
// workers, on several panels at once.

/**
 * Where a block of `count` query rows starting at `first` (of `queryRows`) lies in a result's
 * array of `cols` columns: [[from, to, length]] in elements, one segment per head for a panel
 * with heads (queryRows rows per head), one for the output.
 */
export function blockSegments(name, { first, count }, { queryRows, cols, heads }) {
  if (name === 'output' || heads === 1) return [[0, first * cols, count * cols]];
  return Array.from({ length: heads }, (_, head) => [
    head * count * cols,
    (head * queryRows + first) * cols,
    count * cols,
  ]);
}

/** Copies a block's rows (`from`) into `into` at their place in the whole result. */
export function writeBlock(into, from, segments) {
  for (const [at, to, length] of segments) into.set(from.subarray(at, at + length), to);
}

/**
 * The worker's side: answers the arrays sent on `port` ({ name, data, segments }) by writing
 * `result`'s rows of that panel into them and sending them back, until { done } arrives; rejects
 * if a write fails (the pool's call then fails, and with it the whole attention()).
 */
export function serveBlockWrites(port, result) {
  return new Promise((resolve, reject) => {
    port.onmessage = ({ data }) => {
      if (data.done) {
        port.close();
        resolve(null);
        return;
      }
      try {
        writeBlock(data.data, result[data.name].data, data.segments);
      } catch (error) {
        port.close();
        reject(error);
        return;
      }
      port.postMessage({ name: data.name, data: data.data }, [data.data.buffer]);
    };
  });
}

/**
 * The calling thread's side: sends each of `arrays` ({ name: typed array }) through every port
 * in `ports` (one per block: its worker writes that block's rows; `segments[part][name]` says
 * where), each array starting at a different worker so that they write at once, and resolves to
 * the arrays as they come back with every block written. Rejects as soon as `failed` does (a
 * worker's call failed: its arrays are lost with it). Either way every port is then told
 * { done }: its worker's call ends (and closes the channel).
 */
export async function gatherBlocks(ports, arrays, segments, failed) {
  const names = Object.keys(arrays);
  const parts = ports.length;
  const written = {};
  let left = names.length;
  const send = (name, data, visit, start) => {
    const part = (start + visit) % parts;
    ports[part].postMessage({ name, data, segments: segments[part][name] }, [data.buffer]);
  };
  const done = new Promise((resolve) => {
    const visits = Object.fromEntries(names.map((name) => [name, 0]));
    ports.forEach((port) => {
      port.onmessage = ({ data }) => {
        const { name } = data;
        visits[name] += 1;
        if (visits[name] < parts) send(name, data.data, visits[name], names.indexOf(name));
        else {
          written[name] = data.data;
          left -= 1;
          if (left === 0) resolve(written);
        }
      };
    });
  });
  names.forEach((name, index) => send(name, arrays[name], 0, index));
  try {
    return await Promise.race([done, failed]);
  } finally {
    for (const port of ports) port.postMessage({ done: true });
  }
}
