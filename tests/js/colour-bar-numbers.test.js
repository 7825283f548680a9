// The numbers under a colour bar, by the one rule the canvas and the SVG export draw them by
// (colourBarNumbers): every other tick dropped while two neighbours' texts would come closer than
// 4 px, each text centred on its tick but kept left of the right edge given. Widths here from a
// measure of 9 px a character, so that what touches is worked out by hand below.
import { describe, expect, test } from 'vitest';
import { colourBarNumbers } from '../../web/render/colour-bar.js';

const measure = (text) => 9 * [...text].length;

describe('colourBarNumbers', () => {
  test('integers −12 to 12 on 208 px: ticks every 3 touch, every 6 do not', () => {
    // Every 3 (ceil(24 / 8)): nine ticks 26 px apart; "−12" (27 px) and "−9" (18 px) need
    // 13.5 + 9 + 4 = 26.5 px between their centres. Every 6: 52 px apart, 13.5 + 9 + 4 at most.
    const numbers = colourBarNumbers({ min: -12, max: 12, integer: true }, { x: 10, width: 208, measure });
    expect(numbers.map((n) => n.text)).toEqual(['−12', '−6', '0', '6', '12']);
    expect(numbers.map((n) => n.x)).toEqual([10, 62, 114, 166, 218]);
    expect(numbers.map((n) => n.centre)).toEqual([10, 62, 114, 166, 218]);
  });

  test('on 240 px the nine fit (30 px apart) and all are drawn', () => {
    const numbers = colourBarNumbers({ min: -12, max: 12, integer: true }, { x: 0, width: 240, measure });
    expect(numbers.map((n) => n.value)).toEqual([-12, -9, -6, -3, 0, 3, 6, 9, 12]);
  });

  test('a number that would pass the right edge ends there', () => {
    // "12" (18 px) centred on 218 would end at 227: moved left to end at 220, centred on 211.
    const numbers = colourBarNumbers(
      { min: -12, max: 12, integer: true },
      { x: 10, width: 208, measure, numbersRight: 220 },
    );
    expect(numbers.at(-1)).toEqual({ value: 12, text: '12', x: 218, centre: 211 });
  });
});
