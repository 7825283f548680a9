// dispose() lets go of the instance: an app that keeps its disposed instances and models (four
// instances that each grew to 128 MiB) keeps the memory of none of them once the garbage
// collector runs (a Node process of its own, under --expose-gc, measured by its resident size).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

test('disposed instances and models kept by the app hold no WebAssembly memory', () => {
  const script = fileURLToPath(new URL('./scripts/disposed-models-memory.mjs', import.meta.url));
  const { before, after, kept } = JSON.parse(
    execFileSync(process.execPath, ['--expose-gc', script, '4'], { encoding: 'utf8' }),
  );
  expect(kept).toBe(8);
  // Four instances of more than 128 MiB each would be over 512 MiB; one instance's worth is allowed.
  expect(after - before).toBeLessThan(160);
});
