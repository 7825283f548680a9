// "Embed this view": the code that shows the page's current view elsewhere — a custom element,
// an iframe of the iframe view (with a height that fits at the README's 700 px column), and the
// Jupyter one-liner — each with a Copy button; the panels and the theme (auto: the reader's
// system; light or dark: whatever it is; first the page's own ?theme=) are chosen above them.
import { heatmapHeight } from '../render/heatmap.js';
import { ATTENTION_SETTINGS, CONTROLS, MAX_TOKENS, splitTokens } from '../settings/settings.js';
import { PANEL_IDS } from '../views/panels.js';
import { queryFromState } from './url-state.js';
import { THEME_PARAM } from './page-theme.js';
import { panelLabels } from '../figures/label-room.js';

const SCRIPT = 'script'; // spelt apart: no script tag in this file's text (relpos.html inlines it)
const kebab = (id) => id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const attr = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The element's attributes for `state` (those that differ from the defaults; tokens always), and
 * `theme` unless auto (the element's default).
 */
export function elementAttributes(state, panelIds, theme = 'auto') {
  const parts = [];
  for (const name of ATTENTION_SETTINGS) {
    const c = CONTROLS[name];
    const value = state[name];
    if (name === 'tokens')
      parts.unshift(`tokens="${attr(value)}"`); // the words first
    else if (name === 'seqLen') {
      if (value !== splitTokens(state.tokens).length) parts.push(`seq-len="${value}"`);
    } else if (value !== c.default)
      parts.push(c.kind === 'bool' ? (value ? c.attribute : '') : `${c.attribute}="${attr(value)}"`);
  }
  const matrices = panelIds.filter((id) => id !== 'profile' && id !== 'tables');
  parts.push(`panels="${matrices.map(kebab).join(' ')}"`);
  if (theme !== 'auto') parts.push(`theme="${theme}"`);
  return parts.filter(Boolean).join(' ');
}

export function elementSnippet(state, panelIds, theme = 'auto') {
  if (state.long || state.seqLen > MAX_TOKENS)
    return `<!-- the elements draw up to ${MAX_TOKENS} positions: use the iframe -->`;
  return `<${SCRIPT} type="module" src="relpos-elements.js"></${SCRIPT}>\n<relpos-attention ${elementAttributes(state, panelIds, theme)}></relpos-attention>`;
}

// How many lines `text` takes in `width` px of `font`.
function lineCount(text, width, font) {
  const g = new OffscreenCanvas(1, 1).getContext('2d');
  g.font = font;
  let lines = 1;
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && g.measureText(next).width > width) {
      lines += 1;
      line = word;
    } else line = next;
  }
  return lines;
}

/**
 * The iframe view's height (CSS px) with fit=width in a column `width` px wide: panels in
 * columns of at least 320 px (the view's grid), each its title, its caption wrapped at the
 * column's width (measured in the page's own figure of that panel: font, line height, padding)
 * and a heatmap (heatmap.js, with the room its row and column labels take: label-room.js) or the
 * 260 px profile plot; the view's 8 px padding and gaps.
 */
export function embedHeight(panelIds, width = 700, doc = globalThis.document, labels = null) {
  const inner = width - 16;
  const cols = Math.max(1, Math.min(panelIds.length, Math.floor((inner + 8) / 328)));
  const colWidth = (inner - 8 * (cols - 1)) / cols;
  const panelHeight = (id) => {
    const figure = doc?.getElementById(`figure-${id}`);
    const caption = figure?.querySelector('.relpos-caption');
    const title = figure?.querySelector('h2');
    const style = caption ? getComputedStyle(caption) : null;
    const figureStyle = figure ? getComputedStyle(figure) : null;
    const padX = figureStyle ? parseFloat(figureStyle.paddingLeft) + parseFloat(figureStyle.paddingRight) + 2 : 30;
    const padY = figureStyle ? parseFloat(figureStyle.paddingTop) + parseFloat(figureStyle.paddingBottom) + 2 : 26;
    const textWidth = colWidth - padX;
    const lineHeight = style ? parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.45 : 20;
    const lines = caption ? lineCount(caption.textContent, textWidth, `${style.fontSize} ${style.fontFamily}`) : 4;
    const captionHeight = Math.max(lines * lineHeight, style ? parseFloat(style.minHeight) || 0 : 60) + 8;
    const titleHeight = title ? title.getBoundingClientRect().height + 4 : 28;
    const labelSpace =
      labels && figureStyle && typeof OffscreenCanvas !== 'undefined'
        ? panelLabels(labels, figureStyle.fontFamily, Math.floor(textWidth), 560).labelSpace
        : null;
    const plot = id === 'profile' ? 260 : heatmapHeight(Math.floor(textWidth), 560, 1, labelSpace);
    return padY + titleHeight + captionHeight + plot;
  };
  let total = 16;
  for (let row = 0; row < panelIds.length; row += cols)
    total += Math.max(...panelIds.slice(row, row + cols).map(panelHeight)) + (row ? 8 : 0);
  return Math.ceil(total + 8);
}

