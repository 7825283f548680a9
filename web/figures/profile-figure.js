// The locality profile figure (docs/maths.md §7), used by the page and <relpos-profile>: a line plot
// over offsets -k..k with a caption that states what was simulated.
import { drawLinePlot } from '../render/line-plot.js';
import { withMinus } from '../render/ticks.js';
import { downloadCanvas } from './download.js';
import { createFigureShell } from './figure-shell.js';

/** The figure's DOM: the figure shell, with its PNG button wired. */
export function createProfileFigure(number) {
  const parts = createFigureShell({ id: 'figure-profile', title: 'A simulated learned locality profile', number, pngLabel: 'locality profile' });
  parts.canvas.id = 'profile-canvas';
  parts.png.addEventListener('click', () => downloadCanvas(parts.canvas, 'relpos-profile.png'));
  return parts;
}

export function profileCaption({ settings, offsets, profile }) {
  const k = settings.profileMaxDistance;
  const a = settings.asymmetry;
  let peak = 0;
  profile.forEach((value, index) => {
    if (value > profile[peak]) peak = index;
  });
  return (
    `The handbook’s simulated table, not the aᴷ of the panels: ${2 * k + 1} rows of random noise (scale ${settings.noise}) plus a Gaussian bump of width σ = ${settings.width}` +
    `${a ? ` (σ × ${(1 + a).toFixed(2)} looking back, × ${(1 - a).toFixed(2)} ahead)` : ''} on the first dimension, ` +
    `read by the uniform query q = (1, …, 1)/√dₖ: one score q · aᴷ per offset, highest at ${withMinus(offsets[peak])}.`
  );
}

/** Draws the profile into `canvas`, marking the point of offset `highlightOffset` (clipped). */
export function drawProfile(canvas, profileView, highlightOffset = null) {
  const { offsets, profile } = profileView;
  const k = profileView.settings.profileMaxDistance;
  const highlight = highlightOffset === null ? -1 : Math.min(k, Math.max(-k, highlightOffset)) + k;
  drawLinePlot(canvas, { x: offsets, y: profile, xLabel: 'offset j − i  (< 0: key before the query)', yLabel: 'score q · aᴷ', highlight });
  let peak = 0;
  profile.forEach((value, index) => {
    if (value > profile[peak]) peak = index;
  });
  canvas.setAttribute(
    'aria-label',
    `Line plot of the locality profile over offsets ${offsets[0]} to ${offsets[offsets.length - 1]}; scores from ${Math.min(...profile).toFixed(3)} to ${profile[peak].toFixed(3)}, highest at offset ${offsets[peak]}.`,
  );
}
