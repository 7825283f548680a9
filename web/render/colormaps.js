// Colour maps as 256-entry RGBA tables sampled from d3-scale-chromatic at build time
// (colour-tables.js, by scripts/make-colour-tables.mjs; nothing of d3 at run time): viridis for
// weights, RdBu reversed for signed values (blue below zero, red above), both readable by
// colour-blind readers; and the rule that maps a value to an entry.
import { COLOUR_TABLES_HEX } from './colour-tables.js';

export const TABLE_SIZE = 256;

/** How text names the diverging map's colours, kept on one line (no-break spaces): a caption that wraps never starts a line with "< red". */
export const SIGN_COLOURS = 'blue\u00a0<\u00a00\u00a0<\u00a0red';

/** [r, g, b] of a CSS colour as d3 writes them: "#rrggbb" or "rgb(r, g, b)". */
export function parseColour(css) {
  if (css.startsWith('#')) return [1, 3, 5].map((at) => parseInt(css.slice(at, at + 2), 16));
  return css.match(/\d+/g).slice(0, 3).map(Number);
}

// 6 hex digits per entry -> RGBA bytes.
function decode(hex) {
  const table = new Uint8ClampedArray(TABLE_SIZE * 4);
  for (let entry = 0; entry < TABLE_SIZE; entry += 1) {
    for (let c = 0; c < 3; c += 1)
      table[entry * 4 + c] = parseInt(hex.slice(entry * 6 + c * 2, entry * 6 + c * 2 + 2), 16);
    table[entry * 4 + 3] = 255;
  }
  return table;
}

const tables = new Map();

/** The RGBA table (256 × 4 bytes) of a named colour map, decoded on first use. */
export function colourTable(name) {
  if (!tables.has(name)) {
    if (!Object.hasOwn(COLOUR_TABLES_HEX, name)) {
      throw new RangeError(
        `unknown colour map ${JSON.stringify(name)}; expected ${Object.keys(COLOUR_TABLES_HEX).join(', ')}`,
      );
    }
    tables.set(name, decode(COLOUR_TABLES_HEX[name]));
  }
  return tables.get(name);
}

/** The colour map of each kind of scale. */
export const SCALE_MAPS = { sequential: 'viridis', diverging: 'rdbu-reversed' };

/**
 * A colour scale, complete: everything a heatmap and its colour bar need.
 *
 *   kind     'sequential' or 'diverging';  map  the colour table's name (SCALE_MAPS[kind])
 *   min, max the values that get the first and the last colour (domain: [min, max])
 *   beyond   { low, high }: values of the extent lie below min / above max (they saturate)
 *   integer  integer data (integer ticks);  label  the colour bar's label
 *   entry(v) the table entry of value v (entryFor)
 *
 * From the values' extent { min, max }: sequential scales span [min, max] (or `fixed`, a
 * [low, high]: weights use [0, 1]); diverging scales are symmetric around 0, [-m, m] with m the
 * largest |value| (or `fixed`, an m; 1 if all values are zero).
 */
export function makeScale(kind, extent, fixed, { integer = false, label = '' } = {}) {
  if (!Object.hasOwn(SCALE_MAPS, kind)) {
    throw new RangeError(`unknown scale kind ${JSON.stringify(kind)}; expected ${Object.keys(SCALE_MAPS).join(', ')}`);
  }
  const { min, max } = extent;
  let low;
  let high;
  if (kind === 'sequential') {
    [low, high] = fixed ?? (max > min ? [min, max] : [min - 1, min + 1]);
  } else {
    let m = fixed ?? Math.max(Math.abs(min), Math.abs(max));
    if (!(m > 1e-12)) m = 1; // all (numerically) zero: keep rounding noise at the centre colour
    [low, high] = [-m, m];
  }
  const scale = {
    kind,
    map: SCALE_MAPS[kind],
    min: low,
    max: high,
    domain: [low, high],
    beyond: { low: min < low, high: max > high },
    integer,
    label,
    entry: (value) => entryFor(scale, value),
  };
  return scale;
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

/**
 * The table entry for a value on a scale from `min` spanning `span` (max - min):
 * round((v - min) / span * 255), clamped to 0..255. The one place this rule is written (the
 * heatmap's per-cell loop calls it too; V8 inlines it).
 */
export const entryOf = (value, min, span) => roundEntry(((value - min) / span) * (TABLE_SIZE - 1));

/** The table entry for a value on `scale` ({ min, max }). */
export function entryFor(scale, value) {
  return entryOf(value, scale.min, scale.max - scale.min);
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
