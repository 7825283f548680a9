// The sections the page's own script does not build keep their settings in the page's address
// too (one today: the training section, web/train/train-loader.js), written by the page's one
// writer (web/page/url-writer.js) after its own; and what a link of theirs had corrected joins the
// page's notes, in its words ("Link corrected: …"). Either side may come first: what a section
// sets or corrects before the page follows is kept for it. Imported by the page's own modules only
// (the section is given these functions by its loader), so that it is part of the page's script.
const early = [];
/** The page's writer, once it follows. */
let write = () => {};

/** The sections' parameters ([[param, value]]; none: they keep nothing), for the writer (a live binding). */
export let linkParams = [];

/** The sections' parameters now, and the address follows. */
export function setLinkParams(entries) {
  linkParams = entries;
  write();
}

/**
 * A section's note on its parameters of the link ("Link corrected: train-size: unknown huge; …."):
 * kept until the page follows, then the page's (a live binding: read it when the note is made).
 */
export let correctLink = (note) => early.push(note);

/**
 * The page follows: `pageWrite()` after each change of the parameters, `pageNote(note)` for each
 * note (the ones made before, first).
 */
export function followLinkSections(pageWrite, pageNote) {
  write = pageWrite;
  correctLink = pageNote;
  early.splice(0).forEach(pageNote);
}
