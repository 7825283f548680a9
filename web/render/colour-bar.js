// A horizontal colour bar: the scale's 256 colours as one ImageData row, stretched with
// smoothing off, with tick marks and numbers under it, and pointed ends where values lie
// beyond the scale (scale.beyond: { low, high }).
import { colourTable, TABLE_SIZE } from './colormaps.js';
import { withMinus } from './number-text.js';
import { fillPlacedText } from './placed-text.js';
import { formatTick, niceTicks } from './ticks.js';

// One strip per colour table, written once: drawing a bar only stretches it.
const strips = new WeakMap();

function stripFor(table) {
  if (!strips.has(table)) {
    const strip = new OffscreenCanvas(TABLE_SIZE, 1);
    strip.getContext('2d').putImageData(new ImageData(Uint8ClampedArray.from(table), TABLE_SIZE, 1), 0, 0);
    strips.set(table, strip);
  }
  return strips.get(table);
}

/** Ticks for a scale: integers for integer data, else about five round numbers. */
export function colourBarTicks(scale) {
  if (scale.integer) {
    const step = Math.max(1, Math.ceil((scale.max - scale.min) / 8));
    const ticks = [];
    for (let v = Math.ceil(scale.min / step) * step; v <= scale.max; v += step) ticks.push(v); // 0 included
    return ticks;
  }
  const inside = (count) =>
    niceTicks(scale.min, scale.max, count).filter((t) => t >= scale.min - 1e-12 && t <= scale.max + 1e-12);
  const ticks = inside(4);
  return ticks.length >= 3 ? ticks : inside(8);
}

/** Px kept between two numbers under a bar: closer, every other tick is dropped. */
const NUMBER_GAP = 4;

/**
 * The numbers under a colour bar from x, `width` px wide, by the one rule the canvas and the SVG
 * (heatmap-svg.js) draw them by: colourBarTicks, every other dropped while two neighbours' texts
 * (`measure(text)`: its width in px, in the font they are drawn in) would come closer than
 * NUMBER_GAP; each centred on its tick, but moved left to end at `numbersRight` where it would
 * pass it. Returns [{ value, text, x: the tick's x, centre: the x the text is centred on }].
 */
export function colourBarNumbers(scale, { x, width, numbersRight = Infinity, measure }) {
  const position = (tick) => x + ((tick - scale.min) / (scale.max - scale.min)) * width;
  const textOf = (tick, all) => withMinus(scale.integer ? String(tick) : formatTick(tick, all));
  const touch = (shown) =>
    shown.some((tick, index) => {
      if (index === 0) return false;
      const half = (t) => measure(textOf(t, shown)) / 2;
      return position(tick) - position(shown[index - 1]) < half(tick) + half(shown[index - 1]) + NUMBER_GAP;
    });
  let ticks = colourBarTicks(scale);
  while (ticks.length > 2 && touch(ticks)) ticks = ticks.filter((_, index) => index % 2 === 0);
  return ticks.map((tick) => {
    const text = textOf(tick, ticks);
    const tx = position(tick);
    return { value: tick, text, x: tx, centre: Math.min(tx, numbersRight - measure(text) / 2) };
  });
}

/** The tick marks' length under the bar, where the numbers' tops stand under it, and the label's bottom over it (px). */
const TICK_LENGTH = 4;
const NUMBERS_BELOW = 5;
const LABEL_ABOVE = 3;

/**
 * What a colour bar from (x, y), `width` × `height` px, is drawn with: the one geometry by which
 * the canvas (drawColourBar) and the SVG export (heatmap-svg.js) draw it. `measure(text)`: a
 * text's width in the numbers' and the label's font. `labelRoom`: the width the label may take
 * from x; `label` a text, or its forms longest first (the first that fits is drawn); a label
 * longer than the room (its shortest form) is condensed to fit, never cut. `numbersRight`: the x no number passes
 * (colourBarNumbers). Returns { outline: the 1 px frame's stroke, { x, y, width, height }, on
 * pixel centres inside the bar; ends: the pointed ends where values lie beyond the scale
 * (scale.beyond), [{ entry: the colour table's, points: [[x, y], …] }]; ticks: colourBarNumbers',
 * each with its tick mark, mark: { x, y, width, height }, and its number as a placed text
 * (placed-text.js), number; label: the label as a placed text, or null }.
 */
