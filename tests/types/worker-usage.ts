// relpos-wasm/worker and attention()'s options, as the README shows them (checked by tsc).
import { createRelPos, OUTPUT_NAMES, type Matrix, type OutputName } from 'relpos-wasm';
import { BASE_TIMEOUT_MS, createRelPosWorker, MAX_WORKERS, splitRows, timeoutFor } from 'relpos-wasm/worker';

const m32: Matrix<Float32Array> = { rows: 2, cols: 2, data: new Float32Array(4) };
const table: Matrix<Float32Array> = { rows: 3, cols: 2, data: new Float32Array(6) };
const inputs = { q: m32, k: m32, v: m32, relKeys: table };

const rp = await createRelPos();
const chosen = rp.attention(inputs, { outputs: ['combinedWeights', 'output'] });
const w: Float32Array = chosen.combinedWeights.data;
const z: Float32Array = chosen.output.data;
// @ts-expect-error contentScores was not asked for
void chosen.contentScores;
const out = rp.allocateAttention(inputs, { outputs: ['output'] });
const again: Float32Array = rp.attention(inputs, { outputs: ['output'], out }).output.data;
const names: readonly OutputName[] = OUTPUT_NAMES;

const pool = await createRelPosWorker({ workers: Math.min(2, MAX_WORKERS) });
const pooled = await pool.attention(inputs, { outputs: ['combinedWeights'] });
const pw: Float32Array = pooled.combinedWeights.data;
const full = await pool.attention(inputs);
const fw: Float32Array = full.contentScores.data;
const parts: number = splitRows(100, pool.size).length;
// One compiled module for every worker, a shorter time limit, and a cancellable call by name.
const compiled = await WebAssembly.compile(new Uint8Array(0));
const timed = await createRelPosWorker({ workers: 2, wasmModule: compiled, timeoutMs: BASE_TIMEOUT_MS / 2 });
const limit: number = timeoutFor(1e9);
const signal = timed.latest('figure');
const drawn: unknown = await timed.run('randn', [1, 4], { signal });
const counts: Record<string, number> = await timed.taskCounts();
const from: ('wasmModule' | 'inlined')[] = await timed.loadedFrom();
// @ts-expect-error timeoutMs is a number of ms
await createRelPosWorker({ timeoutMs: '1s' });
timed.terminate();
// @ts-expect-error not an output name
await pool.attention(inputs, { outputs: ['weights'] });
pool.terminate();

export { w, z, again, names, pw, fw, parts, limit, drawn, counts, from };
