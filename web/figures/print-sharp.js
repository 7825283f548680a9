// Printing: canvases are bitmaps, so before the browser prints (beforeprint, or the print media
// query turning on, as headless print-to-PDF does) every figure redraws at PRINT_RATIO device
// pixels per CSS pixel (about 300 ppi), and back at the screen's ratio afterwards.
import { setPrinting } from '../render/canvas-size.js';

const redraws = new Set();
let wired = false;

function change(on) {
  setPrinting(on);
  for (const redraw of redraws) redraw(Boolean(on));
}

/** Calls `redraw(printing)` when printing starts (true) and ends (false); returns a function that stops it. */
export function onPrintChange(redraw) {
  if (!wired && typeof window !== 'undefined') {
    wired = true;
    addEventListener('beforeprint', () => change(true));
    addEventListener('afterprint', () => change(matchMedia('print').matches));
    matchMedia('print').addEventListener('change', (event) => change(event.matches));
  }
  redraws.add(redraw);
  return () => redraws.delete(redraw);
}
