// A line chart's lines named at their ends (line-chart.js's `endLabels`): each label right of the
// plot at its line's last point, moved apart where labels would overlap, with a leader line from
// the point and the series' marker. A file of its own, loaded by the charts that use it.
import { MARKERS, MARKER_SIZE } from './point-markers.js';

/** The least distance between two labels (px), the room before a label's text, and the share of the width the plot keeps at the least. */
const GAP = 13;
const LEAD = 24;
const PLOT_SHARE = 0.5;

/**
 * Where labels go whose ideal heights are `targets` (ascending px): each at least `gap` from the
 * next, the ones that would overlap set as a block centred on their targets' mean, within [low,
 * high] (a block that would stand out moved inside).
 */
export function spreadLabels(targets, gap, low, high) {
  const blocks = [];
  for (const target of targets) {
    blocks.push({ sum: target, count: 1, start: target });
    for (;;) {
      const last = blocks.at(-1);
      const centred = last.sum / last.count - ((last.count - 1) * gap) / 2;
      last.start = Math.min(Math.max(centred, low), high - (last.count - 1) * gap);
      const before = blocks.at(-2);
      if (!before || before.start + before.count * gap <= last.start) break;
      blocks.pop();
      before.sum += last.sum;
      before.count += last.count;
    }
  }
  return blocks.flatMap((b) => Array.from({ length: b.count }, (_, k) => b.start + k * gap));
}

const ending = (series) => series.filter((s) => s.x.length > 0 && Number.isFinite(s.y.at(-1)));

/**
 * The line chart's end labels: room(measure, series, width) → the px to leave right of the plot
 * for them (the widest label and its lead), 0 when the plot would keep less than half the
 * `width`; draw(g, series, { px, py, x (the plot's right edge), top, bottom, fg, colourOf }) → draws
 * them (labels in fg) and returns true, or false when they do not fit the plot's height.
 */
export const END_LABELS = Object.freeze({
  room(measure, series, width) {
    const ends = ending(series);
    if (!ends.length) return 0;
    const room = Math.ceil(Math.max(...ends.map((s) => measure.measureText(s.label).width))) + LEAD;
    return room <= (1 - PLOT_SHARE) * width ? room : 0;
  },
  draw(g, series, { px, py, x, top, bottom, fg, colourOf }) {
    const ends = ending(series);
    if (ends.length * GAP > bottom - top + 2 * GAP) return false;
    const placed = ends
      .map((s) => ({ s, target: py(s.y.at(-1)), from: px(s.x.at(-1)) }))
      .sort((a, b) => a.target - b.target);
    const ys = spreadLabels(
      placed.map((p) => p.target),
      GAP,
      top - GAP / 2,
      bottom + GAP / 2,
    );
    g.textAlign = 'left';
    g.textBaseline = 'middle';
    placed.forEach(({ s, target, from }, i) => {
      const colour = colourOf(s);
      g.strokeStyle = colour;
      g.lineWidth = 1;
      g.setLineDash([]);
      g.beginPath();
      g.moveTo(from + MARKER_SIZE / 2 + 2, target);
      g.lineTo(x + 8, ys[i]);
      g.lineTo(x + 11, ys[i]);
      g.stroke();
      (s.marker ?? MARKERS.square)(g, x + 15, ys[i], colour);
      g.fillStyle = fg;
      g.fillText(s.label, x + 22, ys[i]);
    });
    return true;
  },
});
