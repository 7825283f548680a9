// The matrix panels as a unit, used by the page, the iframe view and <relpos-attention>: it
// builds the chosen panels inside a container (a document element or a shadow root), draws them
// from an attention view, and handles reading values (hover, keyboard, tooltip, live readout,
// the same-offset highlight). The selected offset is reported through `onSelect`.
import { pixelRatio } from '../render/canvas-size.js';
import { makeScale } from '../render/colormaps.js';
import { drawHeatmap, forgetHeatmapImage, heatmapMargins, heatmapGridSize, heatmapWidth } from '../render/heatmap.js';
import { CellTip, clearSelection } from './cell-tip.js';
import { wirePanel } from './interaction.js';
import { download } from '../files/download.js';
import { drawOffsetPanel, offsetAriaLabel, offsetCaption, offsetReading } from './offset-panel.js';
import { offsetReach } from '../views/offset-space.js';
import { createPanelFigure } from './panel-figure.js';
import { extentFor, longViewColours } from '../views/panel-extents.js';
import { plainMath } from '../render/math-text.js';
import { setKeptText, setMathText } from './math-dom.js';
import { withMinus } from '../render/number-text.js';
import { PANELS, formatters } from '../views/panels.js';
import { PresentView, presentSize } from './present-view.js';
import { panelLabels, positionRoom } from './label-room.js';
import { keepCaptionHeights } from './caption-room.js';
import { themeColours } from './theme-colours.js';
import { clippedOffset } from '../views/view.js';
import { outlinedGroupText } from '../views/offset-group.js';
import { cellBreakdown, tokenName } from '../views/cell-breakdown.js';

/** A progressive draw (setView) yields to input once a task has drawn for this long. */
const PROGRESSIVE_TASK_MS = 12;

export class AttentionFigure {
  /**
   * container: where the figures go; panelIds: which PANELS, in order; overlay: where the
   * tooltip and the live readout go; onSelect(offset | null): the selected cell's clipped offset;
   * controls: whether the page beside it has the causal and same-query controls its captions name;
   * onlyRendered: draw only the panels rendered (not in a closed <details>), the owner drawing
   * again when one opens.
   */
  constructor({
    container,
    panelIds = PANELS.map((p) => p.id),
    overlay = container,
    numbered = true,
    controls = true,
    onlyRendered = false,
    keepCaptionRoom = false,
    onSelect = () => {},
    onPresent = () => {},
  }) {
    this.panels = PANELS.filter((panel) => panelIds.includes(panel.id));
    this.captionContext = { controls }; // what panel.caption(view, context) may name
    this.onlyRendered = onlyRendered;
    this.keepCaptionRoom = keepCaptionRoom;
    this.onSelect = onSelect;
    this.maxSide = 560; // the largest matrix side, in CSS px
    this.view = null;
    this.selection = null;
    this.lastCell = null; // the cell selected last, kept after Escape: the keys resume there
    this.layouts = new Map();
    this.specs = new Map(); // panel id -> the spec it was drawn from (figure-export.js)
    this.exportOptions = {}; // figure-export.js: scale, theme, title, caption, settings
    this.parts = new Map();
    this.shown = new Map(); // panel id -> what its canvas shows: { values, key } (see drawPanel)
    const doc = container.ownerDocument ?? container;
    this.tip = new CellTip(doc, overlay);
    ({ tooltip: this.tooltip, readout: this.readout } = this.tip);
    this.panels.forEach((panel) => {
      const parts = createPanelFigure(panel, numbered ? PANELS.indexOf(panel) + 1 : null);
      container.append(parts.figure);
      this.parts.set(panel.id, parts);
      parts.canvas.addEventListener('contextrestored', () => this.shown.delete(panel.id));
      parts.png.addEventListener('click', () => this.download(panel.id, 'png'));
      const svg = doc.createElement('button');
      svg.type = 'button';
      svg.textContent = 'SVG';
      svg.dataset.svg = panel.id;
      svg.setAttribute('aria-label', `Download SVG: ${panel.title}`);
      svg.addEventListener('click', () => this.download(panel.id, 'svg'));
      parts.png.after(svg);
      parts.svg = svg; // hidden in the long view, which exports as PNG only (figure-export.js)
      wirePanel({
        panelId: panel.id,
        canvas: parts.canvas,
        wrap: parts.wrap,
        getLayout: () => this.layouts.get(panel.id),
        getSelection: () => this.selection,
        getLastCell: () => this.lastCell,
        select: (cell, options) => this.select(cell, options),
      });
    });
    this.presenting = null; // the panel id shown in the present view, or null
    this.presentView = new PresentView(this, { onChange: onPresent });
    this.watchViewport(doc);
  }

