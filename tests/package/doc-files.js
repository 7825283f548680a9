// The files the docs' examples read (docs/testing.md, "Code blocks in the docs"), made for the doc
// test in the folder a block runs in: model.safetensors and config.json, a small T5-shaped
// checkpoint (the encoder's relative_attention_bias, 32 buckets × 8 heads, float32), and
// t5-small.position-tables.json, its position tables as the page saves them, written by the
// installed package's own modules.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const TENSOR = 'encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight';
const BUCKETS = 32;
const HEADS = 8;
export const CONFIG = {
  model_type: 't5',
  relative_attention_num_buckets: BUCKETS,
  relative_attention_max_distance: 128,
};

/** safetensors: an 8-byte little-endian header length, the JSON header (padded to 8 bytes), the data. */
export function safetensorsBytes() {
  const values = Float32Array.from({ length: BUCKETS * HEADS }, (_, i) => Math.sin(i) - (i % HEADS) / HEADS);
  let header = JSON.stringify({
    __metadata__: { format: 'pt' },
    [TENSOR]: { dtype: 'F32', shape: [BUCKETS, HEADS], data_offsets: [0, values.byteLength] },
  });
  header += ' '.repeat((8 - (header.length % 8)) % 8);
  const bytes = new Uint8Array(8 + header.length + values.byteLength);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(header.length), true);
  bytes.set(new TextEncoder().encode(header), 8);
  bytes.set(new Uint8Array(values.buffer), 8 + header.length);
  return bytes;
}

/** Writes model.safetensors, config.json and t5-small.position-tables.json into `dir`. */
export async function writeDocFiles(dir, packageDir) {
  const bytes = safetensorsBytes();
  writeFileSync(join(dir, 'model.safetensors'), bytes);
  writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG));
  const { createRelPos } = await import(pathToFileURL(join(packageDir, 'web/api/index.js')).href);
  const { positionTablesJson } = await import(pathToFileURL(join(packageDir, 'web/views/checkpoint-view.js')).href);
  const rp = await createRelPos();
  const checkpoint = await rp.openCheckpoint(bytes, { name: 'model.safetensors' });
  const tables = await rp.checkpointPositions(checkpoint, { config: CONFIG });
  rp.dispose();
  const json = positionTablesJson(tables, { files: checkpoint.files, metadata: checkpoint.metadata });
  writeFileSync(join(dir, 't5-small.position-tables.json'), typeof json === 'string' ? json : JSON.stringify(json));
}
