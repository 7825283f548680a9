// The selected cell's tooltip and live readout, for the attention and matrix figures: shown
// beside the pointer (or at the figure's corner from the keyboard), following its canvas on
// scroll, hidden with the selection.
import { createTooltip, followScroll, showTooltip } from './interaction.js';

export class CellTip {
  constructor(doc, overlay) {
    ({ tooltip: this.tooltip, readout: this.readout } = createTooltip(doc, overlay));
    this.spot = null; // where the tooltip points, in its canvas's pixels: it follows on scroll
    this.stopFollow = null; // removes the scroll listener (while no tooltip is shown)
  }

  /** Shows `lines` ([label, value] pairs) at `anchor` (client px; default the corner) over `canvas`. */
  show(lines, anchor, canvas) {
    const box = anchor && canvas ? canvas.getBoundingClientRect() : null;
    // Never over the figure's title: above the canvas there is none of the figure's cells.
    showTooltip(this.tooltip, lines, anchor ? { ...anchor, clearAbove: box?.top } : { x: 16, y: 16 });
    this.spot = box ? { canvas, dx: anchor.x - box.left, dy: anchor.y - box.top, db: anchor.bottom - box.top } : null;
    this.stopFollow ??= followScroll(this.tooltip, () => this.spot);
  }

  hide() {
    this.tooltip.hidden = true;
    this.stopFollow?.();
    this.stopFollow = null;
  }

  /** Says `sentence` to screen readers (the live region). */
  announce(sentence) {
    this.readout.textContent = sentence;
  }
}

/**
 * The deselect branch of a figure's select(null): clears figure.selection, hides its tip and
 * redraws. Returns whether there was a selection.
 */
export function clearSelection(figure) {
  if (!figure.selection) return false;
  figure.selection = null;
  figure.tip.hide();
  figure.draw();
  return true;
}
