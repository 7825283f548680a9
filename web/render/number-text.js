// Numbers as the page writes them: a true minus sign (−, as print does), significant digits,
// fixed decimals without "−0", and signed differences (+0.081, −0.012). The one place these are
// written; every label, caption, readout and verdict takes its numbers from here.

/**
 * A number, or a number already written as text ('-3', '-0.25', '1.5e-7'), with each of its
 * hyphen-minus signs (the number's and its exponent's) written as a minus sign (−). Only a '-'
 * that starts the text or follows an exponent's 'e' and comes before a digit, '.' or 'Infinity'
 * is a sign: a hyphenated word keeps its hyphens.
 */
export const withMinus = (number) => String(number).replace(/(^|e)-(?=[\d.]|Infinity)/g, '$1−');

/**
 * A value to `digits` significant digits (0.00098, 1.69, 12.3), with a true minus sign; very
 * small or large magnitudes in exponent form (1.2e−7); integers up to a million as they are.
 */
export function formatSignificant(value, digits = 3) {
  if (value === 0) return '0';
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? '∞' : '−∞';
  const size = Math.abs(value);
  const text =
    size >= 1e-4 && size < 10 ** digits
      ? String(Number(value.toPrecision(digits)))
      : size >= 10 ** digits && size < 1e6
        ? String(Math.round(value))
        : value.toExponential(digits - 1);
  return withMinus(text);
}

/** A value to `digits` decimals with a true minus sign, and no "−0.00" for a value that rounds to 0. */
export const formatFixed = (value, digits) => withMinus(value.toFixed(digits).replace(/^-(0\.?0*)$/, '$1'));

/**
 * A difference with its sign always written, to `digits` decimals: +0.081, −0.012; '–' when not
 * finite. A value that is not 0 but would round to 0 there gets one significant digit (−0.0001, not
 * −0.000), so that a bound just below 0 reads as below 0.
 */
export const formatSigned = (value, digits = 3) => {
  if (!Number.isFinite(value)) return '–';
  const size = Math.abs(value);
  const text = size.toFixed(digits);
  return `${value < 0 ? '−' : '+'}${size && !Number(text) ? size.toPrecision(1) : text}`;
};

/**
 * The fewest decimals, from 2, at which a and b written to them (as formatFixed writes)
 * add up to `sum` written to them: 0.54 + (−1.2) = −0.62 does not check by hand, 0.544 + (−1.161)
 * = −0.617 does.
 */
export function addingDecimals(a, b, sum) {
  let d = 2;
  const at = (x) => Math.round(x.toFixed(d) * 10 ** d);
  while (d < 9 && at(a) + at(b) - at(sum)) d += 1;
  return d;
}

/**
 * A share (0.4235) as a percentage to `digits` decimals: '42.4 %', the number and its "%" joined
 * by a no-break space (U+00A0, as formatGrouped joins digit groups), so a line never breaks before
 * the "%".
 */
export const formatPercent = (share, digits = 1) => `${formatFixed(100 * share, digits)}\u00a0%`;

/**
 * A relative change (0.017, −0.071) as a percentage with its sign always written, to `digits`
 * decimals: '+1.7 %', '−7.1 %', joined to its "%" by a no-break space as formatPercent's.
 */
export const formatSignedPercent = (change, digits = 1) => `${formatSigned(100 * change, digits)}\u00a0%`;

/** A difference of shares (0.042) in percentage points, its sign always written: '+4.2', '−0.3'. */
export const formatSignedPoints = (difference, digits = 1) => formatSigned(100 * difference, digits);

/** 135000 → "135 000": groups of three digits joined by a no-break space (U+00A0), so a line never breaks inside the number. */
export const formatGrouped = (value) => withMinus(String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0'));
