// A line plot with points on a canvas: integer x positions (the offsets -k..k), a zero line,
// labelled axes with nice ticks. Colours come from the canvas's CSS custom properties, so the
// theme decides them: --relpos-fg, --relpos-grid, --relpos-line.
import { fitCanvas, pixelRatio } from './canvas-size.js';
import { cssColour, drawAxes, plotScales } from './plot-axes.js';

const MARGIN = { top: 12, right: 16, bottom: 44, left: 56 };
/** The axes' sizes (plot-axes.js). */
const AXES = { size: 13, ticks: 5, gap: 6, xSpacing: 28 };

/**
 * Draws y over x into `canvas` at its current CSS width and the given height.
 * Returns the mapping from data to CSS pixels so that callers can hit-test points.
 */
export function drawLinePlot(canvas, { x, y, xLabel, yLabel, height = 260, highlight = -1 }) {
  const style = getComputedStyle(canvas);
  const fg = cssColour(style, '--relpos-fg', '#222');
  const line = cssColour(style, '--relpos-line', '#3a6fb0');
  const point = line;
  const { context: g, width } = fitCanvas(
    canvas,
    canvas.parentElement.clientWidth,
    height,
    pixelRatio(canvas.parentElement),
  );
  g.clearRect(0, 0, width, height);
  const scales = plotScales({ width, height, margin: MARGIN, x, ys: [y] });
  const { px, py } = scales;
  const grid = cssColour(style, '--relpos-grid', '#ddd');
  drawAxes(g, scales, x, { xLabel, yLabel }, { ...AXES, fg, grid, family: style.fontFamily || 'sans-serif' });
  // The line, then the points.
  g.strokeStyle = line;
  g.lineWidth = 2;
  g.lineJoin = 'round';
  g.beginPath();
  for (let i = 0; i < x.length; i += 1) {
    if (i === 0) g.moveTo(px(x[i]), py(y[i]));
    else g.lineTo(px(x[i]), py(y[i]));
  }
  g.stroke();
  for (let i = 0; i < x.length; i += 1) {
    g.fillStyle = i === highlight ? fg : point;
    g.beginPath();
    g.arc(px(x[i]), py(y[i]), i === highlight ? 6 : 4, 0, 2 * Math.PI);
    g.fill();
  }
  return { px, py, margin: MARGIN, width, height };
}
