// Writes dist/custom-elements.json (the Custom Elements Manifest, schema 2.0.0, package.json
// "customElements"), which editors and documentation tools read: each element's tag, attributes
// (type, default, range), reflecting properties, event, CSS custom properties and parts. Made
// from the element classes themselves (importing them is safe in Node), web/settings/settings.js
// and, for <relpos-train>, the training section's own tables (web/train/train-session.js). Every
// attribute an element observes (its observedAttributes) must be listed, or this throws.
import { writeFileSync } from 'node:fs';
import { CONTROLS, MAX_TOKENS } from '../web/settings/settings.js';
import { RelposAttentionElement, RelposProfileElement } from '../web/elements/index.js';
import { RelposTrainElement } from '../web/elements/relpos-train.js';
import { DEFAULT_RUN, PRESETS, TASKS } from '../web/train/train-session.js';

const out = process.argv[2] ?? 'dist/custom-elements.json';

const CSS_PROPERTIES = [
  ['--relpos-bg', 'background'],
  ['--relpos-fg', 'text colour'],
  ['--relpos-muted', 'secondary text'],
  ['--relpos-panel', 'panel background'],
  ['--relpos-border', 'panel border'],
  ['--relpos-accent', 'accent (focus, highlights)'],
  ['--relpos-accent-fg', 'text on the accent colour'],
  ['--relpos-grid', 'grid lines'],
  ['--relpos-line', 'plot lines'],
  ['--relpos-outline', 'hovered cell outline'],
  ['--relpos-outline-halo', 'halo around the outline'],
  ['--relpos-masked', 'masked (causal) cells'],
  ['--relpos-note', 'the message line'],
  ['--relpos-gap', 'gap between panels'],
  ['--relpos-panel-min-width', 'narrowest panel before the grid wraps'],
];
const PARTS = ['panel', 'title', 'caption', 'canvas', 'actions', 'message', 'grid', 'tooltip'];

const TYPES = { int: 'number', number: 'number', bool: 'boolean', text: 'string' };
const typeOf = (control) =>
  control.kind === 'choice' ? control.choices.map((c) => `'${c}'`).join(' | ') : TYPES[control.kind];
const choices = (table) =>
  Object.keys(table)
    .map((c) => `'${c}'`)
    .join(' | ');
const camel = (attribute) => attribute.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

function describeControl(control, max) {
  if (control.kind === 'int' || control.kind === 'number') return `${control.min}–${max ?? control.max}`;
  if (control.kind === 'bool') return 'boolean attribute (present means true)';
  return '';
}

/**
 * The declaration of one element: its settings' attributes (Element.settingNames, none for
 * <relpos-train>) and `extra`, [attribute, description, type, default?] for each of the others,
 * each with its reflecting property. With `section` (<relpos-train>) it has no view, its only
 * part is the message, and its 'relpos-render' comes once the model is ready and after each
 * reading of what it learned.
 */
function declaration(Element, tagName, description, extra, { section = false } = {}) {
  const attributes = [];
  for (const name of Element.settingNames ?? []) {
    const control = CONTROLS[name];
    const max = name === 'seqLen' ? MAX_TOKENS : control.max; // as element-settings.js
    attributes.push({
      name: control.attribute,
      fieldName: camel(control.attribute),
      type: { text: typeOf(control) },
      default: JSON.stringify(control.default),
      description: describeControl(control, max),
    });
  }
  for (const [attribute, text, type, fallback] of extra) {
    attributes.push({
      name: attribute,
      fieldName: camel(attribute),
      type: { text: type },
      ...(fallback === undefined ? {} : { default: JSON.stringify(fallback) }),
      description: text,
    });
  }
  const observed = [...Element.observedAttributes].sort();
  const listed = attributes.map((a) => a.name).sort();
  if (JSON.stringify(observed) !== JSON.stringify(listed)) {
    throw new Error(`make-custom-elements: ${tagName} observes ${observed} but the manifest lists ${listed}`);
  }
  return {
    kind: 'class',
    name: Element.name,
    tagName,
    customElement: true,
    description,
    superclass: { name: 'HTMLElement' },
    attributes,
    members: reflectingMembers(Element, attributes, section),
    events: [
      section
        ? {
            name: 'relpos-render',
            type: { text: 'CustomEvent<{ notes: string[] }>' },
            description:
              'Once the model is ready and after each reading of what it learned (bubbles, composed); notes lists invalid attribute values that were replaced, as the message part shows them.',
          }
        : {
            name: 'relpos-render',
            type: { text: 'CustomEvent<{ notes: string[] }>' },
            description:
              'After every render (bubbles, composed); notes lists invalid attribute values that were replaced.',
          },
    ],
    cssProperties: CSS_PROPERTIES.map(([name, text]) => ({ name, description: text })),
    cssParts: (section ? ['message'] : PARTS).map((name) => ({ name })),
  };
}

