// Reading values: hovering a cell, or moving through cells with the arrow keys once a panel has
// keyboard focus, selects (i, j). The controller redraws every panel with the cells of the same
// clipped offset outlined, the tooltip shows the cell, and an aria-live line reads it out.

/** The cell under CSS-pixel position (x, y) of a heatmap with `layout`, or null. */
export function cellAt(layout, x, y) {
  if (!layout) return null;
  const j = Math.floor((x - layout.x0) / (layout.cellW ?? layout.cell));
  const i = Math.floor((y - layout.y0) / (layout.cellH ?? layout.cell));
  return i >= 0 && j >= 0 && i < (layout.rows ?? layout.n) && j < (layout.cols ?? layout.n) ? { i, j } : null;
}

/**
 * The scale between a canvas's CSS pixels and client pixels: a CSS transform (reveal.js scales
 * its slides) or zoom on an ancestor makes the box on screen larger or smaller than the canvas's
 * layout size. { x, y } client px per CSS px, from the bounding box over the drawn size.
 */
export function canvasScale(canvas, box = canvas.getBoundingClientRect()) {
  const width = canvas.offsetWidth || box.width;
  const height = canvas.offsetHeight || box.height;
  return { x: width ? box.width / width : 1, y: height ? box.height / height : 1 };
}

const KEY_MOVES = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/**
 * Wires one panel. `select(cell | null, { panelId, anchor })` is the controller's: anchor is
 * { x, y } in client pixels for the tooltip. `getLastCell()` is the cell selected last (kept
 * after Escape or a blur): focus and the arrow keys resume from it, not from (0, 0).
 */
export function wirePanel({ panelId, canvas, wrap, getLayout, getSelection, getLastCell = () => null, select }) {
  const resumeFrom = () => {
    const cell = getSelection() ?? getLastCell();
    const layout = getLayout();
    const rows = layout?.rows ?? layout?.n ?? 1; // a rows × cols layout, or an n × n one
    const cols = layout?.cols ?? layout?.n ?? 1;
    return cell && cell.i < rows && cell.j < cols ? { i: cell.i, j: cell.j } : { i: 0, j: 0 };
  };
  const clientPoint = (cell) => {
    const layout = getLayout();
    const box = canvas.getBoundingClientRect();
    const scale = canvasScale(canvas, box);
    const cellH = layout.cellH ?? layout.cell;
    return {
      x: box.left + scale.x * (layout.x0 + (cell.j + 0.5) * (layout.cellW ?? layout.cell)),
      y: box.top + scale.y * (layout.y0 + (cell.i + 0.5) * cellH),
      bottom: box.top + scale.y * (layout.y0 + (cell.i + 1) * cellH), // the cell's lower edge
    };
  };
  const fromPointer = (event) => {
    const box = canvas.getBoundingClientRect();
    const scale = canvasScale(canvas, box);
    const cell = cellAt(getLayout(), (event.clientX - box.left) / scale.x, (event.clientY - box.top) / scale.y);
    select(cell, { panelId, anchor: { x: event.clientX, y: event.clientY } });
  };
  canvas.addEventListener('pointermove', fromPointer);
  canvas.addEventListener('pointerdown', fromPointer); // a tap on a touch screen
  // Only a mouse leaving ends a hover: a touch (or pen) pointer "leaves" on every lift, before
  // the tap focuses the panel, and the tapped cell must stay selected (blur clears it).
  canvas.addEventListener('pointerleave', (event) => {
    if (event.pointerType === 'mouse' && document.activeElement !== wrap) select(null, { panelId });
  });
  wrap.addEventListener('focus', () => {
    const cell = resumeFrom();
    select(cell, { panelId, anchor: clientPoint(cell), announce: true });
  });
  wrap.addEventListener('blur', () => select(null, { panelId }));
  wrap.addEventListener('keydown', (event) => {
    const layout = getLayout();
    const current = resumeFrom();
    let next = null;
    if (KEY_MOVES[event.key]) {
      const [di, dj] = KEY_MOVES[event.key];
      next = {
        i: Math.min((layout.rows ?? layout.n) - 1, Math.max(0, current.i + di)),
        j: Math.min((layout.cols ?? layout.n) - 1, Math.max(0, current.j + dj)),
      };
    } else if (event.key === 'Home') {
      next = { i: current.i, j: 0 };
    } else if (event.key === 'End') {
      next = { i: current.i, j: (layout.cols ?? layout.n) - 1 };
    } else if (event.key === 'Escape') {
      if (!getSelection()) return; // nothing to clear: the host's Escape (reveal's overview)
      event.stopPropagation();
      select(null, { panelId });
      return;
    }
    if (!next) return;
    // Handled here: not also the host's (reveal.js would change slide on an arrow key).
    event.preventDefault();
    event.stopPropagation();
    select(next, { panelId, anchor: clientPoint(next), announce: true });
  });
}

