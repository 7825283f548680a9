// A horizontal colour bar: the scale's 256 colours as one ImageData row, stretched with
// smoothing off, with tick marks and numbers under it, and pointed ends where values lie
// beyond the scale (scale.beyond: { low, high }).
import { colourTable, TABLE_SIZE } from './colormaps.js';
import { withMinus } from './number-text.js';
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

/**
 * `labelRoom`: the width the label may take from x (CSS px); a longer label is condensed to fit,
 * never cut. `numbersRight`: the x no number under the bar passes (the canvas's right edge): a
 * number centred on its tick that would is moved left to end there. Returns { label: the box of
 * the label's ink above the bar ({ left, right, top, bottom }, CSS px), or null without a label;
 * ticks: each tick as drawn, [{ value, text, x }] }.
 */
export function drawColourBar(
  g,
  { x, y, width, height, scale, fg, label, labelRoom = Infinity, numbersRight = Infinity },
) {
  g.save();
  g.imageSmoothingEnabled = false;
  g.drawImage(stripFor(colourTable(scale.map)), x, y, width, height);
  g.restore();
  g.strokeStyle = fg;
  g.lineWidth = 1;
  g.strokeRect(Math.round(x) + 0.5, Math.round(y) + 0.5, Math.round(width) - 1, Math.round(height) - 1);
  // Values beyond the scale saturate: a pointed end in the end colour says so.
  const table = colourTable(scale.map);
  const end = (entry, tip, base) => {
    g.fillStyle = `rgb(${table[entry * 4]}, ${table[entry * 4 + 1]}, ${table[entry * 4 + 2]})`;
    g.beginPath();
    g.moveTo(base, y + 0.5);
    g.lineTo(tip, y + height / 2);
    g.lineTo(base, y + height - 0.5);
    g.closePath();
    g.fill();
    g.stroke();
  };
  if (scale.beyond?.low) end(0, Math.round(x) - height + 0.5, Math.round(x) + 0.5);
  if (scale.beyond?.high) end(TABLE_SIZE - 1, Math.round(x + width) + height - 0.5, Math.round(x + width) - 0.5);
  const numbers = colourBarNumbers(scale, { x, width, numbersRight, measure: (text) => g.measureText(text).width });
  g.fillStyle = fg;
  g.textAlign = 'center';
  g.textBaseline = 'top';
  for (const { x: tx, text, centre } of numbers) {
    g.fillRect(Math.round(tx), y + height, 1, 4);
    g.fillText(text, centre, y + height + 5);
  }
  const drawn = numbers.map(({ value, text, x: tx }) => ({ value, text, x: tx }));
  if (!label) return { label: null, ticks: drawn };
  g.textAlign = 'left';
  g.textBaseline = 'bottom';
  const ink = g.measureText(label);
  if (ink.width > labelRoom) g.fillText(label, x, y - 3, labelRoom);
  else g.fillText(label, x, y - 3);
  const shrink = ink.width > labelRoom ? labelRoom / ink.width : 1;
  const box = {
    left: x - ink.actualBoundingBoxLeft * shrink,
    right: x + ink.actualBoundingBoxRight * shrink,
    top: y - 3 - ink.actualBoundingBoxAscent,
    bottom: y - 3 + ink.actualBoundingBoxDescent,
  };
  return { label: box, ticks: drawn };
}
