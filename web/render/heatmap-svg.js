// A heatmap as SVG, for papers and slides: the same picture drawHeatmap puts on a canvas, with
// each cell a <rect> in the colour the canvas shows (the same table entry), and every label,
// title, colour-bar number and note as <text>. Takes drawHeatmap's spec; the geometry is the
// canvas's own (heatmapLayout at the spec's pixelRatio, colourBarBox, axisLabelStep), and so are
// the colour bar's numbers (colourBarNumbers, measured on a canvas in the canvas's font).
import { colourBarNumbers } from './colour-bar.js';
import { colourTable, luminance, TABLE_SIZE } from './colormaps.js';
import {
  LABEL_FONT,
  NOTE_FONT,
  axisLabelStep,
  uprightColumnLabels,
  uprightColumnStep,
  bandEdgePaths,
  cellValueFont,
  columnLabelSlant,
  colourBarBox,
  heatmapLayout,
} from './heatmap.js';
import { plainMath, wrapMath } from './math-text.js';

const escapeXml = (text) =>
  String(text).replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c],
  );
const round = (v) => Math.round(v * 1000) / 1000;
const rgbOf = (table, entry) => `rgb(${table[entry * 4]},${table[entry * 4 + 1]},${table[entry * 4 + 2]})`;

/**
 * The SVG text of a heatmap. spec: drawHeatmap's (its pixelRatio, default 1, places the cells
 * as the canvas at that ratio does). options: { background (CSS colour or null: transparent),
 * header: [{ text, size, weight, colour }] lines above the figure, footer: the same below }.
 */
