// The page's example scenario, rp.example(options) (README "The example scenario"): every option
// read once (snapshot.js) and checked (validate.js), the core's draw of X, the weights and the
// relative tables by one of two draws into the arena, the projections and the table's profile
// copied out, and attention()'s panels of them (through the host's attention, the instance's own
// call). Takes the RelPos instance's host ({ core, arena, callRegions, attention }).
import { EXAMPLE_CHOICES, EXAMPLE_DEFAULTS, LOCALITY_TABLE_DEFAULTS } from './defaults.js';
import { MAX_DIMENSION, MAX_SEED, MAX_TABLE_DISTANCE, SETTING_RANGES } from './limits.js';
import {
  describe,
  checkBoolean,
  checkBudget,
  checkChoice,
  checkInteger,
  checkNumber,
  checkOptions,
} from './validate.js';
import { Snapshot } from './snapshot.js';
import { throwIfRefused } from './wasm-arena.js';
import { checkOutputs } from './attention-options.js';

const F64 = Float64Array.BYTES_PER_ELEMENT;
const matrix = (rows, cols, data) => ({ rows, cols, data });

/** The longest token example() takes, in UTF-8 bytes. */
export const MAX_TOKEN_BYTES = 8192;

const utf8 = new TextEncoder();

// example()'s tokens: an array of 1 to MAX_DIMENSION non-empty strings (read once, holes as undefined).
function checkTokens(where, given) {
  const tokens = new Snapshot(where).list('tokens', given);
  if (!Array.isArray(tokens))
    throw new TypeError(`${where}: tokens must be an array of strings, got ${describe(tokens)}`);
  if (tokens.length === 0 || tokens.length > MAX_DIMENSION) {
    throw new RangeError(`${where}: tokens must hold 1 to ${MAX_DIMENSION} words, got ${tokens.length}`);
  }
  tokens.forEach((token, index) => {
    if (typeof token !== 'string')
      throw new TypeError(`${where}: tokens[${index}] must be a string, got ${describe(token)}`);
    if (token === '') throw new RangeError(`${where}: tokens[${index}] is empty; every token must be a word`);
    if (utf8.encode(token).length > MAX_TOKEN_BYTES) {
      throw new RangeError(`${where}: tokens[${index}] is longer than ${MAX_TOKEN_BYTES} bytes of UTF-8`);
    }
  });
  return tokens;
}

