// The README's "Training a model" example, run as a user would run it (an ES module importing
// 'relpos-wasm' by name), with the shapes and values its comments promise.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from 'vitest';

test('the README training example runs and its comments are true', () => {
  const readme = readFileSync(new URL('../../docs/training.md', import.meta.url), 'utf8');
  const example = readme.match(/# Training a model[\s\S]*?\*\*API\.\*\*\s+```js\n([\s\S]*?)```/)[1];
  // The example makes its own instance (rp) when it imports the package.
  const head = example.includes('createRelPos')
    ? ''
    : "import { createRelPos } from 'relpos-wasm';\nconst rp = await createRelPos();\n";
  // The example ends with dispose(): the probe re-runs its calls on a fresh model.
  const probe = `
const again = rp.createModel({ vocabSize: 16 });
const step = again.trainStep(batch, { learningRate: 0.01 });
const view = again.attention(batch.tokens.subarray(0, 16), { layer: 0, head: 1 });
const profile = again.positionProfile(batch, { layer: 0, head: 1 });
console.log(JSON.stringify({
  config: model.config,
  disposed: model.disposed,
  batch: [batch.tokens.length, batch.targets.length, batch.batchSize, batch.seqLen],
  loss: step.loss,
  evaluation: Object.keys(again.evaluate(batch)),
  gradients: Object.keys(again.lossAndGradients(batch).gradients).length,
  parameters: Object.keys(again.parameters()).length,
  view: [view.layer, view.head, view.combinedWeights.rows, view.output.cols],
  offsets: Array.from(profile.offsets),
  heads: heads.map((h) => [h.layer, h.head, h.q.rows, h.q.cols, h.relKeys.rows]),
}));`;
  const folder = new URL('../artifacts/', import.meta.url);
  mkdirSync(folder, { recursive: true });
  const file = new URL('readme-training-example.mjs', folder);
  writeFileSync(file, head + example + probe);
  const printed = JSON.parse(execFileSync(process.execPath, [file.pathname], { encoding: 'utf8' }));
  expect(printed.config).toEqual({
    vocabSize: 16,
    dModel: 32,
    heads: 2,
    layers: 1,
    ffnWidth: 128,
    maxDistance: 4,
    seqLen: 16,
    maxBatchSize: 32,
    causal: false,
    perHeadTables: false,
    precision: 'float32',
    seed: 0,
  });
  expect(printed.disposed).toBe(true);
  expect(printed.batch).toEqual([512, 512, 32, 16]);
  expect(printed.loss).toBeGreaterThan(0);
  expect(printed.evaluation).toEqual(['loss', 'accuracy']);
  expect(printed.gradients).toBe(17);
  expect(printed.parameters).toBe(17);
  expect(printed.view).toEqual([0, 1, 16, 16]);
  expect(printed.offsets).toEqual([-4, -3, -2, -1, 0, 1, 2, 3, 4]);
  // One layer of two heads of width 32 / 2, on 16 positions, tables of 2·4 + 1 rows.
  expect(printed.heads).toEqual([
    [0, 0, 16, 16, 9],
    [0, 1, 16, 16, 9],
  ]);
});
