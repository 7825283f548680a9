// Every colour variable the figures read is documented in docs/embedding.md's colour table, with its
// light and dark values as figure-css.js sets them.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { COLOUR_VARIABLES, figureCss } from '../../web/figures/figure-css.js';

const EMBEDDING = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');

test('docs/embedding.md documents every --relpos-* colour variable with its light and dark values', () => {
  const css = figureCss(':root');
  const [light, dark] = css.split('@media (prefers-color-scheme: dark)');
  expect(COLOUR_VARIABLES.length).toBeGreaterThanOrEqual(13);
  for (const name of COLOUR_VARIABLES) {
    const value = (block) => new RegExp(`${name}: ([^;]+);`).exec(block)[1];
    const row = EMBEDDING.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    expect(row, name).toBeDefined();
    expect(row).toContain(`\`${value(light)}\``);
    expect(row).toContain(`\`${value(dark)}\``);
  }
});