  // A progressive (long) view draws the panels in or near the viewport; the others when they
  // scroll in. Until the observer first reports, every panel counts as in view.
  watchViewport(doc) {
    this.drawCount = 0; // panels actually drawn (not skipped as unchanged): for tests
    this.inView = new Set(this.panels.map((panel) => panel.id));
    this.deferred = new Set();
    const Observer = doc.defaultView?.IntersectionObserver;
    if (!Observer) return;
    const byFigure = new Map(this.panels.map((panel) => [this.parts.get(panel.id).figure, panel]));
    this.observer = new Observer(
      (entries) => {
        for (const { target, isIntersecting } of entries) {
          const panel = byFigure.get(target);
          if (!isIntersecting) {
            this.inView.delete(panel.id);
            continue;
          }
          this.inView.add(panel.id);
          if (this.deferred.delete(panel.id) && this.view) this.drawPanel(panel);
        }
      },
      { rootMargin: '100px' },
    );
    for (const figure of byFigure.keys()) this.observer.observe(figure);
  }

  /**
   * Draws a new view (computeAttentionView); keeps the selected cell if it still exists. With
   * `progressive`, the panels in view over as many tasks as keep each under PROGRESSIVE_TASK_MS
   * (the first in this one); resolves when done, or early when another view arrives.
   */
  async setView(view, { progressive = false } = {}) {
    const previous = this.view;
    const spaceChanged = Boolean(previous?.offsetSpace) !== Boolean(view.offsetSpace);
    this.view = view;
    // Offset space selects (i, column): the selected offset c = column − k′ stays when k′ changes.
    if (this.selection && !spaceChanged && view.offsetSpace)
      this.selection = { ...this.selection, j: this.selection.j + view.offsetSpace.reach - previous.offsetSpace.reach };
    const cols = view.offsetSpace ? view.offsetSpace.cols : view.n;
    if (
      this.selection &&
      (spaceChanged || this.selection.i >= view.n || this.selection.j < 0 || this.selection.j >= cols)
    )
      this.select(null);
    this.deferred.clear();
    if (!progressive) {
      this.draw();
      return;
    }
    // Panel after panel while a task stays short (PROGRESSIVE_TASK_MS), so that input never
    // waits long, without a timer's round trip for every cheap panel; the first in the task that
    // received the view (no frame in between). Each task reads every size and colour first, then
    // writes: one layout per task, not one per panel. Panels outside the viewport wait until they
    // scroll in (watchViewport).
    const todo = this.panels.filter((panel) => this.inView.has(panel.id));
    for (const panel of this.panels) if (!this.inView.has(panel.id)) this.deferred.add(panel.id);
    let taskStart = performance.now();
    let reads = null;
    for (const [index, panel] of todo.entries()) {
      if (performance.now() - taskStart > PROGRESSIVE_TASK_MS) {
        await new Promise((resume) => setTimeout(resume, 0));
        if (this.view !== view) return;
        taskStart = performance.now();
        reads = null;
      }
      reads ??= new Map(todo.slice(index).map((next) => [next, this.measure(next)]));
      this.drawPanel(panel, reads.get(panel));
    }
  }

