// One notation for the symbols in every text the figures show: `q_i`, `a^K`, `a^K_1`, `√d_k`,
// `d_{model}` (a superscript or subscript is one character, or {several}). Captions become
// <sub>/<sup> (web/figures/math-dom.js), as the page's controls write them; canvas text (notes
// under the colour bars) draws the same sub- and superscripts smaller and shifted; labels for
// screen readers get the Unicode sub- and superscripts where they exist.

/**
 * A reader's words inside text in this notation: their own ^ and _ shown as look-alikes (ˆ, ˍ:
 * glyphs the page's fonts have), never read as scripts.
 */
export const literalMath = (word) => word.replace(/\^/g, 'ˆ').replace(/_/g, 'ˍ');

/** text -> [{ text, level }], level 0 (normal), 1 (superscript) or −1 (subscript). */
export function parseMath(text) {
  const parts = [];
  const push = (piece, level) => {
    if (!piece) return;
    const last = parts[parts.length - 1];
    if (last && last.level === level) last.text += piece;
    else parts.push({ text: piece, level });
  };
  let plain = '';
  for (let at = 0; at < text.length; at += 1) {
    const c = text[at];
    const next = text[at + 1];
    if ((c === '^' || c === '_') && next !== undefined && next !== ' ') {
      push(plain, 0);
      plain = '';
      let script = next;
      at += 1;
      if (next === '{') {
        const end = text.indexOf('}', at);
        script = text.slice(at + 1, end < 0 ? text.length : end);
        at = end < 0 ? text.length : end;
      }
      push(script, c === '^' ? 1 : -1);
    } else plain += c;
  }
  push(plain, 0);
  return parts;
}

const SUPERSCRIPTS = { K: 'ᴷ', V: 'ⱽ', T: 'ᵀ', 2: '²', 1: '¹', n: 'ⁿ' };
const SUBSCRIPTS = { i: 'ᵢ', j: 'ⱼ', k: 'ₖ', 0: '₀', 1: '₁', 2: '₂', n: 'ₙ' };

/** The text with Unicode sub- and superscripts (for aria labels and file names). */
export function plainMath(text) {
  return parseMath(text)
    .map(({ text: piece, level }) => {
      if (level === 0) return piece;
      const table = level > 0 ? SUPERSCRIPTS : SUBSCRIPTS;
      return [...piece].map((c) => table[c] ?? c).join('');
    })
    .join('');
}

const SCRIPT_SIZE = 0.72;

/** The size (px) of a level's type in `font` ({ size (px), family, style ('' or 'italic') }). */
const sizeOf = ({ size }, level) => (level ? Math.round(size * SCRIPT_SIZE * 10) / 10 : size);

/** The canvas font of a level. */
const fontOf = (font, level) => `${font.style ?? ''} ${sizeOf(font, level)}px ${font.family}`.trim();

// The pieces of `text` with their x offsets and widths: a superscript followed by a subscript
// (a^K_1) stack, both starting at the same x, as typeset maths does.
function layoutMath(g, text, font) {
  const placed = [];
  let x = 0;
  let stackStart = null; // x where the superscript before this piece started
  for (const { text: piece, level } of parseMath(text)) {
    g.font = fontOf(font, level);
    const width = g.measureText(piece).width;
    const previous = placed[placed.length - 1];
    if (level === -1 && previous?.level === 1 && stackStart !== null) {
      placed.push({ piece, level, x: stackStart, width });
      x = Math.max(x, stackStart + width);
      stackStart = null;
      continue;
    }
    stackStart = level === 1 ? x : null;
    placed.push({ piece, level, x, width });
    x += width;
  }
  g.font = fontOf(font, 0);
  return { placed, width: x };
}

/** The width of `text` (math notation) in `font`, on context g. */
export function measureMath(g, text, font) {
  return layoutMath(g, text, font).width;
}

/**
 * The pieces of `text` (math notation) as fillMath draws them with its left end at 0 and its top
 * at 0, measured with g: [{ text, level, font (the canvas font), size (px), x, width, baseline:
 * the y of its alphabetic baseline }]; superscripts raised, subscripts lowered, both smaller.
 * The canvas and the SVG export set a note by them.
 */
export function mathPieces(g, text, font) {
  const base = font.size * 0.9; // the normal text's baseline
  return layoutMath(g, text, font).placed.map(({ piece, level, x, width }) => ({
    text: piece,
    level,
    font: fontOf(font, level),
    size: sizeOf(font, level),
    x,
    width,
    baseline: base - level * font.size * (level > 0 ? 0.38 : 0.22),
  }));
}

/** Draws `text` (math notation) with its left end at x and its top at y (mathPieces). */
export function fillMath(g, text, x, y, font) {
  g.save();
  g.textAlign = 'left';
  g.textBaseline = 'alphabetic';
  for (const piece of mathPieces(g, text, font)) {
    g.font = piece.font;
    g.fillText(piece.text, x + piece.x, y + piece.baseline);
  }
  g.restore();
}

/**
 * `text` (math notation) broken at spaces into at most `maxLines` lines of at most `width` px;
 * a line still too long (more text than lines, or one word wider than `width`) ends in "…".
 */
export function wrapMath(g, text, width, font, maxLines = 2) {
  const words = text.split(' ');
  const lines = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (!line || measureMath(g, candidate, font) <= width) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  const fits = (l) => measureMath(g, l, font) <= width;
  if (lines.length <= maxLines && lines.every(fits)) return lines;
  // A line too wide (one long word) is cut to end in "…" within `width`; the last line kept (the
  // last there is, if fewer) takes the rest of the text.
  const cut = (l) => {
    let kept = l;
    while (kept.length > 1 && measureMath(g, `${kept}…`, font) > width) kept = kept.slice(0, -1);
    return `${kept.trimEnd()}…`;
  };
  const end = Math.min(maxLines, lines.length) - 1;
  const last = lines.slice(end).join(' ');
  return [
    ...lines.slice(0, end).map((l) => (fits(l) ? l : cut(l))),
    lines.length <= maxLines && fits(last) ? last : cut(last),
  ];
}
