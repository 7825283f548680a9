// Each default has one home per layer: the core's structs (cpp/relpos/*.hpp) and the JS API's
// *_DEFAULTS; this test holds them equal, and the page's settings take theirs from the API (only
// the page's deliberate choices differ, and those are listed).
import { describe, expect, it } from 'vitest';
import createRelPosCore from '../../dist/relpos-core.mjs';
import { wasmBase64 } from '../../dist/relpos-core-wasm.mjs';
import {
  ADAM_DEFAULTS,
  EXAMPLE_DEFAULTS,
  LOCALITY_PROFILE_DEFAULTS,
  LOCALITY_TABLE_DEFAULTS,
  MODEL_DEFAULTS,
  SYNTHETIC_DEFAULTS,
} from '../../web/api/index.js';
import { CONTROLS, PAGE_CHOICES } from '../../web/settings/settings.js';

const core = await createRelPosCore({ wasmBinary: Buffer.from(wasmBase64, 'base64') });
const fromCore = core.coreDefaults();

/** The entries of `api` whose keys the core also has. */
const shared = (api, coreSide) => Object.fromEntries(Object.keys(coreSide).map((key) => [key, api[key]]));

describe('defaults: the core and the JS API agree', () => {
  it.each([
    ['localityProfile', LOCALITY_PROFILE_DEFAULTS],
    ['example', EXAMPLE_DEFAULTS],
    ['localityTable', LOCALITY_TABLE_DEFAULTS],
    ['model', MODEL_DEFAULTS],
    ['adam', ADAM_DEFAULTS],
    ['synthetic', SYNTHETIC_DEFAULTS],
  ])('%s', (name, api) => {
    expect(Object.keys(fromCore[name]).length).toBeGreaterThan(2);
    expect(shared(api, fromCore[name])).toEqual(fromCore[name]);
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
