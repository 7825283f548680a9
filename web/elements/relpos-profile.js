// <relpos-profile>: the simulated learned locality profile (docs/maths.md §7), for embedding.
//   <relpos-profile seed="42" d-k="4" max-distance="5" noise="0.1" width="1" asymmetry="0"
//                   theme="auto"></relpos-profile>
// With src="…": a real model's position tables instead, from a file saved by the page's "Save
// the position tables" (docs/checkpoints.md), drawn as the page draws them.
//   <relpos-profile src="t5-small.position-tables.json"></relpos-profile>
import { setMathText } from '../figures/math-dom.js';
import { createProfileFigure, drawProfile, profileCaption } from '../figures/profile-figure.js';
import { CHECKPOINT_CSS, createCheckpointFigure, drawCheckpointFigure } from '../figures/checkpoint-figure.js';
import { tablesFromJson } from '../views/checkpoint-view.js';
import { PROFILE_SETTINGS } from '../settings/settings.js';
import { computeProfile } from '../views/view.js';
import { FIT_READERS, FIT_SWITCHES, RelposBaseElement } from './base-element.js';
import { attributesOf, settingsFromAttributes, themeOf } from './element-settings.js';
import { reflectAttributes } from './reflect.js';

/** The tables of a src file: fetched and checked (an Error names the file). */
async function fetchTables(src) {
  const response = await fetch(src);
  if (!response.ok) throw new Error(`${src}: could not be fetched (HTTP ${response.status})`);
  let data;
  try {
    data = await response.json();
  } catch (error) {
    throw new Error(`${src} is not JSON (${error.message})`, { cause: error });
  }
  return tablesFromJson(data, src);
}

export class RelposProfileElement extends RelposBaseElement {
  static observedAttributes = [...attributesOf(PROFILE_SETTINGS), 'theme', 'src', 'captions', 'actions'];
  static settingNames = PROFILE_SETTINGS;

  constructor() {
    super();
    this.parts = createProfileFigure(null);
    this.shadow.append(this.parts.figure);
    this.view = null;
    this.tables = null;
    this.checkpoint = null;
    this.loadedSrc = null;
  }

  async render(rp) {
    const src = this.getAttribute('src');
    if (!src) {
      this.tables = null;
      this.loadedSrc = null;
      if (this.checkpoint) this.checkpoint.root.style.display = 'none';
      this.parts.figure.style.display = '';
      const { settings, notes } = settingsFromAttributes(this, PROFILE_SETTINGS);
      this.view = computeProfile(rp, settings);
      this.redraw();
      return notes;
    }
    if (!this.checkpoint) {
      const style = document.createElement('style');
      style.textContent = CHECKPOINT_CSS;
      this.checkpoint = createCheckpointFigure(document, 'relpos-profile');
      this.shadow.append(style, this.checkpoint.root);
    }
    const url = new URL(src, document.baseURI).href;
    if (url !== this.loadedSrc) {
      // Until the file is in, neither figure: a file that fails leaves only the message.
      this.tables = null;
      this.loadedSrc = null;
      this.view = null;
      this.parts.figure.style.display = 'none';
      this.checkpoint.root.style.display = 'none';
      const tables = await fetchTables(url);
      if (this.getAttribute('src') !== src) return null; // a newer src is on its way
      this.tables = tables;
      this.loadedSrc = url;
    }
    this.view = null;
    this.parts.figure.style.display = 'none';
    this.checkpoint.root.style.display = '';
    this.redraw();
    return [];
  }

  redraw() {
    if (this.clientWidth === 0) return;
    if (this.tables) {
      drawCheckpointFigure(this.checkpoint, this.tables);
      return;
    }
    if (!this.view) return;
    drawProfile(this.parts.canvas, this.view);
    setMathText(this.parts.caption, profileCaption(this.view));
  }
}

RelposProfileElement.reflected = reflectAttributes(
  RelposProfileElement,
  PROFILE_SETTINGS,
  { theme: themeOf, src: '', captions: FIT_READERS.captions, actions: FIT_READERS.actions },
  FIT_SWITCHES,
);
