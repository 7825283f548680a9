// The page's "position schemes side by side" section (docs/schemes.md): the scheme picker (2 to 5),
// the shift experiment's button, and the comparison figure drawn from the page's state. The
// state's `schemes`, `shift` and `ropeLayout` live in the URL with the rest (settings.js); the
// shift and RoPE-layout inputs are wired by controls.js like every control. In the iframe view
// (?embed=1) the section shows only when ?panels= names `schemes`.
import { onPrintChange } from '../figures/print-sharp.js';
import { onSchemeChange } from '../figures/scheme-change.js';
import { createSchemesFigure, drawSchemesFigure } from '../figures/schemes-figure.js';
import { CONTROLS } from '../settings/settings.js';
import { MAX_SCHEMES, SCHEME_IDS, SCHEME_INFO, computeSchemesView, parseSchemes } from '../views/schemes-view.js';
import { withMinus } from '../render/number-text.js';
import { scrollBehavior } from './scroll-motion.js';

const $ = (id) => document.getElementById(id);

/**
 * Runs `change`, which may grow or shrink `figure`, so that a reader below the figure sees no jump:
 * its first draw adds about 2 600 px (7 000 on a phone) above a reader whom a link took to the
 * training section. Browsers with scroll anchoring (Chromium, Firefox) keep the view themselves;
 * where they did not (Safari), the page scrolls by what the figure's end moved.
 */
function keepingViewBelow(figure, change) {
  const end = () => figure.getBoundingClientRect().bottom;
  const before = end() <= 0 ? end() : null; // the figure's place is above the view
  change();
  if (before === null) return;
  const moved = end() - before;
  if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
}

/**
 * Wires the section. `getState()` is the page's state, `setState(partial)` changes it and
 * redraws, `addNote(text)` shows a note. Returns { update(state) }.
 */
export function startSchemesSection({ rp, embed, panelsAsked, getState, setState, addNote }) {
  const section = $('schemes-section');
  const visible = !embed || panelsAsked.includes('schemes');
  section.hidden = !visible;
  if (!visible) return { update() {} };
  const parts = createSchemesFigure($('schemes-figure'));
  const picker = $('schemes-picker');
  const boxes = SCHEME_IDS.map((id) => {
    const label = document.createElement('label');
    label.className = 'schemes-pick';
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.id = `scheme-pick-${id}`;
    box.value = id;
    label.append(box, ` ${SCHEME_INFO[id].name}`);
    picker.append(label);
    box.addEventListener('change', () => {
      const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
      setState({ schemes: chosen.join(',') });
    });
    return box;
  });
  // Each column's biases and weights are open; its offset plot, the shift drawn and the facts'
  // charts one click away (drawn again when shown: a hidden canvas has no width to draw to).
  const more = $('schemes-more');
  const showMore = (open) => {
    more.setAttribute('aria-expanded', String(open));
    $('schemes-figure').classList.toggle('schemes-less', !open);
    shown = null;
  };
  more.addEventListener('click', () => {
    showMore(more.getAttribute('aria-expanded') !== 'true');
    update(getState());
  });
  // The experiment's result, far below the button (5 columns of charts at 768 px): the first
  // column's shift block is brought into view once drawn.
  let showShift = false;
  $('schemes-run-shift').addEventListener('click', () => {
    showMore(true); // the experiment's matrices are among the charts it opens
    showShift = true;
    setState({});
    const result = $('schemes-figure').querySelector('.schemes-table');
    result.classList.remove('schemes-flash');
    void result.offsetWidth; // restart the highlight
    result.classList.add('schemes-flash');
  });

  // The m asked for (typed, or in the link) when it is outside 1…16: the experiment's sentence says
  // which m it ran with, and this note beside the box says why.
  const { min: shiftMin, max: shiftMax } = CONTROLS.shift;
  const askedShift = (text) => {
    const asked = Number(String(text).trim());
    return String(text).trim() !== '' && Number.isFinite(asked) ? asked : null;
  };
  let asked = askedShift(new URLSearchParams(location.search).get('shift') ?? '');
  $('shift').addEventListener('input', () => {
    asked = askedShift($('shift').value);
  });
  function showShiftNote(ran) {
    const note = $('schemes-shift-note');
    const clamped = asked !== null && asked !== ran;
    const text = clamped
      ? `m = ${withMinus(asked)} is outside ${shiftMin} to ${shiftMax} filler tokens: the experiment ran with m = ${ran}.`
      : '';
    if (note.textContent !== text) note.textContent = text;
    note.hidden = !clamped;
  }

  let reported = '';
  let shown = null;
  // Drawn in a task of its own, after the panels above: a control change never waits for it.
  let pending = null;
  let timer = 0;
  function update(state) {
    pending = state;
    if (!timer)
      timer = setTimeout(() => {
        timer = 0;
        drawOrSay(pending);
      });
  }
  function drawOrSay(state, options) {
    try {
      draw(state, options);
    } catch (error) {
      addNote(`Position schemes: ${error.message}`);
    }
  }
  // The figure is computed and drawn while the section is within a window's height of the view
  // (or printed): far below, a page load or a change of the controls computes nothing for it,
  // and a reader scrolling down finds it drawn. Its notes and the corrected link come at once.
  let near = false;
  new IntersectionObserver(
    (entries) => {
      near = entries.at(-1).isIntersecting;
      if (near) update(getState());
    },
    { rootMargin: '100% 0px' },
  ).observe(section);
  onPrintChange(() => drawOrSay(getState(), { anywhere: true })); // now: the browser prints when it returns

  function draw(state, { anywhere = false } = {}) {
    const long = state.long;
    $('schemes-long-note').hidden = !long;
    $('schemes-figure').hidden = long;
    if (long) return;
    const { ids, note } = parseSchemes(state.schemes);
    if (note && note !== reported) addNote(`Link corrected: ${note}.`);
    reported = note ?? '';
    // The corrected list goes into the state, so the address says what is shown.
    if (note) {
      setState({ schemes: ids.join(',') });
      return;
    }
    for (const box of boxes) {
      box.checked = ids.includes(box.value);
      // 2 to MAX_SCHEMES columns: the last two cannot be unticked, one more cannot be ticked.
      box.disabled = box.checked ? ids.length <= 2 : ids.length >= MAX_SCHEMES;
    }
    showShiftNote(state.shift); // the m the experiment runs with (view.shift)
    if (!near && !anywhere) return; // drawn when it comes near the view
    const key = JSON.stringify([state, ids, section.clientWidth]);
    if (shown === key) return;
    shown = key;
    const view = computeSchemesView(rp, state, { schemes: ids, ropeLayout: state.ropeLayout, shift: state.shift });
    keepingViewBelow($('schemes-figure'), () => drawSchemesFigure(parts, view));
    section.dataset.drawn = String(Number(section.dataset.drawn ?? 0) + 1);
    if (showShift) {
      showShift = false;
      $('schemes-figure')
        .querySelector('.schemes-shift-block')
        ?.scrollIntoView({ block: 'nearest', behavior: scrollBehavior() });
    }
  }

  // The key holds the width: a resize redraws only when the width changed.
  new ResizeObserver(() => update(getState())).observe(section);
  onSchemeChange(section, () => {
    shown = null;
    update(getState());
  });
  return { update };
}