export function colourBarShapes(
  scale,
  { x, y, width, height, label = '', labelRoom = Infinity, numbersRight = Infinity, measure },
) {
  const left = Math.round(x);
  const right = Math.round(x + width);
  const end = (entry, tip, base) => ({
    entry,
    points: [
      [base, y + 0.5],
      [tip, y + height / 2],
      [base, y + height - 0.5],
    ],
  });
  const ends = [];
  if (scale.beyond?.low) ends.push(end(0, left - height + 0.5, left + 0.5));
  if (scale.beyond?.high) ends.push(end(TABLE_SIZE - 1, right + height - 0.5, right - 0.5));
  const ticks = colourBarNumbers(scale, { x, width, numbersRight, measure }).map((tick) => ({
    ...tick,
    mark: { x: Math.round(tick.x), y: y + height, width: 1, height: TICK_LENGTH },
    number: { text: tick.text, x: tick.centre, y: y + height + NUMBERS_BELOW, align: 'center', baseline: 'top' },
  }));
  const forms = Array.isArray(label) ? label : [label];
  const text = forms.find((form) => measure(form) <= labelRoom) ?? forms.at(-1);
  const labelText = text
    ? {
        text,
        x,
        y: y - LABEL_ABOVE,
        align: 'left',
        baseline: 'bottom',
        maxWidth: measure(text) > labelRoom ? labelRoom : undefined,
      }
    : null;
  return {
    outline: { x: left + 0.5, y: Math.round(y) + 0.5, width: Math.round(width) - 1, height: Math.round(height) - 1 },
    ends,
    ticks,
    label: labelText,
  };
}

/**
 * Draws a colour bar (colourBarShapes: `labelRoom`, `numbersRight`) in `fg`, with the context's
 * font. Returns { label: the box of the label's ink above the bar ({ left, right, top, bottom },
 * CSS px), or null without a label; ticks: each tick as drawn, [{ value, text, x }] }.
 */
export function drawColourBar(
  g,
  { x, y, width, height, scale, fg, label, labelRoom = Infinity, numbersRight = Infinity },
) {
  const shapes = colourBarShapes(scale, {
    x,
    y,
    width,
    height,
    label,
    labelRoom,
    numbersRight,
    measure: (text) => g.measureText(text).width,
  });
  g.save();
  g.imageSmoothingEnabled = false;
  g.drawImage(stripFor(colourTable(scale.map)), x, y, width, height);
  g.restore();
  g.strokeStyle = fg;
  g.lineWidth = 1;
  const { outline } = shapes;
  g.strokeRect(outline.x, outline.y, outline.width, outline.height);
  // Values beyond the scale saturate: a pointed end in the end colour says so.
  const table = colourTable(scale.map);
  for (const { entry, points } of shapes.ends) {
    g.fillStyle = `rgb(${table[entry * 4]}, ${table[entry * 4 + 1]}, ${table[entry * 4 + 2]})`;
    g.beginPath();
    points.forEach(([px, py], index) => (index ? g.lineTo(px, py) : g.moveTo(px, py)));
    g.closePath();
    g.fill();
    g.stroke();
  }
  g.fillStyle = fg;
  for (const { mark, number } of shapes.ticks) {
    g.fillRect(mark.x, mark.y, mark.width, mark.height);
    fillPlacedText(g, number);
  }
  const drawn = shapes.ticks.map(({ value, text, x: tx }) => ({ value, text, x: tx }));
  if (!shapes.label) return { label: null, ticks: drawn };
  fillPlacedText(g, shapes.label);
  const ink = g.measureText(shapes.label.text);
  const shrink = shapes.label.maxWidth === undefined ? 1 : labelRoom / ink.width;
  const box = {
    text: shapes.label.text,
    left: x - ink.actualBoundingBoxLeft * shrink,
    right: x + ink.actualBoundingBoxRight * shrink,
    top: shapes.label.y - ink.actualBoundingBoxAscent,
    bottom: shapes.label.y + ink.actualBoundingBoxDescent,
  };
  return { label: box, ticks: drawn };
}
