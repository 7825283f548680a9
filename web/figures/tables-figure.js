// The "tables" figure: what one cell (i, j) is made of. Left: the query qᵢ, the key kⱼ and the
// table aᴷ with the row clip(j − i) that the cell's position bias reads; right: aⱽ with the same
// row, and query i's output split as zᵢ = Σⱼ wᵢⱼ vⱼ + Σⱼ wᵢⱼ aⱽ[clip(j − i)] (docs/maths.md).
import { drawVectorBlocks } from '../render/vector-blocks.js';
import { downloadCanvas } from './download.js';
import { createFigureShell } from './figure-shell.js';
import { formatSignificant } from './panels.js';
import { clippedOffset, outputParts } from './view.js';

const minus = (value) => String(value).replace('-', '−');
const rowsOf = (matrix, label) =>
  Array.from({ length: matrix.rows }, (_, r) => ({ label: label(r), values: matrix.data.subarray(r * matrix.cols, (r + 1) * matrix.cols) }));

export function createTablesFigure(number) {
  const parts = createFigureShell({ id: 'figure-tables', title: 'What one cell is made of', number, pngLabel: 'tables' });
  parts.canvas.id = 'tables-canvas';
  parts.png.addEventListener('click', () => downloadCanvas(parts.canvas, 'relpos-tables.png'));
  return parts;
}

/** The blocks the figure draws for `view` and the cell { i, j }: two columns. */
export function tableBlocks(view, { i, j }) {
  const { maxDistance: k, result } = view;
  const { q, k: keys, relKeys, relValues } = result.inputs;
  const c = clippedOffset(i, j, k) + k;
  const offsetLabel = (r) => minus(r - k);
  const parts = outputParts(view, i);
  const vector = (title, values) => ({ title, rows: [{ label: '', values }], highlight: -1 });
  return [
    [
      vector(`query q${sub(i)} (${view.tokens[i] || `#${i}`})`, q.data.subarray(i * q.cols, (i + 1) * q.cols)),
      vector(`key k${sub(j)} (${view.tokens[j] || `#${j}`})`, keys.data.subarray(j * keys.cols, (j + 1) * keys.cols)),
      vector('', new Float64Array(0)),
      { title: `aᴷ, one row per offset; row ${minus(c - k)} for this cell`, rows: rowsOf(relKeys, offsetLabel), highlight: c },
    ],
    [
      vector(`Σⱼ w${sub(i)}ⱼ vⱼ (from the values)`, parts.fromValues),
      vector(`Σⱼ w${sub(i)}ⱼ aⱽ[clip(j − ${i})] (from positions)`, parts.fromPositions),
      vector(`output z${sub(i)}, their sum`, parts.output),
      { title: `aⱽ; row ${minus(c - k)} for this cell`, rows: rowsOf(relValues, offsetLabel), highlight: c },
    ],
  ];
}

const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';
const sub = (number) => String(number).replace(/\d/g, (d) => SUBSCRIPTS[d]);

/** Draws the figure for the selected cell (or (0, 0) when none is), with a caption to match. */
export function drawTablesFigure(parts, view, cell, colours) {
  const width = parts.wrap.clientWidth;
  if (!width || !view?.result.output) return null;
  const shown = cell ?? { i: 0, j: 0 };
  const scales = drawVectorBlocks(parts.canvas, { columns: tableBlocks(view, shown), width, format: (v) => formatSignificant(v, 2), colours });
  const k = view.maxDistance;
  const c = clippedOffset(shown.i, shown.j, k);
  const caption =
    `${cell ? 'The selected cell' : 'No cell selected (hover or focus one): cell'} (${shown.i}, ${shown.j}), offset ${minus(shown.j - shown.i)}` +
    `${c !== shown.j - shown.i ? `, clipped to ${minus(c)}` : ''}: its bias is q${sub(shown.i)} · aᴷ[${minus(c)}]/√dₖ, and every cell at that clipped offset reads the same outlined rows. ` +
    `Colours: blue < 0 < red, left up to ±${formatSignificant(scales[0].max, 2)}, right up to ±${formatSignificant(scales[1].max, 2)}.`;
  if (parts.caption.textContent !== caption) parts.caption.textContent = caption;
  parts.canvas.setAttribute(
    'aria-label',
    `Query ${shown.i} and key ${shown.j}: the tables aᴷ and aⱽ with row ${c} outlined, and query ${shown.i}'s output split into the part from the values and the part from the positions.`,
  );
  return scales;
}
