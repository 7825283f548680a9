// The address bar follows the view, written at most every URL_DELAY_MS (and when the page is
// left): replaceState costs a few ms a call in Chromium, which also ignores it, with a console
// warning, past about 100 calls in 10 s, as a dragged slider would make.
import { queryFromState } from './url-state.js';
import { linkParams } from '../settings/link-sections.js';
import { THEME_PARAM } from './page-theme.js';

/** The longest the address bar lags behind the view. */
const URL_DELAY_MS = 150;

/** The parameter that keeps "More panels" open: ?more=1. */
export const MORE_PANELS_PARAM = 'more';

/**
 * `getState()`: the page's state; `presenting()`: the panel in the present view, if any (kept as
 * ?present=<panel>); `morePanelsOpen()`: whether "More panels" is open (kept as ?more=1); `theme`
 * (page-theme.js: kept as ?theme= unless auto); and,
 * after them, the parameters of the sections loaded apart (link-sections.js: the training
 * section's set-up, ?train=…). The iframe view keeps its own address. Returns { schedule() }.
 */
export function startUrlWriter({ embed, theme = 'auto', getState, presenting, morePanelsOpen }) {
  let timer = 0;
  function write() {
    clearTimeout(timer);
    timer = 0;
    const query = embed ? location.search : queryFromState(getState());
    const view = new URLSearchParams();
    if (!embed && morePanelsOpen()) view.set(MORE_PANELS_PARAM, '1');
    const panel = embed ? null : presenting();
    if (panel) view.set('present', panel);
    if (!embed && theme !== 'auto') view.set(THEME_PARAM, theme);
    // A parameter the link gave more than once: its first, as every reader takes it (link-values.js).
    if (!embed) for (const [name, value] of linkParams) if (!view.has(name)) view.set(name, value);
    const tail = view.toString() && `${query ? '&' : '?'}${view}`;
    const url = `${location.pathname}${query}${tail}${location.hash}`;
    try {
      if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(null, '', url);
    } catch {
      // file:// pages may refuse; the view still works.
    }
  }
  addEventListener('pagehide', () => timer && write());
  return {
    schedule() {
      if (!timer) timer = setTimeout(write, URL_DELAY_MS);
    },
  };
}
