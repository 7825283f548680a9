// The page's exports: the current matrices as CSV (long format) and as JSON.
import { PANELS } from '../views/panels.js';
import { ATTENTION_SETTINGS, CONTROLS } from '../settings/settings.js';
import { clippedOffset } from '../views/view.js';

// A CSV field: quoted when needed; text that a spreadsheet would run as a formula is prefixed.
function field(value) {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The settings the matrices were computed with, as the page's link names them: "seed=42, n=6, …". */
export function settingsText(state) {
  // The long view draws positions, not words: it says so, and leaves out the sentence it does not use.
  const names = state.long ? ['long', ...ATTENTION_SETTINGS.filter((name) => name !== 'tokens')] : ATTENTION_SETTINGS;
  return names
    .map((name) => {
      const value = state[name];
      const text = CONTROLS[name].kind === 'bool' ? (value ? '1' : '0') : String(value);
      return `${CONTROLS[name].param}=${CONTROLS[name].kind === 'text' ? JSON.stringify(text) : text}`;
    })
    .join(', ');
}

/**
 * Rows of a file put together in a Blob, a block at a time: one string of the whole file would
 * pass V8's longest string (about 2²⁹ characters) in the long view (the CSV at n = 1500: 15.75
 * million rows), and the Blob holds the text outside the JavaScript heap.
 */
const BLOCK_ROWS = 50_000; // a few MiB of text a block

/**
 * One row per panel and cell: panel, i, j, the two tokens, the offset, its clipped value, the
 * value; above the column names, two "#" lines state the settings and the page's link to them
 * (`state`, `query`: optional). A Blob (text/csv).
 */
export function matricesCsv(view, state = null, query = '') {
  const head = [];
  if (state) {
    head.push(`# relpos matrices; settings: ${settingsText(state).replace(/[\r\n]/g, ' ')}`);
    head.push(`# link query: ${query || '(the defaults)'}`);
  }
  head.push('panel,i,j,query_token,key_token,offset,clipped_offset,value');
  const parts = [`${head.join('\n')}\n`];
  const { n, tokens } = view;
  let lines = [];
  const flush = () => {
    if (lines.length) parts.push(new Blob([`${lines.join('\n')}\n`]));
    lines = [];
  };
  for (const panel of PANELS) {
    const values = panel.values(view);
    for (let i = 0; i < n; i += 1) {
      for (let j = 0; j < n; j += 1) {
        const row = [
          panel.id,
          i,
          j,
          tokens[i],
          tokens[j],
          j - i,
          clippedOffset(i, j, view.maxDistance),
          values[i * n + j],
        ];
        lines.push(row.map(field).join(','));
      }
      if (lines.length >= BLOCK_ROWS) flush();
    }
  }
  flush();
  return new Blob(parts, { type: 'text/csv' });
}

/**
 * The view with every number an export writes: the pool's long view's n × n matrices and output
 * read from the workers that computed them (view.readAll); any other view as it is.
 */
export async function exportableView(view) {
  if (!view.readAll) return view;
  const { difference, ...computed } = await view.readAll();
  return { ...view, result: { ...view.result, ...computed }, difference: difference.data };
}

const plain = (m) => ({ rows: m.rows, cols: m.cols, data: Array.from(m.data) });

/**
 * Everything on the page: the settings, the tokens, the inputs, every panel, the profile. A Blob
 * (application/json), each panel's numbers a part of it (the seven n × n panels at n = 2048 are
 * 29 million numbers, more text than one string holds).
 */
export function viewJson(view, profile, state) {
  const { result } = view;
  const PANELS_HERE = 'relpos: the panels go here';
  const text = JSON.stringify(
    {
      generator: 'relpos',
      settings: state,
      tokens: view.tokens,
      inputs: Object.fromEntries(
        Object.entries(result.inputs)
          .filter(([, m]) => typeof m === 'object')
          .map(([k, m]) => [k, plain(m)]),
      ),
      weights: Object.fromEntries(Object.entries(result.weights).map(([k, m]) => [k, plain(m)])),
      panels: PANELS_HERE,
      output: plain(result.output),
      // The uniform query's bias per offset on the panels' own table (inputs.relKeys).
      profile: { offsets: Array.from(profile.offsets), profile: Array.from(profile.profile) },
    },
    null,
    1,
  );
  const [before, after] = text.split(JSON.stringify(PANELS_HERE));
  // Each panel as JSON.stringify(…, null, 1) writes it two levels in.
  const panels = PANELS.map((panel, index) => {
    const matrix = { rows: view.n, cols: view.n, data: Array.from(panel.values(view)) };
    const json = JSON.stringify(matrix, null, 1).replaceAll('\n', '\n  ');
    return new Blob([`  ${JSON.stringify(panel.id)}: ${json}${index < PANELS.length - 1 ? ',' : ''}\n`]);
  });
  return new Blob([before, '{\n', ...panels, ' }', after], { type: 'application/json' });
}
