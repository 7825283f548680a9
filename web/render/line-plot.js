// A line plot with points on a canvas: integer x positions (the offsets -k..k), a zero line,
// labelled axes with nice ticks. Colours come from the canvas's CSS custom properties, so the
// theme decides them: --relpos-fg, --relpos-grid, --relpos-line.
import { fitCanvas, pixelRatio } from './canvas-size.js';
import { fillMath, measureMath } from './math-text.js';
import { formatTick, niceStep, niceTicks, withMinus } from './ticks.js';

const MARGIN = { top: 12, right: 16, bottom: 44, left: 56 };

/**
 * Draws y over x into `canvas` at its current CSS width and the given height.
 * Returns the mapping from data to CSS pixels so that callers can hit-test points.
 */
export function drawLinePlot(canvas, { x, y, xLabel, yLabel, height = 260, highlight = -1 }) {
  const style = getComputedStyle(canvas);
  const colour = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  const fg = colour('--relpos-fg', '#222');
  const grid = colour('--relpos-grid', '#ddd');
  const line = colour('--relpos-line', '#3a6fb0');
  const point = line;
  const font = `13px ${style.fontFamily || 'sans-serif'}`;

  const { context: g, width } = fitCanvas(
    canvas,
    canvas.parentElement.clientWidth,
    height,
    pixelRatio(canvas.parentElement),
  );
  g.clearRect(0, 0, width, height);
  g.font = font;

  const xMin = x[0];
  const xMax = x[x.length - 1];
  let yMin = Math.min(0, ...y);
  let yMax = Math.max(0, ...y);
  const pad = (yMax - yMin || 1) * 0.08;
  yMin -= pad;
  yMax += pad;
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const px = (value) => MARGIN.left + (xMax === xMin ? plotW / 2 : ((value - xMin) / (xMax - xMin)) * plotW);
  const py = (value) => MARGIN.top + (1 - (value - yMin) / (yMax - yMin)) * plotH;

  // Grid and y ticks.
  const yTicks = niceTicks(yMin, yMax, 5);
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  for (const tick of yTicks) {
    g.strokeStyle = grid;
    g.lineWidth = 1;
    g.beginPath();
    g.moveTo(MARGIN.left, Math.round(py(tick)) + 0.5);
    g.lineTo(MARGIN.left + plotW, Math.round(py(tick)) + 0.5);
    g.stroke();
    g.fillStyle = fg;
    g.fillText(formatTick(tick, yTicks), MARGIN.left - 6, py(tick));
  }
  // x ticks: every offset while they fit, else a nice subset.
  const every = niceStep(Math.max(1, (28 * x.length) / plotW));
  g.textAlign = 'center';
  g.textBaseline = 'top';
  for (let i = 0; i < x.length; i += 1) {
    if (x[i] % every !== 0) continue;
    g.fillText(withMinus(x[i]), px(x[i]), MARGIN.top + plotH + 6);
  }
  // Zero line.
  g.strokeStyle = fg;
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(MARGIN.left, Math.round(py(0)) + 0.5);
  g.lineTo(MARGIN.left + plotW, Math.round(py(0)) + 0.5);
  g.stroke();
  // Axis labels.
  g.fillText(xLabel, MARGIN.left + plotW / 2, height - 16);
  g.save();
  g.translate(14, MARGIN.top + plotH / 2);
  g.rotate(-Math.PI / 2);
  const labelFont = { size: 13, family: style.fontFamily || 'sans-serif' }; // yLabel in math notation (a^K)
  fillMath(g, yLabel, -measureMath(g, yLabel, labelFont) / 2, -labelFont.size / 2, labelFont);
  g.restore();
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
