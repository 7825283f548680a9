// Compiled by `tsc -p tests/types` in the test command: the published .d.ts must accept the
// README's uses and reject the misuses marked @ts-expect-error (an unused marker fails too).
import {
  createRelPos,
  openCheckpoint,
  biasMass,
  type BiasMass,
  type Checkpoint,
  type CheckpointDtype,
  type CheckpointPositionTable,
  type CheckpointTensorInfo,
  type HeadInputs,
  type Matrix,
} from 'relpos-wasm';

const rp = await createRelPos();
const m64: Matrix<Float64Array> = { rows: 2, cols: 2, data: new Float64Array(4) };
const m32: Matrix<Float32Array> = { rows: 2, cols: 2, data: new Float32Array(4) };

const r64 = rp.attention({ q: m64, k: m64, relKeys: { rows: 3, cols: 2, data: new Float64Array(6) } });
const weights64: Float64Array = r64.combinedWeights.data;
const r32 = rp.attention({ q: m32, k: m32, relKeys: m32, causal: true });
const weights32: Float32Array = r32.combinedWeights.data;
const profile: Float64Array = rp.localityProfile({ seed: 1, width: 2 }).profile;
const offsets: Int32Array = rp.relativeOffsets(6, 2).data;
const example = rp.example({ seqLen: 8 });
const again = rp.attention(example.inputs);
const z: Float64Array | undefined = again.output?.data;
const noise: number[] = Array.from(rp.randn(42, 3));
const masked = rp.attention({
  q: m32,
  k: m32,
  relKeys: m32,
  heads: 2,
  scale: 0.5,
  keyPadding: [false, true],
  allowed: { rows: 2, cols: 2, data: Uint8Array.of(1, 0, 1, 1) },
});
const perHead: Float32Array = masked.combinedWeights.data;
rp.attention({
  q: m64,
  k: m64,
  relKeys: m64,
  allowed: [
    [true, false],
    [true, true],
  ],
  keyPadding: new Uint8Array(2),
});

// @ts-expect-error precision cannot be mixed
rp.attention({ q: m64, k: m32, relKeys: m64 });
// @ts-expect-error keyPadding is flags, not numbers
rp.attention({ q: m64, k: m64, relKeys: m64, keyPadding: [0, 1] });
// @ts-expect-error relKeys is required
rp.attention({ q: m64, k: m64 });
// @ts-expect-error options are checked by name
rp.localityProfile({ sigma: 1 });
// @ts-expect-error the constructor is private: use createRelPos()
new (rp.constructor as typeof import('relpos-wasm').RelPos)();

const model = rp.createModel({ vocabSize: 16, precision: 'float64', maxDistance: 2 });
const batch = rp.syntheticBatch({ task: 'copy-offset', offset: 2, vocabSize: 16 });
const trainedLoss: number = model.trainStep(batch, { learningRate: 0.01 }).loss;
const grads: Float64Array = model.lossAndGradients(batch).gradients['embedding'];
const shard = model.shardGradients(batch, { stepTargets: 512 });
const shardGradients: Float64Array = shard.gradients;
model.applyGradients([shardGradients, shardGradients], { learningRate: 0.01 });
const everyParameter: Float64Array = model.parameterVector({ out: shardGradients });
model.setParameters(everyParameter);
// @ts-expect-error stepTargets is required
model.shardGradients(batch, {});
const headWeights: Float64Array = model.attention(batch.tokens.subarray(0, 16), { layer: 0, head: 1 }).combinedWeights
  .data;
const learned: Float64Array = model.positionProfile(batch, { head: 0 }).profile;
const learnedByDefault: Int32Array = model.positionProfile({ layer: 0, head: 1 }).offsets;
const everyHead: number = model.headInputs(batch.tokens.subarray(0, 16))[1].q.rows;
const reused: HeadInputs<Float64Array> = model.headInputs(batch.tokens.subarray(16, 32), {
  out: model.headInputs(batch.tokens.subarray(0, 16)),
});
// @ts-expect-error out is an earlier result of headInputs(), not a typed array
model.headInputs(batch.tokens.subarray(0, 16), { out: new Float64Array(4) });
const small32: Float32Array = rp.createModel({ vocabSize: 4 }).parameters()['output.bias'].data;
model.dispose();
// @ts-expect-error vocabSize is required
rp.createModel({ dModel: 8 });
// @ts-expect-error precision is 'float32' or 'float64'
rp.createModel({ vocabSize: 4, precision: 'float16' });
// @ts-expect-error Adam options are checked by name
model.trainStep(batch, { lr: 0.1 });

