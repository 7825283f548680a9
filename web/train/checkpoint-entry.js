// The first part of "A real model's position patterns" (checkpoint-section.js): what to open and
// the file input. The reader, the figure and the rest load when the reader first chooses files.
const el = (doc, tag, props = {}, children = []) => {
  const node = doc.createElement(tag);
  Object.assign(node, props);
  node.append(...children);
  return node;
};

/** The part's layout, drawn before any file is opened. */
const SECTION_CSS = `
.relpos-checkpoints { margin-top: 1.2rem; }
.relpos-checkpoints h3 { font-size: 1.05rem; margin: 0 0 0.3rem; }
.relpos-checkpoints .checkpoint-files { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; margin: 0.4rem 0; }
.relpos-checkpoints .checkpoint-files label { display: flex; flex-direction: column; gap: 0.2rem; font-size: 0.9rem; }
.relpos-checkpoints button { font: inherit; min-height: 2.2rem; }
.relpos-checkpoints input[type='file'] { font: inherit; max-width: 100%; }
.relpos-checkpoints input[type='file']::file-selector-button { min-height: 2.2rem; margin-right: 0.6rem; }
.relpos-checkpoints .checkpoint-private { font-weight: 600; }
.relpos-checkpoints .checkpoint-status[data-error='true'] { border-left: 4px solid var(--relpos-accent, #d55e00); padding-left: 0.5rem; }
`;

/**
 * Builds the part into `container`; `training()` gives the training section's readings for the
 * figure to draw beside ({ state, heads, offsets }). Returns { refresh, dispose }.
 */
export function mountCheckpointEntry(container, { training }) {
  const doc = container.ownerDocument ?? container;
  const input = el(doc, 'input', {
    type: 'file',
    id: 'checkpoint-files',
    multiple: true,
    accept: '.safetensors,.json,application/json',
  });
  const section = el(doc, 'section', { className: 'relpos-checkpoints', id: 'checkpoint-section' }, [
    el(doc, 'style', { textContent: SECTION_CSS }),
    el(doc, 'h3', { textContent: 'A real model’s position patterns, from your own file' }),
    el(doc, 'p', {
      textContent:
        'T5 and its family (mT5, Flan-T5, ByT5, UL2, LongT5) learn one bias per relative-position bucket per head. Open a model file to see what each head learned: model.safetensors and its config.json, or an index (model.safetensors.index.json) with all its shards. Hugging Face keeps downloaded models under ~/.cache/huggingface/hub/models--…/snapshots/…/.',
    }),
    el(doc, 'p', {
      className: 'checkpoint-private',
      textContent:
        'Nothing leaves your machine: the file is read here, in this page, and only its header and its position tables are read.',
    }),
    el(doc, 'div', { className: 'checkpoint-files' }, [el(doc, 'label', {}, ['Open a model file ', input])]),
  ]);
  container.append(section);
  let part = null;
  input.addEventListener('change', async () => {
    part ??= import('./checkpoint-section.js').then((m) => m.mountCheckpointSection(section, { training }));
    (await part).openFiles(input.files);
  });
  return {
    refresh: () => part?.then((p) => p.refresh()),
    dispose: () => part?.then((p) => p.dispose()),
  };
}
