// The heatmaps' colour entry: roundEntry (x + 0.5, truncated) must be exactly Math.round(x)
// clamped to 0..255, the documented rule (README "The page"), for every x a scale can produce.
import { describe, expect, test } from 'vitest';
import { seededRandom } from '../../web/api/seeded-random.js';
import { colourTable, entryFor, entryOf, makeScale, roundEntry } from '../../web/render/colormaps.js';

const reference = (x) => Math.min(255, Math.max(0, Math.round(x)));

describe('colour table entries', () => {
  test('halves, the doubles next to them, the ends and beyond', () => {
    const xs = [
      -1e300,
      -256,
      -0.5,
      -0.49999999999999994,
      -0,
      0,
      0.49999999999999994,
      0.5,
      1 - 2 ** -53,
      254.49999999999997,
      254.5,
      255,
      255.5,
      1e300,
      Infinity,
      -Infinity,
    ];
    for (let k = 0; k <= 256; k += 1) {
      for (const x of [k - 0.5, k + 0.5, k])
        xs.push(x, x - x * 2 ** -52 || -(2 ** -1074), x + Math.abs(x) * 2 ** -52 || 2 ** -1074);
    }
    for (const x of xs) expect(roundEntry(x), `x = ${x}`).toBe(reference(x));
  });

  test('a million random positions in and around 0..255', () => {
    const random = seededRandom(12345);
    for (let index = 0; index < 1e6; index += 1) {
      const x = random() * 300 - 20;
      if (roundEntry(x) !== reference(x)) expect(roundEntry(x), `x = ${x}`).toBe(reference(x));
    }
  });

  test('entryFor maps a value through the scale as before', () => {
    const scale = { min: -2, max: 2 };
    for (const value of [-3, -2, -1e-9, 0, 1e-9, 0.3, 1.99, 2, 5]) {
      expect(entryFor(scale, value)).toBe(reference(((value - scale.min) / (scale.max - scale.min)) * 255));
    }
  });

  test('entryOf is entryFor with the span precomputed', () => {
    for (const value of [-3, -1, 0, 0.25, 1, 4])
      expect(entryOf(value, -1, 2)).toBe(entryFor({ min: -1, max: 1 }, value));
  });
});

describe('colour scales', () => {
  test('a sequential scale is complete: domain, entries, what lies beyond, label', () => {
    const scale = makeScale('sequential', { min: -0.5, max: 1.5 }, [0, 1], { label: 'weight' });
    expect(scale).toMatchObject({ kind: 'sequential', map: 'viridis', min: 0, max: 1, domain: [0, 1], integer: false });
    expect(scale.beyond).toEqual({ low: true, high: true });
    expect(scale.label).toBe('weight');
    expect([scale.entry(0), scale.entry(0.5), scale.entry(1), scale.entry(7)]).toEqual([0, 128, 255, 255]);
  });

  test('a diverging scale is symmetric around 0 and spans the largest |value|', () => {
    const scale = makeScale('diverging', { min: -3, max: 1 }, undefined, { integer: true });
    expect(scale).toMatchObject({ map: 'rdbu-reversed', min: -3, max: 3, domain: [-3, 3], integer: true });
    expect(scale.beyond).toEqual({ low: false, high: false });
    expect(scale.entry(0)).toBe(128);
    expect(makeScale('diverging', { min: 0, max: 0 })).toMatchObject({ min: -1, max: 1 });
    expect(makeScale('sequential', { min: 2, max: 2 })).toMatchObject({ min: 1, max: 3 });
  });

  test('unknown names are errors that say what is known', () => {
    expect(() => colourTable('typo')).toThrow(/^unknown colour map "typo"; expected viridis, rdbu-reversed$/);
    expect(() => makeScale('typo', { min: 0, max: 1 })).toThrow(
      /^unknown scale kind "typo"; expected sequential, diverging$/,
    );
    expect(colourTable('viridis')).toHaveLength(256 * 4);
  });
});
