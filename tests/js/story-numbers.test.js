// Step 5's working (web/page/story-steps.js byHandDigits): whatever the cell, the numbers as written
// are the true ones to their digits, the two weights differ as written, and a reader's calculator,
// fed the working as written, gives the weight after as written.
import { describe, expect, test } from 'vitest';
import { byHandDigits } from '../../web/page/story-steps.js';

const read = (text) => Number(text.replace(/−/g, '-'));
// The place of a written number's last digit (1.2e−7: 1e−8).
const unit = (text) => {
  const [mantissa, exponent = '0'] = text.replace(/−/g, '-').split('e');
  return 10 ** (Number(exponent) - (mantissa.split('.')[1] ?? '').length);
};
const significant = (text) => text.split('e')[0].replace('.', '').replace(/^0+/, '').length;
const writtenAs = (text, value) =>
  expect(Math.abs(read(text) - value), `${text} for ${value}`).toBeLessThanOrEqual(unit(text) / 2 + 1e-12);

describe('step 5’s working, checkable by hand', () => {
  test('2 000 cells: each number true to its digits, the calculator agrees, at most 6 significant digits', () => {
    let seed = 12345;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    let shortest = 0;
    for (let c = 0; c < 2000; c += 1) {
      const bias = 0.01 + next() * 12;
      const before = 10 ** (-3 * next()) * 0.9;
      const mean = Math.exp(bias) * (1.0001 + next() * 20); // a weight that falls
      const after = (before * Math.exp(bias)) / mean;
      const w = byHandDigits(bias, before, after, mean);
      writtenAs(w.bias, bias);
      writtenAs(w.exp, Math.exp(read(w.bias)));
      writtenAs(w.mean, mean);
      writtenAs(w.before, before);
      writtenAs(w.weightBefore, before);
      writtenAs(w.weightAfter, after);
      expect(read(w.weightAfter)).toBeLessThan(read(w.weightBefore));
      const byHand = (read(w.before) * read(w.exp)) / read(w.mean);
      writtenAs(w.weightAfter, byHand);
      for (const text of Object.values(w)) expect(significant(text), text).toBeLessThanOrEqual(7);
      if (significant(w.weightAfter) <= 2) shortest += 1;
    }
    expect(shortest).toBeGreaterThan(500); // most cells need no more than 2 digits
  });
});
