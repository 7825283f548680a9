// <relpos-profile>: the simulated learned locality profile (docs/maths.md §7), for embedding.
//   <relpos-profile seed="42" d-k="4" max-distance="5" noise="0.1" width="1" asymmetry="0"
//                   theme="auto"></relpos-profile>
import { setMathText } from '../figures/math-dom.js';
import { createProfileFigure, drawProfile, profileCaption } from '../figures/profile-figure.js';
import { PROFILE_SETTINGS } from '../settings/settings.js';
import { computeProfile } from '../views/view.js';
import { RelposBaseElement } from './base-element.js';
import { attributesOf, settingsFromAttributes } from './element-settings.js';
import { reflectAttributes } from './reflect.js';

export class RelposProfileElement extends RelposBaseElement {
  static observedAttributes = [...attributesOf(PROFILE_SETTINGS), 'theme'];
  static settingNames = PROFILE_SETTINGS;

  constructor() {
    super();
    this.parts = createProfileFigure(null);
    this.shadow.append(this.parts.figure);
    this.view = null;
  }

  render(rp) {
    const { settings, notes } = settingsFromAttributes(this, PROFILE_SETTINGS);
    this.view = computeProfile(rp, settings);
    this.redraw();
    return notes;
  }

  redraw() {
    if (!this.view || this.clientWidth === 0) return;
    drawProfile(this.parts.canvas, this.view);
    setMathText(this.parts.caption, profileCaption(this.view));
  }
}

RelposProfileElement.reflected = reflectAttributes(RelposProfileElement, PROFILE_SETTINGS, { theme: 'auto' });
