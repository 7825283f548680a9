// A model's config.json given to openCheckpoint with its weights (as in [file, config]) is named
// as what it is, with where it goes instead; and given where it goes, the tables come out.
import { expect, test } from 'vitest';
import { createRelPos, CheckpointError } from '../../web/api/index.js';
import { CONFIG, safetensorsBytes } from '../package/doc-files.js';

test("config.json among the checkpoint's files is named as a configuration, with where it goes", async () => {
  const rp = await createRelPos();
  const weights = new File([safetensorsBytes()], 'model.safetensors');
  const config = new File([JSON.stringify(CONFIG)], 'config.json');
  const opening = rp.openCheckpoint([weights, config]);
  await expect(opening).rejects.toThrow(CheckpointError);
  await expect(opening).rejects.toThrow(
    "config.json: is a model's configuration, not a safetensors index: give it to checkpointPositions(checkpoint, { config }), parsed, and only the weights to openCheckpoint",
  );
  // An index without weight_map that is no configuration keeps the index's message.
  const notIndex = new File(['{"metadata": {}}'], 'model.safetensors.index.json');
  await expect(rp.openCheckpoint([weights, notIndex])).rejects.toThrow('it has no "weight_map" object');
  const tables = await rp.checkpointPositions(await rp.openCheckpoint(weights), { config: CONFIG });
  expect(tables.map((t) => [t.scheme, t.part, t.heads, t.numBuckets])).toEqual([['t5', 'encoder', 8, 32]]);
  rp.dispose();
});
