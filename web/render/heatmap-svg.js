// A heatmap as SVG, for papers and slides: the picture drawHeatmap puts on a canvas, by the
// canvas's own rules. Each cell a <rect> in the colour the canvas shows (the same table entry);
// every label, title, number and the note a <text> placed where the canvas places it (the
// placed texts of tokenLabelTexts, axisTitleTexts, cellValueTexts and colourBarShapes, on the
// alphabetic baseline the canvas's font puts them on: placed-text.js), the note on the canvas's
// lines with its sub- and superscripts as <tspan>s (mathNoteLines, mathPieces); the colour bar's
// outline, pointed ends and tick marks the canvas's (colourBarShapes). Takes drawHeatmap's spec
// of a heatmap labelled by token; the geometry is heatmapLayout's at the spec's pixelRatio, and
// text is measured on a canvas in the canvas's font (measuringContext).
import { colourBarShapes } from './colour-bar.js';
import { colourTable, TABLE_SIZE } from './colormaps.js';
import {
  LABEL_FONT,
  axisTitleTexts,
  bandEdgePaths,
  cellValueTexts,
  colourBarBox,
  heatmapLayout,
  mathNoteLines,
  tokenLabelTexts,
} from './heatmap.js';
import { mathPieces } from './math-text.js';
import { measuringContext } from './placed-text.js';
import { escapeXml, placedTextSvg, svgNumber as round } from './placed-text-svg.js';

const rgbOf = (table, entry) => `rgb(${table[entry * 4]},${table[entry * 4 + 1]},${table[entry * 4 + 2]})`;

// A line of the note (math notation) with its top at `top`: one <text>, each piece a <tspan> on
// its own baseline and, where a script, in its own size; x given where a piece does not start
// where the one before it ends (a subscript stacked under a superscript, and the piece after).
function mathLineSvg(g, text, x, top, font, attributes) {
  const pieces = mathPieces(g, text, font);
  const spans = pieces.map((piece, index) => {
    const previous = pieces[index - 1];
    const flows = previous && Math.abs(previous.x + previous.width - piece.x) < 1e-6;
    const at = index === 0 || flows ? '' : ` x="${round(x + piece.x)}"`;
    const size = piece.level ? ` font-size="${piece.size}"` : '';
    return `<tspan${at} y="${round(top + piece.baseline)}"${size}>${escapeXml(piece.text)}</tspan>`;
  });
  return `<text x="${round(x)}" ${attributes}>${spans.join('')}</text>`;
}

/**
 * The SVG text of a heatmap. spec: drawHeatmap's (its pixelRatio, default 1, places the cells
 * as the canvas at that ratio does). options: { background (CSS colour or null: transparent),
 * header: [{ text, size, weight, colour }] lines above the figure, footer: the same below }.
 */
