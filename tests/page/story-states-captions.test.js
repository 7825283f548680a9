// The Reveals of steps 2 and 3 say what their maps draw on the reader's own sentences, from two
// words to thirteen (Chromium, the real WASM module), on a 360 px phone at 2 device pixels per
// CSS px, where a map's cells are 9–30 px: dashed lines named only where a map has them, the
// changed cells of step 3 enclosed by one line (every edge between a changed cell and another
// cell, or the border, drawn; none between two changed cells, so each keeps its whole colour),
// and the two distances step 3 says the model no longer tells apart both in the sentence.
import { beforeAll, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { pageExample, usePage, whenDrawn } from './page-fixture.js';

const env = usePage();
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

const PHONE = { viewport: { width: 360, height: 780 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const SENTENCES = [
  'a b',
  'a b c',
  'a b c d',
  'one two three four five',
  'the cat sat on the mat',
  'the quick brown fox jumps over the lazy dog near the river bank',
];
/** The lesson's k: steps 2 and 3 compare with it whatever the page had. */
const K = 3;
/**
 * Whether a map at offset limit k has dashed lines where each row's shared run of the edge row
 * starts: some row has two or more cells at offsets k and beyond (n − k ≥ 2).
 */
const hasSharedRun = (n, k) => n - k >= 2;

/** A step's "On my sentence", pressed as a reader does (its step opened, its Reveal opened). */
async function pressOwn(page, name) {
  await page.evaluate((n) => {
    document.querySelector(`[data-story="${n}"]`).closest('details.step').open = true;
    document.querySelector(`[data-reveal="${n}"]`).closest('details.reveal').open = true;
  }, name);
  await page.click(`[data-story="${name}"][data-own="true"]`);
  await whenDrawn(page);
}

/** A reveal's caption, its sentences (with the numbers) and each map's layout once drawn for n. */
async function revealOf(page, name, n) {
  const read = () =>
    page.evaluate((step) => {
      const box = document.querySelector(`[data-figure="${step}"]`);
      return {
        caption: box.querySelector('.reveal-caption')?.textContent ?? '',
        text: `${document.querySelector(`[data-reveal="${step}"]`).textContent} ${document.querySelector(`[data-numbers="${step}"]`).textContent}`,
        maps: [...box.querySelectorAll('.reveal-map')].map((map) => ({
          key: map.dataset.key,
          layout: JSON.parse(map.querySelector('canvas').dataset.layout ?? 'null'),
        })),
      };
    }, name);
  await expect.poll(async () => (await read()).maps.every((m) => m.layout?.n === n)).toBe(true);
  return read();
}

/**
 * Where the `index`-th map of a reveal has the outline's line, read at the middle of every edge
 * between two cells and of every border edge: { i, j, side: 'right' | 'below' | 'left' | 'above',
 * line }. The line (1.5 CSS px, 3 device px, centred on the edge) covers the device pixel that
 * starts at the edge; the light theme's outline (--relpos-outline, #111114) is darker than any
 * colour of the diverging scale.
 */
function edgesOf(page, name, index) {
  return page.$$eval(
    `[data-figure="${name}"] .reveal-map canvas`,
    (canvases, i) => {
      const canvas = canvases[i];
      const { x0, y0, cell, n } = JSON.parse(canvas.dataset.layout);
      const ratio = canvas.width / canvas.getBoundingClientRect().width;
      const context = canvas.getContext('2d');
      const dark = (x, y) => {
        const rgb = context.getImageData(Math.floor(x * ratio), Math.floor(y * ratio), 1, 1).data;
        return [17, 17, 20].every((v, c) => Math.abs(rgb[c] - v) <= 30);
      };
      const edges = [];
      for (let row = 0; row < n; row += 1)
        for (let col = 0; col < n; col += 1) {
          const [left, top, mid, middle] = [
            x0 + col * cell,
            y0 + row * cell,
            x0 + (col + 0.5) * cell,
            y0 + (row + 0.5) * cell,
          ];
          edges.push({ i: row, j: col, side: 'right', line: dark(left + cell, middle) });
          edges.push({ i: row, j: col, side: 'below', line: dark(mid, top + cell) });
          if (col === 0) edges.push({ i: row, j: col, side: 'left', line: dark(left, middle) });
          if (row === 0) edges.push({ i: row, j: col, side: 'above', line: dark(mid, top) });
        }
      return edges;
    },
    index,
  );
}

test('steps 2 and 3 on the reader’s sentences of 2 to 13 words: captions name only the lines drawn, one line encloses the changed cells, the distances named are the sentence’s', async () => {
  const { page, context, problems } = await env.open('', PHONE);
  for (const tokens of SENTENCES) {
    const n = tokens.split(' ').length;
    await page.fill('#tokens', tokens);
    await whenDrawn(page);

    // Step 2: both maps at the lesson's k; dashed lines drawn, and named, where a row has a shared run.
    await pressOwn(page, 'same-query');
    const two = await revealOf(page, 'same-query', n);
    for (const { key, layout } of two.maps)
      expect(layout.bandEdgeLines > 0, `${tokens}: step 2, ${key}`).toBe(hasSharedRun(n, K));
    expect(two.caption.includes('dashed lines'), `${tokens}: step 2's caption`).toBe(hasSharedRun(n, K));

    // Step 3: the cells of panel 2 that k = 1 changes, from the API.
    await pressOwn(page, 'clip');
    const three = await revealOf(page, 'clip', n);
    const before = pageExample(rp, { tokens, maxDistance: K }).positionBiases.data;
    const after = pageExample(rp, { tokens, maxDistance: 1 }).positionBiases.data;
    const changed = new Set();
    before.forEach((v, c) => v !== after[c] && changed.add(c));
    expect(changed.size > 0, tokens).toBe(n >= 3); // cells at |j − i| ≥ 2 read a^K[±1] now
    const [k3, k1] = three.maps;
    expect(k3.layout.bandEdgeLines > 0, `${tokens}: step 3, k = 3`).toBe(hasSharedRun(n, K));
    expect(k1.layout.bandEdgeLines > 0, `${tokens}: step 3, k = 1`).toBe(hasSharedRun(n, 1));
    expect(three.caption.includes('Dashed lines'), `${tokens}: step 3's caption`).toBe(
      hasSharedRun(n, K) || hasSharedRun(n, 1),
    );
    expect(three.caption.includes('a solid line encloses the cells that changed'), tokens).toBe(changed.size > 0);
    // The k = 1 map: a line on every edge between a changed cell and another (or the border), none
    // between two changed cells; edges between two unchanged cells are the dashed lines' (not read).
    const inSet = (i, j) => i >= 0 && j >= 0 && i < n && j < n && changed.has(i * n + j);
    const across = { right: [0, 1], below: [1, 0], left: [0, -1], above: [-1, 0] };
    for (const { i, j, side, line } of await edgesOf(page, 'clip', 1)) {
      const [di, dj] = across[side];
      const [here, there] = [inSet(i, j), inSet(i + di, j + dj)];
      if (!here && !there) continue;
      expect(line, `${tokens}: the edge ${side} of (${i}, ${j})`).toBe(here !== there);
    }
    // Two distances k = 1 no longer tells apart, both within the sentence (at most n − 1 places).
    if (changed.size) {
      const named = three.text.match(
        /can no longer tell a word (?:(\d+) places away|next to the query) from one (\d+) places away\./,
      );
      expect(named, tokens).not.toBeNull();
      const [near, far] = [Number(named[1] ?? 1), Number(named[2])];
      expect(near, tokens).toBeLessThan(far);
      expect(far, tokens).toBeLessThanOrEqual(n - 1);
      expect(near, tokens).toBeGreaterThanOrEqual(1); // at k = 1 every offset from 1 on reads a^K[±1]
    } else expect(three.text).toContain(`With ${n} words no offset |j − i| is larger than 1: nothing is clipped.`);
  }
  expect(problems).toEqual([]);
  await context.close();
});
