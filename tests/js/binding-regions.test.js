// Every binding takes its memory as regions { address, rows, cols, bytes } and checks them in C++
// before it reads or writes (cpp/bindings/buffers.hpp): a region whose length is forged (fewer
// bytes than its shape), whose shape disagrees with the call, or that lies outside WASM memory is
// refused with a message naming it, and nothing is written. Through the real module, bindings
// called directly, as the API would call them if it got a length wrong; and the API turns a
// refusal into a RangeError naming the call.
import { describe, expect, it } from 'vitest';
import { loadCore } from '../../web/api/load-core.js';
import { regionAt, throwIfRefused } from '../../web/api/wasm-arena.js';

const core = await loadCore('test');
const SENTINEL = 0xa5;

// A block of WASM memory filled with the sentinel; region(offset, rows, cols, Type, bytes) in it.
function block(bytes = 4096) {
  const address = core._malloc(bytes);
  core.HEAPU8.fill(SENTINEL, address, address + bytes);
  return {
    region: (offset, rows, cols, ArrayType, reserved) => ({
      ...regionAt(address + offset, rows, cols, ArrayType),
      ...(reserved === undefined ? {} : { bytes: reserved }),
    }),
    untouched: () => core.HEAPU8.subarray(address, address + bytes).every((b) => b === SENTINEL),
    free: () => core._free(address),
  };
}

const F64 = Float64Array;
const I32 = Int32Array;
const d = core.coreDefaults();
const t = core.coreDefaults();

// [name, call(block) → the binding's refusal, the region the message must name, what it says]
const forged = [
  ['randnInto', (b) => core.randnInto(1, b.region(0, 1, 64, F64, 8)), 'out needs 512 bytes, 8 reserved'],
  ['relativeOffsetsInto', (b) => core.relativeOffsetsInto(2, b.region(0, 8, 8, I32, 16)), 'out needs 256 bytes'],
  ['relativeOffsetsInto (not square)', (b) => core.relativeOffsetsInto(2, b.region(0, 4, 5, I32)), 'out is 4 x 5'],
  [
    'localityProfileInto',
    (b) =>
      core.localityProfileInto(
        d.LocalityProfileParams,
        b.region(0, 11, 4, F64),
        b.region(512, 1, 4, F64),
        b.region(1024, 1, 12, F64),
      ),
    'profile is 1 x 12, the request needs 1 x 11',
  ],
  [
    'exampleScenarioInto',
    (b) => {
      const m = (rows, cols, at) => b.region(at, rows, cols, F64);
      const buffers = {
        x: m(6, 8, 0, F64),
        queryWeights: m(8, 4, 0),
        keyWeights: m(8, 4, 0),
        valueWeights: m(8, 4, 0),
        relativeKeys: m(7, 4, 0),
        relativeValues: m(7, 4, 0),
        queries: m(6, 4, 0),
        keys: { ...m(6, 4, 0), bytes: 8 },
        values: m(6, 4, 0),
        profile: m(7, 1, 0),
        tokenBytes: b.region(0, 1, 0, Uint8Array),
        tokenLengths: b.region(0, 1, 0, I32),
      };
      return core.exampleScenarioInto(d.ExampleSizes, d.ScenarioSettings, buffers);
    },
    'keys needs 192 bytes, 8 reserved',
  ],
  ['t5BucketsInto', (b) => core.t5BucketsInto(d.T5BucketParams, b.region(0, 16, 16, I32, 64)), 'out needs 1024 bytes'],
  ['alibiSlopesInto', (b) => core.alibiSlopesInto(b.region(0, 1, 64, F64, 16)), 'out needs 512 bytes'],
  [
    'sinusoidalInto',
    (b) => core.sinusoidalInto(d.SinusoidalParams, b.region(0, 16, 8, F64, 64)),
    'out needs 1024 bytes',
  ],
  [
    'ropeIntoFloat64',
    (b) =>
      core.ropeIntoFloat64({
        params: d.RopeParams,
        x: b.region(0, 4, 4, F64),
        positions: b.region(256, 1, 4, F64),
        out: b.region(512, 4, 2, F64),
      }),
    'out is 4 x 2, the request needs 4 x 4',
  ],
  [
    'syntheticBatchInto',
    (b) => core.syntheticBatchInto(t.SyntheticBatchOptions, b.region(0, 32, 16, I32, 4), b.region(0, 32, 16, I32)),
    'tokens needs 2048 bytes, 4 reserved',
  ],
  [
    'a region outside WASM memory',
    () => core.randnInto(1, { address: core.HEAPU8.length - 8, rows: 1, cols: 4, bytes: 32 }),
    'out lies outside WASM memory',
  ],
];

