// The "tables" figure: what one cell (i, j) is made of. Left: the query q_i, the key k_j and the
// table a^K with the row clip(j − i, ±k) that the cell's position bias reads; right: a^V with the same
// row, and query i's output split as z_i = Σ_j w_ij v_j + Σ_j w_ij a^V[clip(j − i, ±k)] (docs/maths.md).
// Titles and the caption are in the math notation of render/math-text.js.
import { SIGN_COLOURS } from '../render/colormaps.js';
import { drawVectorBlocks } from '../render/vector-blocks.js';
import { createFigureShell, savesCanvasFigure } from './figure-shell.js';
import { literalMath, plainMath } from '../render/math-text.js';
import { setMathText } from './math-dom.js';
import { addingDecimals, formatFixed, formatSignificant, withMinus as minus } from '../render/number-text.js';
import { clippedOffset, outputParts } from '../views/view.js';

const rowsOf = (matrix, label) =>
  Array.from({ length: matrix.rows }, (_, r) => ({
    label: label(r),
    values: matrix.data.subarray(r * matrix.cols, (r + 1) * matrix.cols),
  }));

export function createTablesFigure(number) {
  const parts = createFigureShell({
    id: 'figure-tables',
    title: 'What one cell is made of',
    number,
    pngLabel: 'tables',
  });
  parts.canvas.id = 'tables-canvas';
  savesCanvasFigure(parts, 'What one cell is made of', 'relpos-tables.png');
  return parts;
}

/** The blocks the figure draws for `view` and the cell { i, j }: two columns. */
export function tableBlocks(view, { i, j }) {
  const { maxDistance: k, result } = view;
  const { q, k: keys, relKeys, relValues } = result.inputs;
  const c = clippedOffset(i, j, k) + k;
  const offsetLabel = (r) => minus(r - k);
  const parts = outputParts(view, i);
  const vector = (title, values, format) => ({ title, rows: [{ label: '', values }], highlight: -1, format });
  // The output's two parts and their sum, element d to the same decimals, at which they add up as written.
  const decimals = Array.from(parts.output, (sum, d) =>
    addingDecimals(parts.fromValues[d], parts.fromPositions[d], sum),
  );
  const adding = (v, d) => formatFixed(v, decimals[d]);
  return [
    [
      vector(
        `query q_{${i}} (${literalMath(view.tokens[i] || `#${i}`)})`,
        q.data.subarray(i * q.cols, (i + 1) * q.cols),
      ),
      vector(
        `key k_{${j}} (${literalMath(view.tokens[j] || `#${j}`)})`,
        keys.data.subarray(j * keys.cols, (j + 1) * keys.cols),
      ),
      vector('', new Float64Array(0)),
      {
        title: `a^K by offset; row ${minus(c - k)} for this cell`,
        rows: rowsOf(relKeys, offsetLabel),
        highlight: c,
        table: true,
      },
    ],
    [
      vector(`Σ_j w_{${i}j} v_j (from the values)`, parts.fromValues, adding),
      vector(`Σ_j w_{${i}j} a^V[clip(j − ${i})] (from positions)`, parts.fromPositions, adding), // ±k left out: two lines at 360 px
      vector(`output z_{${i}}, their sum`, parts.output, adding),
      {
        title: `a^V by offset; row ${minus(c - k)} for this cell`,
        rows: rowsOf(relValues, offsetLabel),
        highlight: c,
        table: true,
      },
    ],
  ];
}

/** Draws the figure for the selected cell (or (0, 0) when none is), with a caption to match. */
export function drawTablesFigure(parts, view, cell, colours) {
  const width = parts.wrap.clientWidth;
  if (!width || !view?.result.output) return null;
  const shown = cell ?? { i: 0, j: 0 };
  const { columns: scales } = drawVectorBlocks(parts.canvas, {
    columns: tableBlocks(view, shown),
    width,
    format: (v) => formatSignificant(v, 2),
    colours,
    reserveTables: true, // k changes the tables' rows: the page below must not move
  });
  const k = view.maxDistance;
  const c = clippedOffset(shown.i, shown.j, k);
  const caption =
    `${cell ? 'The selected cell' : 'No cell selected (hover or focus one): cell'} (${shown.i}, ${shown.j}), offset ${minus(shown.j - shown.i)}` +
    `${c !== shown.j - shown.i ? `, clipped to ${minus(c)}` : ''}: its bias is q_{${shown.i}} · a^K[${minus(c)}]/√d_k, and every cell at that clipped offset reads the same outlined rows. ` +
    'On the right, each element of the two parts and of the output is written to the decimals at which the parts add up to the output as written. ' +
    `Colours: ${SIGN_COLOURS}, left up to ±${formatSignificant(scales[0].max, 2)}, right up to ±${formatSignificant(scales[1].max, 2)}.`;
  setMathText(parts.caption, caption);
  parts.canvas.setAttribute(
    'aria-label',
    plainMath(
      `Query ${shown.i} and key ${shown.j}: the tables a^K and a^V with row ${minus(c)} outlined, and query ${shown.i}'s output split into the part from the values and the part from the positions.`,
    ),
  );
  return scales;
}
