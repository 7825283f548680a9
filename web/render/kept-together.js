// The stretches of a reader's text that a line must never break inside: a formula written as a
// call or an index, with what is written against it (clip(j − i, ±k), a^K[clip(j − i)]/√d_k),
// and a range (44.4 %–55.6 %, 1–6, −3…3). Elsewhere lines break between words as usual.

const CLOSING = { '(': ')', '[': ']', '{': '}' };
const SPACE = /[ \t\n]/; // U+00A0 (no-break space) already joins
/** A formula longer than this many characters may break (a narrow card could not hold it). */
const LONGEST = 48;

// The index of the bracket that closes the one at `open`, or −1.
function closing(text, open) {
  const stack = [];
  for (let at = open; at < text.length; at += 1) {
    const c = text[at];
    if (CLOSING[c]) stack.push(CLOSING[c]);
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (!stack.length) return at;
    } else if (c === ')' || c === ']' || c === '}') return -1;
  }
  return -1;
}

/** `text` as [{ text, kept }]: `kept` pieces are to be shown on one line; joined, the pieces are `text`. */
export function keptTogether(text) {
  const spans = [];
  const wordStart = (at) => {
    while (at > 0 && !SPACE.test(text[at - 1])) at -= 1;
    return at;
  };
  const wordEnd = (at) => {
    while (at < text.length && !SPACE.test(text[at])) at += 1;
    return at;
  };
  // A formula: a bracket written against what comes before it (not a parenthesis in prose),
  // through the bracket that closes it.
  for (let at = 1; at < text.length; at += 1) {
    if (!'(['.includes(text[at]) || SPACE.test(text[at - 1])) continue;
    const end = closing(text, at);
    if (end < 0) continue;
    const [start, stop] = [wordStart(at), wordEnd(end + 1)];
    if (stop - start <= LONGEST) spans.push([start, stop]);
    at = end;
  }
  // A range: a word with an en dash or an ellipsis between two of its characters.
  for (const { 0: word, index } of text.matchAll(/[^ \t\n]+/g))
    if (/.[–…]./u.test(word)) spans.push([index, index + word.length]);
  spans.sort((a, b) => a[0] - b[0]);
  const pieces = [];
  let at = 0;
  for (const [start, stop] of spans) {
    if (stop <= at) continue;
    const from = Math.max(start, at);
    if (from > at) pieces.push({ text: text.slice(at, from), kept: false });
    const last = pieces[pieces.length - 1];
    if (last?.kept && from === at) last.text += text.slice(from, stop);
    else pieces.push({ text: text.slice(from, stop), kept: true });
    at = stop;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), kept: false });
  return pieces;
}
