// The two figures beside the panels: the table read by one query (the profile) and what the
// selected cell is made of (the tables). In the iframe view they join the panels' grid, so that
// the frame is filled evenly; ?panels= may leave either out.
import { themeColours } from '../figures/theme-colours.js';
import { setMathText } from '../figures/math-dom.js';
import { PANELS } from '../views/panels.js';
import { createProfileFigure, drawProfile, tableProfileCaption } from '../figures/profile-figure.js';
import { createTablesFigure, drawTablesFigure } from '../figures/tables-figure.js';
import { keepCaptionHeights } from '../figures/caption-room.js';

const $ = (id) => document.getElementById(id);

export class SideFigures {
  #tables;
  #profile;
  #showTables;
  #showProfile;
  #drawnProfile = { view: null, highlight: null };

  /** `ids`: the panel ids shown ('profile' and 'tables' among them, or not). */
  constructor({ embed, ids }) {
    this.#tables = createTablesFigure(embed ? null : PANELS.length + 1);
    this.#profile = createProfileFigure(embed ? null : PANELS.length + 2, 'The table read by one query');
    (embed ? $('panels') : $('profile-section')).append(this.#tables.figure, this.#profile.figure);
    this.#showProfile = ids.includes('profile');
    this.#showTables = ids.includes('tables');
    this.#profile.figure.hidden = !this.#showProfile;
    $('profile-section').hidden = embed || !(this.#showProfile || this.#showTables);
  }

  /** The tables show in the sentence view only (their tables have ≤ 127 rows). */
  sync(state) {
    const hidden = state.long || !this.#showTables;
    if (this.#tables.figure.hidden !== hidden) this.#tables.figure.hidden = hidden;
  }

  /**
   * The profile (the panels' own table, read by the uniform query), drawn again when its numbers
   * or its highlighted offset change, or with `force` (a new size or theme).
   */
  drawProfile(view, state, highlight, { height, force = false }) {
    if (!this.#showProfile || !view) return;
    const profileView = view.profile;
    const drawn = this.#drawnProfile;
    if (!force && drawn.view === profileView && drawn.highlight === highlight) return;
    drawProfile(this.#profile.canvas, profileView, highlight, { yLabel: 'bias u · a^K/√d_k', height });
    this.#drawnProfile = { view: profileView, highlight };
    setMathText(this.#profile.caption, tableProfileCaption(view, state));
  }

  /** What the selected cell is made of. */
  drawTables(view, cell) {
    const tables = this.#tables;
    if (!this.#showTables || !view || view.long || tables.figure.hidden) return;
    drawTablesFigure(tables, view, cell, themeColours(tables.canvas));
    // Its caption's numbers (the colour scales) wrap on more or fewer lines: its room is kept.
    keepCaptionHeights([{ caption: tables.caption, room: String(tables.wrap.clientWidth) }]);
  }
}
