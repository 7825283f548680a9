// The line of notes under the controls: what a link or an entry had corrected, and errors,
// joined by " · ". Written only when it changes.
export function createNotes(element) {
  const set = (lines) => {
    const text = lines.join(' · ');
    if (element.textContent !== text) element.textContent = text;
  };
  const add = (note) => set([...element.textContent.split(' · ').filter(Boolean), note]);
  return { element, set, add };
}