/**
 * The tooltip a figure shows beside the selected cell and the visually hidden line a screen
 * reader reads for it, appended to `overlay`.
 */
export function createTooltip(doc, overlay) {
  const tooltip = doc.createElement('div');
  tooltip.className = 'relpos-tooltip';
  tooltip.setAttribute('role', 'tooltip');
  tooltip.setAttribute('part', 'tooltip');
  tooltip.hidden = true;
  const readout = doc.createElement('p');
  readout.className = 'relpos-visually-hidden';
  readout.setAttribute('aria-live', 'polite');
  overlay.append(tooltip, readout);
  return { tooltip, readout };
}

/**
 * Fills the tooltip (text only) and places it up and to the right of `anchor` (a point in the
 * cell), across the diagonal from the cells it talks about; flipped where the viewport ends.
 */
export function showTooltip(tooltip, lines, anchor) {
  tooltip.replaceChildren(
    ...lines.map(([label, value]) => {
      const row = document.createElement('div');
      const name = document.createElement('span');
      name.className = 'relpos-tip-label';
      name.textContent = label;
      const text = document.createElement('span');
      text.className = 'relpos-tip-value';
      text.textContent = value;
      row.append(name, text);
      return row;
    }),
  );
  placeTooltip(tooltip, anchor);
}

/**
 * Shows the tooltip at `anchor` (client pixels), as showTooltip places it. The tooltip is
 * position: fixed, but inside a transformed ancestor (a reveal.js slide) "fixed" means that
 * ancestor's box, scaled: the tooltip's own box at translate(0, 0) gives that origin and scale,
 * and the client position is mapped back into it.
 */
/** Below this window width (CSS px) a flipped tooltip goes to the foot of the window. */
const PHONE_WIDTH = 600;

export function placeTooltip(tooltip, anchor) {
  tooltip.hidden = false;
  const { innerWidth, innerHeight } = window;
  tooltip.style.transform = 'none';
  const box = tooltip.getBoundingClientRect();
  const sx = tooltip.offsetWidth ? box.width / tooltip.offsetWidth : 1;
  const sy = tooltip.offsetHeight ? box.height / tooltip.offsetHeight : 1;
  const gap = 18;
  let x = anchor.x + gap;
  if (x + box.width > innerWidth - 8) x = anchor.x - gap - box.width;
  // Above the cell: clear of its upper edge where the anchor gives its lower one (`anchor.bottom`,
  // from the keyboard: the anchor is the cell's centre), else `gap` above the pointer.
  const cellTop = anchor.bottom ? 2 * anchor.y - anchor.bottom : anchor.y - gap + 4;
  let y = cellTop - 4 - box.height;
  // No room above (the window's top, or `anchor.clearAbove`: the top of the cell's canvas, so
  // that the figure's title stays readable): on a wide screen under the cell and to its left
  // where there is room (still across the diagonal: down-left, not down-right, holds no cell of
  // its offset); on a phone, where the tooltip is as wide as the matrix and would hide the rows
  // under the finger, at the foot of the window, never over the cell (under its lower edge,
  // `anchor.bottom` from the keyboard), where the window has room; else above the cell.
  const phone = innerWidth < PHONE_WIDTH;
  if (y < Math.max(8, anchor.clearAbove ?? 8)) {
    if (phone) {
      const under = Math.max(anchor.bottom + 4 || anchor.y + gap, innerHeight - box.height - 8);
      if (under + box.height <= innerHeight - 8) y = under;
    } else {
      y = anchor.y + gap;
      if (anchor.x - gap - box.width >= 8) x = anchor.x - gap - box.width;
    }
  }
  x = Math.max(8, Math.min(x, innerWidth - box.width - 8));
  y = Math.max(8, y);
  tooltip.style.transform = `translate(${(x - box.left) / sx}px, ${(y - box.top) / sy}px)`;
}

/**
 * Keeps a shown tooltip on its spot while the page (or any element around the figure) scrolls:
 * the tooltip is position: fixed, so without this it would stay where the cell was. `getSpot()`
 * is { canvas, dx, dy, db }, the anchor (db: the lower edge of a cell read from the keyboard) in
 * the canvas's CSS pixels, or null. Out of the window, the tooltip hides until the spot is back.
 * Returns stop(), which removes the listener.
 */
export function followScroll(tooltip, getSpot) {
  const onScroll = () => {
    const spot = getSpot();
    if (!spot) return;
    const box = spot.canvas.getBoundingClientRect();
    const x = box.left + spot.dx;
    const y = box.top + spot.dy;
    if (spot.canvas.isConnected && x >= 0 && y >= 0 && x <= innerWidth && y <= innerHeight)
      placeTooltip(tooltip, { x, y, bottom: box.top + spot.db, clearAbove: box.top });
    else tooltip.hidden = true;
  };
  document.addEventListener('scroll', onScroll, { capture: true, passive: true });
  return () => document.removeEventListener('scroll', onScroll, { capture: true });
}
