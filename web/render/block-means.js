// Block means of a rows × cols matrix for a grid of gRows × gCols pixels: what each pixel of a
// heatmap with more cells than pixels shows (render/heatmap-image.js), computed
// there or ahead in a worker (views/offset-space.js). No DOM: a worker imports it.

export const MASKED = -Infinity; // a block mean whose cells are all masked (none is a no-key cell's NaN)

/** Pixel p of `size` covers cells floor(p·count/size) … floor((p+1)·count/size) − 1. */
export function bounds(count, size) {
  const b = new Int32Array(size + 1);
  for (let p = 0; p <= size; p += 1) b[p] = Math.floor((p * count) / size);
  return b;
}

// The pixel (of `size` over `count` cells, as `bounds`) that cell j is in: the last p with
// floor(p·count/size) <= j.
const pixelOf = (j, count, size) => Math.max(0, Math.ceil(((j + 1) * size) / count) - 1);

/**
 * values (rows × cols, row-major) averaged over the blocks of cells each of gRows × gCols pixels
 * covers (pixel p covers the cells of `bounds`) -> { grid (gRows × gCols means), bx (the column
 * bounds) }. NaN cells (no key) and masked cells (column >= maskFrom(i), or MASKED values) are
 * left out; a block of masked cells only is MASKED, of no-key cells only NaN. With rowSpan(i) ->
 * [lo, hi) (the cells of row i that hold numbers; NaN outside), the sums run over that span
 * without a test per cell. With `part` = { firstRow, pixelFrom, pixelTo }: only the pixel rows
 * pixelFrom … pixelTo − 1 (a worker's share), from `values` that hold rows firstRow … (row i at
 * (i − firstRow)·cols); the same numbers, bit for bit, as those rows of the whole grid. Used by
 * every heatmap, square or rectangular (heatmap-image.js), and the long view's workers.
 */
export function blockMeans(values, rows, cols, gRows, gCols, maskFrom, rowSpan, part = null) {
  const by = bounds(rows, gRows);
  const bx = bounds(cols, gCols);
  const { firstRow = 0, pixelFrom = 0, pixelTo = gRows } = part ?? {};
  const size = (pixelTo - pixelFrom) * gCols;
  const sums = new Float64Array(size);
  const counts = new Float64Array(size);
  // Masked cells: past maskFrom(i), or −Infinity in the values (a matrix of one's own).
  const maskedCounts = new Float64Array(size);
  let py = pixelFrom;
  for (let i = by[pixelFrom]; i < by[pixelTo]; i += 1) {
    while (by[py + 1] <= i) py += 1;
    const row = (i - firstRow) * cols;
    const out = (py - pixelFrom) * gCols;
    const stop = maskFrom ? Math.min(maskFrom(i), cols) : cols;
    if (rowSpan) {
      const [lo, hi] = rowSpan(i);
      const end = Math.min(hi, stop);
      // Only the pixels over cells lo … end − 1 (numbers), then over end … hi − 1 (masked).
      for (let px = pixelOf(lo, cols, gCols); lo < end && px < gCols && bx[px] < end; px += 1) {
        const from = Math.max(bx[px], lo);
        const to = Math.min(bx[px + 1], end);
        let sum = 0;
        for (let j = row + from, last = row + to; j < last; j += 1) sum += values[j];
        sums[out + px] += sum;
        counts[out + px] += to - from;
      }
      const maskedFrom = Math.max(lo, end);
      for (let px = pixelOf(maskedFrom, cols, gCols); maskedFrom < hi && px < gCols && bx[px] < hi; px += 1) {
        maskedCounts[out + px] += Math.min(bx[px + 1], hi) - Math.max(bx[px], maskedFrom);
      }
      continue;
    }
    for (let px = 0; px < gCols; px += 1) {
      const lo = bx[px];
      const hi = bx[px + 1];
      let sum = 0;
      let count = 0;
      let masked = 0;
      for (let j = lo, last = Math.min(hi, stop); j < last; j += 1) {
        const v = values[row + j];
        if (v === MASKED) masked += 1;
        else if (v === v) {
          sum += v;
          count += 1;
        }
      }
      sums[out + px] += sum;
      counts[out + px] += count;
      maskedCounts[out + px] += masked;
      if (maskFrom && hi > stop) {
        masked = 0;
        for (let j = Math.max(lo, stop); j < hi; j += 1) if (values[row + j] === values[row + j]) masked += 1;
        maskedCounts[out + px] += masked;
      }
    }
  }
  for (let p = 0; p < size; p += 1) {
    sums[p] = counts[p] ? sums[p] / counts[p] : maskedCounts[p] ? MASKED : NaN;
  }
  return { grid: sums, bx };
}
