// The layers' rule, checked (docs/architecture.md): every import in web/ (static, dynamic,
// workers started by URL) points to the same layer or one below, and no files import each other
// in a circle. Prints each upward arrow and each circle and exits 1; `node scripts/check-imports.mjs`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/** Each folder of web/ and its layer: a file may import its own layer's files and lower ones. */
export const LAYERS = {
  api: 0,
  render: 0,
  files: 0,
  settings: 1,
  views: 2,
  figures: 3,
  workers: 4,
  train: 4,
  elements: 5,
  page: 5,
};

// import … from '…', import('…'), export … from '…', new URL('…', import.meta.url).
const SPECIFIER = /(?:\bimport\s*\(\s*|\bfrom\s*|\bimport\s+|new URL\(\s*)(['"])(\.{1,2}\/[^'"?]+)(?:\?[^'"]*)?\1/g;

/** Every import of a file's text that names a relative path: [spec]. */
export function importsOf(text) {
  // Comments are not imports.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  return [...code.matchAll(SPECIFIER)].map((match) => match[2]);
}

const layerOf = (file) => {
  const [top, folder] = file.split('/');
  return top === 'web' ? (LAYERS[folder] ?? null) : null;
};

/** The problems of a graph { file: [imported file] }: upward arrows and circles, as lines. */
export function problemsOf(graph) {
  const problems = [];
  for (const [file, targets] of Object.entries(graph)) {
    for (const target of targets) {
      const from = layerOf(file);
      const to = layerOf(target);
      if (from === null || to === null) continue;
      if (to > from) problems.push(`upward: ${file} (layer ${from}) imports ${target} (layer ${to})`);
    }
  }
  // Circles: a depth-first search; a file met again while still on the path closes one.
  const state = new Map(); // file -> 1 on the path, 2 done
  const path = [];
  const visit = (file) => {
    state.set(file, 1);
    path.push(file);
    for (const target of graph[file] ?? []) {
      if (state.get(target) === 1)
        problems.push(`circle: ${[...path.slice(path.indexOf(target)), target].join(' → ')}`);
      else if (!state.has(target)) visit(target);
    }
    path.pop();
    state.set(file, 2);
  };
  for (const file of Object.keys(graph).sort()) if (!state.has(file)) visit(file);
  return problems;
}

/** The import graph of every .js file under web/: { 'web/…': ['web/…', …] }. */
export function webGraph(root = ROOT) {
  const graph = {};
  const walk = (folder) => {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) {
        const text = readFileSync(join(root, path), 'utf8');
        graph[path] = importsOf(text)
          .map((spec) => relative(root, resolve(root, dirname(path), spec)))
          .filter((target) => target.startsWith('web/'));
      }
    }
  };
  walk('web');
  return graph;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const graph = webGraph();
  const problems = problemsOf(graph);
  const arrows = Object.values(graph).reduce((sum, targets) => sum + targets.length, 0);
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    console.error(`check-imports: ${problems.length} problem(s) in ${arrows} imports of web/`);
    process.exit(1);
  }
  console.log(`check-imports: ${arrows} imports of ${Object.keys(graph).length} files in web/: none upward, no circle`);
}
