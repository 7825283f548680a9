// Every colour variable the figures read is documented in the README's colour table, with its
// light and dark values as figure-css.js sets them.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { COLOUR_VARIABLES, figureCss } from '../../web/figures/figure-css.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

test('the README documents every --relpos-* colour variable with its light and dark values', () => {
  const css = figureCss(':root');
  const [light, dark] = css.split('@media (prefers-color-scheme: dark)');
  expect(COLOUR_VARIABLES.length).toBeGreaterThanOrEqual(13);
  for (const name of COLOUR_VARIABLES) {
    const value = (block) => new RegExp(`${name}: ([^;]+);`).exec(block)[1];
    const row = README.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    expect(row, name).toBeDefined();
    expect(row).toContain(`\`${value(light)}\``);
    expect(row).toContain(`\`${value(dark)}\``);
  }
});
