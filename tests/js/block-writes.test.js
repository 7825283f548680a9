// A split attention() put together by its blocks' instances (web/api/block-writes.js, what
// relpos-wasm/worker does without `out`): real WASM instances, one per block, each keeping its
// block as views and answering writes on a real MessageChannel, give the one instance's result
// bit for bit, with heads and with causal; a failed block rejects the whole and frees the others.
import { describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { blockSegments, gatherBlocks, serveBlockWrites } from '../../web/api/block-writes.js';
import { splitRows } from '../../web/api/worker-pool.js';

const matrix = (rp, seed, rows, cols) => ({ rows, cols, data: Float32Array.from(rp.randn(seed, rows * cols)) });
const sameBits = (a, b) =>
  a.length === b.length &&
  Buffer.compare(
    Buffer.from(a.buffer, a.byteOffset, a.byteLength),
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  ) === 0;

async function splitAttention(inputs, parts, instances) {
  const single = instances[0].attention(inputs);
  const { heads = 1 } = inputs;
  const dK = inputs.q.cols;
  const queryRows = inputs.q.rows;
  const names = Object.keys(single).filter((name) => single[name]?.data);
  const channels = parts.map(() => new MessageChannel());
  const served = parts.map(({ first, count }, index) => {
    const q = { rows: count, cols: dK, data: inputs.q.data.slice(first * dK, (first + count) * dK) };
    const { maxDistance, ...panels } = instances[index + 1].attention(
      { ...inputs, q },
      { queryOffset: first, views: true },
    );
    expect(maxDistance).toBe(single.maxDistance);
    return serveBlockWrites(channels[index].port2, panels);
  });
  const segments = parts.map((part) =>
    Object.fromEntries(
      names.map((name) => [name, blockSegments(name, part, { queryRows, cols: single[name].cols, heads })]),
    ),
  );
  const arrays = Object.fromEntries(names.map((name) => [name, new Float32Array(single[name].data.length)]));
  const written = await gatherBlocks(
    channels.map((channel) => channel.port1),
    arrays,
    segments,
    new Promise(() => {}),
  );
  await Promise.all(served);
  return { single, written, names };
}

describe('block-writes', () => {
  test('blocks written in place by their own instances equal one instance bit for bit', async () => {
    const instances = await Promise.all([0, 1, 2, 3].map(() => createRelPos()));
    const [rp] = instances;
    for (const { n, heads, causal, parts } of [
      { n: 100, heads: 1, causal: false, parts: 3 },
      { n: 70, heads: 2, causal: true, parts: 2 },
      { n: 130, heads: 4, causal: false, parts: 3 },
    ]) {
      const dK = 8 * heads;
      const inputs = {
        q: matrix(rp, 1, n, dK),
        k: matrix(rp, 2, n, dK),
        v: matrix(rp, 3, n, 6 * heads),
        relKeys: matrix(rp, 4, 7, 8),
        relValues: matrix(rp, 5, 7, 6),
        heads,
        causal,
      };
      const split = splitRows(n, parts);
      expect(split.length).toBe(parts);
      const { single, written, names } = await splitAttention(inputs, split, instances);
      expect(names.length).toBe(6);
      for (const name of names) {
        expect(sameBits(written[name], single[name].data), `${name} n=${n} heads=${heads}`).toBe(true);
      }
    }
    for (const instance of instances) instance.dispose();
  });

  test('a failed block rejects the whole with its error, and every other block is told it is done', async () => {
    const rp = await createRelPos();
    const inputs = { q: matrix(rp, 1, 64, 4), k: matrix(rp, 2, 64, 4), relKeys: matrix(rp, 3, 3, 4) };
    const { maxDistance, ...panels } = rp.attention(inputs, { outputs: ['contentScores'], views: true });
    expect(maxDistance).toBe(1);
    const channels = [new MessageChannel(), new MessageChannel()];
    const alive = serveBlockWrites(channels[0].port2, panels);
    const failure = new Error('a worker failed');
    const parts = splitRows(64, 2);
    const segments = parts.map((part) => ({
      contentScores: blockSegments('contentScores', part, { queryRows: 64, cols: 64, heads: 1 }),
    }));
    await expect(
      gatherBlocks(
        channels.map((channel) => channel.port1),
        { contentScores: new Float32Array(64 * 64) },
        segments,
        Promise.reject(failure),
      ),
    ).rejects.toBe(failure);
    await expect(alive).resolves.toBe(null);
    rp.dispose();
  });
});
