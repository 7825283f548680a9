// The profile figure: one score per offset −k…k as a line plot. Two uses:
//   Captions are in the math notation of web/render/math-text.js (set them with setMathText).
//   - the page: the uniform query's position bias on the panels' own a^K table (view.profile,
//     from example()): (u · a^K[c]) / √d_k with u = (1, …, 1)/√d_k, the position-bias panel's scale,
//     so with "same query in every row" each diagonal of that panel is one point of this plot;
//   - <relpos-profile>: the handbook's simulated table on its own (localityProfile()), read by
//     the uniform query as the handbook prints it (u · a^K, without the 1/√d_k).
import { drawLinePlot } from '../render/line-plot.js';
import { formatFixed, withMinus } from '../render/number-text.js';
import { createFigureShell, savesCanvasFigure } from './figure-shell.js';

/** The figure's DOM: the figure shell, with its PNG button wired. */
export function createProfileFigure(number, title = 'A simulated learned locality profile') {
  const parts = createFigureShell({ id: 'figure-profile', title, number, pngLabel: 'profile' });
  parts.canvas.id = 'profile-canvas';
  savesCanvasFigure(parts, title, 'relpos-profile.png');
  return parts;
}

const peakOf = (profile) => profile.reduce((best, value, index) => (value > profile[best] ? index : best), 0);

const bumpText = ({ noise, width, asymmetry, strength }) =>
  `random noise (scale ${noise}) plus a Gaussian bump of height ${strength} and width σ = ${width}` +
  `${asymmetry ? ` (σ × ${formatFixed(1 + asymmetry, 2)} looking back, × ${formatFixed(1 - asymmetry, 2)} ahead)` : ''} on the first dimension`;

/** <relpos-profile>'s caption: the handbook's table on its own. */
export function profileCaption({ settings, offsets, profile }) {
  const k = settings.profileMaxDistance;
  return (
    `The handbook’s simulated table: ${2 * k + 1} rows of ${bumpText({ ...settings, strength: 1 })}, ` +
    `read by the uniform query q = (1, …, 1)/√d_k: one score q · a^K per offset, highest at ${withMinus(offsets[peakOf(profile)])}.`
  );
}

/** The page's caption: what the panels' table is, and how it is read. */
export function tableProfileCaption(view, settings) {
  const { offsets, profile } = view.profile;
  const table =
    view.table === 'locality'
      ? `The panels’ a^K is the locality table: ${bumpText(settings)}.`
      : `The panels’ a^K is random (${view.draw === 'stable' ? 'one draw per offset' : 'numpy’s stream'}): no locality was put in.`;
  return (
    `${table} The uniform query u = (1, …, 1)/√d_k reads it as u · a^K[c]/√d_k, the position-bias panel’s scale: ` +
    `highest at offset ${withMinus(offsets[peakOf(profile)])}. ` +
    (view.sameQuery
      ? 'Every query is u now, so each diagonal of panel 2 is one point of this plot.'
      : 'Real queries read the same rows with their own q_i, so panel 2 varies along its diagonals; turn on “same query in every row” to see this plot there.')
  );
}

/**
 * Draws a profile view { offsets, profile, maxDistance } into `canvas`, marking the point of
 * offset `highlightOffset` (clipped to ±k).
 */
export function drawProfile(
  canvas,
  profileView,
  highlightOffset = null,
  { yLabel = 'score q · a^K', height = 260 } = {},
) {
  const { offsets, profile, maxDistance: k } = profileView;
  const highlight = highlightOffset === null ? -1 : Math.min(k, Math.max(-k, highlightOffset)) + k;
  drawLinePlot(canvas, {
    x: offsets,
    y: profile,
    xLabel: 'offset j − i  (< 0: key before the query)',
    yLabel,
    highlight,
    height,
  });
  const peak = peakOf(profile);
  canvas.setAttribute(
    'aria-label',
    `Line plot of the profile over offsets ${withMinus(offsets[0])} to ${offsets[offsets.length - 1]}; scores from ${formatFixed(Math.min(...profile), 3)} to ${formatFixed(profile[peak], 3)}, highest at offset ${withMinus(offsets[peak])}.`,
  );
}
