// A vertical swipe that starts on a slider scrolls the page and leaves the slider as it was. On a
// phone the k slider spans the inputs card, so a reader scrolling past it starts there often; the
// browser sets the slider where the finger landed, then scrolls (the pointer is cancelled). The
// CSS gives the browser the vertical pans (`touch-action: pan-y`, style.css); this puts the
// value back when a touch turns into a scroll. A tap or a sideways drag sets the value as before.

/** Keeps `input` (a range) at its value when a touch on it is taken over by scrolling. */
export function keepRangeWhenScrolled(input) {
  let before = null;
  input.addEventListener('pointerdown', (event) => {
    before = event.pointerType === 'touch' ? input.value : null;
  });
  input.addEventListener('pointerup', () => (before = null));
  input.addEventListener('pointercancel', () => {
    if (before === null || before === input.value) return;
    input.value = before;
    before = null;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
