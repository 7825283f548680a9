// The core owns its contract: the position schemes, the model's limits, T5's bucket rules and the
// block of query rows are the core's constants, read through the bindings into
// web/api/core-contract.js at build time (scripts/make-defaults.mjs), and the API checks by them.
// This test holds the committed file to the module, and the API's refusals to the core's own
// checks over grids of settings: what the core refuses, the API refuses with a RangeError naming
// the argument, and what the core takes, the API takes.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { coreContractSource } from '../../scripts/make-defaults.mjs';
import { createRelPos, MODEL_POSITION_SCHEMES, POSITION_SCHEMES } from '../../web/api/index.js';
import { ATTENTION_BLOCK_ROWS } from '../../web/api/limits.js';
import { loadCore } from '../../web/api/load-core.js';

const core = await loadCore('test');
const rp = await createRelPos();
afterAll(() => rp.dispose());

// The core's enum values by name, in the order of their values.
const enumNames = (type) =>
  Object.keys(type)
    .filter((name) => type[name]?.value !== undefined)
    .sort((a, b) => type[a].value - type[b].value);

describe('the contract: one source, the core', () => {
  it('web/api/core-contract.js is what the module holds (npm run build writes it)', () => {
    const committed = readFileSync(new URL('../../web/api/core-contract.js', import.meta.url), 'utf8');
    expect(committed).toBe(coreContractSource(core));
  });

  it('the schemes are the core enum, in its order; attention() takes all but the learned table', () => {
    expect(MODEL_POSITION_SCHEMES).toEqual(enumNames(core.PositionScheme));
    const refused = MODEL_POSITION_SCHEMES.filter((name) => !POSITION_SCHEMES.includes(name));
    expect(refused).toEqual(['absolute']);
  });

  it("the types name the core's schemes (web/api/schemes.d.ts, the one hand-written list)", () => {
    const types = readFileSync(new URL('../../web/api/schemes.d.ts', import.meta.url), 'utf8');
    const declared = Object.fromEntries(
      [...types.matchAll(/export type (\w+) = ([^;]+);/g)].map(([, name, body]) => [name, body]),
    );
    const names = (body) => [...body.matchAll(/'([a-z0-9]+)'/g)].map(([, name]) => name);
    expect(names(declared.PositionSchemeName)).toEqual(POSITION_SCHEMES);
    expect(declared.ModelSchemeName.trim()).toBe(
      `PositionSchemeName | ${MODEL_POSITION_SCHEMES.filter((name) => !POSITION_SCHEMES.includes(name))
        .map((name) => `'${name}'`)
        .join(' | ')}`,
    );
  });

  it("the block of query rows is the core's: rows from a multiple of it are those of one call", () => {
    const n = 3 * ATTENTION_BLOCK_ROWS;
    const m = (rows, cols, seed) => ({ rows, cols, data: rp.randn(seed, rows * cols) });
    const q = m(n, 8, 1);
    const inputs = { q, k: m(n, 8, 2), v: m(n, 8, 3), relKeys: m(9, 8, 4) };
    const whole = rp.attention(inputs).combinedWeights.data;
    const first = ATTENTION_BLOCK_ROWS;
    const part = { ...inputs, q: { rows: n - first, cols: 8, data: q.data.subarray(first * 8) } };
    const rows = rp.attention(part, { queryOffset: first }).combinedWeights.data;
    expect(rows).toEqual(whole.subarray(first * n));
  });
});

describe("createModel refuses exactly what the core's checkModelConfig refuses", () => {
  const configs = [];
  for (const scheme of ['shaw', 't5', 'rope', 'none']) {
    for (const [dModel, heads] of [
      [8, 2],
      [6, 2],
      [6, 3],
      [10, 3],
      [4, 8],
    ]) {
      for (const causal of [false, true]) {
        for (const [numBuckets, maxDistance] of scheme === 't5'
          ? [
              [4, 1],
              [4, 2],
              [8, 2],
              [8, 3],
              [8, 4],
              [8, 5],
            ]
          : [[32, 128]]) {
          configs.push({ scheme, dModel, heads, causal, numBuckets, maxDistance });
        }
      }
    }
  }

  it.each(configs)('%o', ({ scheme, dModel, heads, causal, numBuckets, maxDistance }) => {
    const config = {
      vocabSize: 5,
      dModel,
      heads,
      ffnWidth: 4,
      maxDistance: 1,
      seqLen: 4,
      maxBatchSize: 1,
      causal,
      position: { scheme, numBuckets, maxDistance },
    };
    const coreConfig = {
      ...config,
      layers: 1,
      perHeadTables: false,
      seed: 0,
      positionScheme: core.PositionScheme[scheme],
      numBuckets,
      bucketDistance: maxDistance,
    };
    delete coreConfig.position;
    const refusal = core.checkModelConfig(coreConfig);
    if (refusal === '') {
      const model = rp.createModel(config);
      expect(model.config.dModel).toBe(dModel);
      model.dispose();
    } else {
      expect(() => rp.createModel(config)).toThrow(RangeError);
      expect(() => rp.createModel(config)).toThrow(
        /^createModel: (dModel|heads|position\.maxDistance|position\.scheme)/,
      );
    }
  });
});

