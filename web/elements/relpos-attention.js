// <relpos-attention>: the matrix panels of relative self-attention, for embedding.
//   <relpos-attention seq-len="6" d-k="4" max-distance="3" seed="42" causal
//                     tokens="the cat sat on the mat" panels="combined-weights offsets"
//                     theme="auto"></relpos-attention>
import { AttentionFigure } from '../figures/attention-figure.js';
import { PANELS, parsePanelList } from '../figures/panels.js';
import { ATTENTION_SETTINGS } from '../figures/settings.js';
import { MAX_TOKENS } from '../figures/settings.js';
import { sharedPool } from '../figures/shared-pool.js';
import { computeAttentionView, computeAttentionViewInWorkers } from '../figures/view.js';
import { RelposBaseElement } from './base-element.js';
import { attributesOf, settingsFromAttributes } from './element-settings.js';

const PANEL_IDS = PANELS.map((panel) => panel.id);

export class RelposAttentionElement extends RelposBaseElement {
  static observedAttributes = [...attributesOf(ATTENTION_SETTINGS), 'panels', 'theme'];

  constructor() {
    super();
    this.figure = null;
    this.panelKey = '';
    this.view = null;
  }

  async render(rp) {
    const { settings, notes } = settingsFromAttributes(this, ATTENTION_SETTINGS);
    const { ids, note } = this.hasAttribute('panels')
      ? parsePanelList(this.getAttribute('panels'), PANEL_IDS)
      : { ids: PANEL_IDS, note: null };
    if (note) notes.push(note);
    const key = ids.join(' ');
    if (!this.figure || key !== this.panelKey) {
      this.grid?.remove();
      this.figure?.tooltip.remove();
      this.figure?.readout.remove();
      this.grid = document.createElement('div');
      this.grid.className = 'relpos-grid';
      this.grid.setAttribute('part', 'grid');
      this.shadow.append(this.grid);
      this.figure = new AttentionFigure({ container: this.grid, overlay: this.shadow, panelIds: ids, numbered: false });
      this.panelKey = key;
    }
    // Above MAX_TOKENS the numbers come from the worker pool (or, where workers cannot start,
    // the main thread); the latest render wins.
    this.renderId = (this.renderId ?? 0) + 1;
    const id = this.renderId;
    const pool = settings.seqLen > MAX_TOKENS ? await sharedPool() : null;
    const view = pool
      ? await computeAttentionViewInWorkers(pool, settings, { previous: this.view })
      : computeAttentionView(rp, settings, { previous: this.view });
    if (id !== this.renderId) return null;
    this.view = view;
    this.computedBy = pool ? 'workers' : 'main';
    this.figure.setView(this.view);
    return notes;
  }

  redraw() {
    this.figure?.draw();
  }
}
