// The comparison of languages' dot plot (language-section.js): one row per language and layer,
// each head of each seed a dot at its share of attention on earlier words, with its whisker.
import { fitCanvas } from '../render/canvas-size.js';
import { fillTextWithin } from '../render/fit-label.js';
import { cssColour, drawXTicks } from '../render/plot-axes.js';
import { SYMMETRIC_BAND } from '../views/left-right.js';
import { SERIES_COLOURS } from '../render/line-chart.js';

const MARGIN = { top: 12, right: 16, bottom: 40, left: 96 };
const ROW = 34;
const TICK_GAP = 8; // px at least between two tick labels
const TITLE_LINE = 16; // px per line of the axis title
const EDGE = 2; // px kept between the axis title and the canvas's sides
/** The axis title, longest first: one line where it fits, else the short one on two lines. */
const TITLES = [
  ['share of off-diagonal attention on earlier words (← ahead · back →)'],
  ['share on earlier words (← ahead · back →)'],
  ['share on earlier words', '(← ahead · back →)'],
];
const tickLabel = (v) => `${Math.round(100 * v)} %`;

/** The ticks on [min, max] every `step`. */
function ticksEvery(min, max, step) {
  const ticks = [];
  for (let k = Math.ceil(min / step - 1e-9); k * step <= max + 1e-9; k += 1) ticks.push(Number((k * step).toFixed(6)));
  return ticks;
}

/**
 * The x ticks: every 5 points, or 10, 20, 25 or 50, the finest at which each label (in the current
 * font) clears the next by TICK_GAP px.
 */
function shareTicks(g, min, max, plotW) {
  const step = [0.05, 0.1, 0.2, 0.25, 0.5].find((s) => {
    const widest = Math.max(...ticksEvery(min, max, s).map((v) => g.measureText(tickLabel(v)).width));
    return (plotW * s) / (max - min) >= widest + TICK_GAP;
  });
  return ticksEvery(min, max, step ?? 0.5);
}

/**
 * rows: [{ label, points: [{ share, interval: [low, high], seedIndex }] }] on a shared axis of
 * shares (from the data, always including 0.5 and the symmetric band). Returns { min, max }.
 */
export function drawShares(canvas, { rows }) {
  const style = getComputedStyle(canvas);
  const fg = cssColour(style, '--relpos-fg', '#222');
  const grid = cssColour(style, '--relpos-grid', '#ddd');
  const font = `12px ${style.fontFamily || 'sans-serif'}`;
  const width = Math.max(240, canvas.parentElement.clientWidth);
  // The axis title's lines: the longest that fits between the canvas's sides.
  const measuring = canvas.getContext('2d');
  measuring.font = font;
  const title =
    TITLES.find((lines) => lines.every((line) => measuring.measureText(line).width <= width - 2 * EDGE)) ??
    TITLES.at(-1);
  const height = MARGIN.top + rows.length * ROW + MARGIN.bottom + (title.length - 1) * TITLE_LINE;
  const { context: g } = fitCanvas(canvas, width, height);
  g.clearRect(0, 0, width, height);
  g.font = font;
  const band = [SYMMETRIC_BAND.low / (1 + SYMMETRIC_BAND.low), SYMMETRIC_BAND.high / (1 + SYMMETRIC_BAND.high)];
  const values = rows.flatMap((r) => r.points.flatMap((p) => p.interval)).concat(band);
  const min = Math.floor(Math.min(...values) * 20) / 20;
  const max = Math.ceil(Math.max(...values) * 20) / 20;
  const plotW = width - MARGIN.left - MARGIN.right;
  const px = (v) => MARGIN.left + ((v - min) / (max - min)) * plotW;
  const bottom = MARGIN.top + rows.length * ROW;
  g.fillStyle = grid;
  g.globalAlpha = 0.6;
  g.fillRect(px(band[0]), MARGIN.top, px(band[1]) - px(band[0]), bottom - MARGIN.top);
  g.globalAlpha = 1;
  g.strokeStyle = fg;
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(px(0.5), MARGIN.top);
  g.lineTo(px(0.5), bottom);
  g.stroke();
  g.fillStyle = fg;
  // A mark 4 px long in fg at each tick, its label under it, the last kept inside the canvas.
  const ticks = shareTicks(g, min, max, plotW);
  drawXTicks(g, { ticks, px, bottom, gap: 6, grid: fg, lines: 4, label: tickLabel, right: width - 1 });
  title.forEach((line, index) =>
    fillTextWithin(g, line, MARGIN.left + plotW / 2, bottom + 22 + index * TITLE_LINE, EDGE, width - EDGE),
  );
  rows.forEach((row, r) => {
    const y = MARGIN.top + r * ROW + ROW / 2;
    g.fillStyle = fg;
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    g.fillText(row.label, MARGIN.left - 8, y);
    row.points.forEach((p, i) => {
      const yy = y - 8 + (16 * (i + 0.5)) / row.points.length;
      g.strokeStyle = SERIES_COLOURS[p.seedIndex % SERIES_COLOURS.length];
      g.fillStyle = g.strokeStyle;
      g.beginPath();
      g.moveTo(px(p.interval[0]), yy);
      g.lineTo(px(p.interval[1]), yy);
      g.stroke();
      g.beginPath();
      g.arc(px(p.share), yy, 3, 0, 2 * Math.PI);
      g.fill();
    });
  });
  return { min, max };
}