  /**
   * The pixel grid the long view's panels will be drawn with for n and k (the first panel's
   * width), so that a worker can compute their block means ahead; null when not shown.
   */
  offsetGrid(n, k) {
    const parts = this.panels.length ? this.parts.get(this.panels[0].id) : null;
    const width = parts?.wrap.isConnected ? parts.wrap.clientWidth : 0;
    if (!width) return null;
    const labelSpace = positionRoom(n, themeColours(parts.canvas).font || 'sans-serif');
    return heatmapGridSize(n, 2 * offsetReach(n, k) + 1, width, this.maxSide, pixelRatio(parts.wrap), labelSpace);
  }

  /** Saves panel `panelId` as a PNG or SVG file, with this.exportOptions (figure-export.js). */
  async download(panelId, format) {
    const { exportPanel } = await import('./figure-export.js'); // loaded when first used
    // The file shows the view its caption names: a panel a progressive draw has not reached (off
    // screen, or later in its tasks) is drawn first, in the same task as its export reads it
    // (drawPanel skips a panel that already shows the view).
    const panel = this.panels.find((p) => p.id === panelId);
    if (panel && this.view) this.drawPanel(panel);
    const blob = await exportPanel(this, panelId, { ...this.exportOptions, format });
    download(`relpos-${panelId}.${format}`, blob);
  }

  canvasOf(panelId) {
    return this.parts.get(panelId)?.canvas;
  }

  /** Milliseconds to draw one panel from its numbers (colour mapping included): benchmarks. */
  timePanelDraw(panelId) {
    const panel = this.panels.find((p) => p.id === panelId);
    forgetHeatmapImage(this.parts.get(panelId).canvas);
    this.parts.get(panelId).canvas.describedValues = null;
    this.shown.delete(panelId);
    const start = performance.now();
    this.drawPanel(panel);
    return performance.now() - start;
  }

  draw() {
    if (!this.view) return;
    // Read every size and colour first, then write: one layout for all panels, not one each.
    const reads = this.panels.map((panel) => this.measure(panel));
    this.panels.forEach((panel, index) => this.drawPanel(panel, reads[index]));
    if (this.keepCaptionRoom) this.#keepCaptionRoom();
  }

