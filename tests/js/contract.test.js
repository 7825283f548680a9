// The core owns its contract: the position schemes, the model's limits, T5's bucket rules and the
// block of query rows are the core's constants, read through the bindings into
// web/api/core-contract.js at build time (scripts/make-defaults.mjs), and the API checks by them.
// This test holds the committed file to the module, and the API's refusals to the core's own
// checks over grids of settings: what the core refuses, the API refuses with a RangeError naming
// the argument, and what the core takes, the API takes.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { coreContractSource, exampleTypesSource, schemeTypesSource } from '../../scripts/make-defaults.mjs';
import { createRelPos, MODEL_POSITION_SCHEMES, POSITION_SCHEMES } from '../../web/api/index.js';
import { CORE_CONTRACT } from '../../web/api/core-contract.js';
import { CORE_DEFAULTS } from '../../web/api/core-defaults.js';
import { ATTENTION_BLOCK_ROWS, MAX_SEED, SETTING_RANGES } from '../../web/api/limits.js';
import { checkNumber } from '../../web/api/validate.js';
import { loadCore } from '../../web/api/load-core.js';
import { MAX_ALIBI_HEADS } from '../../web/api/schemes.js';
import { regionAt } from '../../web/api/wasm-arena.js';
import { coreRequest, region } from './core-request.js';
import {
  ATTENTION_REGIONS,
  ATTENTION_SHAPES,
  CHOICE_EXTENTS,
  INPUT_MATRICES,
} from '../../web/api/attention-regions.js';

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

  it("the choices of RoPE's layout, the draw, the table and the synthetic task are the core's enums, in their order", () => {
    expect(CORE_CONTRACT.ropeLayouts).toEqual(enumNames(core.RopeLayout));
    expect(CORE_CONTRACT.scenarioDraws).toEqual(enumNames(core.ScenarioDraw));
    expect(CORE_CONTRACT.positionTables).toEqual(enumNames(core.PositionTable));
    expect(CORE_CONTRACT.syntheticTasks).toEqual(enumNames(core.SyntheticTask));
    expect(CORE_CONTRACT.scenarioDraws).toEqual(['handbook', 'stable']);
  });

  it('the schemes are the core enum, in its order; attention() takes all but the learned table', () => {
    expect(MODEL_POSITION_SCHEMES).toEqual(enumNames(core.PositionScheme));
    const refused = MODEL_POSITION_SCHEMES.filter((name) => !POSITION_SCHEMES.includes(name));
    expect(refused).toEqual(['absolute']);
  });

  it("the types name the core's schemes: web/api/scheme-names.d.ts is what the module holds", () => {
    const committed = readFileSync(new URL('../../web/api/scheme-names.d.ts', import.meta.url), 'utf8');
    expect(committed).toBe(schemeTypesSource(core));
    const declared = Object.fromEntries(
      [...committed.matchAll(/export type (\w+) = ([^;]+);/g)].map(([, name, body]) => [name, body]),
    );
    const names = (body) => [...body.matchAll(/'([a-z0-9]+)'/g)].map(([, name]) => name);
    expect(names(declared.PositionSchemeName)).toEqual(POSITION_SCHEMES);
    expect(declared.ModelSchemeName.trim()).toBe(
      `PositionSchemeName | ${MODEL_POSITION_SCHEMES.filter((name) => !POSITION_SCHEMES.includes(name))
        .map((name) => `'${name}'`)
        .join(' | ')}`,
    );
    expect(names(declared.RopeLayout)).toEqual(enumNames(core.RopeLayout));
    const types = readFileSync(new URL('../../web/api/schemes.d.ts', import.meta.url), 'utf8');
    expect(types).not.toMatch(/export type (PositionSchemeName|ModelSchemeName|RopeLayout) =/);
  });

  it("the types name the example's draws and tables: web/api/example-names.d.ts is what the module holds", () => {
    const committed = readFileSync(new URL('../../web/api/example-names.d.ts', import.meta.url), 'utf8');
    expect(committed).toBe(exampleTypesSource(core));
    const declared = Object.fromEntries(
      [...committed.matchAll(/export type (\w+) = ([^;]+);/g)].map(([, name, body]) => [name, body]),
    );
    const names = (body) => [...body.matchAll(/'([a-z0-9]+)'/g)].map(([, name]) => name);
    expect(names(declared.ScenarioDrawName)).toEqual(enumNames(core.ScenarioDraw));
    expect(names(declared.PositionTableName)).toEqual(enumNames(core.PositionTable));
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

describe("the limits only one side had are the core's, and it enforces them", () => {
  // A region of `cols` float64 numbers in one row, in WASM memory the test frees.
  const withRow = (cols, call) => {
    const address = core._malloc(cols * 8);
    try {
      return call(regionAt(address, 1, cols, Float64Array));
    } finally {
      core._free(address);
    }
  };

  it('alibiSlopes: the core computes MAX_ALIBI_HEADS slopes and refuses one more, as the API does', () => {
    expect(MAX_ALIBI_HEADS).toBe(CORE_CONTRACT.maxAlibiHeads);
    expect(withRow(MAX_ALIBI_HEADS, (out) => core.alibiSlopesInto(out))).toBe('');
    expect(withRow(MAX_ALIBI_HEADS + 1, (out) => core.alibiSlopesInto(out))).toBe(
      `out must hold 1 to ${MAX_ALIBI_HEADS} heads`,
    );
    expect(rp.alibiSlopes(MAX_ALIBI_HEADS)).toHaveLength(MAX_ALIBI_HEADS);
    expect(() => rp.alibiSlopes(MAX_ALIBI_HEADS + 1)).toThrow(
      new RangeError(`alibiSlopes: heads must be an integer from 1 to ${MAX_ALIBI_HEADS}, got ${MAX_ALIBI_HEADS + 1}`),
    );
  });

  it("the largest seed is the core's: MAX_SEED seeds the stream, one more is refused", () => {
    expect(MAX_SEED).toBe(CORE_CONTRACT.maxSeed);
    expect(rp.randn(MAX_SEED, 2)).toHaveLength(2);
    expect(() => rp.randn(MAX_SEED + 1, 2)).toThrow(RangeError);
  });

  it("rope's even width is the scheme table's rule, checked by the core's ropeInto itself", () => {
    const address = core._malloc(3 * 8 * 3);
    try {
      const request = (cols) => ({
        params: core.coreDefaults().RopeParams,
        x: regionAt(address, 1, cols, Float64Array),
        positions: regionAt(address + 24, 1, 1, Float64Array),
        out: regionAt(address + 48, 1, cols, Float64Array),
      });
      expect(
        core.checkScheme(core.PositionScheme.rope, { numBuckets: 32, maxDistance: 128, bidirectional: true }, 3),
      ).not.toBe('');
      expect(core.ropeIntoFloat64(request(3))).toBe('x must have an even number of columns');
      expect(core.ropeIntoFloat64(request(2))).toBe('');
    } finally {
      core._free(address);
    }
  });
});

describe("the real-valued settings' ranges are the core's, and it enforces them", () => {
  const ranges = Object.entries(SETTING_RANGES);
  // Values at and around a range's ends: each end, the nearest doubles beyond it, and NaN.
  const probes = ({ min, max }) => {
    const beyond = (value, direction) => value + direction * Math.max(Math.abs(value) * 2 ** -52, 2 ** -1074);
    return [min, beyond(min, -1), beyond(min, 1), max, beyond(max, 1), beyond(max, -1), (min + max) / 2, NaN];
  };
  const jsTakes = (name, value) => {
    try {
      checkNumber('t', name, value, SETTING_RANGES[name]);
      return true;
    } catch {
      return false;
    }
  };

  it('names every real-valued setting the API checks (base, slope, the locality shape, Adam)', () => {
    expect(Object.keys(SETTING_RANGES).sort()).toEqual(
      [
        'asymmetry',
        'base',
        'beta1',
        'beta2',
        'epsilon',
        'learningRate',
        'maxGradNorm',
        'noise',
        'slope',
        'strength',
        'weightDecay',
        'width',
      ].sort(),
    );
  });

  it.each(ranges)("%s: the core's checkSetting takes exactly what the API takes", (name, range) => {
    for (const value of probes(range)) {
      expect(core.checkSetting(name, value) === '', `${name} = ${value}`).toBe(jsTakes(name, value));
    }
    expect(core.checkSetting(name, range.min - 1)).toBe(`${name} is out of its range`);
  });

  // One float64 region of `cols` numbers per entry of `sizes`, freed after `call`.
  const withRegions = (sizes, call) => {
    const addresses = sizes.map(([rows, cols]) => core._malloc(Math.max(1, rows * cols) * 8));
    try {
      return call(sizes.map(([rows, cols], i) => regionAt(addresses[i], rows, cols, Float64Array)));
    } finally {
      addresses.forEach((address) => core._free(address));
    }
  };

  it("the core's own calls refuse a setting out of its range (sinusoid, rope, locality, example)", () => {
    const d = core.coreDefaults();
    withRegions([[2, 4]], ([out]) => {
      expect(core.sinusoidalInto({ base: 0 }, out)).toBe('base is out of its range');
      expect(core.sinusoidalInto({ base: 2 }, out)).toBe('');
    });
    withRegions(
      [
        [1, 2],
        [1, 1],
        [1, 2],
      ],
      ([x, positions, out]) => {
        const request = (base) => ({ params: { ...d.RopeParams, base }, x, positions, out });
        expect(core.ropeIntoFloat64(request(-1))).toBe('base is out of its range');
        expect(core.ropeIntoFloat64(request(10))).toBe('');
      },
    );
    const p = d.LocalityProfileParams;
    const rows = 2 * p.maxDistance + 1;
    withRegions(
      [
        [rows, p.dK],
        [1, p.dK],
        [1, rows],
      ],
      ([embeddings, query, profile]) => {
        expect(core.localityProfileInto({ ...p, asymmetry: 1 }, embeddings, query, profile)).toBe(
          'asymmetry is out of its range',
        );
        expect(core.localityProfileInto({ ...p, width: 0 }, embeddings, query, profile)).toBe(
          'width is out of its range',
        );
        expect(core.localityProfileInto(p, embeddings, query, profile)).toBe('');
      },
    );
    const empty = regionAt(0, 0, 0, Float64Array);
    const buffers = Object.fromEntries(
      [
        'x',
        'queryWeights',
        'keyWeights',
        'valueWeights',
        'relativeKeys',
        'relativeValues',
        'queries',
        'keys',
        'values',
        'profile',
        'tokenBytes',
        'tokenLengths',
      ].map((name) => [name, empty]),
    );
    const strong = { ...d.ScenarioSettings, locality: { ...d.ScenarioSettings.locality, strength: 2e6 } };
    expect(core.exampleScenarioInto(d.ExampleSizes, strong, buffers)).toBe('strength is out of its range');
  });

  it('attention() in the core refuses an ALiBi slope and a RoPE base out of range, writing nothing', () => {
    const m = 2;
    withRegions(
      [
        [m, 2],
        [m, 2],
        [m, m],
        [1, 1],
      ],
      ([queries, keys, weights, slopes]) => {
        new Float64Array(core.HEAPU8.buffer, queries.address, 4).fill(0.5);
        new Float64Array(core.HEAPU8.buffer, keys.address, 4).fill(0.25);
        const written = new Float64Array(core.HEAPU8.buffer, weights.address, m * m);
        const slope = new Float64Array(core.HEAPU8.buffer, slopes.address, 1);
        const request = (given) =>
          core.attentionIntoFloat64(
            coreRequest(core, { queryRows: m, queries, keys, combinedWeights: weights, ...given }),
          );
        written.fill(7);
        slope[0] = -0.5;
        expect(request({ scheme: core.PositionScheme.alibi, slopes })).toBe('slope is out of its range');
        expect(request({ scheme: core.PositionScheme.rope, base: 0 })).toBe('base is out of its range');
        expect([...written]).toEqual([7, 7, 7, 7]);
        slope[0] = 0.5;
        expect(request({ scheme: core.PositionScheme.alibi, slopes })).toBe('');
        expect(written[0]).not.toBe(7);
      },
    );
  });

  it("the model's Adam step refuses options out of range and leaves the parameters as they were", () => {
    const d = core.coreDefaults();
    const handle = new core.ModelHandleFloat64({ ...d.ModelConfig, vocabSize: 10, seqLen: 4 });
    try {
      const count = handle.parameterTable().reduce((sum, entry) => sum + entry.size, 0);
      const parameters = () => {
        const r = handle.parameters();
        return Float64Array.from(new Float64Array(core.HEAPU8.buffer, r.address, count));
      };
      const before = parameters();
      expect(handle.adamStep({ ...d.AdamOptions, beta1: 1 })).toBe('beta1 is out of its range');
      expect(handle.adamStep({ ...d.AdamOptions, learningRate: -1 })).toBe('learningRate is out of its range');
      expect(parameters()).toEqual(before);
      withRegions(
        [
          [1, 4],
          [1, 4],
        ],
        ([tokens, targets]) => {
          new Int32Array(core.HEAPU8.buffer, tokens.address, 4).fill(1);
          new Int32Array(core.HEAPU8.buffer, targets.address, 4).fill(2);
          const refused = handle.trainStep(
            { ...tokens, bytes: 16 },
            { ...targets, bytes: 16 },
            { ...d.AdamOptions, epsilon: 0 },
          );
          expect(refused.error).toBe('epsilon is out of its range');
        },
      );
      expect(parameters()).toEqual(before);
      expect(handle.adamStep(d.AdamOptions)).toBe('');
    } finally {
      handle.delete();
    }
  });

  it('no file of web/ checks a number by a range written by hand', () => {
    const root = new URL('../../web/', import.meta.url);
    const literal = /checkNumber\([^;]*\{\s*min:/;
    const copies = readdirSync(root, { recursive: true })
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) =>
        readFileSync(new URL(file, root), 'utf8')
          .split('\n')
          .map((line, index) => ({ line, where: `${file}:${index + 1}` }))
          .filter(({ line }) => literal.test(line))
          .map(({ where }) => where),
      );
    expect(copies).toEqual([]);
  });
});

describe('no value of the contract copied by hand in web/', () => {
  const root = new URL('../../web/', import.meta.url);
  const sources = readdirSync(root, { recursive: true })
    .filter((file) => /\.(m?js|ts)$/.test(file) && !file.endsWith('core-contract.js'))
    .map((file) => ({ file, text: readFileSync(new URL(file, root), 'utf8') }));
  // The contract's numbers, flattened: [path, value] (attentionBlockRows, model.maxLayers, …).
  const entries = [];
  const flatten = (value, path) => {
    if (typeof value === 'number') entries.push([path, value]);
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, item] of Object.entries(value)) flatten(item, path ? `${path}.${key}` : key);
    }
  };
  // The settings' ranges (min, max) are held by their own test above: every checkNumber reads them.
  flatten({ ...CORE_CONTRACT, settingRanges: undefined }, '');
  // maxSeed → MAX_SEED, model.maxDModel → MAX_D_MODEL: the name a copy would carry.
  const constantName = (path) =>
    path
      .split('.')
      .at(-1)
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
      .toUpperCase();
  // How a number is written by hand: decimal, or a power of two (minus one).
  const spellings = (value) => {
    const out = [String(value)];
    const exponent = Math.log2(value + 1);
    if (Number.isInteger(exponent)) out.push(`2 ** ${exponent} - 1`);
    if (Number.isInteger(Math.log2(value))) out.push(`2 ** ${Math.log2(value)}`);
    return out;
  };
  // Constants of web/ that happen to equal a contract value but are not the contract's, and why.
  const notTheContract = {
    MAX_NPY_HEADER_BYTES: "a model file's .npy header, read by web/train/model-files.js",
    MAX_NPZ_ENTRIES: "a model file's entries, read by web/train/model-files.js",
  };

  it('lists the names it looks for (the test is not empty)', () => {
    expect(entries.map(([path]) => path)).toEqual(
      expect.arrayContaining([
        'attentionBlockRows',
        'maxSeed',
        'maxAlibiHeads',
        'model.maxLayers',
        't5.minBucketsOneWay',
      ]),
    );
    expect(constantName('model.maxDModel')).toBe('MAX_D_MODEL');
    expect(sources.length).toBeGreaterThan(100);
  });

  it('no constant named after a contract entry is given a literal number', () => {
    const copies = [];
    for (const [path] of entries) {
      const assigned = new RegExp(`\\b(${constantName(path)}|${path.split('.').at(-1)})\\s*[:=]\\s*[-(\\d]`);
      for (const { file, text } of sources) {
        text.split('\n').forEach((line, index) => {
          if (assigned.test(line)) copies.push(`${file}:${index + 1}: ${line.trim()}`);
        });
      }
    }
    expect(copies).toEqual([]);
  });

  it('no distinctive contract value (above 100) is written as a literal', () => {
    const copies = [];
    for (const [path, value] of entries.filter(([, number]) => number > 100)) {
      // A factor of a product (64 * 2 ** 20 bytes) is a unit, not a copy of a limit.
      const written = new RegExp(
        `(?<![\\w.]|[*/] )(${spellings(value)
          .map((text) => text.replaceAll('*', '\\*'))
          .join('|')})(?![\\w.])`,
      );
      for (const { file, text } of sources) {
        text.split('\n').forEach((line, index) => {
          const exempt = Object.keys(notTheContract).some((name) => line.includes(`${name} =`));
          if (written.test(line) && !exempt) copies.push(`${path} in ${file}:${index + 1}: ${line.trim()}`);
        });
      }
    }
    expect(copies).toEqual([]);
  });

  // The core's enums the API and the page offer as choices (the contract's lists): a list literal
  // holding exactly one of them, in any order, is a copy.
  const enumLists = {
    ropeLayouts: CORE_CONTRACT.ropeLayouts,
    scenarioDraws: CORE_CONTRACT.scenarioDraws,
    positionTables: CORE_CONTRACT.positionTables,
    schemes: CORE_CONTRACT.schemes.map((scheme) => scheme.name),
    attentionSchemes: CORE_CONTRACT.schemes.filter((scheme) => scheme.attention).map((scheme) => scheme.name),
  };
  const sameNames = (a, b) => a.length === b.length && a.every((name) => b.includes(name));
  // Every list literal of quoted names in `text`, and every union of them in a type ('a' | 'b'),
  // with its line (a list may span lines).
  const nameLists = (text) =>
    [
      ...text.matchAll(/\[\s*'[^'\n]*'(?:\s*,\s*'[^'\n]*')*\s*,?\s*\]/g),
      ...text.matchAll(/'[^'\n]*'(?:\s*\|\s*'[^'\n]*')+/g),
    ].map((match) => ({
      names: [...match[0].matchAll(/'([^'\n]*)'/g)].map((name) => name[1]),
      line: text.slice(0, match.index).split('\n').length,
    }));
  // The types make-defaults.mjs writes from the contract (held to the module above).
  const generatedTypes = ['scheme-names.d.ts', 'example-names.d.ts'];

  it("no list or type union of an enum's names (RoPE's layouts, the draws, the tables, the schemes) is written by hand", () => {
    expect(Object.keys(enumLists)).toEqual([
      'ropeLayouts',
      'scenarioDraws',
      'positionTables',
      'schemes',
      'attentionSchemes',
    ]);
    expect(Object.values(enumLists).every((names) => names.length >= 2)).toBe(true);
    // The lists and the types' unions as they were written by hand are found (the test is not empty).
    const before =
      "choices: ['stable', 'handbook'] },\n  x: [\n    'half',\n    'interleaved',\n  ],\n" +
      "  draw?: 'stable' | 'handbook';\n  table:\n    | 'locality'\n    | 'random';";
    const found = nameLists(before).filter(({ names }) =>
      Object.values(enumLists).some((list) => sameNames(names, list)),
    );
    expect(found.map(({ line }) => line)).toEqual([1, 2, 6, 8]);
    expect(sources.filter(({ file }) => generatedTypes.some((name) => file.endsWith(name)))).toHaveLength(2);
    const copies = [];
    for (const { file, text } of sources) {
      if (generatedTypes.some((name) => file.endsWith(name))) continue;
      for (const { names, line } of nameLists(text)) {
        const copied = Object.entries(enumLists).find(([, list]) => sameNames(names, list));
        if (copied) copies.push(`${copied[0]} in ${file}:${line}: ${names.join(', ')}`);
      }
    }
    expect(copies).toEqual([]);
  });

  // The core's defaults the views and the page pass on (core-defaults.js): [struct, field], each
  // looked for given its literal value: a number as a field or a constant (numBuckets: 32,
  // D_MODEL = 8), a name (which a view may choose: table: 'random') as a fallback or a
  // parameter's default (settings.draw ?? 'handbook', ropeLayout = 'interleaved').
  const copiedDefaults = [
    ['T5BucketParams', 'numBuckets'],
    ['T5BucketParams', 'maxDistance'],
    ['RopeParams', 'base'],
    ['RopeParams', 'layout'],
    ['SinusoidalParams', 'base'],
    ['ScenarioSettings', 'draw'],
    ['ScenarioSettings', 'table'],
    ['ExampleSizes', 'dModel'],
  ];
  const defaultWritten = ([struct, field]) => {
    const value = CORE_DEFAULTS[struct][field];
    if (typeof value === 'string') {
      const named = `\\b\\w*(${field}|${field[0].toUpperCase()}${field.slice(1)})`;
      return new RegExp(`${named}\\s*(\\?\\?|(?<![=!<>])=(?!=))\\s*'${value}'`);
    }
    return new RegExp(`\\b(${field}|${constantName(field)})\\s*[:=]\\s*${value}(?![\\w.])`);
  };

  it("no default of the core (T5's buckets and distance, RoPE's base and layout, the draw, …) is written by hand", () => {
    const patterns = copiedDefaults.map((entry) => [entry.join('.'), defaultWritten(entry)]);
    // The defaults as they were written by hand are found (the test is not empty).
    const before = [
      'export const T5_VIEW = Object.freeze({ numBuckets: 32, maxDistance: 128, bidirectional: true });',
      "    draw: settings.draw ?? 'handbook',",
      'export const D_MODEL = 8;',
      "export function f(rp, { ropeLayout = 'interleaved', shift = 3 }) {",
      "      const sameRandom = view({ ...state, table: 'random' });",
    ];
    expect(before.map((line) => patterns.filter(([, pattern]) => pattern.test(line)).map(([name]) => name))).toEqual([
      ['T5BucketParams.numBuckets', 'T5BucketParams.maxDistance'],
      ['ScenarioSettings.draw'],
      ['ExampleSizes.dModel'],
      ['RopeParams.layout'],
      [],
    ]);
    // RoPE's base as the formula's: θ_t = 10000^{−2t/d}.
    const ropeBase = new RegExp(`(?<![\\w.])${CORE_DEFAULTS.RopeParams.base}\\^`);
    expect(ropeBase.test('θ_t = 10000^{−2t/d}')).toBe(true);
    const copies = [];
    for (const { file, text } of sources) {
      if (text.startsWith('// Generated by scripts/make-defaults.mjs')) continue; // the core's own
      text.split('\n').forEach((line, index) => {
        for (const [name, pattern] of [...patterns, ['RopeParams.base', ropeBase]]) {
          if (pattern.test(line)) copies.push(`${name} in ${file}:${index + 1}: ${line.trim()}`);
        }
      });
    }
    expect(copies).toEqual([]);
  });
});

