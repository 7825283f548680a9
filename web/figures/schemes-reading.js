// Reading a cell of the schemes' heatmaps (schemes-figure.js: each column's position biases and
// combined weights, T5's bucket map) as the panels read theirs (interaction.js's wirePanel,
// cell-tip.js): hover, tap or focus a cell, then the arrow keys; the cells of its offset j − i are
// outlined, the tooltip gives the value, (i, j), the two words and the offset, and a live line
// reads it out. Loaded when a pointer or the focus first comes into the figure, so not part of the
// page's first load.
import { CellTip } from './cell-tip.js';
import { wirePanel } from './interaction.js';
import { formatSignificant, withMinus } from '../render/number-text.js';
import { tokenName } from '../views/cell-breakdown.js';

/**
 * What the tooltip says of cell (i, j) of a map ({ spec, title }: its heatmap spec and its title)
 * whose rows and columns are `tokens`, as [lines, sentence]: its value (or "masked"), (i, j),
 * query → key and the offset j − i, and the sentence read out.
 */
export function cellReading({ spec, title }, tokens, i, j) {
  const value = spec.masked?.(i, j) ? 'masked (j > i)' : formatSignificant(spec.values[i * spec.n + j], 3);
  const [query, key] = [i, j].map((x) => tokenName(tokens, x));
  const offset = withMinus(j - i);
  return [
    [
      [title, value],
      ['(i, j)', `(${i}, ${j})`],
      ['query → key', `${query} → ${key}`],
      ['offset j − i', offset],
    ],
    `${title}, row ${i} “${query}”, column ${j} “${key}”: offset ${offset}, value ${value}.`,
  ];
}

/**
 * Makes the figure's maps readable: every canvas of parts.mapCanvases, and those made later
 * (parts.wire). Selecting a cell sets parts.selection ({ canvas, i, j }) and redraws its map
 * (and the one read before) with `drawMap(parts, canvas)`; the tooltip is appended to
 * `container`. `event`, the pointer or focus that loaded this, is handed on to its map, so that
 * a first tap, hover or focus reads its cell.
 */
export function wireSchemesReading(parts, container, drawMap, event) {
  parts.tip = new CellTip(parts.doc, container);
  parts.wire = (canvas) =>
    wirePanel({
      canvas,
      wrap: canvas.parentElement,
      getLayout: () => parts.maps.get(canvas)?.layout,
      getSelection: () => (parts.selection?.canvas === canvas ? parts.selection : null),
      select: (cell, { anchor, announce } = {}) => {
        const before = parts.selection;
        if (!cell && before?.canvas !== canvas) return;
        parts.selection = cell && { canvas, i: cell.i, j: cell.j };
        if (before?.canvas !== canvas || before.i !== cell?.i || before.j !== cell?.j) {
          if (before && before.canvas !== canvas) drawMap(parts, before.canvas);
          drawMap(parts, canvas);
        }
        if (!cell) {
          parts.tip.hide();
          return;
        }
        const [lines, sentence] = cellReading(parts.maps.get(canvas), parts.view.tokens, cell.i, cell.j);
        parts.tip.show(lines, anchor, canvas);
        if (announce) parts.tip.announce(sentence);
      },
    });
  parts.mapCanvases.forEach(parts.wire);
  const { target } = event;
  if (event.type === 'focusin') {
    if (target.ownerDocument.activeElement === target) target.dispatchEvent(new FocusEvent('focus'));
  } else if (parts.mapCanvases.includes(target) && (event.pointerType !== 'mouse' || target.matches(':hover')))
    target.dispatchEvent(new PointerEvent('pointerdown', event));
}
