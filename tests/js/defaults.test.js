// Each default has one source: the core's structs, default-constructed, read through the
// bindings into web/api/core-defaults.js at build time (scripts/make-defaults.mjs). This test holds
// the committed file to the module, the API's calls without options to the core's own calls on
// its default-constructed structs, and the page's settings to the API (only the page's
// deliberate choices differ, and those are listed).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { coreDefaultsSource } from '../../scripts/make-defaults.mjs';
import {
  createRelPos,
  EXAMPLE_DEFAULTS,
  LOCALITY_PROFILE_DEFAULTS,
  LOCALITY_TABLE_DEFAULTS,
} from '../../web/api/index.js';
import { loadCore } from '../../web/api/load-core.js';
import { CONTROLS, PAGE_CHOICES } from '../../web/settings/settings.js';

// The module as the API loads it (the kernels linked), used directly: the bindings themselves.
const core = await loadCore('test');
const rp = await createRelPos();

// Reserves one region per [rows, cols, ArrayType] in the core's own heap (freed by `free`).
function regions(shapes) {
  const made = shapes.map(([rows, cols, ArrayType]) => {
    const bytes = Math.max(rows * cols * ArrayType.BYTES_PER_ELEMENT, 16);
    return { address: core._malloc(bytes), rows, cols, bytes, ArrayType };
  });
  const read = (r) => new r.ArrayType(core.HEAPU8.buffer, r.address, r.rows * r.cols).slice();
  const free = () => made.forEach((r) => core._free(r.address));
  return { made, read, free };
}

describe('defaults: one source, the core', () => {
  it('web/api/core-defaults.js is what the module holds (npm run build writes it)', () => {
    const committed = readFileSync(new URL('../../web/api/core-defaults.js', import.meta.url), 'utf8');
    expect(committed).toBe(coreDefaultsSource(core));
  });

  it('localityProfile() with no options is the core on its default LocalityProfileParams', () => {
    const p = core.coreDefaults().LocalityProfileParams;
    const rows = 2 * p.maxDistance + 1;
    const { made, read, free } = regions([
      [rows, p.dK, Float64Array],
      [1, p.dK, Float64Array],
      [1, rows, Float64Array],
    ]);
    const [embeddings, query, profile] = made;
    expect(core.localityProfileInto(p, embeddings, query, profile)).toBe('');
    const api = rp.localityProfile();
    expect(api.embeddings.data).toEqual(read(embeddings));
    expect(api.profile).toEqual(read(profile));
    free();
  });

  it('example() with no options is the core on its default ExampleSizes and ScenarioSettings', () => {
    const d = core.coreDefaults();
    const { n, dModel, dK, maxDistance } = d.ExampleSizes;
    const rows = 2 * maxDistance + 1;
    const names = ['x', 'queryWeights', 'keyWeights', 'valueWeights', 'relativeKeys', 'relativeValues'];
    const shapes = [
      [n, dModel],
      [dModel, dK],
      [dModel, dK],
      [dModel, dK],
      [rows, dK],
      [rows, dK],
    ];
    const extra = { queries: [n, dK], keys: [n, dK], values: [n, dK], profile: [rows, 1] };
    const all = [...shapes, ...Object.values(extra)].map((s) => [...s, Float64Array]);
    const { made, read, free } = regions([...all, [1, 0, Uint8Array], [1, 0, Int32Array]]);
    const buffers = Object.fromEntries([...names, ...Object.keys(extra)].map((name, i) => [name, made[i]]));
    [buffers.tokenBytes, buffers.tokenLengths] = made.slice(all.length);
    expect(core.exampleScenarioInto(d.ExampleSizes, d.ScenarioSettings, buffers)).toBe('');
    const api = rp.example({ outputs: [] });
    expect(api.weights.x.data).toEqual(read(buffers.x));
    expect(api.inputs.relKeys.data).toEqual(read(buffers.relativeKeys));
    expect(api.params.seqLen).toBe(n);
    free();
  });

  it('createModel, trainStep and syntheticBatch without options are the core on its default structs', () => {
    const d = core.coreDefaults();
    const { made, read, free } = regions([
      [d.SyntheticBatchOptions.batchSize, d.SyntheticBatchOptions.seqLen, Int32Array],
      [d.SyntheticBatchOptions.batchSize, d.SyntheticBatchOptions.seqLen, Int32Array],
    ]);
    const [tokens, targets] = made;
    expect(core.syntheticBatchInto(d.SyntheticBatchOptions, tokens, targets)).toBe('');
    const batch = rp.syntheticBatch();
    expect(batch.tokens).toEqual(read(tokens));
    const handle = new core.ModelHandleFloat32(d.ModelConfig);
    const model = rp.createModel({ vocabSize: d.ModelConfig.vocabSize });
    const loss = handle.trainStep(tokens, targets, d.AdamOptions).loss;
    expect(model.trainStep(batch).loss).toBe(loss);
    const table = handle.parameterTable();
    const after = read({ ...handle.parameters(), ArrayType: Float32Array });
    const last = table[table.length - 1];
    expect(model.parameters()[last.name].data).toEqual(after.subarray(last.offset, last.offset + last.size));
    handle.delete();
    model.dispose();
    free();
  });
});

describe("defaults: the page's settings come from the API", () => {
  const apiValue = {
    seed: EXAMPLE_DEFAULTS.seed,
    seqLen: EXAMPLE_DEFAULTS.seqLen,
    dK: EXAMPLE_DEFAULTS.dK,
    maxDistance: EXAMPLE_DEFAULTS.maxDistance,
    causal: EXAMPLE_DEFAULTS.causal,
    draw: EXAMPLE_DEFAULTS.draw,
    table: EXAMPLE_DEFAULTS.table,
    sameQuery: EXAMPLE_DEFAULTS.sameQuery,
    strength: LOCALITY_TABLE_DEFAULTS.strength,
    noise: LOCALITY_TABLE_DEFAULTS.noise,
    width: LOCALITY_TABLE_DEFAULTS.width,
    asymmetry: LOCALITY_TABLE_DEFAULTS.asymmetry,
    profileSeed: LOCALITY_PROFILE_DEFAULTS.seed,
    profileDK: LOCALITY_PROFILE_DEFAULTS.dK,
    profileMaxDistance: LOCALITY_PROFILE_DEFAULTS.maxDistance,
  };
  it.each(Object.keys(apiValue))('%s', (name) => {
    const want = name in PAGE_CHOICES ? PAGE_CHOICES[name] : apiValue[name];
    expect(CONTROLS[name].default).toBe(want);
  });
  it('the page departs from the API only where it chose to', () => {
    expect(Object.keys(PAGE_CHOICES).sort()).toEqual(['draw', 'strength', 'table']);
    for (const [name, value] of Object.entries(PAGE_CHOICES)) expect(value).not.toBe(apiValue[name]);
  });
});
