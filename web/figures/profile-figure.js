// The locality profile figure (SPEC §2), used by the page and <relpos-profile>: a line plot
// over offsets -k..k with a caption that states what was simulated.
import { drawLinePlot } from '../render/line-plot.js';
import { downloadCanvas } from './download.js';

/** The figure's DOM: title, caption, canvas (role="img"), PNG button; parts as for panels. */
export function createProfileFigure(number) {
  const figure = document.createElement('figure');
  figure.className = 'relpos-panel';
  figure.setAttribute('part', 'panel');
  figure.id = 'figure-profile';
  const caption = document.createElement('figcaption');
  const title = document.createElement('h2');
  title.setAttribute('part', 'title');
  if (number !== null) {
    const badge = document.createElement('span');
    badge.className = 'relpos-number';
    badge.textContent = String(number);
    title.append(badge, ' ');
  }
  title.append('A simulated learned locality profile');
  const text = document.createElement('p');
  text.className = 'relpos-caption';
  text.setAttribute('part', 'caption');
  caption.append(title, text);
  const wrap = document.createElement('div');
  wrap.className = 'relpos-canvas-wrap';
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('part', 'canvas');
  canvas.id = 'profile-canvas';
  wrap.append(canvas);
  const actions = document.createElement('div');
  actions.className = 'relpos-actions';
  actions.setAttribute('part', 'actions');
  const png = document.createElement('button');
  png.type = 'button';
  png.textContent = 'Download PNG';
  png.setAttribute('aria-label', 'Download PNG: locality profile');
  png.addEventListener('click', () => downloadCanvas(canvas, 'relpos-profile.png'));
  actions.append(png);
  figure.append(caption, wrap, actions);
  return { figure, canvas, caption: text, actions };
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
    `read by the uniform query q = (1, …, 1)/√dₖ: one score q · aᴷ per offset, highest at ${String(offsets[peak]).replace('-', '−')}.`
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