  /** Each caption keeps its room at this width (caption-room.js): n, k and the rest never move the page. */
  #keepCaptionRoom() {
    const { long } = this.view;
    keepCaptionHeights(
      this.panels.map((panel) => {
        const { caption, wrap } = this.parts.get(panel.id);
        return { caption, room: `${wrap.clientWidth}|${Boolean(long)}` };
      }),
    );
  }

  measure(panel) {
    const { canvas, wrap } = this.parts.get(panel.id);
    const colours = themeColours(canvas);
    const ratio = pixelRatio(wrap); // sharp inside a scaled slide and in print
    if (this.presenting === panel.id && wrap.isConnected && this.view) {
      // The long view: its rows labelled by position (the widest, n − 1's), its columns horizontal.
      const { long, n } = this.view;
      const labels = long ? [String(n - 1)] : this.view.labels;
      return {
        ...presentSize(wrap.clientWidth, wrap.clientHeight, labels, colours.font || 'sans-serif', Boolean(long)),
        colours,
        pixelRatio: ratio,
      };
    }
    // Positions only in the long view, in the room its widest position takes (its column labels
    // horizontal); else as wide as the widest word needs, or the positions where the words would
    // leave the cells too small (label-room.js).
    const long = Boolean(this.view?.long);
    const {
      labels = null,
      labelSpace = null,
      kind = 'words',
    } = long
      ? { labelSpace: positionRoom(this.view.n, colours.font || 'sans-serif'), kind: 'positions' }
      : this.view && wrap.isConnected
        ? panelLabels(this.view.labels, colours.font || 'sans-serif', wrap.clientWidth, this.maxSide)
        : {};
    // With `onlyRendered`, a panel not rendered (in a closed <details>) is not drawn: its owner
    // draws again when it opens.
    const rendered = wrap.isConnected && (!this.onlyRendered || (wrap.checkVisibility?.() ?? true));
    return {
      width: rendered ? heatmapWidth(wrap.clientWidth, this.maxSide, 1, labelSpace, long) : 0,
      colours,
      maxSide: this.maxSide,
      fontScale: 1,
      labelSpace,
      labels,
      axisLabels: kind,
      pixelRatio: ratio,
    };
  }

  /**
   * How the first panel, at its width now, labels the axes of `view`: { kind: 'words' or
   * 'positions', cell: the words' cells' side } (label-room.js).
   */
  axisLabelFit(view) {
    const { canvas, wrap } = this.parts.get(this.panels[0].id);
    return panelLabels(view.labels, themeColours(canvas).font || 'sans-serif', wrap.clientWidth, this.maxSide);
  }

  /** Shows one panel filling the window with large type (present-view.js); null: back. */
  present(panelId, options) {
    return this.presentView.show(panelId, options);
  }

  // The selected cell's group: the cells that share its clipped offset c, by rows.
  highlight() {
    const { selection, view } = this;
    if (!selection) return null;
    const { n, maxDistance: k } = view;
    const c = clippedOffset(selection.i, selection.j, k);
    const rowRange = (i) => {
      if (k === 0) return [0, n - 1];
      const [lo, hi] = c === k ? [i + k, n - 1] : c === -k ? [0, i - k] : [i + c, i + c];
      return lo <= hi && lo >= 0 && hi < n ? [lo, hi] : null;
    };
    return { i: selection.i, j: selection.j, group: (i, j) => clippedOffset(i, j, k) === c, rowRange };
  }

  drawPanel(
    panel,
    { width, colours, maxSide, fontScale, labelSpace, labels, axisLabels = 'words', pixelRatio: ratio } = this.measure(
      panel,
    ),
  ) {
    const { view } = this;
    const k = view.maxDistance;
    const { canvas, caption } = this.parts.get(panel.id);
    if (width === 0) return;
    const values = view.offsetSpace ? view.offsetSpace.panels[panel.id] : panel.values(view);
    // Everything else a panel's pixels depend on; the same values and key: nothing to draw.
    const { selection } = this;
    const key = [
      width,
      maxSide,
      fontScale,
      labelSpace,
      ratio,
      view.n,
      k,
      view.causal,
      selection ? `${selection.i},${selection.j}${!selection.panelId ? ',story' : ''}` : '', // a story's: the caption says so
      JSON.stringify(colours),
      (labels ?? view.labels).join('\n'),
    ].join('|');
    const shown = this.shown.get(panel.id);
    if (shown && shown.values === values && shown.key === key) return;
    this.deferred.delete(panel.id);
    this.drawCount += 1;
    if (view.offsetSpace) {
      this.drawOffsetSpace(panel, values, key, { width, colours, labelSpace, maxSide, fontScale });
      return;
    }
    const masked = panel.masked?.(view) ?? null;
    const extent = extentFor(values, view.n, Boolean(masked));
    const colourRange = view.long ? longViewColours(panel, values, view.n, Boolean(masked)) : null;
    const scale = makeScale(panel.scale, extent, colourRange ?? panel.fixedRange ?? panel.range?.(view));
    // Pointed ends on the colour bar where values lie beyond the colours' range (they saturate).
    scale.beyond = { low: extent.min < scale.min, high: extent.max > scale.max };
    scale.integer = panel.integer;
    const barLabel = colourRange ? (panel.barLabelLong ?? panel.barLabel) : panel.barLabel;
    const label = typeof barLabel === 'function' ? barLabel(scale, view) : barLabel;
    // Its forms longest first: the colour bar draws the first that fits (colour-bar.js).
    scale.label = !colourRange && panel.barLabelShort ? [label, panel.barLabelShort(scale)] : label;
    const spec = {
      n: view.n,
      values,
      scale,
      rowLabels: labels ?? view.labels,
      colLabels: labels ?? view.labels,
      xTitle: 'key position j →',
      yTitle: 'query position i ↓',
      formatValue: formatters.cell(panel),
      showValues: view.n <= 12,
      masked,
      bandEdges: panel.bandEdges ? k : null,
      bandEdgeSides: view.causal ? 'lower' : 'both', // a decoder never uses offsets above 0
      note: panel.note(view),
      highlight: this.highlight(),
      width,
      maxSide,
      fontScale,
      labelSpace,
      pixelRatio: ratio,
      colours,
    };
    const layout = drawHeatmap(canvas, spec);
    this.specs.set(panel.id, spec);
    this.parts.get(panel.id).svg.hidden = false;
    this.layouts.set(panel.id, layout);
    this.shown.set(panel.id, { values, key });
    canvas.dataset.layout = JSON.stringify({
      x0: layout.x0,
      y0: layout.y0,
      cell: layout.cell,
      n: layout.n,
      min: scale.min,
      max: scale.max,
      map: scale.map,
      fontScale: layout.fontScale,
      labels: heatmapMargins(width, fontScale, labelSpace).labels, // the room given the row and column labels
      axisLabels, // positions where the words would leave the cells too small (label-room.js)
      labelsCut: layout.labelsCut,
      labelSlant: layout.labelSlant, // the column labels' slant (degrees up from the horizontal)
      valueFont: layout.valueFont, // the size of the values printed in the cells, 0 where none are
      noteCut: layout.noteCut,
      noteLines: layout.noteLines, // the note's lines as drawn, in math notation
      bar: layout.bar, // the colour bar's box and its ticks as drawn
      barLabel: layout.barLabel, // its label as drawn: { text, left, right, top, bottom }
    });
    // A cell selected from outside the panels (a story step) stays outlined: the caption says what the outline is.
    const outlined = selection && !selection.panelId ? ` ${outlinedGroupText(selection.i, selection.j, k)}` : '';
    // A note the canvas had to cut short ("…") is read whole at the caption's start.
    const cutNote = layout.noteCut ? `${spec.note} ` : '';
    setMathText(caption, `${cutNote}${panel.caption(view, this.captionContext)}${outlined}`);
    if (canvas.describedValues !== values) {
      // Once per new matrix (not on every hover): the label reads all n² values.
      const format = formatters.readout(panel);
      canvas.describedValues = values;
      canvas.setAttribute(
        'aria-label',
        `${panel.title}: ${view.n} by ${view.n} heatmap, query positions i down, key positions j across; values from ${format(extent.min)} to ${format(extent.max)}; colour scale ${format(scale.min)} to ${format(scale.max)}${masked ? '; keys after the query are masked (grey)' : ''}.${panel.note(view) ? ` ${plainMath(panel.note(view))}` : ''}`,
      );
    }
  }

  // The long view: the panel in offset space (offset-panel.js), rows × (2k′ + 1).
  drawOffsetSpace(panel, values, key, { width, colours, labelSpace, maxSide, fontScale, pixelRatio: ratio }) {
    const { view } = this;
    const { canvas, caption, svg } = this.parts.get(panel.id);
    svg.hidden = true;
    // What figure-export.js draws the PNG with (drawOffsetPanel at the file's scale).
    this.specs.set(panel.id, { offsetSpace: true, width, labelSpace, maxSide, fontScale });
    const layout = drawOffsetPanel(canvas, panel, view, {
      width,
      colours,
      labelSpace,
      maxSide,
      fontScale, // larger in the present view
      pixelRatio: ratio,
      selection: this.selection,
    });
    this.layouts.set(panel.id, layout);
    this.shown.set(panel.id, { values, key });
    const { scale } = layout;
    canvas.dataset.layout = JSON.stringify({
      x0: layout.x0,
      y0: layout.y0,
      cellW: layout.cellW,
      cellH: layout.cellH,
      rows: layout.rows,
      cols: layout.cols,
      reach: view.offsetSpace.reach,
      fontScale: layout.fontScale,
      gRows: layout.gRows,
      gCols: layout.gCols,
      min: scale.min,
      max: scale.max,
      map: scale.map,
      width: layout.width,
      edgeLines: layout.edgeLines, // the edge columns' lines or marks, and the colour bar's label: never overlapping
      barLabel: layout.barLabel,
      xTitle: layout.xTitle, // the axis title over the columns as drawn: whole, inside the canvas
      colLabels: layout.colLabels, // the column labels as drawn: inside the canvas, never overlapping
      noteLines: layout.noteLines, // the note, whole, wrapped onto as many lines as it needs
      noteFont: layout.noteFont,
    });
    const captionText = offsetCaption(panel, view, layout);
    setKeptText(caption, captionText);
    const label = offsetAriaLabel(panel, view, layout);
    if (canvas.getAttribute('aria-label') !== label) canvas.setAttribute('aria-label', label);
    canvas.describedValues = null;
  }

  /**
   * The tooltip's options (CellTip's show) for panel `panelId`: in the present view, its type
   * scaled as the panel's labels are, and its buttons kept clear.
   */
  tipOptions(panelId) {
    if (this.presenting !== panelId) return {};
    return { scale: this.layouts.get(panelId)?.fontScale ?? 1, footer: this.parts.get(panelId)?.actions ?? null };
  }

  /** Selects a cell (or null), redraws the highlight, shows the tooltip and the readout. */
  select(cell, { panelId, anchor, announce } = {}) {
    if (!cell) {
      if (clearSelection(this)) this.onSelect(null, null);
      return;
    }
    const same = this.selection && this.selection.i === cell.i && this.selection.j === cell.j;
    this.selection = { ...cell, panelId };
    this.lastCell = { i: cell.i, j: cell.j };
    const { view } = this;
    const panel = this.panels.find((p) => p.id === panelId);
    if (view.offsetSpace && panel) {
      // Offset space: cell.j is the column, clipped offset c = j − k′.
      const reading = offsetReading(view, panel, cell);
      if (!same) {
        this.draw();
        this.onSelect(reading.offset, null);
      }
      this.tip.show(reading.lines, anchor, this.canvasOf(panelId), this.tipOptions(panelId));
      if (announce) this.tip.announce(reading.sentence);
      return;
    }
    if (!same) {
      this.draw();
      this.onSelect(clippedOffset(cell.i, cell.j, this.view.maxDistance), { i: cell.i, j: cell.j });
    }
    if (!panel) return; // selected from outside the panels (the page's story): outlines only
    const { i, j } = cell;
    const isMasked = panel.masked?.(view)?.(i, j) ?? false;
    const value = isMasked ? 'masked (j > i)' : formatters.readout(panel)(panel.values(view)[i * view.n + j]);
    const offset = withMinus(j - i);
    const clipped = withMinus(clippedOffset(i, j, view.maxDistance));
    const query = tokenName(view.tokens, i);
    const key = tokenName(view.tokens, j);
    this.tip.show(
      [
        [panel.title, value],
        ['(i, j)', `(${i}, ${j})`],
        ['query → key', `${query} → ${key}`],
        ['offset j − i', offset],
        ['clipped offset', clipped],
        ...cellBreakdown(view, i, j, isMasked),
      ],
      anchor,
      this.canvasOf(panelId),
      this.tipOptions(panelId),
    );
    if (announce) {
      this.tip.announce(
        `${panel.title}, row ${i} “${query}”, column ${j} “${key}”: offset ${offset}, clipped ${clipped}, value ${value}.`,
      );
    }
  }
}
