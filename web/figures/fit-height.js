// Fitting figures into a height: the iframe view into its frame (?embed=1, fit=frame) and an
// element into its own box (fit="box") or under max-height. The matrices' side is the one free
// size (a heatmap's height is its side plus fixed margins), so the fit shrinks the side by the
// overflow shared among the rows of panels until the content fits; below `minSide` it scales the
// content down (CSS zoom) instead, so that nothing ever overflows.

/**
 * Finds the largest matrix side (≤ `startSide`) for which the content fits `target` CSS px.
 * draw(side) draws at that side; contentHeight() is the drawn content's height; rows() the
 * number of rows of panels (each row shrinks by its share). Returns { side, zoom }: zoom < 1
 * when even `minSide` did not fit (apply it to the content: zoomTarget.style.zoom).
 */
export function fitHeight({ target, startSide, minSide = 120, draw, contentHeight, rows, zoomTarget = null }) {
  if (zoomTarget) zoomTarget.style.zoom = '';
  let side = Math.max(minSide, Math.floor(startSide));
  draw(side);
  if (!(target > 0)) return { side, zoom: 1 };
  for (let step = 0; step < 8; step += 1) {
    const over = contentHeight() - target;
    if (over <= 0.5) return { side, zoom: 1 };
    if (side <= minSide) break;
    side = Math.max(minSide, side - Math.ceil(over / Math.max(1, rows())));
    draw(side);
  }
  // Even the smallest side overflows: scale the whole content down to fit (hover still reads
  // the right cell: interaction.js divides by the on-screen scale).
  // Zoom also re-lays the content out (its width in its own pixels grows, text wraps anew, a
  // second column may open), so the height is not proportional to it: the largest zoom that
  // fits is searched for (bisection, ending on one that fits).
  if (!zoomTarget) return { side, zoom: Math.floor((target / contentHeight()) * 1000) / 1000 };
  const fits = (z) => {
    zoomTarget.style.zoom = String(z);
    draw(side); // the panels' width in their own pixels changed: margins and labels with it
    return contentHeight() <= target; // no half pixel over: the frame would scroll by one
  };
  let lo = 0.05;
  let hi = 1;
  for (let step = 0; step < 10; step += 1) {
    const mid = Math.round(((lo + hi) / 2) * 1000) / 1000;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  fits(lo);
  const zoom = lo;
  return { side, zoom };
}

/** The visible children of a grid of panels. */
const shownPanels = (grid) => [...grid.children].filter((child) => !child.hidden && child.offsetParent);

/** How large the panels came out on screen: the area of their canvases, zoom included. */
function drawnArea(grid) {
  let area = 0;
  for (const canvas of grid.querySelectorAll('canvas')) {
    const { width, height } = canvas.getBoundingClientRect();
    area += width * height;
  }
  return area;
}

/**
 * fitHeight for a grid of panels whose number of columns is chosen too: for each number of rows
 * its panels can stand in, the fewest columns that give it (six panels: 6, 3, 2 or 1 a row), and
 * of those the one whose panels come out largest on screen (four panels without captions in a
 * 1280 × 400 frame: one row of 208 px matrices, where the grid's own columns gave 116). `memo`
 * (an object the caller keeps) remembers the choice for `key` (what the choice depends on: the
 * target, the width, the panels), so that a redraw at the same size fits once. Without a target,
 * or with one panel, the grid's own CSS columns stand.
 */
export function fitGrid(grid, memo, key, options) {
  const setColumns = (columns) => {
    grid.style.gridTemplateColumns = columns ? `repeat(${columns}, minmax(0, 1fr))` : '';
  };
  const count = shownPanels(grid).length;
  if (!(options.target > 0) || count < 2) {
    setColumns(0);
    memo.key = null;
    return fitHeight(options);
  }
  if (memo.key !== key) {
    let best = null;
    const tried = new Set();
    for (let rows = 1; rows <= count; rows += 1) {
      const columns = Math.ceil(count / rows);
      if (tried.has(columns)) continue;
      tried.add(columns);
      setColumns(columns);
      fitHeight(options);
      const area = drawnArea(grid);
      if (!best || area > best.area * 1.02) best = { columns, area }; // a tie keeps fewer rows
    }
    memo.key = key;
    memo.columns = best.columns;
  }
  setColumns(memo.columns);
  return fitHeight(options);
}

/** The number of rows in a grid of panels: the distinct tops of its visible children. */
export function rowsOf(grid) {
  return new Set(shownPanels(grid).map((child) => Math.round(child.getBoundingClientRect().top))).size;
}
