// The colour mapping every heatmap draws with (heatmap-image.js: square panels and any rows ×
// cols): values to 32-bit pixels through a colour table, in plain loops with no call per cell
// (this runs over every cell of every panel on each change).
import { MASKED } from './block-means.js';
import { colourTable, entryOf, parseColour } from './colormaps.js';

const pixelTables = new WeakMap();

/** The colour table of the map `name` as 32-bit pixels (a view of the same bytes), one per table. */
export function pixelTableOf(name) {
  const table = colourTable(name);
  if (!pixelTables.has(table))
    pixelTables.set(table, new Uint32Array(table.buffer, table.byteOffset, table.length / 4));
  return pixelTables.get(table);
}

/** A CSS colour as one opaque 32-bit pixel. */
export function pixelOf(colour) {
  return new Uint32Array(Uint8ClampedArray.from([...parseColour(colour), 255]).buffer)[0];
}

/**
 * rows × cols values (row-major) to 32-bit `pixels` through `table` on `scale` ({ min, max }):
 * NaN is `blank`, with `maskedBlocks` MASKED (a block of masked cells only) is `grey`, and with
 * `maskFrom`, row i's cells from column maskFrom(i) on are `grey` (`blank` where NaN); else the
 * value's table entry.
 */
export function colourMap(values, rows, cols, scale, table, pixels, { grey, blank, maskFrom = null, maskedBlocks }) {
  const { min, max } = scale;
  const span = max - min;
  for (let i = 0; i < rows; i += 1) {
    const start = i * cols;
    const stop = start + (maskFrom ? Math.min(maskFrom(i), cols) : cols);
    for (let index = start; index < stop; index += 1) {
      const value = values[index];
      if (value !== value) pixels[index] = blank;
      else if (maskedBlocks && value === MASKED) pixels[index] = grey;
      else pixels[index] = table[entryOf(value, min, span)];
    }
    for (let index = stop, last = start + cols; index < last; index += 1)
      pixels[index] = values[index] === values[index] ? grey : blank;
  }
}
