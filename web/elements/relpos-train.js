// <relpos-train>: the "Learned position patterns" section as a custom element, for a course page
// ("press Train and watch"). Import 'relpos-wasm/elements/train' (not part of 'relpos-wasm/elements'
// or its one-file bundle: it brings a worker, a second WebAssembly instance and a corpus).
// Attributes (all optional): task (masked, default; next; copy), size (small, default; tiny;
// large), seed (an integer from 0 to 2³² − 1, default 1: the model's initial weights and, on the
// corpus tasks, its batches), autostart (a switch: bare, 1, true, on or yes start training once loaded; 0, false, off or no do not), corpus (the URL of training-corpus.bin,
// which `npm run build` writes to dist/; default: the file next to this module, as in build/site),
// workers (1, or 2: a second worker computes half of each step; default 2 where the machine has
// two cores; the numbers are the same), theme (light, dark, auto: the system's, default; inherit:
// the page around it, as the other elements: element-theme.js).
// Task and size match whatever their case; an invalid value shows a message and the default is used; nothing throws. Fires 'relpos-render'
// once the model is ready and after each reading of what it learned: a CustomEvent, as the other
// elements' (bubbles, composed), whose detail.notes lists the invalid attribute values replaced (the
// message part's text).
// No property reflects an attribute (set them with setAttribute).
import { parseSeed } from '../train/train-link.js';
import { defaultTrainWorkers, mountTrainSection } from '../train/train-section.js';
import { PRESETS, TASKS, DEFAULT_RUN } from '../train/train-session.js';
import { matchChoice, parseSwitch, unknownChoice } from '../settings/link-values.js';
import { ElementTheme } from './element-theme.js';

// Outside a browser (server-side rendering, Node) there is no HTMLElement: importing is safe and
// defines nothing.
const ElementBase = globalThis.HTMLElement ?? class {};

export class RelposTrainElement extends ElementBase {
  /** The theme attribute's colours (private; the attribute itself is read with getAttribute('theme')). */
  #theme;

  static get observedAttributes() {
    return ['task', 'size', 'seed', 'corpus', 'autostart', 'workers', 'theme'];
  }

  constructor() {
    super();
    // The figure CSS and the theme attribute, inherit included, as every element (element-theme.js);
    // the section's figures draw again on its SCHEME_CHANGE.
    this.#theme = new ElementTheme(this, this.attachShadow({ mode: 'open' }));
  }

  connectedCallback() {
    if (this.mounted) return;
    const shadow = this.shadowRoot;
    this.#theme.follow();
    const message = document.createElement('p');
    message.setAttribute('part', 'message');
    message.setAttribute('role', 'status');
    message.style.cssText =
      'margin:0 0 8px;padding:6px 10px;border:1px solid currentColor;border-radius:6px;font-size:0.85rem';
    const notes = [];
    const choose = (name, known, fallback) => {
      const value = this.getAttribute(name);
      if (value === null) return fallback;
      const choice = matchChoice(value, Object.keys(known));
      if (choice !== null) return choice;
      notes.push(unknownChoice(name, value, Object.keys(known), fallback));
      return fallback;
    };
    const task = choose('task', TASKS, DEFAULT_RUN.task);
    const preset = choose('size', PRESETS, DEFAULT_RUN.preset);
    const seed = parseSeed(this.getAttribute('seed'), DEFAULT_RUN.seed, 'seed');
    if (seed.note) notes.push(seed.note);
    // workers="1": one training worker (default: two where the machine has two cores; the same numbers).
    const workers = this.getAttribute('workers');
    if (workers !== null && workers !== '1' && workers !== '2')
      notes.push(unknownChoice('workers', workers, ['1', '2'], `${defaultTrainWorkers()}, this machine’s default`));
    // A switch as the other elements read one: bare, 1, true, on or yes starts; 0, false, off or no does not.
    const autostart = parseSwitch('autostart', this.getAttribute('autostart'), false, notes);
    message.textContent = notes.join(' · '); // as the other elements' message part
    message.hidden = notes.length === 0;
    shadow.append(message);
    const options = { task, preset, seed: seed.value, autostart };
    if (workers === '1' || workers === '2') options.workers = Number(workers);
    const corpus = this.getAttribute('corpus');
    if (corpus) options.corpusUrl = new URL(corpus, document.baseURI).href;
    this.section = mountTrainSection(shadow, {
      ...options,
      onRender: () =>
        this.dispatchEvent(
          new CustomEvent('relpos-render', { detail: { notes: [...notes] }, bubbles: true, composed: true }),
        ),
    });
    this.mounted = true;
  }

  attributeChangedCallback(name, before, after) {
    if (!this.mounted || before === after) return;
    if (name === 'theme') {
      // Another theme: the same model, in the other colours.
      this.#theme.follow();
      this.#theme.changed();
      return;
    }
    // A new task, size or seed: start again with it (the section's own menus do the same).
    this.section.dispose();
    this.shadowRoot.replaceChildren();
    this.mounted = false;
    this.connectedCallback();
  }

  disconnectedCallback() {
    this.#theme.stop();
    this.section?.dispose();
    this.shadowRoot?.replaceChildren();
    this.mounted = false;
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('relpos-train'))
  customElements.define('relpos-train', RelposTrainElement);
