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

// Panels focused by focusWithoutReading: their next focus selects nothing (no tooltip yet).
const quietlyFocused = new WeakSet();

/**
 * Focuses a panel's wrapper without reading a cell (a link that opens the present view: no tooltip
 * over the projected matrix until a key or the pointer asks for one).
 */
export function focusWithoutReading(wrap) {
  if (wrap.ownerDocument.activeElement === wrap) return;
  quietlyFocused.add(wrap); // until its focus event, which a page without focus sends later
  wrap.focus();
}

const KEY_MOVES = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/**
 * Wires one panel. `select(cell | null, { panelId, anchor })` is the controller's: anchor is the
 * tooltip's (placeTooltip), in client pixels: { x, y } the pointer or the cell's centre, top and
 * bottom the cell's edges, matrixTop and matrixBottom the matrix's, pointer: from a pointer.
 * `getLastCell()` is the cell selected last (kept after Escape or a blur): focus and the arrow
 * keys resume from it, not from (0, 0).
 */
export function wirePanel({ panelId, canvas, wrap, getLayout, getSelection, getLastCell = () => null, select }) {
  const resumeFrom = () => {
    const cell = getSelection() ?? getLastCell();
    const layout = getLayout();
    const rows = layout?.rows ?? layout?.n ?? 1; // a rows × cols layout, or an n × n one
    const cols = layout?.cols ?? layout?.n ?? 1;
    return cell && cell.i < rows && cell.j < cols ? { i: cell.i, j: cell.j } : { i: 0, j: 0 };
  };
  // The cell's top and bottom edges in client px, and the matrix's (placeTooltip keeps the tooltip
  // clear of the cell).
  const cellEdges = (cell, layout, box, scale) => {
    const cellH = layout.cellH ?? layout.cell;
    const cellW = layout.cellW ?? layout.cell;
    return {
      top: box.top + scale.y * (layout.y0 + cell.i * cellH),
      bottom: box.top + scale.y * (layout.y0 + (cell.i + 1) * cellH),
      left: box.left + scale.x * (layout.x0 + cell.j * cellW),
      right: box.left + scale.x * (layout.x0 + (cell.j + 1) * cellW),
      matrixTop: box.top + scale.y * layout.y0,
      matrixBottom: box.top + scale.y * (layout.y0 + (layout.rows ?? layout.n) * cellH),
    };
  };
  const clientPoint = (cell) => {
    const layout = getLayout();
    const box = canvas.getBoundingClientRect();
    const scale = canvasScale(canvas, box);
    const cellH = layout.cellH ?? layout.cell;
    return {
      x: box.left + scale.x * (layout.x0 + (cell.j + 0.5) * (layout.cellW ?? layout.cell)),
      y: box.top + scale.y * (layout.y0 + (cell.i + 0.5) * cellH),
      ...cellEdges(cell, layout, box, scale),
    };
  };
  // The window resized or turned (a phone rotated): once the panels have redrawn, a cell read in
  // this panel has its tooltip placed again beside the cell, where the cell now stands. The window
  // is listened to only while this panel reads a cell (and not after its canvas left the page).
  let read = null; // { touch }: this panel read the selected cell last, by touch or not
  const view = canvas.ownerDocument.defaultView;
  const followCell = () => {
    if (!canvas.isConnected) return setRead(null);
    const selection = getSelection();
    if (!read || !selection || (selection.panelId ?? panelId) !== panelId || !getLayout()) return;
    const cell = { i: selection.i, j: selection.j };
    return select(cell, { panelId, anchor: { ...clientPoint(cell), touch: read.touch } });
  };
  const onResize = () => view.requestAnimationFrame(() => view.requestAnimationFrame(followCell));
  const setRead = (value) => {
    if (value && !read) view?.addEventListener('resize', onResize);
    if (!value && read) view?.removeEventListener('resize', onResize);
    read = value;
  };
  const fromPointer = (event) => {
    const box = canvas.getBoundingClientRect();
    const scale = canvasScale(canvas, box);
    const layout = getLayout();
    const cell = cellAt(layout, (event.clientX - box.left) / scale.x, (event.clientY - box.top) / scale.y);
    const edges = cell ? cellEdges(cell, layout, box, scale) : {};
    const touch = event.pointerType !== 'mouse'; // placed as on a phone, whatever the width (placeTooltip)
    setRead(cell ? { touch } : null);
    select(cell, { panelId, anchor: { x: event.clientX, y: event.clientY, pointer: true, touch, ...edges } });
  };
  // A press (mouse or tap) focuses the panel after it has selected what it pressed: a press beside
  // the cells (on the labels) selects none, and its focus none either (from the keyboard, focus
  // resumes from the last cell, or (0, 0)). Cleared by the focus, or by a press that ends without
  // one (a scroll's pointercancel, a click on an already focused panel).
  let pressed = null; // the press's pointerType
  canvas.addEventListener('pointermove', fromPointer);
  canvas.addEventListener('pointerdown', (event) => {
    pressed = event.pointerType;
    fromPointer(event); // a tap on a touch screen
  });
  canvas.addEventListener('pointercancel', () => (pressed = null));
  canvas.addEventListener('click', () => (pressed = null));
  // Only a mouse leaving ends a hover: a touch (or pen) pointer "leaves" on every lift, before
  // the tap focuses the panel, and the tapped cell must stay selected (blur clears it).
  canvas.addEventListener('pointerleave', (event) => {
    if (event.pointerType !== 'mouse' || document.activeElement === wrap) return;
    setRead(null);
    select(null, { panelId });
  });
  wrap.addEventListener('focus', () => {
    const fromPress = pressed;
    pressed = null;
    if (quietlyFocused.delete(wrap)) return;
    if (fromPress && !getSelection()) return; // pressed beside the cells: nothing to read
    if (!getLayout()) return; // not drawn yet (a long view computing): the first key after reads
    const cell = resumeFrom();
    const touch = Boolean(fromPress) && fromPress !== 'mouse';
    setRead({ touch });
    select(cell, { panelId, anchor: { ...clientPoint(cell), touch }, announce: true });
  });
  wrap.addEventListener('blur', () => {
    setRead(null);
    // A press in another panel has read its cell before this panel loses the focus: that reading stays.
    const selection = getSelection();
    if (selection && (selection.panelId ?? panelId) !== panelId) return;
    select(null, { panelId });
  });
  wrap.addEventListener('keydown', (event) => {
    const layout = getLayout();
    if (!layout) return;
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
    setRead({ touch: false });
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

/** A tooltip value longer than this (characters) is a sentence: it goes under its label. */
const PROSE_LENGTH = 36;

/**
 * Fills the tooltip (text only) and places it by `anchor` (placeTooltip): beside the cell it
 * reads, never over it.
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
      if (String(value).length > PROSE_LENGTH) row.className = 'relpos-tip-prose'; // under its label, not beside it
      return row;
    }),
  );
  placeTooltip(tooltip, anchor);
}

/** Below this window width (CSS px) the tooltip is about as wide as the matrix: a phone's placement. */
const PHONE_WIDTH = 600;

/**
 * The tooltip's top (client px) on a phone, where it is about as wide as the matrix: `h` its
 * height; from the anchor, the cell's edges (top, bottom), the matrix's (matrixTop, matrixBottom),
 * the panel's title (an element, or none), and in the present view its buttons (`footer`, an
 * element: the tooltip stays above them, as there is no Escape key on a phone to leave) and its
 * canvas (`below`: what the canvas draws under the matrix, the colour bar and its note, is
 * kept clear where the tooltip can go elsewhere). The places tried, in this order: under the
 * matrix, under the canvas, above the cell, the foot (the window's, or above the buttons), the
 * window's top; each where it fits there clear of the cell (none: under the cell, above the
 * buttons). Over the column labels, the tooltip says what they would: its rows name the cell's
 * row and column.
 */
function phoneTop(
  { top, bottom, matrixTop = top, matrixBottom = bottom, title = null, footer = null, below = null },
  h,
) {
  const foot = Math.min(innerHeight, footer?.getBoundingClientRect().top ?? innerHeight) - 8;
  const heading = title?.getBoundingClientRect() ?? { top: 0, bottom: 0 };
  const barBottom = Math.max(matrixBottom, below?.getBoundingClientRect().bottom ?? matrixBottom);
  const over = (y, from, to) => Math.max(0, Math.min(y + h, to) - Math.max(y, from));
  const places = [matrixBottom + 4, barBottom + 4, top - 4 - h, foot - h, 8]
    .filter((y) => y >= 8 && y + h <= foot && (y >= bottom + 4 || y + h <= top - 4))
    .map((y) => ({
      y,
      cells: over(y, matrixTop, matrixBottom),
      bar: over(y, matrixBottom, barBottom),
      title: over(y, heading.top, heading.bottom),
    }));
  // Never over the cell; of the places that fit, the first hiding least of the matrix, then of
  // what is drawn under it (the present view's), then of the title.
  places.sort((a, b) => a.cells - b.cells || a.bar - b.bar || a.title - b.title);
  return places[0]?.y ?? (footer ? Math.max(8, Math.min(bottom + 4, foot - h)) : bottom + 4);
}

/**
 * Shows the tooltip at `anchor` (client pixels). On a wide screen, up and to the right of the
 * anchor's point (a pointer, or the cell's centre from the keyboard), across the diagonal from the
 * cells it talks about; flipped where the window ends, and below the cell, to its left, where
 * there is no room above it under the top of its canvas (the panel's title stays readable; down-
 * left holds no cell of its offset). On a phone, and for a touch at any width (a tablet, a phone
 * turned sideways: below a finger is still its cell), phoneTop's. The tooltip is position: fixed,
 * but inside a transformed ancestor (a reveal.js slide) "fixed" means that ancestor's box, scaled:
 * the tooltip's own box at translate(0, 0) gives that origin and scale, and the client position
 * is mapped back into it.
 */
export function placeTooltip(tooltip, anchor) {
  tooltip.hidden = false;
  const { innerWidth } = window;
  tooltip.style.transform = 'none';
  const box = tooltip.getBoundingClientRect();
  const sx = tooltip.offsetWidth ? box.width / tooltip.offsetWidth : 1;
  const sy = tooltip.offsetHeight ? box.height / tooltip.offsetHeight : 1;
  const gap = 18;
  let x = anchor.x + gap;
  if (x + box.width > innerWidth - 8) x = anchor.x - gap - box.width;
  let y;
  if ((innerWidth < PHONE_WIDTH || anchor.touch) && anchor.bottom !== undefined) {
    y = phoneTop(anchor, box.height);
    // No place above or below the cell holds it whole (a phone turned sideways, 360 px tall):
    // beside the cell where the window has the room, as high as the window lets it stand.
    const foot = window.innerHeight - 8;
    if (y + box.height > foot && anchor.right !== undefined) {
      const right = anchor.right + 8;
      const left = anchor.left - 8 - box.width;
      if (right + box.width <= innerWidth - 8 || left >= 8) {
        x = right + box.width <= innerWidth - 8 ? right : left;
        y = Math.max(8, Math.min(anchor.top, foot - box.height));
      }
    }
  } else {
    // Above the cell: clear of its upper edge from the keyboard, else `gap` above the pointer.
    const cellTop = anchor.top !== undefined && !anchor.pointer ? anchor.top : anchor.y - gap + 4;
    y = cellTop - 4 - box.height;
    if (y < Math.max(8, anchor.clearAbove ?? 8)) {
      // Below: clear of the cell's lower edge from the keyboard (a big cell), else under the pointer.
      y = anchor.bottom !== undefined && !anchor.pointer ? anchor.bottom + 4 : anchor.y + gap;
      if (anchor.x - gap - box.width >= 8) x = anchor.x - gap - box.width;
    }
    y = Math.max(8, y);
  }
  x = Math.max(8, Math.min(x, innerWidth - box.width - 8));
  tooltip.style.transform = `translate(${(x - box.left) / sx}px, ${(y - box.top) / sy}px)`;
}

/**
 * Keeps a shown tooltip on its spot while the page (or any element around the figure) scrolls:
 * the tooltip is position: fixed, so without this it would stay where the cell was. `getSpot()`
 * is { canvas, anchor }, the anchor (placeTooltip's) in the canvas's CSS pixels, or null. Out of
 * the window, the tooltip hides until the spot is back. Returns stop(), which removes the listener.
 */
export function followScroll(tooltip, getSpot) {
  const onScroll = () => {
    const spot = getSpot();
    if (!spot) return;
    const box = spot.canvas.getBoundingClientRect();
    const anchor = shiftAnchor(spot.anchor, box.left, box.top);
    if (spot.canvas.isConnected && anchor.x >= 0 && anchor.y >= 0 && anchor.x <= innerWidth && anchor.y <= innerHeight)
      placeTooltip(tooltip, { ...anchor, clearAbove: box.top });
    else tooltip.hidden = true;
  };
  document.addEventListener('scroll', onScroll, { capture: true, passive: true });
  return () => document.removeEventListener('scroll', onScroll, { capture: true });
}

/** An anchor moved by (dx, dy): its point and its edges (top, bottom, matrixTop, matrixBottom; left, right). */
export function shiftAnchor(anchor, dx, dy) {
  const moved = { ...anchor, x: anchor.x + dx, y: anchor.y + dy };
  for (const edge of ['top', 'bottom', 'matrixTop', 'matrixBottom'])
    if (anchor[edge] !== undefined) moved[edge] = anchor[edge] + dy;
  for (const edge of ['left', 'right']) if (anchor[edge] !== undefined) moved[edge] = anchor[edge] + dx;
  return moved;
}
