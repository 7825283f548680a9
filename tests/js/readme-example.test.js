// The README's "Use from JavaScript" example, run as a user would run it: as an ES module
// that imports 'relpos-wasm' by name.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from 'vitest';

test('the README example runs and its comments are true', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const example = readme.match(/## The API in one screen\s+```js\n([\s\S]*?)```/)[1];
  const probe = `
console.log(JSON.stringify({
  randn: Array.from(rp.randn(42, 5)),
  offsetsRow0: Array.from(rp.relativeOffsets(4, 2).data.slice(0, 4)),
  keys: Object.keys(result),
  maxDistance: result.maxDistance,
  outputShape: [result.output.rows, result.output.cols],
  profileLength: profile.length,
  offsets: Array.from(offsets),
  exampleRows: ex.contentScores.rows,
}));`;
  const folder = new URL('../artifacts/', import.meta.url);
  mkdirSync(folder, { recursive: true });
  const file = new URL('readme-example.mjs', folder);
  writeFileSync(file, example + probe);
  const printed = JSON.parse(execFileSync(process.execPath, [file.pathname], { encoding: 'utf8' }));
  expect(printed.randn.map((x) => x.toFixed(4))).toEqual(['0.4967', '-0.1383', '0.6477', '1.5230', '-0.2342']);
  expect(printed.offsetsRow0).toEqual([0, 1, 2, 2]);
  expect(printed.keys).toEqual([
    'maxDistance',
    'contentScores',
    'positionBiases',
    'combinedScores',
    'contentWeights',
    'combinedWeights',
    'output',
  ]);
  expect(printed.maxDistance).toBe(2);
  expect(printed.outputShape).toEqual([6, 4]);
  expect(printed.offsets).toEqual([-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5]);
  expect(printed.profileLength).toBe(11);
  expect(printed.exampleRows).toBe(6);
});
