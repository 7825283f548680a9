// Small labelled matrices and vectors on one canvas, in columns: a block is a title (in the math
// notation of math-text.js) and rows of
// numbers (a table such as aᴷ, or a single vector such as qᵢ), each row with a label; one row
// of a block may be outlined. Cells are coloured on a diverging scale per column of blocks
// (blue below 0, red above, symmetric around 0) and show their value while it fits; with one
// scale for every column, a colour bar under them can say what a colour is.
import { fitCanvas } from './canvas-size.js';
import { drawColourBar } from './colour-bar.js';
import { colourTable, entryFor, luminance } from './colormaps.js';
import { fitLabel } from './fit-label.js';
import { fillMath, wrapMath } from './math-text.js';

const TITLE_LINE = 16; // px per line of a block's title
const TITLE_FONT = 13;
const NARROW_COLUMN = 280; // px: narrower columns give every title two lines (a phone)
const GAP = 14; // px between blocks
const LABEL = 44; // px of row labels, at least
const LABEL_GAP = 6; // px between a row's label and its cells
const LABEL_SHARE = 0.65; // of a column's width, at most, for its labels (longer ones end in "…")
const COLUMN_GAP = 22;
// px kept free right of the last column when one of its rows is outlined: the outline's halo (3 px
// wide, its middle 1 px outside the cells) ends 2.5 px right of them, inside the canvas.
const OUTLINE_ROOM = 3;
const BAR = { top: 22, height: 10, width: 240, below: 22 }; // px: label room above, the bar, its numbers
const barSpace = (bar) => (bar ? BAR.top + BAR.height + BAR.below : 0);

/** The largest |value| over a column's blocks (1 when all are zero), for its colour scale. */
const spanOf = (blocks) => {
  let m = 0;
  for (const block of blocks) for (const row of block.rows) for (const v of row.values) m = Math.max(m, Math.abs(v));
  return m > 1e-12 ? m : 1;
};

const TABLE_SPACE = 160; // px a table may take: 8 rows of 20 px, thinner rows beyond

/** A block's row height: 20 px, less for tables of many rows. */
const rowHeight = (block) => Math.max(1, Math.min(20, Math.floor(TABLE_SPACE / Math.max(1, block.rows.length))));

/** A column's width: `width` shared by the columns, their gaps, and the outline's room if the last has one. */
const columnWidthOf = (width, columns) =>
  (width - (columns.at(-1)?.some((b) => b.highlight >= 0) ? OUTLINE_ROOM : 0) - COLUMN_GAP * (columns.length - 1)) /
  columns.length;

/** px above a block's rows: one title line, or two in a narrow column (the same for every block). */
const titleSpace = (columnWidth) => 4 + TITLE_LINE * (columnWidth < NARROW_COLUMN ? 2 : 1);

/**
 * The canvas height (CSS px) at `width`: the tallest column's blocks as drawn (each its title room,
 * its rows and GAP) and the colour bar, no more. It depends on the blocks' row counts and the
 * width, not on the titles' text or the values (hovering another cell moves nothing below). With
 * `reserveTables`, a table block (`table: true`) takes TABLE_SPACE whatever its rows, so a
 * figure whose tables grow and shrink with a setting (k, one row at k = 0) moves nothing below it.
 */
export function vectorBlocksHeight(columns, width = Infinity, bar = null, reserveTables = false) {
  const title = titleSpace(columnWidthOf(width, columns));
  const rowsHeight = (b) => (reserveTables && b.table ? TABLE_SPACE : b.rows.length * rowHeight(b));
  const blockHeight = (b) => title + rowsHeight(b) + GAP;
  return Math.max(...columns.map((blocks) => blocks.reduce((h, b) => h + blockHeight(b), 0))) + 4 + barSpace(bar);
}

/**
 * columns: [[{ title, rows: [{ label, values }], highlight: row index | -1 }]], drawn side by side
 * at `width` CSS px; format(v) writes a value (a block's own format(v, index), where it has one); colours { fg, muted, outline, outlineHalo, font };
 * `shared`: one colour scale for every column (else one per column); `bar` (with `shared`): the
 * label of a colour bar drawn under the blocks for that scale; `reserveTables`: as
 * vectorBlocksHeight's.
 * Returns { columns: per column its scale's { max } and where each block's cells are ({ x, y,
 * cellWidth, rowHeight }, CSS px), bar: the bar's { x, y, width, label, ticks: [{ value, text,
 * x }] } or null }, for captions and tests.
 */
