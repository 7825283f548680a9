// The fenced code blocks of README.md and docs/*.md, read as the doc test runs them
// (docs/testing.md, "Code blocks in the docs"): each block's language and marks, the programs
// that `continues` chains make, and what is wrong with a file's structure (a fence left open or
// without a language, a file cut mid-sentence, a paragraph that starts mid-sentence, a section the
// README's table of documents promises and the document lacks).

/** Languages that are run or type-checked; `text` is notation, output or a file listing, never code. */
export const RUN_LANGUAGES = ['js', 'ts', 'html', 'sh'];
export const NOTATION = 'text';

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;

/**
 * The blocks of one Markdown text: { file, line, lang, marks, notRun, shows, code } in order
 * (`notRun`: the reason given after "not-run:"; `shows`: the repository file after "file=", which
 * the block must equal), and the problems of its structure, each "file:line: what".
 */
export function readBlocks(file, text) {
  const lines = text.split('\n');
  const blocks = [];
  const problems = [];
  let open = null;
  lines.forEach((line, index) => {
    const match = FENCE.exec(line);
    if (!open) {
      if (!match) return;
      const info = match[3].trim();
      const [lang = '', ...rest] = info.split(/\s+/);
      const marks = rest.join(' ');
      if (!lang)
        problems.push(`${file}:${index + 1}: a fence opens without a language (write \`${NOTATION}\` for notation)`);
      const notRun = /(^|\s)not-run:\s*(.*)$/.exec(marks);
      const shows = /(^|\s)file=(\S+)/.exec(marks);
      open = {
        file,
        line: index + 1,
        fence: match[2],
        lang,
        marks,
        notRun: notRun ? notRun[2].trim() : null,
        shows: shows ? shows[2] : null,
        code: [],
      };
      return;
    }
    if (match && match[2][0] === open.fence[0] && match[2].length >= open.fence.length) {
      if (match[3].trim())
        problems.push(
          `${file}:${index + 1}: a fence with a language (\`${match[3].trim()}\`) closes the block opened at line ${open.line}`,
        );
      blocks.push({ ...open, code: open.code.join('\n') + '\n' });
      open = null;
      return;
    }
    open.code.push(line);
  });
  if (open) problems.push(`${file}:${open.line}: the block opened here is never closed`);
  for (const block of blocks) {
    const where = `${file}:${block.line}`;
    if (block.notRun !== null) {
      if (block.notRun.split(/\s+/).filter(Boolean).length < 3)
        problems.push(`${where}: not-run needs a reason of a few words, got "${block.notRun}"`);
    } else if (!block.shows && block.lang && block.lang !== NOTATION && !RUN_LANGUAGES.includes(block.lang)) {
      problems.push(`${where}: a \`${block.lang}\` block is neither run nor marked "not-run: <reason>"`);
    }
    if (/(^|\s)continues(\s|$)/.test(block.marks) && !['js', 'ts'].includes(block.lang))
      problems.push(`${where}: only js and ts blocks continue an earlier block`);
  }
  problems.push(...proseProblems(file, lines));
  return { blocks, problems };
}

/** A file cut mid-sentence: its last line outside a block ends no sentence, table row, heading or list item. */
function proseProblems(file, lines) {
  const problems = [];
  let inFence = null;
  let last = '';
  lines.forEach((line) => {
    const match = FENCE.exec(line);
    if (match) {
      if (!inFence) inFence = match[2];
      else if (match[2][0] === inFence[0] && match[2].length >= inFence.length) inFence = null;
      last = line;
      return;
    }
    if (inFence) return;
    if (line.trim()) last = line;
  });
  const end = last.trim();
  if (!(/[.!?)]\*{0,2}$|^\||^#|^```|^~~~|>$/.test(end) || /^[-*] /.test(end)))
    problems.push(`${file}: the file ends mid-sentence: "…${end.slice(-60)}"`);
  return problems;
}

/**
 * The programs to run: each block that is run, joined to the blocks it continues (a `continues`
 * block runs after the previous block of its kind, language and `browser` mark, in its file, as
 * one program). Returns [{ file, line, lang, marks, code, lines }]: every block run is in one.
 */
export function programs(blocks) {
  const result = [];
  const lastOf = new Map();
  for (const block of blocks) {
    if (block.notRun !== null || block.shows || !RUN_LANGUAGES.includes(block.lang)) continue;
    const continues = /(^|\s)continues(\s|$)/.test(block.marks);
    const key = `${block.file}\0${block.lang}\0${/(^|\s)browser(\s|$)/.test(block.marks)}`;
    const before = continues ? lastOf.get(key) : null;
    if (continues && !before) {
      result.push({
        ...block,
        lines: [block.line],
        error: `${block.file}:${block.line}: "continues", but no earlier ${block.lang} block runs in this file`,
      });
      continue;
    }
    if (before) {
      before.code += block.code;
      before.lines.push(block.line);
      before.marks = mergeMarks(before.marks, block.marks);
      continue;
    }
    const program = { ...block, lines: [block.line] };
    result.push(program);
    lastOf.set(key, program);
  }
  return result;
}

const mergeMarks = (a, b) =>
  [...new Set(`${a} ${b}`.split(/\s+/).filter((mark) => mark && mark !== 'continues'))].join(' ');

/**
 * The sections README.md's table of documents promises: for each linked document, the items of its
 * "what it holds" cell (after a leading "…:", without parentheses) that no heading or bold
 * run-in head of the document holds (each word of five letters or more, compared by its first five: "tagged" finds "tags").
 */
export function missingSections(readme, docs) {
  const missing = [];
  for (const row of readme.matchAll(/^\| \[docs\/([\w.-]+\.md)\]\(docs\/[\w.-]+\.md\) \| (.*) \|$/gm)) {
    const [, name, cell] = row;
    const text = docs[name];
    if (text === undefined) {
      missing.push(`docs/${name}: listed in README.md's table of documents, but missing`);
      continue;
    }
    const heads = [...withoutBlocks(text).matchAll(/^#{1,6} (.*)$|\*\*([^*]+)\*\*/gm)].map(
      (m) => new Set(words(m[1] ?? m[2]).map(stem)),
    );
    const items = cell
      .replace(/\([^)]*\)/g, '')
      .replace(/^[^:]*: /, '')
      .split(/, | and (?=the |its |how |what |which |where |a |an )/);
    for (const item of items) {
      const wanted = words(item)
        .filter((word) => word.length >= 5)
        .map(stem);
      if (!heads.some((head) => wanted.every((word) => head.has(word))))
        missing.push(`docs/${name}: README.md promises "${item.trim()}", which is no heading or bold head there`);
    }
  }
  return missing;
}

/** The text outside fenced blocks (a block's "# comment" is no heading). */
function withoutBlocks(text) {
  let fence = null;
  return text
    .split('\n')
    .filter((line) => {
      const match = FENCE.exec(line);
      if (match && !fence) fence = match[2];
      else if (match && match[2][0] === fence[0] && match[2].length >= fence.length) fence = null;
      else return !fence;
      return false;
    })
    .join('\n');
}

const words = (text) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
const stem = (word) => word.slice(0, 5);

/** What a `file=` block must equal: the file, or for a notebook (.ipynb) one of its code cells. */
export function shownTexts(path, text) {
  if (!path.endsWith('.ipynb')) return [text.trim()];
  return JSON.parse(text)
    .cells.filter((cell) => cell.cell_type === 'code')
    .map((cell) => [cell.source].flat().join('').trim());
}