export { trainedLoss, grads, headWeights, learned, learnedByDefault, everyHead, small32 };
export { weights64, weights32, profile, offsets, z, noise };

// The elements' subpath export.
import { RelposAttentionElement, type RelposAttentionAttributes } from 'relpos-wasm/elements';

const element = document.createElement('relpos-attention');
const isElement: RelposAttentionElement = element;
element.addEventListener('relpos-render', (event) => {
  const notes: string[] = event.detail.notes;
  const n: number | undefined = element.view?.n;
  return [notes, n];
});
// @ts-expect-error view is read-only
element.view = null;

// A matrix of one's own: { data, dims } as onnxruntime-web's Tensor has them, a JSON array with
// null for masked cells, labels; reading gives the Float64Array drawn.
declare const ortTensor: { data: Float32Array; dims: readonly number[]; type: 'float32' };
element.matrix = ortTensor;
element.matrix = {
  data: ortTensor.data,
  dims: ortTensor.dims,
  kind: 'weights',
  rowLabels: ['a', 'b'],
  title: 'Head 0',
};
element.matrix = { data: [0.5, null, 1, -2], rows: 2, cols: 2, kind: 'scores', max: 2 };
element.matrix = null;
element.matrix = {
  data: [
    [0.9, 0.1],
    [0.4, null],
  ],
  kind: 'scores',
}; // rows as arrays: the sides are theirs
const drawnData = (el: RelposAttentionElement): Float64Array | undefined => el.matrix?.data;
void drawnData;
// @ts-expect-error kind is weights, scores, biases or difference
element.matrix = { data: [1], rows: 1, cols: 1, kind: 'heat' };
// @ts-expect-error a matrix needs its sides
element.matrix = { data: [1] };
// @ts-expect-error BigInt data
element.matrix = { data: new BigInt64Array(1), rows: 1, cols: 1 };

export { isElement };

const stable = rp.example({
  draw: 'stable',
  tokens: ['the', 'cat'],
  table: 'locality',
  locality: { strength: 8 },
  sameQuery: true,
});
const profileValues: Float64Array = stable.profile.values;
const words: string[] = stable.tokens;
void profileValues;
void words;
// @ts-expect-error: draw is 'handbook' or 'stable'
rp.example({ draw: 'random' });
// @ts-expect-error: table is 'random' or 'locality'
rp.example({ table: 'stable' });
// The element's draw and table are the example's (the core's names).
element.draw = 'handbook';
element.table = 'random';
const attentionAttributes: RelposAttentionAttributes = { draw: 'stable', table: 'locality' };
void attentionAttributes;
// @ts-expect-error: the table attribute is 'random' or 'locality'
element.table = 'handbook';
// outputs: which panels to compute ([]: the draw only).
const drawOnly = rp.example({ seqLen: 40, outputs: [] });
const drawnQueries: Float64Array = drawOnly.inputs.q.data;
void drawnQueries;
// @ts-expect-error: with outputs: [] no panel is there
void drawOnly.combinedWeights;
const two = rp.example({ outputs: ['combinedWeights', 'output'] });
const twoWeights: Float64Array = two.combinedWeights.data;
void twoWeights;
// @ts-expect-error: only the outputs asked for are there
void two.contentScores;
// @ts-expect-error: an output attention() does not have
rp.example({ outputs: ['weights'] });
// A model's position is undefined with Shaw's tables (the default), else the resolved scheme.
const position = rp.createModel({ vocabSize: 4 }).config.position;
// @ts-expect-error: position may be undefined
void position.scheme;
const scheme: string | undefined = position?.scheme;
void scheme;
// views: the panels as views of WASM memory (valid until the next call); the kernels in use.
const viewed: Float32Array = rp.attention({ q: m32, k: m32, relKeys: m32 }, { views: true }).combinedWeights.data;
void viewed;
rp.example({ views: true });
const kernels: 'relaxed' | 'plain' = rp.kernels;
void kernels;
void createRelPos({ kernels: 'plain' });
// @ts-expect-error: the kernels are 'relaxed' or 'plain'
void createRelPos({ kernels: 'fma' });
// @ts-expect-error: rp.kernels is read-only
rp.kernels = 'plain';

