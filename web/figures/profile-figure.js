// The locality profile figure (SPEC §2), used by the page and <relpos-profile>: a line plot
// over offsets -k..k with a caption that states what was simulated.
import { drawLinePlot } from '../render/line-plot.js';

export function profileCaption({ settings, offsets, profile }) {
  const k = settings.profileMaxDistance;
  const a = settings.asymmetry;
  let peak = 0;
  profile.forEach((value, index) => {
    if (value > profile[peak]) peak = index;
  });
  return (
    `A relative key table aᴷ of ${2 * k + 1} rows: random noise (scale ${settings.noise}) plus a Gaussian bump of width σ = ${settings.width}` +
    `${a ? ` (σ × ${(1 + a).toFixed(2)} looking back, × ${(1 - a).toFixed(2)} ahead)` : ''} on its first dimension, ` +
    `read by the uniform query q = 1/√d_k: one score q · aᴷ per offset. The highest score is at offset ${String(offsets[peak]).replace('-', '−')}.`
  );
}

/** Draws the profile into `canvas`, marking the point of offset `highlightOffset` (clipped). */
export function drawProfile(canvas, profileView, highlightOffset = null) {
  const { offsets, profile } = profileView;
  const k = profileView.settings.profileMaxDistance;
  const highlight = highlightOffset === null ? -1 : Math.min(k, Math.max(-k, highlightOffset)) + k;
  drawLinePlot(canvas, { x: offsets, y: profile, xLabel: 'offset j − i (negative: key before the query)', yLabel: 'score q · aᴷ', highlight });
  let peak = 0;
  profile.forEach((value, index) => {
    if (value > profile[peak]) peak = index;
  });
  canvas.setAttribute(
    'aria-label',
    `Line plot of the locality profile over offsets ${offsets[0]} to ${offsets[offsets.length - 1]}; scores from ${Math.min(...profile).toFixed(3)} to ${profile[peak].toFixed(3)}, highest at offset ${offsets[peak]}.`,
  );
}