export function heatmapSvg(spec, { background = null, header = [], footer = [] } = {}) {
  const { n, values, scale, colours } = spec;
  const layout = heatmapLayout(spec, spec.pixelRatio ?? 1);
  const { x0, cell, fontScale } = layout;
  const family = colours.font || 'sans-serif';
  const labelFont = LABEL_FONT * fontScale;
  const lineHeight = (line) => Math.round(line.size * 1.35);
  const headerHeight = header.reduce((sum, line) => sum + lineHeight(line), header.length ? 8 : 0);
  const footerHeight = footer.reduce((sum, line) => sum + lineHeight(line), footer.length ? 8 : 0);
  const y0 = layout.y0 + headerHeight;
  const width = layout.width;
  const height = layout.height + headerHeight + footerHeight;
  const table = colourTable(scale.map);
  const g = measuringContext();
  // Placed texts (in g's font), as far down as the header reaches, text-anchor as `align` unless told.
  const texts = (list, align) => list.map((placed) => placedTextSvg(g, placed, { dy: headerHeight, align }));
  const out = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${escapeXml(family)}">`,
  );
  if (background) out.push(`<rect width="${width}" height="${height}" fill="${escapeXml(background)}"/>`);
  let y = 4;
  for (const line of header) {
    y += lineHeight(line);
    out.push(
      `<text x="4" y="${y - 4}" font-size="${line.size}" font-weight="${line.weight ?? 'normal'}" fill="${escapeXml(line.colour ?? colours.fg)}">${escapeXml(line.text)}</text>`,
    );
  }
  // The cells, one rect each, shape-rendering crispEdges so that neighbours meet without seams.
  out.push('<g shape-rendering="crispEdges">');
  for (let i = 0; i < n; i += 1) {
    for (let j = 0; j < n; j += 1) {
      const value = values[i * n + j];
      const masked = spec.masked?.(i, j) || value !== value;
      const fill = masked ? escapeXml(colours.masked) : rgbOf(table, scale.entry(value));
      out.push(
        `<rect data-i="${i}" data-j="${j}" x="${round(x0 + j * cell)}" y="${round(y0 + i * cell)}" width="${round(cell)}" height="${round(cell)}" fill="${fill}"/>`,
      );
    }
  }
  out.push('</g>');
  // The clipping-band edges: a halo and a dashed line over it.
  if (spec.bandEdges !== null && spec.bandEdges !== undefined) {
    for (const path of bandEdgePaths(n, spec.bandEdges, spec.bandEdgeSides ?? 'both')) {
      const points = path.map(([x, yy]) => `${round(x0 + x * cell)},${round(y0 + yy * cell)}`).join(' ');
      out.push(
        `<polyline points="${points}" fill="none" stroke="${escapeXml(colours.outlineHalo)}" stroke-width="3"/>`,
      );
      out.push(
        `<polyline points="${points}" fill="none" stroke="${escapeXml(colours.fg)}" stroke-width="1.5" stroke-dasharray="5 4"/>`,
      );
    }
  }
  // Row and column labels, axis titles.
  g.font = `${labelFont}px ${family}`;
  const labels = tokenLabelTexts(g, spec, layout);
  const titles = axisTitleTexts(g, spec, layout, 2);
  out.push(`<g font-size="${labelFont}" fill="${escapeXml(colours.fg)}">`, ...texts(labels.texts), '</g>');
  out.push(`<g font-size="${labelFont}" fill="${escapeXml(colours.muted)}">`, ...texts(titles.texts), '</g>');
  // Values in the cells, over the band's edges, as on the canvas; without its halo, a stroke that
  // an SVG reader without paint-order (SVG 2) would paint over the digits.
  const printed = cellValueTexts(g, spec, layout, family);
  if (printed.size) {
    g.font = `${printed.size}px ${family}`;
    out.push(`<g font-size="${round(printed.size)}" text-anchor="middle">`);
    for (const placed of printed.texts)
      out.push(placedTextSvg(g, placed, { dy: headerHeight, align: 'center', attributes: `fill="${placed.fill}"` }));
    out.push('</g>');
  }
  // The colour bar: 256 rects of the table, its outline, pointed ends, tick marks, numbers and label.
  g.font = `${labelFont}px ${family}`;
  const box = colourBarBox(layout);
  const bar = colourBarShapes(scale, { ...box, label: scale.label, measure: (text) => g.measureText(text).width });
  const barY = box.y + headerHeight;
  out.push('<g shape-rendering="crispEdges">');
  for (let entry = 0; entry < TABLE_SIZE; entry += 1) {
    out.push(
      `<rect x="${round(x0 + (entry * box.width) / TABLE_SIZE)}" y="${round(barY)}" width="${round(box.width / TABLE_SIZE + 0.05)}" height="${round(box.height)}" fill="${rgbOf(table, entry)}"/>`,
    );
  }
  out.push('</g>');
  const { outline } = bar;
  const fg = escapeXml(colours.fg);
  out.push(
    `<rect x="${round(outline.x)}" y="${round(outline.y + headerHeight)}" width="${round(outline.width)}" height="${round(outline.height)}" fill="none" stroke="${fg}"/>`,
  );
  for (const { entry, points } of bar.ends) {
    const corners = points.map(([x, yy]) => `${round(x)},${round(yy + headerHeight)}`).join(' ');
    out.push(`<polygon points="${corners}" fill="${rgbOf(table, entry)}" stroke="${fg}"/>`);
  }
  out.push(`<g data-bar="ticks" fill="${fg}" shape-rendering="crispEdges">`);
  for (const { mark } of bar.ticks)
    out.push(
      `<rect x="${round(mark.x)}" y="${round(mark.y + headerHeight)}" width="${mark.width}" height="${mark.height}"/>`,
    );
  out.push('</g>');
  out.push(
    `<g data-bar="numbers" font-size="${labelFont}" fill="${fg}" text-anchor="middle">`,
    ...texts(
      bar.ticks.map((tick) => tick.number),
      'center',
    ),
    '</g>',
  );
  if (bar.label) out.push(`<g font-size="${labelFont}" fill="${fg}">`, ...texts([bar.label]), '</g>');
  // The note on the canvas's lines.
  if (spec.note) {
    const note = mathNoteLines(g, spec, layout, family);
    const attributes = `font-size="${note.font.size}" font-style="italic" fill="${escapeXml(colours.muted)}"`;
    for (const line of note.lines)
      out.push(mathLineSvg(g, line.text, line.x, line.top + headerHeight, note.font, attributes));
  }
  y = layout.height + headerHeight;
  for (const line of footer) {
    y += lineHeight(line);
    out.push(
      `<text x="4" y="${y - 4}" font-size="${line.size}" font-weight="${line.weight ?? 'normal'}" fill="${escapeXml(line.colour ?? colours.muted)}">${escapeXml(line.text)}</text>`,
    );
  }
  out.push('</svg>');
  return out.join('\n');
}