export function embedQuery(state, panelIds, theme = 'auto') {
  const query = queryFromState(state).replace(/^\?/, '');
  const themed = theme === 'auto' ? '' : `&${THEME_PARAM}=${theme}`;
  return `embed=1&fit=width&panels=${panelIds.join(',')}${query ? `&${query}` : ''}${themed}`;
}

/** The panels' axis labels for the state's tokens ("0 the", …), as the view writes them. */
const tokenLabels = (state) => splitTokens(state.tokens ?? '').map((token, i) => `${i} ${token}`);

export function iframeSnippet(state, panelIds, page = 'index.html', theme = 'auto') {
  return (
    `<iframe src="${attr(`${page}?${embedQuery(state, panelIds, theme)}`)}"\n` +
    `        title="Relative position encoding: ${attr(panelIds.join(', '))}"\n` +
    `        width="100%" height="${embedHeight(panelIds, 700, globalThis.document, tokenLabels(state))}" loading="lazy" style="border: 0"></iframe>`
  );
}

/** Jupyter: the classic-script bundle inlined into an HTML output, then the element. */
export function jupyterSnippet(state, panelIds, theme = 'auto') {
  const element = `<relpos-attention ${elementAttributes(state, panelIds, theme)}></relpos-attention>`;
  return `from IPython.display import HTML; HTML('<${SCRIPT}>' + open('relpos-elements.iife.js').read() + '</${SCRIPT}>' + ${JSON.stringify(element)})`;
}

const CHOICES = [
  ['combinedWeights,offsets', 'combined weights and offsets'],
  ['combinedWeights,profile', 'combined weights and the profile'],
  ...PANEL_IDS.map((id) => [id, kebab(id).replace(/-/g, ' ')]),
];
const THEME_CHOICES = [
  ['auto', 'auto (the reader’s system)'],
  ['light', 'light'],
  ['dark', 'dark'],
];
const BOXES = [
  ['element', 'Custom element'],
  ['iframe', 'iframe (no script on your page)'],
  ['jupyter', 'Jupyter (one cell; also in nbconvert’s HTML)'],
];

// The box's content, built with DOM calls (the page's HTML carries only its summary).
function build(root) {
  const doc = root.ownerDocument;
  const el = (tag, props = {}, ...children) => {
    const node = Object.assign(doc.createElement(tag), props);
    node.append(...children);
    return node;
  };
  const select = el('select', { id: 'embed-panels' });
  for (const [value, text] of CHOICES) select.append(el('option', { value, textContent: text }));
  const theme = el('select', { id: 'embed-theme' });
  for (const [value, text] of THEME_CHOICES) theme.append(el('option', { value, textContent: text }));
  theme.value = doc.documentElement.dataset.theme ?? 'auto'; // the page's own ?theme=
  root.append(
    el(
      'p',
      {},
      el('label', {}, 'Panels ', select),
      ' ',
      el('label', {}, 'Theme ', theme),
      ' The same numbers as here, in your page (README, “Recipes”).',
    ),
  );
  for (const [name, title] of BOXES) {
    const button = el('button', { type: 'button', textContent: 'Copy' });
    button.dataset.copy = name;
    root.append(el('h3', {}, `${title} `, button), el('pre', {}, el('code', { id: `embed-${name}` })));
  }
}

/** Fills the three code boxes from the state, the panels and the theme chosen, and wires their Copy buttons. */
export function wireEmbedCode(root, getState) {
  build(root);
  const choice = root.querySelector('#embed-panels');
  const themeChoice = root.querySelector('#embed-theme');
  const boxes = {
    element: root.querySelector('#embed-element'),
    iframe: root.querySelector('#embed-iframe'),
    jupyter: root.querySelector('#embed-jupyter'),
  };
  const update = () => {
    const state = getState();
    const panels = choice.value.split(',');
    const theme = themeChoice.value;
    boxes.element.textContent = elementSnippet(state, panels, theme);
    boxes.iframe.textContent = iframeSnippet(state, panels, 'index.html', theme);
    boxes.jupyter.textContent = jupyterSnippet(state, panels, theme);
  };
  choice.addEventListener('change', update);
  themeChoice.addEventListener('change', update);
  for (const button of root.querySelectorAll('button[data-copy]')) {
    button.addEventListener('click', async () => {
      const box = boxes[button.dataset.copy];
      update();
      try {
        await navigator.clipboard.writeText(box.textContent);
        button.textContent = 'Copied';
      } catch {
        getSelection().selectAllChildren(box); // no clipboard here: selected, for Ctrl+C
        button.textContent = 'Selected: press Ctrl+C';
      }
      setTimeout(() => (button.textContent = 'Copy'), 1500);
    });
  }
  return update;
}
