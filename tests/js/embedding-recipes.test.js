// The recipes of docs/embedding.md are the files the recipe test builds (examples/recipes/), word for word,
// and the Jupyter line is what the page's "Embed this view" writes for that view.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { jupyterSnippet } from '../../web/page/embed-code.js';
import { defaultState } from '../../web/settings/settings.js';

const EMBEDDING = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
const recipe = (path) => readFileSync(new URL(`../../examples/recipes/${path}`, import.meta.url), 'utf8').trimEnd();

test('every recipe file appears in docs/embedding.md as it is', () => {
  for (const path of [
    'vitepress/docs/.vitepress/config.mjs',
    'vitepress/docs/.vitepress/theme/index.js',
    'vitepress/docs/index.md',
    'reveal/index.html',
    'reveal/start.js',
    'mkdocs/mkdocs.yml',
    'mkdocs/docs/index.md',
    'lms/fragment.html',
  ])
    expect(EMBEDDING.includes(recipe(path)), path).toBe(true);
  expect(EMBEDDING).toContain(
    readFileSync(new URL('../../examples/iframe-resize.js', import.meta.url), 'utf8').trimEnd(),
  );
});

test('the Jupyter recipe is the page’s one-liner for its view, and in docs/embedding.md', () => {
  const notebook = JSON.parse(recipe('jupyter/relpos.ipynb'));
  const line = notebook.cells.find((cell) => cell.cell_type === 'code').source.join('');
  const state = { ...defaultState(), maxDistance: 2 };
  expect(line).toBe(jupyterSnippet(state, ['combinedWeights', 'offsets']));
  expect(EMBEDDING).toContain(line);
});
