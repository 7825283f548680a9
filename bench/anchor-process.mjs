// An anchor (numpy, PyTorch) in a process of its own that times calls on request (the --serve
// modes of bench/numpy_attention.py and bench/train_torch.py), so that a benchmark can alternate
// the anchor's calls with its own (bench/interleaved.mjs) instead of timing the two at different
// moments of a shared machine. Each request's times are taken inside the anchor's process, so
// the messages between the processes are not counted.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * The environment of a BLAS anchor on `threads` threads (0: as many as OpenBLAS takes), with
 * the OpenBLAS tuning variables this machine's environment sets removed (they mis-tune it).
 */
export function blasEnv(threads) {
  const env = { ...process.env };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  delete env.OPENBLAS_NUM_THREADS;
  delete env.OMP_NUM_THREADS;
  if (threads > 0) Object.assign(env, { OPENBLAS_NUM_THREADS: String(threads), OMP_NUM_THREADS: String(threads) });
  return env;
}

/**
 * Starts `command args` and waits for its first line (what it is: versions, BLAS). Resolves to
 * { info, time(calls) → Promise<{ wall_ms, cpu_ms }>, close() }, or { error } if it could not
 * start.
 */
export function startAnchor(command, args, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const lines = createInterface({ input: child.stdout });
    const waiting = [];
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const fail = (why) => {
      for (const { reject } of waiting.splice(0)) reject(new Error(why));
      resolve({ error: why });
    };
    child.on('error', (error) => fail(`${command} could not start: ${error.message}`));
    child.on('exit', (code) => fail(`${command} exited (${code}): ${stderr.trim().split('\n').pop() ?? ''}`));
    lines.on('line', (line) => waiting.shift()?.resolve(JSON.parse(line)));
    const next = () => new Promise((done, reject) => waiting.push({ resolve: done, reject }));
    next().then(
      (info) =>
        resolve({
          info,
          time(calls) {
            const reply = next();
            child.stdin.write(`${JSON.stringify({ calls })}\n`);
            return reply;
          },
          close() {
            child.removeAllListeners('exit');
            child.stdin.end();
          },
        }),
      () => {},
    );
  });
}
