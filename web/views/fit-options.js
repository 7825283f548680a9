// The fit, caption and action settings shared by the iframe view (?fit=…&max-height=…&captions=…
// &actions=…) and the elements (fit="…" max-height="…" captions="…" actions="…"):
//   fit: 'frame' (iframe; its default) or 'box' (element): fit the frame's or the element's own
//        height exactly; 'width' (the elements' default): the width decides the height.
//   max-height: CSS px the figures may take at most (with fit = width).
//   captions, actions: show the captions, the buttons (a switch: link-values.js's switchFromText).
// Each whatever its case.
import { matchChoice, parseSwitch, unknownChoice } from '../settings/link-values.js';

/**
 * The fit settings from a getter (name -> text | null): { fit, maxHeight, captions, actions,
 * notes }. `fits` lists the allowed fits, the first the default; null: captions and actions only
 * (fit and maxHeight null).
 */
export function fitOptions(get, { fits, captions = true, actions = true }) {
  const notes = [];
  const switches = () => ({
    captions: parseSwitch('captions', get('captions'), captions, notes),
    actions: parseSwitch('actions', get('actions'), actions, notes),
  });
  if (!fits) return { fit: null, maxHeight: null, ...switches(), notes }; // no fit to choose (<relpos-profile>)
  const fitGiven = get('fit');
  let fit = fitGiven === null || fitGiven === undefined ? fits[0] : matchChoice(fitGiven, fits);
  if (fit === null) {
    notes.push(unknownChoice('fit', fitGiven, fits, fits[0]));
    fit = fits[0];
  }
  let maxHeight = null;
  const rawMax = get('max-height');
  if (rawMax !== null && rawMax !== undefined) {
    const value = Number.parseFloat(rawMax);
    if (Number.isFinite(value) && value >= 100) maxHeight = value;
    else notes.push(`max-height: expected a number of px ≥ 100, got ${rawMax}; using no maximum`);
  }
  return { fit, maxHeight, ...switches(), notes };
}
