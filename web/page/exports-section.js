// The page's exports: the matrices as CSV and the view as JSON (export.js), what each panel's PNG
// and SVG buttons save (figure-export.js), and "Embed this view", whose code is loaded when its
// box is first opened (embed-code.js).
import { download } from '../files/download.js';
import { exportableView, matricesCsv, settingsText, viewJson } from './export.js';
import { queryFromState } from './url-state.js';

const $ = (id) => document.getElementById(id);

/** The image options of the moment, for the figure's PNG and SVG exports. */
function imageOptions(state) {
  const withText = $('image-text').checked;
  return {
    scale: Number($('image-scale').value),
    theme: $('image-theme').value,
    title: withText,
    caption: withText,
    settings: $('image-settings').checked ? `relpos: ${settingsText(state)}` : null,
  };
}

function wireImageOptions(figure, getState) {
  const sync = () => {
    figure.exportOptions = imageOptions(getState());
  };
  for (const id of ['image-scale', 'image-theme', 'image-text', 'image-settings'])
    $(id).addEventListener('change', sync);
  const downloadPanel = figure.download.bind(figure);
  figure.download = (panelId, format) => {
    sync(); // the settings of the moment
    return downloadPanel(panelId, format);
  };
}

/** Returns the function that brings the embed code up to date (when its box is open). */
function wireEmbedCodeBox(getState) {
  const box = $('embed-code');
  let update = () => {};
  box.addEventListener('toggle', async () => {
    if (!box.open) return;
    const { wireEmbedCode } = await import('./embed-code.js');
    if (!box.dataset.wired) {
      box.dataset.wired = 'true';
      update = wireEmbedCode(box, getState);
    }
    update();
  });
  return () => box.open && update();
}

/**
 * Wires the buttons to the page's `getState()` and `getView()`. Returns { viewChanged() }, which
 * keeps the open embed code following the view.
 */
export function wireExports({ figure, getState, getView }) {
  $('export-csv').addEventListener('click', async () => {
    const state = getState();
    download('relpos-matrices.csv', matricesCsv(await exportableView(getView()), state, queryFromState(state)));
  });
  wireImageOptions(figure, getState);
  const viewChanged = wireEmbedCodeBox(getState);
  $('export-json').addEventListener('click', async () => {
    const state = getState();
    const view = await exportableView(getView());
    download('relpos-view.json', viewJson(view, view.profile, state));
  });
  return { viewChanged };
}
