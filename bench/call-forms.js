// Where the time of an attention() call goes, by call form, measured the same way in Node
// (bench/run.mjs) and in headless Chromium (bench/call-forms-page.js): the core alone, `out=`,
// fresh arrays and `views`, in alternation; and, without WebAssembly, what fresh memory costs
// (the first write to each page) against copying into memory already written, and the ways of
// copying out of a WebAssembly.Memory (each into fresh memory and into warm). Float32, d_k = 64.
import { interleavedMedians } from './interleaved.mjs';
import { shawInputs } from './shaw-inputs.js';

const D = 64;
const now = () => performance.now();
const wallOf = (run) => {
  const start = now();
  run();
  return now() - start;
};
const coreOf = (timings) => Object.values(timings).reduce((a, b) => a + b, 0);

/**
 * { core, out, fresh, views, firstTouch, warmCopy, panels, mib } in ms (medians): attention at
 * n, k by each call form; `panels` fresh n × n Float32Arrays written once per 4 KiB page; the
 * same bytes copied into arrays written before.
 */
export async function callForms(rp, n, k, { budgetMs = 1600, maxRounds = 20 } = {}) {
  const inputs = shawInputs(rp, n, k, D);
  const reused = rp.attention(inputs);
  const panels = Object.values(reused).filter((m) => m?.data?.length === n * n).length;
  const warm = Array.from({ length: panels }, () => new Float32Array(n * n).fill(1));
  const source = new Float32Array(n * n).fill(2);
  const [core, out, fresh, views, firstTouch, warmCopy] = await interleavedMedians(
    [
      () => {
        rp.attention(inputs, { out: reused });
        return coreOf(rp.lastTimings());
      },
      () => wallOf(() => rp.attention(inputs, { out: reused })),
      () => wallOf(() => rp.attention(inputs)),
      () => wallOf(() => rp.attention(inputs, { views: true })),
      () =>
        wallOf(() => {
          for (let p = 0; p < panels; p += 1) {
            const a = new Float32Array(n * n);
            for (let j = 0; j < a.length; j += 1024) a[j] = 1; // one write per 4 KiB page
          }
        }),
      () =>
        wallOf(() => {
          for (const a of warm) a.set(source);
        }),
    ],
    { budgetMs, maxRounds },
  );
  return { n, k, core, out, fresh, views, firstTouch, warmCopy, panels, mib: (panels * n * n * 4) / 2 ** 20 };
}

/**
 * Ways of copying `count` blocks of `mib` MiB out of a WebAssembly.Memory, each into fresh
 * memory and into arrays written before: { form: ms } (medians, in alternation).
 */
export async function copyForms({ mib = 4, count = 5, budgetMs = 1600, maxRounds = 20 } = {}) {
  const n = (mib * 2 ** 20) / 4;
  const memory = new WebAssembly.Memory({ initial: Math.ceil(count * mib * 16) + 16 });
  const heap = new Float32Array(memory.buffer);
  for (let i = 0; i < count * n; i += 1) heap[i] = i;
  const warm = Array.from({ length: count }, () => new Float32Array(n).fill(1));
  const forms = {
    'heap.slice(from, to)': (at) => heap.slice(at, at + n),
    'new Float32Array(n) + set(subarray)': (at) => {
      const copy = new Float32Array(n);
      copy.set(heap.subarray(at, at + n));
      return copy;
    },
    'Uint8Array bytes + set': (at) => {
      const bytes = new Uint8Array(n * 4);
      bytes.set(new Uint8Array(memory.buffer, at * 4, n * 4));
      return new Float32Array(bytes.buffer);
    },
    'memory.buffer.slice (ArrayBuffer)': (at) => new Float32Array(memory.buffer.slice(at * 4, (at + n) * 4)),
    'set(subarray) into arrays written before': (at, index) => {
      warm[index].set(heap.subarray(at, at + n));
      return warm[index];
    },
  };
  const names = Object.keys(forms);
  const medians = await interleavedMedians(
    names.map((name) => () => {
      const start = now();
      const kept = [];
      for (let c = 0; c < count; c += 1) kept.push(forms[name](c * n, c));
      return now() - start;
    }),
    { budgetMs, maxRounds },
  );
  return Object.fromEntries(names.map((name, index) => [name, medians[index]]));
}

/**
 * attention() with fresh arrays on this thread's instance `rp` and on each pool of `pools`
 * ({ workers: pool }), in alternation: { single, pools: { workers: ms }, gathered: { workers: ms } }
 * (medians). `gathered`: the same split with the blocks copied into fresh arrays on this thread
 * (an `out` of new arrays each call: each block transferred, then copied), against the workers
 * writing their rows in place.
 */
export async function poolForms(rp, pools, n, k, { budgetMs = 4000, maxRounds = 12 } = {}) {
  const inputs = shawInputs(rp, n, k, D);
  const sizes = Object.keys(pools);
  const timeAsync = async (run) => {
    const start = now();
    await run();
    return now() - start;
  };
  const split = sizes.filter((workers) => Number(workers) > 1);
  const [single, ...pooled] = await interleavedMedians(
    [
      () => wallOf(() => rp.attention(inputs)),
      ...sizes.map((workers) => () => timeAsync(() => pools[workers].attention(inputs))),
      ...split.map(
        (workers) => () =>
          timeAsync(async () => {
            const out = await pools[workers].allocateAttention(inputs);
            await pools[workers].attention(inputs, { out });
          }),
      ),
    ],
    { budgetMs, maxRounds, minRounds: 5 },
  );
  const gathered = pooled.slice(sizes.length);
  return {
    n,
    k,
    single,
    pools: Object.fromEntries(sizes.map((workers, index) => [workers, pooled[index]])),
    gathered: Object.fromEntries(split.map((workers, index) => [workers, gathered[index]])),
  };
}
