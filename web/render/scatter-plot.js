// Points over integer x (offsets) with a line through one value per x: the schemes' profiles,
// every cell's value at its offset. Where all points of an x coincide, they draw as one dot on
// the line. Colours from the canvas's CSS custom properties (--relpos-fg, --relpos-grid,
// --relpos-line, --relpos-accent), so the theme decides them.
import { fitCanvas } from './canvas-size.js';
import { cssColour, drawAxes, plotScales } from './plot-axes.js';

const MARGIN = { top: 18, right: 12, bottom: 40, left: 52 };
/** The axes' sizes (plot-axes.js): a smaller plot than the line plot's. */
const AXES = { size: 12, ticks: 4, gap: 5, xSpacing: 26 };

/**
 * Draws points { x, y } and a line { x, y } (x ascending integers) into `canvas` at its
 * container's width and `height`, with an optional `note` in its top right corner. The y range
 * always includes 0.
 */
export function drawScatterPlot(canvas, { points, line, xLabel, yLabel, height = 200, note = '' }) {
  const style = getComputedStyle(canvas);
  const fg = cssColour(style, '--relpos-fg', '#222');
  const lineColour = cssColour(style, '--relpos-line', '#3a6fb0');
  const pointColour = cssColour(style, '--relpos-accent', '#c0392b');
  const { context: g, width } = fitCanvas(canvas, canvas.parentElement.clientWidth, height);
  g.clearRect(0, 0, width, height);
  const scales = plotScales({ width, height, margin: MARGIN, x: line.x, ys: [points.y, line.y] });
  const { px, py, plotW } = scales;
  const grid = cssColour(style, '--relpos-grid', '#ddd');
  drawAxes(g, scales, line.x, { xLabel, yLabel }, { ...AXES, fg, grid, family: style.fontFamily || 'sans-serif' });

  g.strokeStyle = lineColour;
  g.lineWidth = 2;
  g.lineJoin = 'round';
  g.beginPath();
  line.x.forEach((x, i) => (i === 0 ? g.moveTo(px(x), py(line.y[i])) : g.lineTo(px(x), py(line.y[i]))));
  g.stroke();
  g.fillStyle = pointColour;
  g.globalAlpha = 0.75;
  for (let i = 0; i < points.x.length; i += 1) {
    g.beginPath();
    g.arc(px(points.x[i]), py(points.y[i]), 2.5, 0, 2 * Math.PI);
    g.fill();
  }
  g.globalAlpha = 1;
  if (note) {
    g.fillStyle = fg;
    g.textAlign = 'right';
    g.textBaseline = 'top';
    // A note longer than the room to the plot's right edge: smaller type, then from the left edge.
    const room = MARGIN.left + plotW - 2;
    const size = Number.parseFloat(g.font) || AXES.size;
    const fits = Math.min(1, room / g.measureText(note).width);
    if (fits < 1) g.font = `${Math.max(0.75, fits) * size}px ${style.fontFamily || 'sans-serif'}`;
    if (g.measureText(note).width > room) g.textAlign = 'left';
    g.fillText(note, g.textAlign === 'left' ? 2 : MARGIN.left + plotW, 0);
  }
  return { px, py, width, height };
}
