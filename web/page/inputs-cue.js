// In the side column (from 1100 px, style.css: it scrolls on its own, beside the figures), the
// inputs stand under the story, below the column's view in a window under about 1 100 px tall
// (at 1280 × 800 they start 130 px below the window), and a tablet or a Mac shows no scroll bar
// to say so. A button at the window's foot, under the column, says where they are and brings them
// into view; it shows only while the inputs' heading is out of sight.

import { SIDE_COLUMN_LAYOUT } from './layout-order.js';
import { scrollBehavior } from './scroll-motion.js';

/** Wires `cue` (a hidden button in `side`, before `controls`). */
export function wireInputsCue(cue, side, controls) {
  if (!cue || !side || !controls || typeof IntersectionObserver !== 'function') return;
  const column = matchMedia(SIDE_COLUMN_LAYOUT);
  let inView = true;
  const show = () => {
    cue.hidden = !column.matches || inView;
    if (cue.hidden) return;
    const box = side.getBoundingClientRect();
    cue.style.left = `${box.left + Math.max(0, (box.width - cue.offsetWidth) / 2)}px`;
    cue.style.maxWidth = `${box.width}px`;
  };
  // Seen: their heading in the window and in the column's view (the observer counts the column's
  // clipping); once it is, the reader knows where they are.
  new IntersectionObserver(
    ([entry]) => {
      inView = entry.isIntersecting;
      show();
    },
    { threshold: 1 },
  ).observe(controls.querySelector('h2') ?? controls);
  column.addEventListener('change', show);
  new ResizeObserver(show).observe(side);
  cue.addEventListener('click', () => {
    controls.scrollIntoView({ block: 'nearest', behavior: scrollBehavior() });
    controls.querySelector('input, select, button')?.focus({ preventScroll: true });
  });
}
