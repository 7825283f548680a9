// A build/ that came from another checkout (its CMake cache names that folder): `npm pack`'s
// prepack, which builds what is stale, and scripts/build.sh say to remove build/, instead of
// stopping on CMake's cache error. Run on a copy of the scripts in a folder of their own.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const folder = mkdtempSync(join(tmpdir(), 'relpos-stale-build-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

test('prepack and build.sh name the folder build/ came from and say to remove it', () => {
  cpSync(join(ROOT, 'scripts'), join(folder, 'scripts'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(folder, 'node_modules')); // prepack builds when the toolchain is there
  mkdirSync(join(folder, 'build/wasm'), { recursive: true });
  writeFileSync(
    join(folder, 'build/wasm/CMakeCache.txt'),
    '# For build in directory: /elsewhere/relpos/build/wasm\nCMAKE_CACHEFILE_DIR:INTERNAL=/elsewhere/relpos/build/wasm\n',
  );
  const prepack = spawnSync(process.execPath, ['scripts/prepack.mjs'], { cwd: folder, encoding: 'utf8' });
  expect(prepack.status).not.toBe(0);
  expect(prepack.stdout).toBe(''); // npm pack --json prints its report there
  expect(prepack.stderr).toContain(
    `build: build/wasm/CMakeCache.txt was made in /elsewhere/relpos/build/wasm, not in this folder (${folder}): build/ came from another checkout. Remove it (rm -rf build) and build again.`,
  );
  expect(prepack.stderr).not.toMatch(/CMake Error/);
});
