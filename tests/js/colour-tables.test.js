// The committed colour tables (web/render/colour-tables.js) are d3-scale-chromatic's colours, as
// scripts/make-colour-tables.mjs samples them, and colourTable() decodes them to those bytes.
import { interpolateRdBu, interpolateViridis } from 'd3-scale-chromatic';
import { expect, test } from 'vitest';
import { colourTablesSource } from '../../scripts/make-colour-tables.mjs';
import { colourTable } from '../../web/render/colormaps.js';
import { readFileSync } from 'node:fs';

const rgb = (css) =>
  css.startsWith('#')
    ? [1, 3, 5].map((at) => parseInt(css.slice(at, at + 2), 16))
    : css.match(/\d+/g).slice(0, 3).map(Number);

test('the committed tables are what the generator writes from d3 today', () => {
  expect(readFileSync(new URL('../../web/render/colour-tables.js', import.meta.url), 'utf8')).toBe(
    colourTablesSource(),
  );
});

test('colourTable decodes every entry to d3’s colour at t = e / 255', () => {
  for (const [name, f] of [
    ['viridis', interpolateViridis],
    ['rdbu-reversed', (t) => interpolateRdBu(1 - t)],
  ]) {
    const table = colourTable(name);
    for (let e = 0; e < 256; e += 1)
      expect(Array.from(table.slice(e * 4, e * 4 + 4)), `${name} ${e}`).toEqual([...rgb(f(e / 255)), 255]);
  }
});
