// The address bar follows the view, written at most every URL_DELAY_MS (and when the page is
// left): replaceState costs a few ms a call in Chromium, which also ignores it, with a console
// warning, past about 100 calls in 10 s, as a dragged slider would make.
import { queryFromState } from './url-state.js';

/** The longest the address bar lags behind the view. */
const URL_DELAY_MS = 150;

/**
 * `getState()`: the page's state; `presenting()`: the panel in the present view, if any (kept as
 * ?present=<panel>). The iframe view keeps its own address. Returns { schedule() }.
 */
export function startUrlWriter({ embed, getState, presenting }) {
  let timer = 0;
  function write() {
    clearTimeout(timer);
    timer = 0;
    const query = embed ? location.search : queryFromState(getState());
    const panel = embed ? null : presenting();
    const present = panel ? `${query ? '&' : '?'}present=${panel}` : '';
    const url = `${location.pathname}${query}${present}${location.hash}`;
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