// Matrices as onnxruntime-web's Tensor ({ data, dims }) or { data, shape }; output typed by v.
const tensor = { data: new Float32Array(4), dims: [2, 2] as const };
const fromTensor = rp.attention({
  q: tensor,
  k: { data: new Float32Array(4), shape: [2, 2] },
  relKeys: tensor,
  v: tensor,
});
const zTensor: Float32Array = fromTensor.output.data;
// @ts-expect-error without v, output is null
rp.attention({ q: tensor, k: tensor, relKeys: tensor }).output.data;
void zTensor;
// Position schemes (docs/schemes.md).
const buckets: Int32Array = rp.t5Buckets(8, { numBuckets: 16, maxDistance: 32, bidirectional: false }).data;
const slopes: Float64Array = rp.alibiSlopes(6);
const rotated: Float32Array = rp.rope(
  { rows: 1, cols: 2, data: new Float32Array(2) },
  { layout: 'half', positions: [3] },
).data;
const encoding: Float64Array = rp.sinusoidal(4, 6, { base: 100 }).data;
const qk = { rows: 2, cols: 2, data: new Float64Array(4) };
const alibiResult = rp.attention({ q: qk, k: qk, position: { scheme: 'alibi', slope: 0.5 } });
const noDistance: null = alibiResult.maxDistance;
const sinusoidalResult = rp.attention({ x: qk, wQ: qk, wK: qk, position: { scheme: 'sinusoidal' } });
const shawResult: number = rp.attention({
  q: qk,
  k: qk,
  relKeys: { rows: 1, cols: 2, data: new Float64Array(2) },
  position: { scheme: 'shaw' },
}).maxDistance;
void [buckets, slopes, rotated, encoding, noDistance, sinusoidalResult, shawResult];
// @ts-expect-error: t5 needs its biases
rp.attention({ q: qk, k: qk, position: { scheme: 't5' } });
// @ts-expect-error: layout is 'interleaved' or 'half'
rp.rope(qk, { layout: 'neox' });
const t5Model = rp.createModel({ vocabSize: 8, position: { scheme: 't5', numBuckets: 16, maxDistance: 32 } });
t5Model.dispose();
// @ts-expect-error: no such scheme
rp.createModel({ vocabSize: 8, position: { scheme: 'xpos' } });

// Checkpoints: openCheckpoint, checkpointPositions, biasMass.
async function checkpointUsage(file: Blob, index: Blob): Promise<void> {
  const checkpoint: Checkpoint = await rp.openCheckpoint([index, file], { name: 'model' });
  const first: CheckpointTensorInfo | undefined = checkpoint.tensors[0];
  const tensor = await checkpoint.read(first ? first.name : 'x');
  const dtype: CheckpointDtype = tensor.dtype;
  const tables: CheckpointPositionTable[] = await rp.checkpointPositions(checkpoint, {
    config: { relative_attention_num_buckets: 32 },
    offsets: [-1, 0, 1],
  });
  const mass: BiasMass = biasMass(tables[0], 0, 64);
  const bias: Float64Array = tables[0].bias;
  const also: Checkpoint = await openCheckpoint(new Uint8Array(8));
  void [dtype, mass.left, bias, also.files];
  // @ts-expect-error the rule is 't5' or 'shaw'
  void rp.checkpointPositions(checkpoint, { tensor: 'x', rule: 'alibi' });
}
void checkpointUsage;

// <relpos-train>'s attributes (its own subpath export): every one the element observes.
import type { RelposTrainAttributes } from 'relpos-wasm/elements/train';
const oneWorker: RelposTrainAttributes = {
  task: 'next',
  size: 'tiny',
  seed: 3,
  autostart: true,
  workers: 1,
  corpus: 'course.bin',
  theme: 'inherit',
};
// @ts-expect-error one or two workers
const threeWorkers: RelposTrainAttributes = { workers: 3 };
export const train = [oneWorker, threeWorkers];
// <relpos-train> fires the same relpos-render as the other elements (a CustomEvent with notes).
const trainElement = document.createElement('relpos-train');
trainElement.addEventListener('relpos-render', (event) => {
  const notes: string[] = event.detail.notes;
  return notes;
});
// Its properties reflect the attributes, typed as they read (the value in force).
trainElement.task = 'next';
trainElement.size = 'tiny';
trainElement.seed = 7;
trainElement.autostart = true;
trainElement.workers = 1;
trainElement.corpus = 'course.bin';
trainElement.theme = 'dark';
const trainSetup: [string, string, number, boolean, 1 | 2, string, string] = [
  trainElement.task,
  trainElement.size,
  trainElement.seed,
  trainElement.autostart,
  trainElement.workers,
  trainElement.corpus,
  trainElement.theme,
];
// @ts-expect-error a task the element does not know
trainElement.task = 'poetry';
// @ts-expect-error autostart is a boolean
trainElement.autostart = 'yes';
export { trainSetup };