/** An element's properties: one reflecting each attribute (reflect.js), and its own (none for a `section`). */
function reflectingMembers(Element, attributes, section) {
  return [
    ...attributes.map((a) => ({
      kind: 'field',
      name: a.fieldName,
      type: a.type,
      ...(a.default === undefined ? {} : { default: a.default }),
      attribute: a.name,
      reflects: true,
    })),
    ...(Element === RelposAttentionElement
      ? [
          {
            kind: 'field',
            name: 'result',
            type: { text: 'AttentionResult | null' },
            description: 'A result of rp.attention() (n ≤ 64) drawn instead of the seeded example; null: the example.',
          },
          {
            kind: 'field',
            name: 'matrix',
            type: { text: 'RelposMatrix | null' },
            description:
              "One matrix of your own, any rows × cols up to 2048 × 2048 cells in all: { data, rows, cols } or { data, dims } (an onnxruntime Tensor) or { data, shape }, with kind ('weights', 'scores', 'biases', 'difference'), title, caption, rowLabels, colLabels, max; drawn as one panel instead of the example; null: the example.",
          },
        ]
      : []),
    ...(section
      ? []
      : [
          {
            kind: 'field',
            name: 'view',
            readonly: true,
            description:
              'The numbers last drawn (null before the first render, and while a matrix of your own is drawn).',
          },
        ]),
  ];
}

const THEME = [
  'theme',
  "light, dark, auto (default: the reader's system) or inherit (the host page's scheme and --relpos-* variables)",
  "'light' | 'dark' | 'auto' | 'inherit'",
];
const FIT = [
  [
    'fit',
    'width (default: the width decides the height) or box (fit the height given to the element)',
    "'width' | 'box'",
  ],
  ['max-height', 'at most this many px tall (with fit="width"; at least 100)', 'number'],
  [
    'captions',
    'a switch, on by default (off, 0, false or no hides them): the captions under the panels',
    'boolean',
    true,
  ],
  [
    'actions',
    'a switch, on by default (off, 0, false or no hides them): the buttons (present, downloads)',
    'boolean',
    true,
  ],
];
const elements = [
  [
    RelposAttentionElement,
    'relpos-attention',
    'web/elements/relpos-attention.js',
    'The matrix panels of relative self-attention.',
    [
      [
        'panels',
        'Any of content-scores position-biases content-weights combined-weights difference offsets (default all)',
        'string',
      ],
      THEME,
      ...FIT,
    ],
  ],
  [
    RelposProfileElement,
    'relpos-profile',
    'web/elements/relpos-profile.js',
    "The simulated learned locality profile, or with src a real model's position tables saved by the page.",
    [
      THEME,
      [
        'src',
        'a position-tables JSON saved by the page (docs/checkpoints.md), drawn instead of the simulation',
        'string',
      ],
      FIT.find(([name]) => name === 'captions'),
      FIT.find(([name]) => name === 'actions'),
    ],
  ],
  [
    RelposTrainElement,
    'relpos-train',
    'web/elements/relpos-train.js',
    'The "Learned position patterns" section: trains a small relative-attention model in a worker and draws what it learned (its own entry point, relpos-wasm/elements/train; it defines itself).',
    [
      ['task', 'the training task (any case)', choices(TASKS), DEFAULT_RUN.task],
      ['size', 'the model size (any case)', choices(PRESETS), DEFAULT_RUN.preset],
      [
        'seed',
        "0–4294967295: the model's initial weights and, on the corpus tasks, its batches",
        'number',
        DEFAULT_RUN.seed,
      ],
      [
        'autostart',
        'a switch: bare, 1, true, on or yes start training once loaded; 0, false, off or no do not',
        'boolean',
        false,
      ],
      [
        'corpus',
        "the URL of a training-corpus.bin (default: the package's, next to the module); the property reads it resolved against the document's base URL, '' where absent",
        'string',
      ],
      [
        'workers',
        '1, or 2: a second worker computes half of each step (default 2 where the machine has two cores; the same numbers)',
        '1 | 2',
      ],
      THEME,
    ],
    { section: true, definesItself: true },
  ],
];

const inIndex = elements.filter(([, , , , , options]) => !options?.definesItself);
const definition = (Element, tagName, path) => ({
  kind: 'custom-element-definition',
  name: tagName,
  declaration: { name: Element.name, module: path },
});
const manifest = {
  schemaVersion: '2.0.0',
  readme: 'README.md',
  modules: [
    ...elements.map(([Element, tagName, path, description, extra, options]) => ({
      kind: 'javascript-module',
      path,
      declarations: [declaration(Element, tagName, description, extra, options)],
      exports: [
        { kind: 'js', name: Element.name, declaration: { name: Element.name, module: path } },
        ...(options?.definesItself ? [definition(Element, tagName, path)] : []),
      ],
    })),
    {
      kind: 'javascript-module',
      path: 'web/elements/index.js',
      declarations: [],
      exports: inIndex.flatMap(([Element, tagName, path]) => [
        { kind: 'js', name: Element.name, declaration: { name: Element.name, module: path } },
        definition(Element, tagName, path),
      ]),
    },
  ],
};
writeFileSync(out, `${JSON.stringify(manifest, null, 2)}\n`);
