// Marks for a line chart's points, one shape each, to tell series apart besides their colour: a
// series of line-chart.js names one as its `marker` (and its legend swatch shows it). A file of its
// own, loaded by the charts that use them: the page's first load carries only the chart's squares.

/** How wide a marker is drawn (CSS px). */
export const MARKER_SIZE = 7;

// Each draws its shape centred at (x, y), about `size` px across, in `colour`, never dashed.
const filled =
  (path) =>
  (g, x, y, colour, size = MARKER_SIZE) => {
    g.fillStyle = colour;
    g.setLineDash([]);
    g.beginPath();
    path(g, x, y, size / 2);
    g.fill();
  };
const stroked =
  (path) =>
  (g, x, y, colour, size = MARKER_SIZE) => {
    g.strokeStyle = colour;
    g.lineWidth = 2;
    g.setLineDash([]);
    g.beginPath();
    path(g, x, y, size / 2);
    g.stroke();
  };
const triangle = (s) => (g, x, y, r) => {
  g.moveTo(x, y - s * r * 1.1);
  g.lineTo(x + r, y + s * r * 0.8);
  g.lineTo(x - r, y + s * r * 0.8);
  g.closePath();
};

/**
 * The markers by name, each (g, x, y, colour, size?) → draws it: square, circle, triangle (pointing
 * up), down (a triangle pointing down) and diamond filled; cross (×) and plus (+) stroked 2 px wide.
 */
export const MARKERS = Object.freeze({
  square: filled((g, x, y, r) => g.rect(x - r, y - r, 2 * r, 2 * r)),
  circle: filled((g, x, y, r) => g.arc(x, y, r * 0.9, 0, 2 * Math.PI)),
  triangle: filled(triangle(1)),
  down: filled(triangle(-1)),
  diamond: filled((g, x, y, r) => {
    g.moveTo(x, y - r * 1.15);
    g.lineTo(x + r * 0.9, y);
    g.lineTo(x, y + r * 1.15);
    g.lineTo(x - r * 0.9, y);
    g.closePath();
  }),
  cross: stroked((g, x, y, r) => {
    const d = r * 0.85;
    g.moveTo(x - d, y - d);
    g.lineTo(x + d, y + d);
    g.moveTo(x - d, y + d);
    g.lineTo(x + d, y - d);
  }),
  plus: stroked((g, x, y, r) => {
    g.moveTo(x - r, y);
    g.lineTo(x + r, y);
    g.moveTo(x, y - r);
    g.lineTo(x, y + r);
  }),
});
