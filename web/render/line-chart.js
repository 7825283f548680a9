// The line chart: series over shared axes, each a line (dashed or not) with its points and an
// optional band, a legend above. The axes are the caller's choice: through zero (zeroAxes, here:
// plot-axes.js's drawAxes, the scatter plot's axes: a y range that includes 0, drawn as a line, x
// ticks at the integers, the y label in math notation; the line plot, line-plot.js), fitted
// (fittedAxes, fitted-axes.js: the training section's) or symmetric-log (symlogAxes,
// symlog-axes.js: the checkpoint figure's). Colours from the theme's CSS custom properties
// (--relpos-fg, --relpos-grid) and SERIES_COLOURS. A series may name a dash pattern and a marker
// (point-markers.js), and the lines their names at their ends (end-labels.js): both passed in by
// the charts that use them, so that the first load carries neither.
import { fitCanvas, pixelRatio } from './canvas-size.js';
import { cssColour, dashOf, drawAxes, drawLegend, plotScales } from './plot-axes.js';
import { legendRows } from './legend-rows.js';

/** Series colours (Okabe–Ito: distinguishable with colour-blindness). */
export const SERIES_COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#f0e442'];

/** Where the legend's rows start. */
const LEGEND_LEFT = 52;
/** The axes through zero: their margin (the top one without a legend) and sizes (plot-axes.js's AxesStyle). */
const ZERO_MARGIN = { top: 12, right: 16, bottom: 44, left: 56 };
const ZERO_STYLE = { size: 13, ticks: 5, gap: 6, xSpacing: 28 };

function themed(canvas) {
  const style = getComputedStyle(canvas);
  return {
    fg: cssColour(style, '--relpos-fg', '#222'),
    grid: cssColour(style, '--relpos-grid', '#ddd'),
    family: style.fontFamily || 'sans-serif',
    font: `12px ${style.fontFamily || 'sans-serif'}`,
  };
}

/**
 * The axes through zero (drawAxes): y over every y of the series and 0, x ticks at the integers
 * of their x. An axes object, as fittedAxes (fitted-axes.js) and symlogAxes (symlog-axes.js)
 * make: { minWidth (the chart's
 * least width), clip (cut what lies outside the plot), draw(g, theme, shown, { width, height,
 * legendBottom (the legend's last baseline, null without one), xLabel, yLabel, right (px to leave
 * free right of the plot) }) → the plot's place and mappings { px, py, left, top, plotW, plotH,
 * xMin, xMax, yMin, yMax, integer (x is integer: the points marked) } }.
 */
export function zeroAxes() {
  return {
    minWidth: 0,
    clip: false,
    draw(g, theme, shown, { width, height, legendBottom, xLabel, yLabel, right = 0 }) {
      const union = [...new Set(shown.flatMap((s) => [...s.x]))].sort((a, b) => a - b);
      const x = union.length ? union : [0, 1];
      const top = legendBottom === null ? ZERO_MARGIN.top : legendBottom + 10;
      const margin = { ...ZERO_MARGIN, top, right: ZERO_MARGIN.right + right };
      const scales = plotScales({ width, height, margin, x, ys: shown.length ? shown.map((s) => s.y) : [[0]] });
      const style = { ...ZERO_STYLE, fg: theme.fg, grid: theme.grid, family: theme.family };
      drawAxes(g, scales, x, { xLabel, yLabel }, style);
      const { px, py, plotW, plotH, yMin, yMax } = scales;
      return {
        px,
        py,
        left: margin.left,
        top,
        plotW,
        plotH,
        xMin: x[0],
        xMax: x[x.length - 1],
        yMin,
        yMax,
        integer: true,
      };
    },
  };
}

/**
 * Series [{ label, x: number[], y: number[], colour?, dashed?, dash?, marker?, low?, high?, dots?,
 * highlight? }] on `axes` (zeroAxes(), fittedAxes(…) or symlogAxes(…)); a legend above the plot
 * (`legend: false` leaves it out: a second view of the same series); `low`/`high` (as long as x)
 * fill a band under the line in its colour; `colour` 'fg' is the theme's text colour; `dash` a
 * pattern (one of plot-axes.js's DASHES). The lines (and the legend's) `lineWidth` CSS px wide; a
 * point whose y is not finite is no point of the line (the canvas skips it: the line joins its
 * neighbours). Each point is a square, where the axes' x is integer or there are fewer than 40, or
 * the series' `marker` (one of point-markers.js's MARKERS), or with `dots` a dot (and the line's
 * joins round), the `highlight`-th larger and in the text colour; `points: false`, the lines alone
 * (their joins round). `endLabels` (end-labels.js's END_LABELS) names each line at its end, right
 * of the plot, where there is room (the legend may name them too). Drawn at the width of the
 * canvas's parent (at least the axes' minWidth) and its pixel ratio, `height` CSS px tall and
 * taller by the legend's rows past the first. Returns the drawn ranges and the mappings from data
 * to CSS px (for hit-testing, tests and captions): { xMin, xMax, yMin, yMax, px, py, width,
 * height, endLabels (whether the lines were named at their ends) }.
 */
