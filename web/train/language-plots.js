// The comparison of languages' dot plot (language-section.js): one row per language and layer,
// each head of each seed a dot at its share of attention on earlier words, with its whisker.
import { fitCanvas } from '../render/canvas-size.js';
import { cssColour, drawXTicks } from '../render/plot-axes.js';
import { SYMMETRIC_BAND } from '../views/left-right.js';
import { SERIES_COLOURS } from '../render/line-chart.js';

const MARGIN = { top: 12, right: 16, bottom: 40, left: 96 };
const ROW = 34;

/**
 * rows: [{ label, points: [{ share, interval: [low, high], seedIndex }] }] on a shared axis of
 * shares (from the data, always including 0.5 and the symmetric band). Returns { min, max }.
 */
export function drawShares(canvas, { rows }) {
  const style = getComputedStyle(canvas);
  const fg = cssColour(style, '--relpos-fg', '#222');
  const grid = cssColour(style, '--relpos-grid', '#ddd');
  const width = Math.max(240, canvas.parentElement.clientWidth);
  const height = MARGIN.top + rows.length * ROW + MARGIN.bottom;
  const { context: g } = fitCanvas(canvas, width, height);
  g.clearRect(0, 0, width, height);
  g.font = `12px ${style.fontFamily || 'sans-serif'}`;
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
  // A tick every 5 points, or every 10 where 5 would crowd the labels (a phone): a mark 4 px long in fg.
  const step = plotW / ((max - min) / 0.05) >= 34 ? 0.05 : 0.1;
  const ticks = [];
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + 1e-9; v += step) ticks.push(v);
  const tickLabel = (v) => `${Math.round(100 * v)} %`;
  drawXTicks(g, { ticks, px, bottom, gap: 6, grid: fg, lines: 4, label: tickLabel });
  const label =
    plotW >= 420
      ? 'share of off-diagonal attention on earlier words (← ahead · back →)'
      : 'share on earlier words (← ahead · back →)';
  g.fillText(label, MARGIN.left + plotW / 2, bottom + 22);
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
