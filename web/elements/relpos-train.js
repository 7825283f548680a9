// <relpos-train>: the "Learned position patterns" section as a custom element, for a course page
// ("press Train and watch"). Import 'relpos-wasm/elements/train' (not part of 'relpos-wasm/elements'
// or its one-file bundle: it brings a worker, a second WebAssembly instance and a corpus).
// Attributes (all optional): task (masked, default; next; copy), size (small, default; tiny;
// large), seed (an integer from 0 to 2³² − 1, default 1: the model's initial weights and, on the
// corpus tasks, its batches), autostart (a switch: bare, 1, true, on or yes start training once
// loaded; 0, false, off or no do not), corpus (the URL of training-corpus.bin, which `npm run
// build` writes to dist/; default: the file next to this module, as in build/site), workers (1,
// or 2: a second worker computes half of each step; default 2 where the machine has two cores;
// the numbers are the same), theme (light, dark, auto: the system's, default; inherit: the page
// around it, as the other elements: element-theme.js).
// Task and size match whatever their case; an invalid value shows a message and the default is
// used; nothing throws. A change of task, size, seed, autostart, corpus or workers starts the
// section again with it; a change of theme recolours it. Fires 'relpos-render' once the model is
// ready and after each reading of what it learned: a CustomEvent, as the other elements' (bubbles,
// composed), whose detail.notes lists the invalid attribute values replaced (the message part's
// text).
// Every attribute is also a property that reflects it (reflect.js, as the other elements):
// el.task = 'next' sets task="next", el.autostart = true the bare attribute (false removes it),
// null or undefined removes one. Reading gives the value in force, each the default where its
// attribute is absent or invalid: task and size (the choice's own spelling), seed and workers
// (numbers; workers the machine's default), autostart (a boolean), theme (as the other
// elements), corpus (the URL fetched: the attribute resolved against the document's base URL,
// as an <img>'s src reads; '' where absent or empty: the package's own corpus).
import { parseSeed } from '../train/train-link.js';
import { defaultTrainWorkers, mountTrainSection } from '../train/train-section.js';
import { PRESETS, TASKS, DEFAULT_RUN } from '../train/train-session.js';
import { matchChoice, parseSwitch, unknownChoice } from '../settings/link-values.js';
import { ElementTheme } from './element-theme.js';
import { themeOf } from './element-settings.js';
import { reflectProperties, upgradeProperties } from './reflect.js';

// Outside a browser (server-side rendering, Node) there is no HTMLElement: importing is safe and
// defines nothing.
const ElementBase = globalThis.HTMLElement ?? class {};

/** `text` as a URL resolved against the document's base URL (as written where it cannot be). */
function resolved(text) {
  try {
    return new URL(text, document.baseURI).href;
  } catch {
    return text;
  }
}

/**
 * What the element's attributes ask for: { task, preset, seed, autostart, workers, corpusUrl
 * (undefined: the package's corpus), notes }, the default where an attribute is absent or invalid;
 * `notes` says each invalid value replaced. The element mounts with it and its properties read it.
 */
function setupOf(element) {
  const notes = [];
  const choose = (name, known, fallback) => {
    const value = element.getAttribute(name);
    if (value === null) return fallback;
    const choice = matchChoice(value, Object.keys(known));
    if (choice !== null) return choice;
    notes.push(unknownChoice(name, value, Object.keys(known), fallback));
    return fallback;
  };
  const task = choose('task', TASKS, DEFAULT_RUN.task);
  const preset = choose('size', PRESETS, DEFAULT_RUN.preset);
  const seed = parseSeed(element.getAttribute('seed'), DEFAULT_RUN.seed, 'seed');
  if (seed.note) notes.push(seed.note);
  // workers="1": one training worker (default: two where the machine has two cores; the same numbers).
  const given = element.getAttribute('workers');
  const known = given === '1' || given === '2';
  const workers = known ? Number(given) : defaultTrainWorkers();
  if (given !== null && !known)
    notes.push(unknownChoice('workers', given, ['1', '2'], `${workers}, this machine’s default`));
  // A switch as the other elements read one: bare, 1, true, on or yes starts; 0, false, off or no does not.
  const autostart = parseSwitch('autostart', element.getAttribute('autostart'), false, notes);
  const corpus = element.getAttribute('corpus');
  const corpusUrl = corpus ? resolved(corpus) : undefined;
  themeOf(element, notes); // the theme itself is ElementTheme's
  return { task, preset, seed: seed.value, autostart, workers, corpusUrl, notes };
}

export class RelposTrainElement extends ElementBase {
  /** The theme attribute's colours (not `theme`: that is the attribute's reflecting property). */
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
    upgradeProperties(this, RelposTrainElement.reflected);
    if (this.mounted) return;
    const shadow = this.shadowRoot;
    this.#theme.follow();
    const message = document.createElement('p');
    message.setAttribute('part', 'message');
    message.setAttribute('role', 'status');
    message.style.cssText =
      'margin:0 0 8px;padding:6px 10px;border:1px solid currentColor;border-radius:6px;font-size:0.85rem';
    const { notes, ...options } = setupOf(this);
    message.textContent = notes.join(' · '); // as the other elements' message part
    message.hidden = notes.length === 0;
    shadow.append(message);
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
      // Another theme: the same model, in the other colours, and the message says what is wrong now.
      this.#theme.follow();
      this.#theme.changed();
      const message = this.shadowRoot.querySelector('[part="message"]');
      message.textContent = setupOf(this).notes.join(' · ');
      message.hidden = message.textContent === '';
      return;
    }
    // A new task, size, seed, autostart, corpus or workers: start again with it (the section's own
    // menus do the same).
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

RelposTrainElement.reflected = reflectProperties(
  RelposTrainElement,
  {
    task: (element) => setupOf(element).task,
    size: (element) => setupOf(element).preset,
    seed: (element) => setupOf(element).seed,
    corpus: (element) => setupOf(element).corpusUrl ?? '',
    autostart: (element) => setupOf(element).autostart,
    workers: (element) => setupOf(element).workers,
    theme: themeOf,
  },
  { autostart: false },
);

if (typeof customElements !== 'undefined' && !customElements.get('relpos-train'))
  customElements.define('relpos-train', RelposTrainElement);
