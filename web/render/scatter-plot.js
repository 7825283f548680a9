// Points over integer x (offsets) with a line through one value per x: the schemes' profiles,
// every cell's value at its offset. Where all points of an x coincide, they draw as one dot on
// the line. Colours from the canvas's CSS custom properties (--relpos-fg, --relpos-grid,
// --relpos-line, --relpos-accent), so the theme decides them.
import { fitCanvas } from './canvas-size.js';
import { fillMath, measureMath } from './math-text.js';
import { formatTick, niceStep, niceTicks, withMinus } from './ticks.js';

const MARGIN = { top: 18, right: 12, bottom: 40, left: 52 };

/**
 * Draws points { x, y } and a line { x, y } (x ascending integers) into `canvas` at its
 * container's width and `height`, with an optional `note` in its top right corner. The y range
 * always includes 0.
 */
export function drawScatterPlot(canvas, { points, line, xLabel, yLabel, height = 200, note = '' }) {
  const style = getComputedStyle(canvas);
  const colour = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  const fg = colour('--relpos-fg', '#222');
  const grid = colour('--relpos-grid', '#ddd');
  const lineColour = colour('--relpos-line', '#3a6fb0');
  const pointColour = colour('--relpos-accent', '#c0392b');
  const family = style.fontFamily || 'sans-serif';
  const { context: g, width } = fitCanvas(canvas, canvas.parentElement.clientWidth, height);
  g.clearRect(0, 0, width, height);
  g.font = `12px ${family}`;

  const xMin = line.x[0];
  const xMax = line.x[line.x.length - 1];
  let yMin = Math.min(0, ...points.y, ...line.y);
  let yMax = Math.max(0, ...points.y, ...line.y);
  const pad = (yMax - yMin || 1) * 0.08;
  yMin -= pad;
  yMax += pad;
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const px = (value) => MARGIN.left + (xMax === xMin ? plotW / 2 : ((value - xMin) / (xMax - xMin)) * plotW);
  const py = (value) => MARGIN.top + (1 - (value - yMin) / (yMax - yMin)) * plotH;

  const yTicks = niceTicks(yMin, yMax, 4);
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
    g.fillText(formatTick(tick, yTicks), MARGIN.left - 5, py(tick));
  }
  const every = niceStep(Math.max(1, (26 * line.x.length) / plotW));
  g.textAlign = 'center';
  g.textBaseline = 'top';
  for (const x of line.x) if (x % every === 0) g.fillText(withMinus(x), px(x), MARGIN.top + plotH + 5);
  g.strokeStyle = fg;
  g.beginPath();
  g.moveTo(MARGIN.left, Math.round(py(0)) + 0.5);
  g.lineTo(MARGIN.left + plotW, Math.round(py(0)) + 0.5);
  g.stroke();
  g.fillText(xLabel, MARGIN.left + plotW / 2, height - 15);
  g.save();
  g.translate(13, MARGIN.top + plotH / 2);
  g.rotate(-Math.PI / 2);
  const font = { size: 12, family };
  fillMath(g, yLabel, -measureMath(g, yLabel, font) / 2, -font.size / 2, font);
  g.restore();

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
    g.fillText(note, MARGIN.left + plotW, 0);
  }
  return { px, py, width, height };
}
