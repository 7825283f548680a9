// The selected cell's tooltip and live readout, for the attention and matrix figures: shown
// beside the pointer (or at the figure's corner from the keyboard), following its canvas on
// scroll, hidden with the selection.
import { createTooltip, followScroll, shiftAnchor, showTooltip } from './interaction.js';

const HEADINGS = 'h1, h2, h3, h4, h5, h6';
/** The title of a canvas's panel: the heading just before its wrapper (or in a figcaption there), or null. */
function titleOf(canvas) {
  const before = canvas.parentElement?.previousElementSibling;
  return before?.matches(HEADINGS) ? before : (before?.querySelector(HEADINGS) ?? null);
}

export class CellTip {
  constructor(doc, overlay) {
    ({ tooltip: this.tooltip, readout: this.readout } = createTooltip(doc, overlay));
    this.spot = null; // where the tooltip points, in its canvas's pixels: it follows on scroll
    this.stopFollow = null; // removes the scroll listener (while no tooltip is shown)
  }

  /**
   * Shows `lines` ([label, value] pairs) at `anchor` (client px; default the corner) over `canvas`.
   * In the present view, `scale` is the panel's type scale (the tooltip's type grows with its
   * labels') and `footer` its buttons, which a phone's tooltip never covers (placeTooltip).
   */
  show(lines, anchor, canvas, { scale = 1, footer = null } = {}) {
    if (scale === 1) this.tooltip.style.removeProperty('--relpos-tip-scale');
    else this.tooltip.style.setProperty('--relpos-tip-scale', String(scale));
    const box = anchor && canvas ? canvas.getBoundingClientRect() : null;
    // The canvas's top (a wide screen's tooltip flips below the cell rather than pass it) and
    // the panel's title (a phone's tooltip keeps off it where it can: placeTooltip); in the
    // present view the buttons, and the canvas (its colour bar, kept clear where it can).
    const placed = anchor && {
      ...anchor,
      clearAbove: box?.top,
      title: box ? titleOf(canvas) : null,
      ...(footer && box ? { footer, below: canvas } : {}),
    };
    showTooltip(this.tooltip, lines, placed ?? { x: 16, y: 16 });
    // A cell out of sight (the window resized or turned under it) has its tooltip hidden until
    // the cell scrolls back (followScroll), not left where the cell was.
    const view = this.tooltip.ownerDocument.defaultView;
    if (anchor && (anchor.x < 0 || anchor.y < 0 || anchor.x > view.innerWidth || anchor.y > view.innerHeight))
      this.tooltip.hidden = true;
    this.spot = box ? { canvas, anchor: shiftAnchor(placed, -box.left, -box.top) } : null;
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
