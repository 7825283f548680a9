// The layers' import rule (docs/architecture.md), as scripts/check-imports.mjs checks it: the
// tree has no upward arrow and no circle, and the check finds each kind where there is one.
import { describe, expect, test } from 'vitest';
import { importsOf, problemsOf, webGraph } from '../../scripts/check-imports.mjs';

describe('check-imports', () => {
  test('web/ has no import upward and no circle', () => {
    const graph = webGraph();
    expect(Object.keys(graph).length).toBeGreaterThan(90);
    expect(problemsOf(graph)).toEqual([]);
  });

  test('reads static, dynamic and re-exported imports and workers by URL; not comments', () => {
    const text = [
      "import { a } from './a.js';",
      "import './side-effect.js';",
      "export { b } from '../api/b.js';",
      "const c = await import('./c.js');",
      "new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });",
      "import Inline from './inline.js?worker&inline';",
      "// import { old } from './commented.js';",
      "/* import { old } from './block.js'; */",
      "import { d } from 'd3-scale-chromatic';",
    ].join('\n');
    expect(importsOf(text)).toEqual([
      './a.js',
      './side-effect.js',
      '../api/b.js',
      './c.js',
      './worker.js',
      './inline.js',
    ]);
  });

  test('an arrow upward and a circle are each reported', () => {
    const problems = problemsOf({
      'web/figures/shared-pool.js': ['web/workers/start-pool-worker.js'],
      'web/workers/start-pool-worker.js': [],
      'web/figures/attention-figure.js': ['web/figures/figure-export.js'],
      'web/figures/figure-export.js': ['web/figures/attention-figure.js'],
      'web/views/view.js': ['web/api/index.js'],
      'web/api/index.js': [],
    });
    expect(problems).toEqual([
      'upward: web/figures/shared-pool.js (layer 3) imports web/workers/start-pool-worker.js (layer 4)',
      'circle: web/figures/attention-figure.js → web/figures/figure-export.js → web/figures/attention-figure.js',
    ]);
  });
});