/** rp.example(options): the draw ({ params, tokens, weights, inputs, profile }) and attention()'s panels of it. */
export function exampleScenario(host, options) {
  const where = 'example';
  const given = new Snapshot(where).fields(options);
  const p = checkOptions(where, 'options', given, { ...EXAMPLE_DEFAULTS, outputs: undefined, views: false });
  const outputs = p.outputs === undefined ? undefined : checkOutputs(where, p.outputs);
  const views = checkBoolean(where, 'views', p.views);
  delete p.outputs;
  delete p.views;
  checkInteger(where, 'seed', p.seed, 0, MAX_SEED);
  checkChoice(where, 'draw', p.draw, EXAMPLE_CHOICES.draw);
  const tokens = p.tokens === undefined ? undefined : checkTokens(where, p.tokens);
  if (tokens) {
    if (given?.seqLen !== undefined && given.seqLen !== tokens.length) {
      checkInteger(where, 'seqLen', p.seqLen, 1, MAX_DIMENSION);
      throw new RangeError(
        `${where}: seqLen (${p.seqLen}) must equal the number of tokens (${tokens.length}); give one or the other`,
      );
    }
    p.seqLen = tokens.length;
  }
  checkInteger(where, 'seqLen', p.seqLen, 1, MAX_DIMENSION);
  checkInteger(where, 'dModel', p.dModel, 1, MAX_DIMENSION);
  checkInteger(where, 'dK', p.dK, 1, MAX_DIMENSION);
  checkInteger(where, 'maxDistance', p.maxDistance, 0, MAX_TABLE_DISTANCE);
  checkBoolean(where, 'causal', p.causal);
  checkChoice(where, 'table', p.table, EXAMPLE_CHOICES.table);
  const shape = checkOptions(where, 'locality', p.locality, LOCALITY_TABLE_DEFAULTS);
  checkNumber(where, 'locality.noise', shape.noise, SETTING_RANGES.noise);
  checkNumber(where, 'locality.width', shape.width, SETTING_RANGES.width);
  checkNumber(where, 'locality.asymmetry', shape.asymmetry, SETTING_RANGES.asymmetry);
  checkNumber(where, 'locality.strength', shape.strength, SETTING_RANGES.strength);
  checkBoolean(where, 'sameQuery', p.sameQuery);
  const { seqLen: n, dModel, dK } = p;
  const words = tokens ?? Array.from({ length: n }, (_, i) => `#${i}`);
  const tableRows = 2 * p.maxDistance + 1;
  const shapes = {
    x: [n, dModel],
    queryWeights: [dModel, dK],
    keyWeights: [dModel, dK],
    valueWeights: [dModel, dK],
    relativeKeys: [tableRows, dK],
    relativeValues: [tableRows, dK],
    queries: [n, dK],
    keys: [n, dK],
    values: [n, dK],
    profile: [tableRows, 1],
  };
  const encoded = p.draw === 'stable' ? words.map((word) => utf8.encode(word)) : [];
  const tokenBytes = encoded.reduce((sum, bytes) => sum + bytes.length, 0);
  const drawBytes = Object.values(shapes).reduce((sum, [rows, cols]) => sum + rows * cols * F64, 0);
  const attentionBytes = (5 * n * n + 2 * n * tableRows + n * dK) * F64;
  checkBudget(
    where,
    `seqLen = ${n} with dModel = ${dModel}, dK = ${dK}`,
    drawBytes + attentionBytes + tokenBytes + 4 * n,
  );
  const names = Object.keys(shapes);
  const drawn = host.callRegions(
    where,
    [
      ...names.map((name) => [...shapes[name], Float64Array]),
      [1, tokenBytes, Uint8Array],
      [1, encoded.length, Int32Array],
    ],
    (regions) => {
      const buffers = Object.fromEntries(names.map((name, index) => [name, regions[index]]));
      [buffers.tokenBytes, buffers.tokenLengths] = regions.slice(names.length);
      let at = buffers.tokenBytes.address;
      for (const bytes of encoded) {
        host.arena.write(at, bytes);
        at += bytes.length;
      }
      if (encoded.length)
        host.arena.write(
          buffers.tokenLengths.address,
          Int32Array.from(encoded, (bytes) => bytes.length),
        );
      const refusal = host.core.exampleScenarioInto(
        { n, dModel, dK, maxDistance: p.maxDistance },
        {
          seed: p.seed,
          draw: host.core.ScenarioDraw[p.draw],
          table: host.core.PositionTable[p.table],
          locality: shape,
          sameQuery: p.sameQuery,
        },
        buffers,
      );
      throwIfRefused(where, refusal);
      return Object.fromEntries(
        names.map((name) => {
          const [rows, cols] = shapes[name];
          return [name, matrix(rows, cols, host.arena.readRegion(buffers[name], Float64Array))];
        }),
      );
    },
  );
  const inputs = {
    q: drawn.queries,
    k: drawn.keys,
    v: drawn.values,
    relKeys: drawn.relativeKeys,
    relValues: drawn.relativeValues,
    causal: p.causal,
  };
  const profile = {
    offsets: Int32Array.from({ length: tableRows }, (_, index) => index - p.maxDistance),
    values: drawn.profile.data,
  };
  return {
    params: { ...p, tokens: tokens ? [...tokens] : undefined, locality: { ...shape } },
    tokens: [...words],
    weights: { x: drawn.x, wQ: drawn.queryWeights, wK: drawn.keyWeights, wV: drawn.valueWeights },
    inputs,
    profile,
    ...(outputs?.length === 0
      ? { maxDistance: p.maxDistance }
      : host.attention(
          inputs,
          outputs || views ? { ...(outputs && { outputs }), ...(views && { views }) } : undefined,
        )),
  };
}
