// The page's numbers as text (web/render/number-text.js): a minus sign (U+2212) for every sign of
// a number and of its exponent and never inside a word, significant digits, fixed decimals with
// no "−0", differences with their sign written, and a percentage's "%" and a number's digit
// groups held to the number by a no-break space (U+00A0). Expected texts are written out by hand.
import { describe, expect, test } from 'vitest';
import {
  addingDecimals,
  formatFixed,
  formatGrouped,
  formatPercent,
  formatSignedPercent,
  formatSignedPoints,
  formatSignificant,
  formatSigned,
  withMinus,
} from '../../web/render/number-text.js';
import { formatTick } from '../../web/render/ticks.js';
import { sharePercent } from '../../web/views/near-share.js';
import { panelById } from '../../web/views/panels.js';

const MINUS = '\u2212';

describe('number text', () => {
  test('formatGrouped: groups of three digits joined by a no-break space, never a space a line breaks at', () => {
    expect(formatGrouped(134996)).toBe('134\u00a0996');
    expect(formatGrouped(15959)).toBe('15\u00a0959');
    expect(formatGrouped(1234567.4)).toBe('1\u00a0234\u00a0567');
    expect(formatGrouped(999)).toBe('999');
    expect(formatGrouped(-2541)).toBe(`${MINUS}2\u00a0541`);
    expect(formatGrouped(2541)).not.toMatch(/ /);
  });

  test('withMinus: the sign of a number and of its exponent, not a hyphen in a word', () => {
    expect(withMinus(-3)).toBe(`${MINUS}3`);
    expect(withMinus('-0.25')).toBe(`${MINUS}0.25`);
    expect(withMinus(-1.5e-7)).toBe(`${MINUS}1.5e${MINUS}7`);
    expect(withMinus('2e-5')).toBe(`2e${MINUS}5`);
    expect(withMinus(-Infinity)).toBe(`${MINUS}Infinity`);
    expect(withMinus(12)).toBe('12');
    expect(withMinus(0)).toBe('0');
    expect(withMinus('x-axis')).toBe('x-axis');
    expect(withMinus('content-only')).toBe('content-only');
    expect(withMinus('e-mail')).toBe('e-mail');
  });

  test('addingDecimals: the fewest decimals, from 2, at which two terms as written add up to their sum as written', () => {
    // 0.5 + 0.25 = 0.75 at 2 decimals.
    expect(addingDecimals(0.5, 0.25, 0.75)).toBe(2);
    // 0.014 + 0.014 = 0.028: 0.01 + 0.01 is not 0.03; 0.014 + 0.014 = 0.028.
    expect(addingDecimals(0.014, 0.014, 0.028)).toBe(3);
    // −0.7094 + 1.0354 = 0.326: −0.71 + 1.04 = 0.33.
    expect(addingDecimals(-0.7094, 1.0354, 0.326)).toBe(2);
    // 0.01449 + 0.01449 = 0.02898: 0.01 + 0.01 is not 0.03, 0.014 + 0.014 not 0.029; 0.0145 + 0.0145 = 0.0290.
    expect(addingDecimals(0.01449, 0.01449, 0.02898)).toBe(4);
    // Each term and the sum, written to those decimals, check by hand.
    const d = addingDecimals(0.014, 0.014, 0.028);
    expect([formatFixed(0.014, d), formatFixed(0.014, d), formatFixed(0.028, d)]).toEqual(['0.014', '0.014', '0.028']);
  });

  test('formatSignificant: digits, exponent form outside 1e-4…1e6, the special values', () => {
    expect(formatSignificant(0.000983456)).toBe('0.000983');
    expect(formatSignificant(1.6875)).toBe('1.69');
    expect(formatSignificant(-12.34)).toBe(`${MINUS}12.3`);
    expect(formatSignificant(0.5, 4)).toBe('0.5');
    expect(formatSignificant(1 / 2048, 4)).toBe('0.0004883');
    expect(formatSignificant(-1.234e-7)).toBe(`${MINUS}1.23e${MINUS}7`);
    expect(formatSignificant(54321.6)).toBe('54322');
    expect(formatSignificant(2.5e7, 2)).toBe('2.5e+7');
    expect(formatSignificant(0)).toBe('0');
    expect(formatSignificant(NaN)).toBe('NaN');
    expect(formatSignificant(-Infinity)).toBe(`${MINUS}∞`);
  });

  test('formatFixed: decimals, a minus sign, and 0 for what rounds to zero', () => {
    expect(formatFixed(-1.234, 2)).toBe(`${MINUS}1.23`);
    expect(formatFixed(0.5, 2)).toBe('0.50');
    expect(formatFixed(-0.001, 2)).toBe('0.00');
    expect(formatFixed(-0.4, 0)).toBe('0');
  });

  test('formatSigned: the sign always written, a dash when not finite', () => {
    expect(formatSigned(0.0814)).toBe('+0.081');
    expect(formatSigned(-0.0123)).toBe(`${MINUS}0.012`);
    expect(formatSigned(-2.25, 1)).toBe(`${MINUS}2.3`);
    // Not 0, but 0 at three decimals: one significant digit, so the sign is seen to be true.
    expect(formatSigned(-0.00014)).toBe(`${MINUS}0.0001`);
    expect(formatSigned(0.00046)).toBe('+0.0005');
    expect(formatSigned(0.0004, 1)).toBe('+0.0004');
    expect(formatSigned(-0.0005)).toBe(`${MINUS}0.001`); // rounds away from 0 at three decimals
    expect(formatSigned(0)).toBe('+0.000');
    expect(formatSigned(NaN)).toBe('–');
  });

  test('formatPercent, formatSignedPercent and formatSignedPoints: shares and changes as percentages (the "%" after a no-break space), differences in points', () => {
    expect(formatPercent(0.4235)).toBe('42.4\u00a0%');
    expect(formatPercent(1)).toBe('100.0\u00a0%');
    expect(formatPercent(0.8 / 1.8)).toBe('44.4\u00a0%');
    expect(formatPercent(0.01, 0)).toBe('1\u00a0%');
    expect(formatPercent(-0.0001)).toBe('0.0\u00a0%'); // no "−0.0"
    // Never a space a line breaks at between the number and its "%".
    expect(formatPercent(0.091)).not.toMatch(/ /);
    expect(formatSignedPercent(0.017)).toBe('+1.7\u00a0%');
    expect(formatSignedPercent(-0.0712)).toBe(`${MINUS}7.1\u00a0%`);
    expect(formatSignedPercent(0.02, 0)).toBe('+2\u00a0%');
    expect(formatSignedPercent(-0.071)).not.toMatch(/ /);
    expect(formatSignedPoints(0.042)).toBe('+4.2');
    expect(formatSignedPoints(-0.0031)).toBe(`${MINUS}0.3`);
    expect(formatSignedPoints(-0.0002)).toBe(`${MINUS}0.02`); // not 0, so not "−0.0"
  });

  test('axis ticks and shares: the same minus, no "−0", as many decimals as the step needs', () => {
    expect(formatTick(-2, [-2, 0, 2])).toBe(`${MINUS}2`);
    expect(formatTick(-1e-12, [-0.5, 0, 0.5])).toBe('0.0');
    expect(formatTick(0.4, [0, 0.2, 0.4])).toBe('0.4');
    expect(formatTick(2000, [0, 1000, 2000])).toBe('2000');
    expect(formatTick(-0.05, [-0.1, -0.05, 0])).toBe(`${MINUS}0.05`);
    // Ticks 1 apart at ±0.5 (every other tick of step 0.5, as a narrow colour bar keeps them): their own values.
    expect(formatTick(-0.5, [-0.5, 0.5])).toBe(`${MINUS}0.5`);
    expect(formatTick(0.5, [-0.5, 0.5])).toBe('0.5');
    expect(formatTick(0.25, [-0.75, -0.25, 0.25, 0.75])).toBe('0.25');
    expect(formatTick(0.3, [-0.3, 0.3])).toBe('0.3'); // 0.6 apart: a step of one decimal
    expect(sharePercent(0.74)).toBe('74\u00a0%');
    expect(sharePercent(1)).toBe('100\u00a0%');
  });

  test('a weight panel writes its colour top and 1/n by formatSignificant’s rule: no trailing zeros', () => {
    const combined = panelById('combinedWeights');
    expect(combined.barLabel({ max: 0.5 }, { n: 5 })).toBe('weight, 0 to 0.5 (this panel’s max)');
    expect(combined.barLabel({ max: 0.123456 }, { n: 5 })).toBe('weight, 0 to 0.123 (this panel’s max)');
    const content = panelById('contentWeights');
    expect(content.note({ n: 5, causal: false })).toBe(
      'For reference, uniform attention would give 1/n = 0.2 per key.',
    );
    expect(content.note({ n: 6, causal: false })).toBe(
      'For reference, uniform attention would give 1/n = 0.17 per key.',
    );
  });
});