describe("T5's rules and the even width are the core's", () => {
  const grid = [];
  for (const bidirectional of [true, false]) {
    for (let numBuckets = 1; numBuckets <= 12; numBuckets += 1) {
      for (let maxDistance = 1; maxDistance <= 5; maxDistance += 1) grid.push([numBuckets, maxDistance, bidirectional]);
    }
  }

  it('t5Buckets refuses exactly the settings the core refuses', () => {
    const disagreements = grid.filter(([numBuckets, maxDistance, bidirectional]) => {
      const coreRefuses =
        core.checkScheme(core.PositionScheme.t5, { numBuckets, maxDistance, bidirectional }, 2) !== '';
      let apiRefuses = false;
      try {
        rp.t5Buckets(4, { numBuckets, maxDistance, bidirectional });
      } catch (error) {
        expect(error).toBeInstanceOf(RangeError);
        expect(error.message).toMatch(/^t5Buckets: (numBuckets|maxDistance) must be an integer from \d+/);
        apiRefuses = true;
      }
      return coreRefuses !== apiRefuses;
    });
    expect(disagreements).toEqual([]);
    // Both sides refuse some and take some of the grid: the comparison is not empty.
    const refusedByCore = grid.filter(
      ([numBuckets, maxDistance, bidirectional]) =>
        core.checkScheme(core.PositionScheme.t5, { numBuckets, maxDistance, bidirectional }, 2) !== '',
    );
    expect(refusedByCore.length).toBeGreaterThan(10);
    expect(refusedByCore.length).toBeLessThan(grid.length - 10);
  });

  it('attention() refuses an odd head width for exactly the schemes the core refuses it for', () => {
    const m = (rows, cols, seed) => ({ rows, cols, data: rp.randn(seed, rows * cols) });
    const t5 = { numBuckets: 32, maxDistance: 128, bidirectional: true };
    for (const scheme of POSITION_SCHEMES.filter((name) => name !== 'shaw' && name !== 'sinusoidal')) {
      const coreRefuses = core.checkScheme(core.PositionScheme[scheme], t5, 3) !== '';
      const position = {
        scheme,
        ...(scheme === 't5' ? { biases: new Float64Array(32) } : {}),
        ...(scheme === 'alibi' ? { slope: 0.5 } : {}),
      };
      const call = () => rp.attention({ q: m(4, 3, 1), k: m(4, 3, 2), position });
      if (coreRefuses) expect(call, scheme).toThrow(/^attention: q\.cols must be even for position\.scheme/);
      else expect(call, scheme).not.toThrow();
    }
    expect(core.checkScheme(core.PositionScheme.rope, t5, 3)).not.toBe('');
  });
});

describe("memory: the core's count", () => {
  it("a model's allocation stays within the core's modelBytes", () => {
    for (const precision of ['float32', 'float64']) {
      const config = { vocabSize: 300, dModel: 32, heads: 4, layers: 2, seqLen: 24, maxBatchSize: 8, precision };
      const before = rp.memory().heapInUseBytes;
      const model = rp.createModel(config);
      const grown = rp.memory().heapInUseBytes - before;
      const coreConfig = {
        ...model.config,
        positionScheme: core.PositionScheme.shaw,
        numBuckets: 32,
        bucketDistance: 128,
      };
      const counted = core.modelBytes(coreConfig, precision === 'float64' ? 8 : 4);
      expect(grown).toBeGreaterThan(0);
      expect(grown).toBeLessThanOrEqual(counted);
      expect(grown).toBeGreaterThan(counted / 4); // a count of this model, not of any
      model.dispose();
    }
  });
});
