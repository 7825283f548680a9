// The published types' errors name what is wrong: tsc (strict) on calls with one mistake each,
// expecting the error at the wrong field with a message naming it, never the other schemes'
// inputs ("'relKeys' does not exist in type 'SchemeAttentionInputs…'"); and a numeric attribute
// given a word in TSX.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'relpos-type-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Each mistake on its own line, marked by the text the error must start at.
const API = `import { createRelPos } from '${ROOT}web/api/index.js';
const rp = await createRelPos();
const m64 = { rows: 2, cols: 2, data: new Float64Array(4) };
const m32 = { rows: 2, cols: 2, data: new Float32Array(4) };
rp.attention({ q: m64, k: m64, relKeys: m64 }, { outputs: ['combinedWeight'] });
rp.attention({ q: m64, k: m32, relKeys: m64 });
rp.attention({ q: m64, k: m64, relKeys: m64, v: m32 }, { outputs: ['output'] });
rp.attention({ q: m64, k: m64, relKeys: m64 }, { outputs: ['combinedWeights'] });
rp.attention({ q: m64, k: m64, position: { scheme: 'alibi', slope: 0.5 } });
rp.attention({ q: m64, k: m64, position: { scheme: 'alibi', slope: 0.5 } }, { outputs: ['combinedWeights'] });
export {};
`;
const TSX = `import '${ROOT}web/elements/index.js';
export const good = <relpos-profile width="2" asymmetry={0.4} max-distance="8" />;
export const bad = <relpos-profile width="wide" />;
`;

function errors() {
  writeFileSync(join(dir, 'api.ts'), API);
  writeFileSync(join(dir, 'elements.tsx'), TSX);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        strict: true,
        noEmit: true,
        jsx: 'preserve',
        lib: ['ES2022', 'DOM'],
        types: [],
      },
      files: ['api.ts', 'elements.tsx'],
    }),
  );
  const out = spawnSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir, '--pretty', 'false'], { encoding: 'utf8' });
  // "file(line,col): error TSxxxx: message" followed by indented lines of the same error.
  return out.stdout
    .split(/\n(?=\S)/)
    .filter(Boolean)
    .map((text) => {
      const [, file, line, col] = /^(\S+)\((\d+),(\d+)\)/.exec(text) ?? [];
      return { file, line: Number(line), col: Number(col), text };
    });
}

/** Where `needle` starts on line `line` of `source` (1-based, as tsc counts). */
const at = (source, line, needle) => source.split('\n')[line - 1].indexOf(needle) + 1;

test('each wrong field is the error, at that field, by name; right calls have none', () => {
  const found = errors();
  const api = found.filter((e) => e.file.endsWith('api.ts'));
  expect(api.map((e) => e.line)).toEqual([5, 6, 7]);
  const [output, mixed, values] = api;
  expect(output.col).toBe(at(API, 5, "'combinedWeight'"));
  expect(output.text).toMatch(
    /'"combinedWeight"' is not assignable to type 'OutputName'\. Did you mean '"combinedWeights"'\?/,
  );
  expect(mixed.col).toBe(at(API, 6, 'k: m32'));
  expect(mixed.text).toMatch(/Float32Array.*is not assignable to type.*Float64Array/s);
  expect(values.col).toBe(at(API, 7, 'v: m32'));
  for (const error of api) expect(error.text).not.toMatch(/relKeys|SchemeAttentionInputs/);
  const tsx = found.filter((e) => e.file.endsWith('elements.tsx'));
  expect(tsx.map((e) => e.line)).toEqual([3]);
  expect(tsx[0].col).toBe(at(TSX, 3, 'width'));
  expect(tsx[0].text).toMatch(/'"wide"' is not assignable to type 'NumberAttribute/);
});
