// The profile over training as heatmaps side by side, one per head: snapshots × offsets −k…k on
// one diverging scale (colormaps.js's makeScale), painted by the heatmaps' colour mapping
// (heatmap-pixels.js). Colours from the theme's CSS custom properties.
import { fitCanvas } from '../render/canvas-size.js';
import { makeScale } from '../render/colormaps.js';
import { colourMap, pixelTableOf } from '../render/heatmap-pixels.js';
import { withMinus } from '../render/number-text.js';
import { cssColour } from '../render/plot-axes.js';

/**
 * Heatmaps side by side, one per head: rows = snapshots over training (first at the top),
 * columns = offsets −k…k; value = the profile, on one diverging scale symmetric about 0 shared by
 * all (blue below 0, red above). Returns that scale's m (colours span [−m, m]).
 */
export function drawHistory(canvas, { history, heads, maxDistance, titles, height = 200 }) {
  const style = getComputedStyle(canvas);
  const fg = cssColour(style, '--relpos-fg', '#222');
  const grid = cssColour(style, '--relpos-grid', '#ddd');
  const cssWidth = Math.max(200, canvas.parentElement.clientWidth);
  const { context: g, width } = fitCanvas(canvas, cssWidth, height);
  g.clearRect(0, 0, width, height);
  g.font = `12px ${style.fontFamily || 'sans-serif'}`;
  const cols = 2 * maxDistance + 1;
  const gap = 14;
  const left = 44;
  const each = (width - left - gap * (heads.length - 1) - 8) / heads.length;
  const top = 18;
  const plotH = height - top - 34;
  const rows = history.length;
  // One row-major rows × cols matrix per head; the scale from all of them.
  let min = 0;
  let max = 0;
  const matrices = heads.map((h) => {
    const values = new Float64Array(rows * cols);
    history.forEach((snapshot, r) => values.set(snapshot.profiles[h], r * cols));
    for (const v of values) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    return values;
  });
  const scale = makeScale('diverging', { min, max });
  const table = pixelTableOf(scale.map);
  heads.forEach((h, index) => {
    const x0 = left + index * (each + gap);
    g.fillStyle = fg;
    g.textAlign = 'center';
    g.textBaseline = 'alphabetic';
    g.fillText(titles[index], x0 + each / 2, top - 5);
    if (rows) {
      const image = new ImageData(cols, rows);
      colourMap(matrices[index], rows, cols, scale, table, new Uint32Array(image.data.buffer), { grey: 0, blank: 0 });
      const off = new OffscreenCanvas(cols, rows);
      off.getContext('2d').putImageData(image, 0, 0);
      g.imageSmoothingEnabled = false;
      g.drawImage(off, x0, top, each, plotH);
    }
    g.strokeStyle = grid;
    g.strokeRect(x0, top, each, plotH);
    g.textBaseline = 'top';
    for (const c of [-maxDistance, 0, maxDistance]) {
      g.fillText(withMinus(String(c)), x0 + ((c + maxDistance + 0.5) / cols) * each, top + plotH + 4);
    }
  });
  g.textAlign = 'center';
  g.fillText('offset j − i', width / 2, height - 14);
  g.save();
  g.translate(10, top + plotH / 2);
  g.rotate(-Math.PI / 2);
  g.textBaseline = 'middle';
  const [first, last] = rows ? [history[0].step, history[rows - 1].step] : [];
  g.fillText(!rows ? 'steps' : first === last ? `step ${first}` : `step ${first} → ${last}`, 0, 0);
  g.restore();
  return scale.max;
}