export function drawVectorBlocks(
  canvas,
  { columns, width, format, colours, shared = false, bar = null, reserveTables = false },
) {
  const withBar = shared ? bar : null;
  const height = vectorBlocksHeight(columns, width, withBar, reserveTables);
  const { context: g } = fitCanvas(canvas, width, height);
  g.clearRect(0, 0, width, height);
  const table = colourTable('rdbu-reversed');
  const columnWidth = columnWidthOf(width, columns);
  const title = titleSpace(columnWidth);
  const titleLines = (title - 4) / TITLE_LINE;
  const titleFont = { size: TITLE_FONT, family: colours.font, style: '600' };
  const sharedSpan = shared ? spanOf(columns.flat()) : null;
  let bottom = 0; // the lowest block's end
  const scales = columns.map((blocks, c) => {
    const m = sharedSpan ?? spanOf(blocks);
    const placed = [];
    const scale = { min: -m, max: m };
    const x0 = c * (columnWidth + COLUMN_GAP);
    let y = 0;
    for (const block of blocks) {
      g.fillStyle = colours.fg;
      wrapMath(g, block.title, columnWidth, titleFont, titleLines).forEach((line, index) =>
        fillMath(g, line, x0, y + 2 + index * TITLE_LINE, titleFont),
      );
      y += title;
      const h = rowHeight(block);
      const d = block.rows[0]?.values.length ?? 0;
      const labelEvery = Math.max(1, Math.ceil(13 / h));
      const labelled = (r) => r % labelEvery === 0 || r === block.highlight;
      const labelFont = (r) =>
        `${r === block.highlight ? '600 ' : ''}${Math.min(12, Math.max(9, h - 2))}px ${colours.font}`;
      // The labels' room: the widest label drawn, within LABEL … LABEL_SHARE of the column.
      let widest = 0;
      block.rows.forEach((row, r) => {
        if (!labelled(r)) return;
        g.font = labelFont(r);
        widest = Math.max(widest, g.measureText(row.label).width);
      });
      const label = Math.max(LABEL, Math.min(Math.ceil(widest) + LABEL_GAP + 1, Math.floor(columnWidth * LABEL_SHARE)));
      const cellWidth = (columnWidth - label) / Math.max(1, d);
      // Values at 11 px, smaller where the widest of the block's would not fit its cell with 2 px
      // each side ("−0.0083" ran into its neighbour in a 43 px cell); none below 9 px.
      const texts = block.rows.map((row) => Array.from(row.values, (v, k) => (block.format ?? format)(v, k)));
      let valueFont = 0;
      if (h >= 16 && cellWidth >= 40) {
        g.font = `11px ${colours.font}`;
        const widestValue = Math.max(0, ...texts.flat().map((text) => g.measureText(text).width));
        valueFont = Math.min(11, widestValue ? (11 * (cellWidth - 4)) / widestValue : 11);
        if (valueFont < 9) valueFont = 0;
      }
      placed.push({ x: x0 + label, y, cellWidth, rowHeight: h });
      block.rows.forEach((row, r) => {
        const top = y + r * h;
        if (labelled(r)) {
          g.fillStyle = r === block.highlight ? colours.fg : colours.muted;
          g.font = labelFont(r);
          g.textAlign = 'right';
          g.textBaseline = 'middle';
          g.fillText(fitLabel(g, row.label, label - LABEL_GAP - 1), x0 + label - LABEL_GAP, top + h / 2);
        }
        row.values.forEach((v, k) => {
          const entry = entryFor(scale, v);
          g.fillStyle = `rgb(${table[entry * 4]}, ${table[entry * 4 + 1]}, ${table[entry * 4 + 2]})`;
          const left = x0 + label + k * cellWidth;
          g.fillRect(left, top, Math.ceil(cellWidth), h);
          if (valueFont) {
            g.fillStyle = luminance(table, entry) > 0.4 ? '#111' : '#fff';
            g.font = `${valueFont}px ${colours.font}`;
            g.textAlign = 'center';
            g.fillText(texts[r][k], left + cellWidth / 2, top + h / 2 + 0.5);
          }
        });
      });
      if (block.highlight >= 0) {
        const top = y + block.highlight * h;
        g.lineWidth = 3;
        g.strokeStyle = colours.outlineHalo || '#fff';
        g.strokeRect(x0 + label - 1, top - 1, columnWidth - label + 2, h + 2);
        g.lineWidth = 1.5;
        g.strokeStyle = colours.outline || '#111';
        g.strokeRect(x0 + label - 1, top - 1, columnWidth - label + 2, h + 2);
      }
      y += block.rows.length * h + GAP;
    }
    bottom = Math.max(bottom, y);
    return { max: scale.max, blocks: placed };
  });
  if (!withBar) return { columns: scales, bar: null };
  const x = 1;
  const y = bottom + BAR.top; // under the rows drawn
  const barWidth = Math.min(BAR.width, width - 2);
  g.font = `11px ${colours.font}`;
  const { ticks } = drawColourBar(g, {
    x,
    y,
    width: barWidth,
    height: BAR.height,
    scale: { map: 'rdbu-reversed', min: -sharedSpan, max: sharedSpan },
    fg: colours.fg,
    label: withBar,
    labelRoom: width - x - 2,
    numbersRight: width - 1,
  });
  return { columns: scales, bar: { x, y, width: barWidth, label: withBar, ticks } };
}