describe("attention()'s shape rules are the core's: the API refuses exactly the shapes the core refuses", () => {
  const n = 5;
  const none = region(0, 0, 0);
  const grid = [];
  for (const heads of [1, 2]) {
    for (const qCols of [4, 3]) {
      for (const kCols of [qCols, 6]) {
        for (const vCols of [0, 4, 3]) {
          for (const tableRows of [5, 4]) {
            for (const tableCols of [2, 3, 4]) {
              for (const valueTable of [false, true]) {
                if (valueTable && vCols === 0) continue;
                grid.push({ heads, qCols, kCols, vCols, tableRows, tableCols, valueTable });
              }
            }
          }
        }
      }
    }
  }

  // The request the API would send for these shapes, every region in one block of WASM memory.
  const coreRefusal = ({ heads, qCols, kCols, vCols, tableRows, tableCols, valueTable }) => {
    const at = core._malloc(64 * 1024);
    try {
      return core.attentionIntoFloat64(
        coreRequest(core, {
          heads,
          queryRows: n,
          scheme: core.PositionScheme.shaw,
          queries: region(at, n, qCols),
          keys: region(at + 1024, n, kCols),
          values: vCols === 0 ? none : region(at + 2048, n, vCols),
          relativeKeys: region(at + 3072, tableRows, tableCols),
          relativeValues: valueTable ? region(at + 4096, tableRows, tableCols) : none,
          combinedWeights: region(at + 8192, heads * n, n),
          output: vCols === 0 ? none : region(at + 16384, n, vCols),
        }),
      );
    } finally {
      core._free(at);
    }
  };

  it('over a grid of heads, widths and tables', () => {
    const m = (rows, cols, seed) => ({ rows, cols, data: rp.randn(seed, rows * cols) });
    const disagreements = grid.filter((shapes) => {
      const { heads, qCols, kCols, vCols, tableRows, tableCols, valueTable } = shapes;
      const inputs = { q: m(n, qCols, 1), k: m(n, kCols, 2), relKeys: m(tableRows, tableCols, 3), heads };
      if (vCols > 0) inputs.v = m(n, vCols, 4);
      if (valueTable) inputs.relValues = m(tableRows, tableCols, 5);
      let apiRefuses = false;
      try {
        rp.attention(inputs, { outputs: ['combinedWeights'] });
      } catch (error) {
        expect(error).toBeInstanceOf(RangeError);
        expect(error.message).toMatch(/^attention: (q|k|v|relKeys|relValues)\.(rows|cols) must /);
        apiRefuses = true;
      }
      return apiRefuses !== (coreRefusal(shapes) !== '');
    });
    expect(disagreements).toEqual([]);
    const refused = grid.filter((shapes) => coreRefusal(shapes) !== '');
    expect(refused.length).toBeGreaterThan(grid.length / 4);
    expect(refused.length).toBeLessThan(grid.length - 10);
  });

  it('names every region the API checks by the table, and no other', () => {
    const names = CORE_CONTRACT.attentionShapes.map((shape) => shape.name);
    expect(names).toEqual(expect.arrayContaining(['q', 'k', 'v', 'relKeys', 'relValues', 'x', 'wQ', 'wK', 'wV']));
    expect(new Set(names).size).toBe(names.length);
    expect(INPUT_MATRICES).toEqual(['q', 'k', 'v', 'relKeys', 'relValues', 'x', 'wQ', 'wK', 'wV']);
    expect(new Set(ATTENTION_REGIONS).size).toBe(ATTENTION_REGIONS.length);
  });

  it("the table's regions are the fields of the core's request: each one left out is refused", () => {
    const request = coreRequest(core, { scheme: core.PositionScheme.shaw });
    expect(Object.keys(request)).toEqual(expect.arrayContaining([...ATTENTION_REGIONS]));
    for (const name of ATTENTION_REGIONS) {
      const { [name]: left, ...without } = request;
      expect(left).toEqual(region(0, 0, 0, 0));
      expect(() => core.attentionIntoFloat64(without), name).toThrow();
    }
  });
});

