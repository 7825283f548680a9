// Which side a head reads: its left/right attention-mass ratio against one symmetric band, the same
// for the training section's heads and a checkpoint's tables (docs/verdicts.md). Pure.

/** The left/right mass ratios a head counts as symmetric within: 0.8 to 1.25 (4 : 5 to 5 : 4). */
export const SYMMETRIC_BAND = Object.freeze({ low: 0.8, high: 1.25 });

/** How { left, right } mass splits: 'back' (ratio above the band), 'ahead' (below) or 'symmetric'. */
export function sideOf({ left, right }) {
  const ratio = right > 0 ? left / right : left > 0 ? Infinity : 1;
  if (ratio > SYMMETRIC_BAND.high) return 'back';
  if (ratio < SYMMETRIC_BAND.low) return 'ahead';
  return 'symmetric';
}