describe('bindings: a forged region is refused, nothing written', () => {
  it.each(forged)('%s', (name, call, message) => {
    const b = block();
    const refusal = call(b);
    expect(refusal).toContain(message);
    expect(b.untouched()).toBe(true);
    b.free();
  });

  it('the model: a batch, a sequence and a head region that disagree with it', () => {
    const handle = new core.ModelHandleFloat32({ ...t.ModelConfig, seqLen: 8, vocabSize: 10 });
    const b = block();
    const before = core.HEAPF32.slice(
      handle.parameters().address / 4,
      handle.parameters().address / 4 + handle.parameters().rows,
    );
    // Targets forged short, a sequence longer than seqLen, a token outside the vocabulary.
    expect(handle.trainStep(b.region(0, 2, 8, I32), b.region(64, 2, 8, I32, 4), t.AdamOptions).error).toContain(
      'targets needs 64 bytes, 4 reserved',
    );
    expect(handle.lossAndGradients(b.region(0, 1, 9, I32), b.region(64, 1, 9, I32), 0).error).toContain('seqLen');
    // A step's shard gradients: a region of the wrong size, or one forged larger than reserved.
    const count = handle.parameters().rows;
    expect(handle.gatherGradients(b.region(0, 4, 1, Float32Array), true)).toContain('gradients');
    expect(handle.gatherGradients({ ...b.region(0, count, 1, Float32Array), bytes: 16 }, false)).toContain(
      `gradients needs ${count * 4} bytes, 16 reserved`,
    );
    // A parameter vector: the wrong size, forged larger than reserved, or an entry not finite.
    expect(handle.setParameterVector(b.region(0, 4, 1, Float32Array))).toContain('values');
    expect(handle.setParameterVector({ ...b.region(0, count, 1, Float32Array), bytes: 16 })).toContain(
      `values needs ${count * 4} bytes, 16 reserved`,
    );
    core.HEAP32[b.region(0, 1, 1, I32).address / 4] = 10;
    expect(handle.evaluate(b.region(0, 1, 4, I32), b.region(64, 1, 4, I32)).error).toContain('tokens[0] is 10');
    core.HEAP32.fill(0, b.region(0, 1, 1, I32).address / 4, b.region(0, 1, 1, I32).address / 4 + 4);
    const targets = b.region(64, 1, 4, I32);
    core.HEAP32.fill(-1, targets.address / 4, targets.address / 4 + 4);
    expect(handle.lossAndGradients(b.region(0, 1, 4, I32), targets, -1).error).toContain(
      'stepTargets must be 0 to 2^31 - 1',
    );
    expect(
      handle.headInputs(0, 0, b.region(0, 4, 16, F64), b.region(0, 4, 16, F64), b.region(0, 4, 16, F64)),
    ).toContain('no sequence');
    expect(handle.forwardSequence(b.region(0, 1, 4, I32))).toBe('');
    const head = t.ModelConfig.dModel / t.ModelConfig.heads;
    const q = b.region(256, 4, head, Float32Array);
    expect(handle.headInputs(0, 0, q, q, { ...q, bytes: 16 })).toContain('values needs 256 bytes, 16 reserved');
    expect(handle.headInputs(0, 5, q, q, q)).toContain('layer and head');
    expect(handle.relativeKeys(3, 0)).toEqual({ address: 0, rows: 0, cols: 0, bytes: 0 });
    expect(handle.relativeKeys(0, 1)).toMatchObject({ rows: 2 * t.ModelConfig.maxDistance + 1, cols: head });
    // No refused call changed the model.
    const after = core.HEAPF32.subarray(
      handle.parameters().address / 4,
      handle.parameters().address / 4 + handle.parameters().rows,
    );
    expect(after).toEqual(before);
    expect(handle.adamSteps()).toBe(0);
    handle.delete();
    b.free();
  });

  it('the API throws a refusal as a RangeError naming the call and the region', () => {
    expect(() => throwIfRefused('rope', 'out is 4 x 2, the request needs 4 x 4')).toThrow(
      new RangeError('rope: the core refused the call: out is 4 x 2, the request needs 4 x 4'),
    );
    expect(() => throwIfRefused('rope', '')).not.toThrow();
  });
});
