// A few shares (0 to 1) as vertical bars on the plot axes (plot-axes.js), each named under its
// bar and printed over it (the caller's format), and a reference share as a dashed line across them.
// Colours come from the canvas's CSS custom properties: --relpos-fg, --relpos-grid, --relpos-line,
// --relpos-muted, --relpos-panel (behind the values).
import { fitCanvas, pixelRatio } from './canvas-size.js';
import { cssColour, drawAxes, plotScales } from './plot-axes.js';

const MARGIN = { top: 20, right: 10, bottom: 34, left: 46 }; // right: and the reference's label
const AXES = { size: 12, ticks: 5, gap: 5, xSpacing: 0 };
const BAR_SHARE = 0.56; // of the room per bar

/** `label` on one line if it fits `room` px, else split at the space that makes the longer line shortest. */
function nameLines(g, label, room) {
  if (g.measureText(label).width <= room) return [label];
  const spaces = [...label.matchAll(/ /g)].map((m) => m.index);
  if (!spaces.length) return [label];
  const longer = (at) => Math.max(g.measureText(label.slice(0, at)).width, g.measureText(label.slice(at + 1)).width);
  const at = spaces.reduce((best, space) => (longer(space) < longer(best) ? space : best));
  return [label.slice(0, at), label.slice(at + 1)];
}

/**
 * Draws `bars` ([{ label, value }], values 0–1) and `reference` ({ label, value }: a dashed line,
 * its label and format(value) in two lines at its right end) at the
 * width of the canvas's parent and `height` CSS px, the y axis in per cent, labelled `yLabel`
 * (math notation); `format(value)` is the text over each bar. Returns { bars: [{ label, value, x, width, top, bottom,
 * name: { lines, width } (its name as drawn), slot (the room per bar) }], reference:
 * { value, y } } in CSS px, for hit-testing and checks.
 */
export function drawShareBars(canvas, { bars, reference, format, yLabel = '', height = 150 }) {
  const style = getComputedStyle(canvas);
  const fg = cssColour(style, '--relpos-fg', '#222');
  const fill = cssColour(style, '--relpos-line', '#3a6fb0');
  const muted = cssColour(style, '--relpos-muted', '#666');
  const halo = cssColour(style, '--relpos-panel', '#fff');
  const family = style.fontFamily || 'sans-serif';
  const parent = canvas.parentElement;
  const { context: g, width } = fitCanvas(canvas, parent.clientWidth, height, pixelRatio(parent));
  g.clearRect(0, 0, width, height);
  // Room on the right for the reference's label and value, as wide as the wider of the two.
  g.font = `${AXES.size}px ${family}`;
  const labelWidth = Math.max(g.measureText(reference.label).width, g.measureText(format(reference.value)).width);
  const margin = { ...MARGIN, right: MARGIN.right + Math.ceil(labelWidth) };
  const slots = bars.map((_, index) => index);
  // x from −½ to count − ½: each bar the middle of its slot; y over 0–100 %.
  const scales = plotScales({ width, height, margin, x: [-0.5, bars.length - 0.5], ys: [[0, 100]] });
  const { px, py } = scales;
  const grid = cssColour(style, '--relpos-grid', '#ddd');
  drawAxes(g, scales, slots, { xLabel: '', yLabel }, { ...AXES, fg, grid, family, xTickLabel: () => '' });
  // Each bar's name under it: on two lines where one would reach into the next bar's room.
  const slotWidth = scales.plotW / bars.length;
  g.textAlign = 'center';
  g.textBaseline = 'top';
  const names = bars.map(({ label }, index) => {
    const lines = nameLines(g, label, slotWidth - 4);
    lines.forEach((line, row) => g.fillText(line, px(index), py(0) + AXES.gap + row * (AXES.size + 1)));
    return { lines, width: Math.max(...lines.map((line) => g.measureText(line).width)) };
  });
  const barWidth = (scales.plotW / bars.length) * BAR_SHARE;
  g.fillStyle = fill;
  const drawn = bars.map(({ label, value }, index) => {
    const top = py(100 * value);
    const bottom = py(0);
    const x = px(index) - barWidth / 2;
    g.fillRect(x, top, barWidth, bottom - top);
    return { label, value, x, width: barWidth, top, bottom, name: names[index], slot: slotWidth };
  });
  // The reference across the bars, dashed, named in the right margin.
  const y = py(100 * reference.value);
  const lineY = Math.round(y) + 0.5; // on the pixel grid
  g.strokeStyle = muted;
  g.lineWidth = 1.5;
  g.setLineDash([5, 4]);
  g.beginPath();
  g.moveTo(margin.left, lineY);
  g.lineTo(width - margin.right, lineY);
  g.stroke();
  g.setLineDash([]);
  g.fillStyle = muted;
  g.textAlign = 'left';
  g.textBaseline = 'bottom';
  g.fillText(reference.label, width - margin.right + 4, lineY);
  g.textBaseline = 'top';
  g.fillText(format(reference.value), width - margin.right + 4, lineY + 1);
  // Each value over its bar, on a halo of the background.
  g.textAlign = 'center';
  g.textBaseline = 'bottom';
  g.lineWidth = 4;
  g.lineJoin = 'round';
  g.strokeStyle = halo;
  g.fillStyle = fg;
  // A value whose text the dashed line would cross stands just above the line instead.
  for (const [index, { value, top }] of drawn.entries()) {
    const crossed = lineY > top - 3 - AXES.size - 2 && lineY < top + 2;
    const at = crossed ? lineY - 3 : top - 3;
    g.strokeText(format(value), px(index), at);
    g.fillText(format(value), px(index), at);
  }
  return { bars: drawn, reference: { value: reference.value, y } };
}
