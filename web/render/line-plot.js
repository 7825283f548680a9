// A line plot with points on a canvas: one series over integer x positions (the offsets -k..k,
// heads, pairs), on the line chart's axes through zero (line-chart.js), its points as dots, one
// of them marked. The line's colour is the theme's --relpos-line.
import { drawLineChart, zeroAxes } from './line-chart.js';
import { cssColour } from './plot-axes.js';

/**
 * Draws y over x into `canvas` at its parent's width and the given height, the `highlight`-th
 * point larger. Returns the mapping from data to CSS pixels so that callers can hit-test points.
 */
export function drawLinePlot(canvas, { x, y, xLabel, yLabel, height = 260, highlight = -1 }) {
  const colour = cssColour(getComputedStyle(canvas), '--relpos-line', '#3a6fb0');
  const { px, py, width } = drawLineChart(canvas, {
    series: [{ label: yLabel, x, y, colour, dots: true, highlight }],
    xLabel,
    yLabel,
    height,
    axes: zeroAxes(),
    legend: false,
  });
  return { px, py, width, height };
}
