// What a link had corrected, said at the top of the page as well as in the notes under the
// controls: a reader who followed a link on a phone sees it without scrolling down to the inputs.

/** Shows the notes that begin "Link corrected:" in `box` (a <p> and a Close button), if any. */
export function showLinkNote(box, notes) {
  const corrected = notes.filter((note) => note.startsWith('Link corrected:'));
  if (!corrected.length) return;
  box.querySelector('p').textContent = corrected.join(' · ');
  box.hidden = false;
  box.querySelector('button').addEventListener('click', () => (box.hidden = true), { once: true });
}