export function heatmapSvg(spec, { background = null, header = [], footer = [] } = {}) {
  const { n, values, scale, colours } = spec;
  const layout = heatmapLayout(spec, spec.pixelRatio ?? 1);
  const { x0, cell, side, fontScale } = layout;
  const font = escapeXml(colours.font || 'sans-serif');
  const labelFont = LABEL_FONT * fontScale;
  const lineHeight = (line) => Math.round(line.size * 1.35);
  const headerHeight = header.reduce((sum, line) => sum + lineHeight(line), header.length ? 8 : 0);
  const footerHeight = footer.reduce((sum, line) => sum + lineHeight(line), footer.length ? 8 : 0);
  const y0 = layout.y0 + headerHeight;
  const width = layout.width;
  const height = layout.height + headerHeight + footerHeight;
  const table = colourTable(scale.map);
  const out = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${font}">`,
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
  // Values in the cells, as the canvas prints them (cellValueFont: while legible, at its size);
  // measured on a canvas in the canvas's font, as the labels below.
  const measurer = new OffscreenCanvas(1, 1).getContext('2d');
  const valueTexts = spec.showValues ? Array.from(values, (value) => spec.formatValue(value)) : [];
  const valueFont = spec.showValues ? cellValueFont(measurer, valueTexts, layout, colours.font || 'sans-serif') : 0;
  if (valueFont) {
    out.push(`<g font-size="${round(valueFont)}" text-anchor="middle" dominant-baseline="central">`);
    for (let i = 0; i < n; i += 1)
      for (let j = 0; j < n; j += 1) {
        if (spec.masked?.(i, j)) continue;
        const value = values[i * n + j];
        const fill = luminance(table, scale.entry(value)) > 0.36 ? '#111' : '#fff';
        out.push(
          `<text x="${round(x0 + (j + 0.5) * cell)}" y="${round(y0 + (i + 0.5) * cell)}" fill="${fill}">${escapeXml(valueTexts[i * n + j])}</text>`,
        );
      }
    out.push('</g>');
  }
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
  const { tokens, every } = axisLabelStep(layout);
  out.push(`<g font-size="${labelFont}" fill="${escapeXml(colours.fg)}">`);
  for (let i = 0; i < n; i += every) {
    const text = tokens ? spec.rowLabels[i] : String(i);
    out.push(
      `<text x="${round(x0 - 6)}" y="${round(y0 + (i + 0.5) * cell)}" text-anchor="end" dominant-baseline="central">${escapeXml(text)}</text>`,
    );
  }
  const upright = uprightColumnLabels(spec, tokens);
  // Measured in the canvas's font: the same labels stand as on the canvas.
  measurer.font = `${labelFont}px ${colours.font || 'sans-serif'}`;
  const columnText = (j) => (tokens ? spec.colLabels[j] : String(j));
  const colEvery = upright
    ? uprightColumnStep(
        layout,
        (j) => columnText(j).trim(),
        every,
        (text) => measurer.measureText(text).width,
      )
    : every;
  const slant = columnLabelSlant(layout); // the canvas's: steeper than 60° where neighbours would touch
  for (let j = 0; j < n; j += colEvery) {
    const text = columnText(j);
    const x = round(x0 + (j + 0.5) * cell);
    out.push(
      upright
        ? `<text x="${x}" y="${round(y0 - 6)}" text-anchor="middle">${escapeXml(text.trim())}</text>`
        : `<text transform="translate(${x} ${round(y0 - 6)}) rotate(${-round(slant)})">${escapeXml(text)}</text>`,
    );
  }
  out.push('</g>');
  out.push(
    `<g font-size="${labelFont}" fill="${escapeXml(colours.muted)}"><text x="${round(x0 + side / 2)}" y="${round(headerHeight + 2)}" text-anchor="middle" dominant-baseline="hanging">${escapeXml(spec.xTitle)}</text>`,
    `<text transform="translate(4 ${round(y0 + side / 2)}) rotate(-90)" text-anchor="middle" dominant-baseline="hanging">${escapeXml(spec.yTitle)}</text></g>`,
  );
  // The colour bar: 256 rects of the table, its numbers and label.
  const bar = colourBarBox(layout);
  const { width: barWidth, height: barHeight } = bar;
  const barY = bar.y + headerHeight;
  out.push('<g shape-rendering="crispEdges">');
  for (let entry = 0; entry < TABLE_SIZE; entry += 1) {
    out.push(
      `<rect x="${round(x0 + (entry * barWidth) / TABLE_SIZE)}" y="${round(barY)}" width="${round(barWidth / TABLE_SIZE + 0.05)}" height="${round(barHeight)}" fill="${rgbOf(table, entry)}"/>`,
    );
  }
  out.push(
    `<rect x="${round(x0)}" y="${round(barY)}" width="${round(barWidth)}" height="${round(barHeight)}" fill="none" stroke="${escapeXml(colours.fg)}"/></g>`,
  );
  // The canvas's numbers (colourBarNumbers, measured in the canvas's font): those that would touch dropped.
  const numbers = colourBarNumbers(scale, {
    x: x0,
    width: barWidth,
    numbersRight: width - 1,
    measure: (text) => measurer.measureText(text).width,
  });
  out.push(`<g font-size="${labelFont}" fill="${escapeXml(colours.fg)}" text-anchor="middle">`);
  for (const { text, centre } of numbers)
    out.push(
      `<text x="${round(centre)}" y="${round(barY + barHeight + 5)}" dominant-baseline="hanging">${escapeXml(text)}</text>`,
    );
  if (scale.label)
    out.push(`<text x="${round(x0)}" y="${round(barY - 3)}" text-anchor="start">${escapeXml(scale.label)}</text>`);
  out.push('</g>');
  // The note on the canvas's lines (wrapMath, measured in the canvas's font): at most two, in the width.
  if (spec.note) {
    const noteFont = { size: NOTE_FONT * fontScale, family: colours.font || 'sans-serif', style: 'italic' };
    wrapMath(measurer, spec.note, width - 8, noteFont).forEach((line, index) =>
      out.push(
        `<text x="4" y="${round(bar.noteY + headerHeight + index * noteFont.size * 1.25)}" font-size="${noteFont.size}" font-style="italic" fill="${escapeXml(colours.muted)}" dominant-baseline="hanging">${escapeXml(plainMath(line))}</text>`,
      ),
    );
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
