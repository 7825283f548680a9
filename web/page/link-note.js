// What a link had corrected, said at the top of the page as well as in the notes under the
// controls: a reader who followed a link on a phone sees it without scrolling down to the inputs.

const PREFIX = 'Link corrected: ';

/**
 * Shows the notes that begin "Link corrected: " in `box` (a <div> for the text and a Close
 * button), if any: one as its sentence, several as a list under "Link corrected:".
 */
export function showLinkNote(box, notes) {
  const corrected = notes.filter((note) => note.startsWith(PREFIX));
  if (!corrected.length) return;
  const text = box.querySelector('div');
  if (corrected.length === 1) {
    const line = document.createElement('p');
    line.textContent = corrected[0];
    text.replaceChildren(line);
  } else {
    const title = document.createElement('p');
    title.textContent = PREFIX.trim();
    const list = document.createElement('ul');
    for (const note of corrected) {
      const item = document.createElement('li');
      item.textContent = note.slice(PREFIX.length);
      list.append(item);
    }
    text.replaceChildren(title, list);
  }
  box.hidden = false;
  box.querySelector('button').addEventListener('click', () => (box.hidden = true), { once: true });
}
