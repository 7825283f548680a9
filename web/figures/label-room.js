// The room a heatmap gives its row and column labels, from the labels measured: the widest label
// in the panels' type (13 px), rounded up to a step of 24 px so that a new word rarely moves the
// page, between 40 px and a cap of 30 % of the width (62 to 120 px). Where the words' room would
// leave cells too small to label, the panel labels positions 0, 1, 2, … instead, in the room those
// take, and the matrix gets the width the words would have had (panelLabels). The long view's
// panels, labelled by position only, take the room of their widest position (positionRoom).
import { LABEL_FONT, MIN_LABELLED_CELL, heatmapLayout } from '../render/heatmap.js';

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

/** The position labels 0 … n − 1 (shown where the words would leave the cells too small). */
const positionLabels = (n) => Array.from({ length: n }, (_, i) => String(i));

/**
 * The labels a panel `width` px wide (matrix no wider than `maxSide`) shows for `labels`, their
 * room (CSS px) and their kind ('words' or 'positions'): the words where their room leaves cells tall enough to label them, else
 * the positions, in the room the widest position takes (at least 24 px); with the words, their cells' side (CSS px).
 */
export function panelLabels(labels, family, width, maxSide = Infinity) {
  const room = labelRoom(labels, family, width);
  const n = labels.length;
  const { cell } = heatmapLayout({ n, width, maxSide, labelSpace: room });
  if (cell >= MIN_LABELLED_CELL) return { labels, labelSpace: room, kind: 'words', cell };
  const positions = positionLabels(n);
  return {
    labels: positions,
    labelSpace: Math.max(24, Math.ceil(widestLabel(positions, family) + 6)),
    kind: 'positions',
  };
}

const positionRooms = new Map(); // `${n}|${family}` -> the room of positions 0 … n − 1, CSS px

/**
 * The room (CSS px) of the row labels of a heatmap labelled by position 0 … n − 1 (the long
 * view's): the widest position in the panels' label type, at least 24 px (as panelLabels' positions).
 */
export function positionRoom(n, family) {
  const key = `${n}|${family}`;
  if (!positionRooms.has(key)) {
    // The positions with the most digits (those of n − 1): from 10^(digits − 1), or 0.
    const from = n > 10 ? 10 ** (String(n - 1).length - 1) : 0;
    const labels = Array.from({ length: Math.max(1, n - from) }, (_, i) => String(from + i));
    positionRooms.set(key, Math.max(24, Math.ceil(widestLabel(labels, family))));
  }
  return positionRooms.get(key);
}