describe("the masks' and T5's biases' shapes are the core's: the API refuses exactly what the core refuses", () => {
  const n = 4;
  const m = (rows, cols, seed) => ({ rows, cols, data: rp.randn(seed, rows * cols) });
  const t5 = { numBuckets: 32, maxDistance: 128, bidirectional: true };

  // The core's answer for a request of these regions (row-major float64 and byte blocks).
  const coreRefusal = (heads, given) => {
    const at = core._malloc(64 * 1024);
    try {
      const place = (offset, rows, cols, element = 8) => region(at + offset, rows, cols, rows * cols * element);
      return core.attentionIntoFloat64(
        coreRequest(core, {
          heads,
          queryRows: n,
          queries: place(0, n, 2 * heads),
          keys: place(1024, n, 2 * heads),
          combinedWeights: place(2048, heads * n, n),
          ...given(place),
        }),
      );
    } finally {
      core._free(at);
    }
  };
  const apiRefuses = (call, pattern) => {
    try {
      call();
      return false;
    } catch (error) {
      expect(error).toBeInstanceOf(RangeError);
      expect(error.message).toMatch(pattern);
      return true;
    }
  };

  it('keyPadding: 1 × n flags', () => {
    const outcomes = [];
    for (let length = 1; length <= 2 * n; length += 1) {
      const core_ = coreRefusal(1, (place) => ({
        scheme: core.PositionScheme.none,
        keyPadding: place(8192, 1, length, 1),
      }));
      const api = apiRefuses(
        () =>
          rp.attention({
            q: m(n, 2, 1),
            k: m(n, 2, 2),
            keyPadding: new Uint8Array(length),
            position: { scheme: 'none' },
          }),
        /^attention: keyPadding must hold k\.rows = 4 flags/,
      );
      outcomes.push([length, core_ !== '', api]);
    }
    expect(outcomes.filter(([, coreRefuses, api]) => coreRefuses !== api)).toEqual([]);
    expect(outcomes.filter(([, coreRefuses]) => !coreRefuses).map(([length]) => length)).toEqual([n]);
  });

  it('allowed: n_q × n flags', () => {
    const disagreements = [];
    for (let rows = 1; rows <= n + 1; rows += 1) {
      for (let cols = 1; cols <= n + 1; cols += 1) {
        const coreRefuses =
          coreRefusal(1, (place) => ({ scheme: core.PositionScheme.none, allowed: place(8192, rows, cols, 1) })) !== '';
        const allowed = { rows, cols, data: new Uint8Array(rows * cols).fill(1) };
        const api = apiRefuses(
          () => rp.attention({ q: m(n, 2, 1), k: m(n, 2, 2), allowed, position: { scheme: 'none' } }),
          /^attention: allowed must be q\.rows × k\.rows = 4 × 4/,
        );
        if (api !== coreRefuses) disagreements.push([rows, cols]);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("T5's biases: 1 or heads rows of numBuckets", () => {
    const outcomes = [];
    for (const heads of [1, 2, 3]) {
      for (const rows of [1, 2, 3, 4]) {
        const coreRefuses =
          coreRefusal(heads, (place) => ({
            scheme: core.PositionScheme.t5,
            t5,
            bucketBiases: place(16384, rows, t5.numBuckets),
          })) !== '';
        const position = { scheme: 't5', ...t5, biases: new Float64Array(rows * t5.numBuckets) };
        const api = apiRefuses(
          () => rp.attention({ q: m(n, 2 * heads, 1), k: m(n, 2 * heads, 2), heads, position }),
          /^attention: position\.biases must hold /,
        );
        outcomes.push({ heads, rows, coreRefuses, api });
      }
    }
    expect(outcomes.filter(({ coreRefuses, api }) => coreRefuses !== api)).toEqual([]);
    const taken = outcomes.filter(({ coreRefuses }) => !coreRefuses).map(({ heads, rows }) => `${heads}:${rows}`);
    expect(taken).toEqual(['1:1', '2:1', '2:2', '3:1', '3:3']);
  });

  it('every extent of the masks and the position tables is one the API evaluates, and the core names', () => {
    const named = ATTENTION_SHAPES.filter(({ role }) => role === 'mask' || role === 'position').flatMap(
      ({ rows, cols }) => [rows, cols],
    );
    expect(named.filter((extent) => !CHOICE_EXTENTS.includes(extent))).toEqual([]);
    expect(CHOICE_EXTENTS.filter((extent) => !CORE_CONTRACT.extents.includes(extent))).toEqual([]);
  });

  it('no file of web/ but attention-regions.js spells these rules out by hand', () => {
    const root = new URL('../../web/', import.meta.url);
    // How the rules were written before the core owned them: a length held to keys or heads, a
    // count of biases as heads × numBuckets, a row count held to the queries.
    const byHand = [
      /\bheads\s*\*\s*(position\.)?numBuckets\b/,
      /\bnumBuckets\s*\*\s*heads\b/,
      /\.length\s*[!=]==\s*(keys|heads)\b/,
      /\.rows\s*[!=]==\s*queries\b/,
      /\.cols\s*[!=]==\s*keys\b/,
    ];
    const copies = [];
    for (const file of readdirSync(root, { recursive: true })) {
      if (!/\.(m?js|ts)$/.test(file) || file.endsWith('attention-regions.js')) continue;
      readFileSync(new URL(file, root), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (byHand.some((pattern) => pattern.test(line))) copies.push(`${file}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(copies).toEqual([]);
    // The patterns find the rules as they were written (the test is not empty).
    expect(byHand.some((pattern) => pattern.test('const rows = heads > 1 && length === heads * numBuckets'))).toBe(
      true,
    );
    expect(byHand.some((pattern) => pattern.test('if (flags.length !== keys) {'))).toBe(true);
  });
});
