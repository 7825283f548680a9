// The room a heatmap gives its row and column labels, from the labels measured: the widest label
// in the panels' type (13 px), rounded up to a step of 24 px so that a new word rarely moves the
// page, between 40 px and a cap of 30 % of the width (62 to 120 px).
import { LABEL_FONT } from '../render/heatmap.js';

const STEP = 24;
const measured = new WeakMap(); // labels array -> widest label, CSS px

/** The widest of `labels` (CSS px) in the panels' label type of `family`. */
function widestLabel(labels, family) {
  if (!measured.has(labels)) {
    const g = new OffscreenCanvas(1, 1).getContext('2d');
    g.font = `${LABEL_FONT}px ${family}`;
    measured.set(labels, Math.max(0, ...labels.map((label) => g.measureText(label).width)));
  }
  return measured.get(labels);
}

/** Label room (CSS px) for `labels` in a panel `width` px wide. */
export function labelRoom(labels, family, width) {
  const cap = Math.min(120, Math.max(62, width * 0.3));
  return Math.min(cap, Math.max(40, Math.ceil((widestLabel(labels, family) + 6) / STEP) * STEP));
}
