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
  return ATTENTION_SETTINGS.map((name) => {
    const value = state[name];
    const text = CONTROLS[name].kind === 'bool' ? (value ? '1' : '0') : String(value);
    return `${CONTROLS[name].param}=${CONTROLS[name].kind === 'text' ? JSON.stringify(text) : text}`;
  }).join(', ');
}

/**
 * One row per panel and cell: panel, i, j, the two tokens, the offset, its clipped value, the
 * value; above the column names, two "#" lines state the settings and the page's link to them
 * (`state`, `query`: optional).
 */
export function matricesCsv(view, state = null, query = '') {
  const lines = [];
  if (state) {
    lines.push(`# relpos matrices; settings: ${settingsText(state).replace(/[\r\n]/g, ' ')}`);
    lines.push(`# link query: ${query || '(the defaults)'}`);
  }
  lines.push('panel,i,j,query_token,key_token,offset,clipped_offset,value');
  const { n, tokens } = view;
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
    }
  }
  return `${lines.join('\n')}\n`;
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

/** Everything on the page: the settings, the tokens, the inputs, every panel, the profile. */
export function viewJson(view, profile, state) {
  const { result } = view;
  return JSON.stringify(
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
      panels: Object.fromEntries(
        PANELS.map((panel) => [panel.id, { rows: view.n, cols: view.n, data: Array.from(panel.values(view)) }]),
      ),
      output: plain(result.output),
      // The uniform query's bias per offset on the panels' own table (inputs.relKeys).
      profile: { offsets: Array.from(profile.offsets), profile: Array.from(profile.profile) },
    },
    null,
    1,
  );
}
