// The defaults of localityProfile() and example(): the handbook's settings. The core's structs
// (cpp/relpos/locality_profile.hpp, example_scenario.hpp) hold the same values, and
// tests/js/defaults.test.js holds the two equal. No WebAssembly here, so the page's settings
// can take their defaults from this file without loading the module.

export const LOCALITY_PROFILE_DEFAULTS = Object.freeze({
  seed: 42,
  dK: 4,
  maxDistance: 5,
  noise: 0.1,
  width: 1,
  asymmetry: 0,
});

/** The locality table's shape (example({ table: 'locality' })); the handbook's figure. */
export const LOCALITY_TABLE_DEFAULTS = Object.freeze({ noise: 0.1, width: 1, asymmetry: 0, strength: 1 });

export const EXAMPLE_DEFAULTS = Object.freeze({
  seed: 42,
  seqLen: 6,
  dModel: 8,
  dK: 4,
  maxDistance: 3,
  causal: false,
  draw: 'handbook',
  tokens: undefined,
  table: 'random',
  locality: LOCALITY_TABLE_DEFAULTS,
  sameQuery: false,
});
