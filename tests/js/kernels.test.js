// The two builds of the GEMM kernels (web/api/kernels.js, docs/kernels.md "Relaxed SIMD"): this
// Node (20, no flag) has no relaxed SIMD, so the default is the plain build and asking for the
// relaxed one fails clearly; a child Node with --experimental-wasm-relaxed-simd runs both on the
// same problems: bit for bit equal where every product and sum is exact (small integers), and
// within the rounding bound of a length-d dot product on Gaussian inputs.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { plainKernelsBase64 } from '../../dist/relpos-kernels-wasm.mjs';
import { checkGemmEdges } from './kernels/gemm-edges.mjs';

const CHILD = fileURLToPath(new URL('./kernels/twin-run.mjs', import.meta.url));
const U = 2 ** -24; // float32's unit roundoff

let twin;
beforeAll(() => {
  const output = execFileSync(process.execPath, ['--experimental-wasm-relaxed-simd', CHILD], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  twin = JSON.parse(output);
});

describe('kernels', () => {
  test('without relaxed SIMD: the plain build, and kernels: "relaxed" is refused by name', async () => {
    const rp = await createRelPos();
    expect(rp.kernels).toBe('plain');
    expect((await createRelPos({ kernels: 'plain' })).kernels).toBe('plain');
    await expect(createRelPos({ kernels: 'relaxed' })).rejects.toThrow(
      /^createRelPos: this engine has no WebAssembly relaxed SIMD \(Node\.js 20 needs --experimental-wasm-relaxed-simd/,
    );
    // A word not one of the two is a RangeError, a value not a word a TypeError (as precision's).
    await expect(createRelPos({ kernels: 'fma' })).rejects.toThrow(RangeError);
    await expect(createRelPos({ kernels: 'fma' })).rejects.toThrow(/options\.kernels must be 'relaxed' or 'plain'/);
    await expect(createRelPos({ kernels: 5 })).rejects.toThrow(TypeError);
  });

  test('with relaxed SIMD it is the default; both builds give the same bits where the maths is exact', () => {
    expect(twin.automatic).toBe('relaxed');
    // The scores are sums of products of small integers, and the weights a function of the
    // scores alone; the output is not (the weights are not integers).
    for (const panel of ['contentScores', 'combinedScores', 'combinedWeights']) {
      expect(twin.relaxed.exact[panel]).toEqual(twin.plain.exact[panel]);
    }
    // (a check that can fail: the integers are not all zero)
    expect(twin.plain.exact.contentScores.some((x) => x !== 0)).toBe(true);
  });

  test('on Gaussian inputs they differ by at most the rounding bound of the dot products', () => {
    const { q, k } = twin.inputs;
    const d = q.cols;
    const n = q.rows;
    const scale = 1 / Math.sqrt(d);
    const relaxed = twin.relaxed.random.contentScores;
    const plain = twin.plain.random.contentScores;
    let differ = 0;
    for (let i = 0; i < n; i += 1) {
      for (let j = 0; j < n; j += 1) {
        let magnitude = 0;
        for (let p = 0; p < d; p += 1) magnitude += Math.abs(q.data[i * d + p] * k.data[j * d + p]);
        // each build is within (d + 2)·u·Σ|q k| of the exact sum, times the scale
        const bound = 2 * (d + 2) * U * magnitude * scale;
        expect(Math.abs(relaxed[i * n + j] - plain[i * n + j])).toBeLessThanOrEqual(bound);
        if (relaxed[i * n + j] !== plain[i * n + j]) differ += 1;
      }
    }
    // The relaxed build fuses where the hardware has FMA (x86-64 with FMA3, ARM64), and then it
    // rounds differently somewhere: proof that it ran. The plain build never fuses.
    expect(twin.fused.plain).toBe(0);
    expect([0, 2 ** -24]).toContain(twin.fused.relaxed);
    expect(differ > 0).toBe(twin.fused.relaxed !== 0);
    const close = (a, b, tolerance) => a.every((x, index) => Math.abs(x - b[index]) <= tolerance);
    expect(close(twin.relaxed.random.combinedWeights, twin.plain.random.combinedWeights, 1e-5)).toBe(true);
    expect(close(twin.relaxed.random.output, twin.plain.random.output, 1e-4)).toBe(true);
  });

  test('the micro-kernel at every blocking edge: plain = the ordered float32 sum bit for bit, relaxed within the bound', () => {
    const all = { cases: 672, notOrderedSum: 0, outsideBound: 0, touchedOutside: 0 };
    expect(checkGemmEdges(Buffer.from(plainKernelsBase64, 'base64'))).toEqual(all); // this Node
    expect(twin.edges.plain).toEqual(all); // and with the flag
    const { notOrderedSum, ...rest } = twin.edges.relaxed;
    expect(rest).toEqual({ cases: 672, outsideBound: 0, touchedOutside: 0 });
    // fused somewhere exactly where the hardware fuses (the probe of the previous test)
    expect(notOrderedSum > 0).toBe(twin.fused.relaxed !== 0);
  });

  test('a call split by rows gives the same bits as the whole call in both builds (the pool relies on it)', () => {
    expect(twin.splitAgrees).toEqual({ relaxed: true, plain: true });
  });

  test("a model's losses over 6 Adam steps agree within 1e-4 (relative) between the builds", () => {
    const { relaxed, plain } = twin;
    expect(relaxed.losses).toHaveLength(6);
    relaxed.losses.forEach((loss, step) => {
      expect(Math.abs(loss - plain.losses[step])).toBeLessThanOrEqual(1e-4 * plain.losses[step]);
    });
    expect(plain.losses[5]).toBeLessThan(plain.losses[0]); // it trained
  });
});
