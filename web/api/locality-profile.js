// The handbook's simulated locality profile (docs/maths.md §7), rp.localityProfile(options): the
// options checked (validate.js), the core's draw of a relative key table (seeded noise plus a
// Gaussian bump on its first column) read out by a uniform query, and copies of the table, the
// query and the profile. Takes the RelPos instance's host ({ core, arena, callRegions }).
import { LOCALITY_PROFILE_DEFAULTS } from './defaults.js';
import { MAX_DIMENSION, MAX_SEED, MAX_TABLE_DISTANCE, SETTING_RANGES } from './limits.js';
import { checkBudget, checkInteger, checkNumber, checkOptions } from './validate.js';
import { throwIfRefused } from './wasm-arena.js';

const F64 = Float64Array.BYTES_PER_ELEMENT;
const matrix = (rows, cols, data) => ({ rows, cols, data });

/** rp.localityProfile(options): { offsets, embeddings, query, profile }. */
export function localityProfile(host, options) {
  const where = 'localityProfile';
  const p = checkOptions(where, 'options', options, LOCALITY_PROFILE_DEFAULTS);
  checkInteger(where, 'seed', p.seed, 0, MAX_SEED);
  checkInteger(where, 'dK', p.dK, 1, MAX_DIMENSION);
  checkInteger(where, 'maxDistance', p.maxDistance, 0, MAX_TABLE_DISTANCE);
  checkNumber(where, 'noise', p.noise, SETTING_RANGES.noise);
  checkNumber(where, 'width', p.width, SETTING_RANGES.width);
  checkNumber(where, 'asymmetry', p.asymmetry, SETTING_RANGES.asymmetry);
  const tableRows = 2 * p.maxDistance + 1;
  const shapes = [
    [tableRows, p.dK, Float64Array],
    [1, p.dK, Float64Array],
    [1, tableRows, Float64Array],
  ];
  checkBudget(
    where,
    `maxDistance = ${p.maxDistance} with dK = ${p.dK}`,
    shapes.reduce((sum, [rows, cols]) => sum + rows * cols * F64, 0),
  );
  return host.callRegions(where, shapes, ([embeddings, query, profile]) => {
    const { seed, dK, maxDistance, noise, width, asymmetry } = p;
    throwIfRefused(
      where,
      host.core.localityProfileInto({ seed, dK, maxDistance, noise, width, asymmetry }, embeddings, query, profile),
    );
    return {
      offsets: Int32Array.from({ length: tableRows }, (_, index) => index - p.maxDistance),
      embeddings: matrix(tableRows, p.dK, host.arena.readRegion(embeddings, Float64Array)),
      query: host.arena.readRegion(query, Float64Array),
      profile: host.arena.readRegion(profile, Float64Array),
    };
  });
}