/**
 * The line through the points (x[i], y[i]) as a path: a point with a non-finite coordinate is a
 * gap, so the line stops there and starts again after it (a missing value is not drawn over).
 */
function tracePath(g, x, y, px, py) {
  let drawing = false;
  for (let i = 0; i < x.length; i += 1) {
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) drawing = false;
    else if (drawing) g.lineTo(px(x[i]), py(y[i]));
    else {
      g.moveTo(px(x[i]), py(y[i]));
      drawing = true;
    }
  }
}

export function drawLineChart(
  canvas,
  {
    series,
    xLabel,
    yLabel,
    height = 220,
    axes = zeroAxes(),
    legend = true,
    endLabels = null,
    lineWidth = 2,
    points = true,
  },
) {
  const t = themed(canvas);
  const parent = canvas.parentElement;
  const cssWidth = Math.max(axes.minWidth, parent.clientWidth);
  // Legend: coloured labels in rows (wrapping); the canvas grows by the extra rows.
  const measure = canvas.getContext('2d');
  measure.font = t.font;
  const { places, ly } = legend
    ? legendRows(
        measure,
        series.map((s) => s.label),
        LEGEND_LEFT,
        cssWidth,
      )
    : { places: [], ly: 14 };
  height += ly - 14;
  const shown = series.filter((s) => s.x.length > 0);
  // Room right of the plot for the lines' names (the legend's left edge stands in for the plot's).
  const right = endLabels ? endLabels.room(measure, shown, cssWidth - LEGEND_LEFT) : 0;
  const { context: g, width } = fitCanvas(canvas, cssWidth, height, pixelRatio(parent));
  g.clearRect(0, 0, width, height);
  g.font = t.font;
  const colourOf = (s, index) =>
    s.colour === 'fg' ? t.fg : (s.colour ?? SERIES_COLOURS[index % SERIES_COLOURS.length]);
  if (legend) drawLegend(g, series, places, { fg: t.fg, lineWidth, colourOf });
  const legendBottom = legend ? ly : null;
  const plot = axes.draw(g, t, shown, { width, height, legendBottom, xLabel, yLabel, right });
  const { px, py, left, top, plotW, plotH } = plot;
  g.save();
  if (axes.clip) {
    // Axes with a fixed range (fittedAxes with yRange) cut what lies outside the plot.
    g.beginPath();
    g.rect(left - 3, top - 3, plotW + 6, plotH + 6);
    g.clip();
  }
  g.save();
  g.globalAlpha = 0.16;
  for (const [index, s] of series.entries()) {
    if (!s.x.length || !s.low || !s.high) continue;
    g.fillStyle = colourOf(s, index);
    g.beginPath();
    s.x.forEach((x, i) => (i ? g.lineTo(px(x), py(s.high[i])) : g.moveTo(px(x), py(s.high[i]))));
    for (let i = s.x.length - 1; i >= 0; i -= 1) g.lineTo(px(s.x[i]), py(s.low[i]));
    g.closePath();
    g.fill();
  }
  g.restore();
  for (const [index, s] of series.entries()) {
    if (!s.x.length) continue;
    g.strokeStyle = colourOf(s, index);
    g.lineWidth = lineWidth;
    g.lineJoin = s.dots || !points ? 'round' : 'miter';
    g.setLineDash(dashOf(s));
    g.beginPath();
    tracePath(g, s.x, s.y, px, py);
    g.stroke();
    if (!points) continue;
    const finite = (i) => Number.isFinite(s.x[i]) && Number.isFinite(s.y[i]);
    if (s.marker) {
      const colour = g.strokeStyle;
      s.x.forEach((x, i) => finite(i) && s.marker(g, px(x), py(s.y[i]), colour));
    } else if (s.dots) {
      s.x.forEach((x, i) => {
        if (!finite(i)) return;
        g.fillStyle = i === s.highlight ? t.fg : g.strokeStyle;
        g.beginPath();
        g.arc(px(x), py(s.y[i]), i === s.highlight ? 6 : 4, 0, 2 * Math.PI);
        g.fill();
      });
    } else if (plot.integer || s.x.length < 40) {
      g.fillStyle = g.strokeStyle;
      s.x.forEach((x, i) => finite(i) && g.fillRect(px(x) - 2, py(s.y[i]) - 2, 4, 4));
    }
  }
  g.restore();
  g.setLineDash([]);
  const named =
    right > 0 &&
    endLabels.draw(g, shown, {
      px,
      py,
      x: left + plotW,
      top,
      bottom: top + plotH,
      fg: t.fg,
      colourOf: (s) => colourOf(s, series.indexOf(s)),
    });
  return {
    xMin: plot.xMin,
    xMax: plot.xMax,
    yMin: plot.yMin,
    yMax: plot.yMax,
    px,
    py,
    width,
    height,
    endLabels: named,
  };
}
