// Colour maps as 256-entry RGBA tables sampled once from d3-scale-chromatic (viridis for
// weights, RdBu reversed for signed values: blue below zero, red above; both readable by
// colour-blind readers), and the rule that maps a value to an entry.
import { interpolateRdBu, interpolateViridis } from 'd3-scale-chromatic';

export const TABLE_SIZE = 256;

/** The interpolators behind the tables: t in [0, 1] -> CSS colour. Entry e is at t = e / 255. */
export const INTERPOLATORS = {
  viridis: interpolateViridis,
  'rdbu-reversed': (t) => interpolateRdBu(1 - t),
};

/** [r, g, b] of a CSS colour as d3 writes them: "#rrggbb" or "rgb(r, g, b)". */
export function parseColour(css) {
  if (css.startsWith('#')) return [1, 3, 5].map((at) => parseInt(css.slice(at, at + 2), 16));
  return css.match(/\d+/g).slice(0, 3).map(Number);
}

function sample(interpolate) {
  const table = new Uint8ClampedArray(TABLE_SIZE * 4);
  for (let entry = 0; entry < TABLE_SIZE; entry += 1) {
    table.set([...parseColour(interpolate(entry / (TABLE_SIZE - 1))), 255], entry * 4);
  }
  return table;
}

const tables = new Map();

/** The RGBA table (256 × 4 bytes) of a named colour map, sampled on first use. */
export function colourTable(name) {
  if (!tables.has(name)) tables.set(name, sample(INTERPOLATORS[name]));
  return tables.get(name);
}

/**
 * A colour scale for a panel, from the values' extent { min, max }. Sequential scales span
 * [min, max] (or `fixed`: weights use [0, 1]); diverging scales are symmetric around 0:
 * [-m, m] with m the largest |value| (or `fixed`; 1 if all values are zero).
 */
export function makeScale(kind, { min, max }, fixed) {
  if (kind === 'sequential') {
    const [low, high] = fixed ?? (max > min ? [min, max] : [min - 1, min + 1]);
    return { kind, map: 'viridis', min: low, max: high };
  }
  let m = fixed ?? Math.max(Math.abs(min), Math.abs(max));
  if (!(m > 1e-12)) m = 1; // all (numerically) zero: keep rounding noise at the centre colour
  return { kind, map: 'rdbu-reversed', min: -m, max: m };
}

/** min and max of n × n row-major values, leaving out j > i when `masked`; one pass. */
export function extentOf(values, n, masked = false) {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i += 1) {
    const end = masked ? i + 1 : n;
    for (let index = i * n, last = i * n + end; index < last; index += 1) {
      const v = values[index];
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  return { min, max };
}

/**
 * Math.round(x) clamped to 0..255, without Math.round (slow in V8, and this runs for every
 * cell): x + 0.5 is exact for 0.5 <= x < 2^52, so truncating it is rounding half up; below 0.5
 * (where 0.49999999999999994 + 0.5 would round up to 1) the entry is 0. NaN gives 0.
 */
export const roundEntry = (x) => (x < 0.5 ? 0 : x >= 254.5 ? 255 : (x + 0.5) | 0);

/** The table entry for a value: round((v - min) / (max - min) * 255), clamped to 0..255. */
export function entryFor(scale, value) {
  return roundEntry(((value - scale.min) / (scale.max - scale.min)) * (TABLE_SIZE - 1));
}

/** Relative luminance (0..1) of a table entry: picks dark or light text over a cell. */
export function luminance(table, entry) {
  const channel = (c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const at = entry * 4;
  return 0.2126 * channel(table[at]) + 0.7152 * channel(table[at + 1]) + 0.0722 * channel(table[at + 2]);
}
