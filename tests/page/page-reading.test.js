// Reading values: the tooltip on hover and on keyboard focus, the aria-live readout, the
// same-offset highlight across panels, and exports that carry the API's numbers.
import { downloadedBytes } from './browser.js';
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { canvasHash, layoutOf, pageExample, pixelAt, significant, usePage, whenDrawn } from './page-fixture.js';
import { MIN_LABELLED_CELL } from '../../web/render/heatmap.js';

const env = usePage();
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

const TOKENS = ['the', 'cat', 'sat', 'on', 'the', 'mat'];

async function hoverCell(page, panel, i, j) {
  const layout = await layoutOf(page, panel);
  const canvas = await page.$(`#figure-${panel} canvas`);
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + layout.x0 + (j + 0.5) * layout.cell, box.y + layout.y0 + (i + 0.5) * layout.cell);
}

/**
 * content + bias = combined as a reader checks it by hand: the three to the fewest decimals, from
 * 2, at which the rounded terms add up to the rounded sum; a minus sign (U+2212), no −0.
 */
function addingUp(content, bias, combined) {
  const text = (v, d) =>
    v
      .toFixed(d)
      .replace(/^-(0\.0*)$/, '$1')
      .replace('-', '−');
  for (let d = 2; ; d += 1) {
    const units = [content, bias, combined].map((v) => Math.round(Number(v.toFixed(d)) * 10 ** d));
    if (units[0] + units[1] === units[2] || d === 9)
      return `${text(content, d)} ${bias < 0 ? '−' : '+'} ${text(Math.abs(bias), d)} = ${text(combined, d)}`;
  }
}

const tooltipRows = (page) =>
  page.$$eval('.relpos-tooltip div', (rows) =>
    rows.map((row) => [row.children[0].textContent, row.children[1].textContent]),
  );

/** The cell the tooltip reads: [i, j] from its "(i, j)" row. */
const tooltipCell = async (page) =>
  JSON.parse(
    (await tooltipRows(page))
      .find(([name]) => name === '(i, j)')[1]
      .replace('(', '[')
      .replace(')', ']'),
  );

/**
 * Records the numbers panel 7 prints (centred in their cells) as it draws them, in
 * window.tablesNumbers: { text, x, y (its centre), width (at the font drawn) }; each draw starts
 * with a clear, which empties the list.
 */
const recordTablesNumbers = (page) =>
  page.evaluate(() => {
    const proto = CanvasRenderingContext2D.prototype;
    const { clearRect, fillText } = proto;
    proto.clearRect = function (...args) {
      if (this.canvas.id === 'tables-canvas') window.tablesNumbers = [];
      return clearRect.apply(this, args);
    };
    proto.fillText = function (text, x, y, ...rest) {
      if (this.canvas.id === 'tables-canvas' && this.textAlign === 'center')
        window.tablesNumbers.push({ text, x, y, width: this.measureText(text).width });
      return fillText.call(this, text, x, y, ...rest);
    };
  });

describe('reading a cell', () => {
  test('hover shows (i, j), both tokens, the offset, the value to three significant digits and how it adds up', async () => {
    const { page, context, problems } = await env.open('', { viewport: { width: 1280, height: 900 } });
    const ex = pageExample(rp);
    await hoverCell(page, 'positionBiases', 2, 4);
    expect(await page.isVisible('.relpos-tooltip')).toBe(true);
    const at = 2 * 6 + 4;
    const bias = ex.positionBiases.data[at];
    const row = Array.from(ex.positionBiases.data.slice(12, 18));
    const rowMax = Math.max(...row);
    const rowMaxAt = row.indexOf(rowMax);
    const words = 'the cat sat on the mat'.split(' ');
    expect(await tooltipRows(page)).toEqual([
      ['Position biases', significant(bias)],
      ['(i, j)', '(2, 4)'],
      ['query → key', 'sat → the'],
      ['offset j − i', '2'],
      ['clipped offset', '2'],
      ['content + bias = combined', addingUp(ex.contentScores.data[at], bias, ex.combinedScores.data[at])],
      [
        'weight: content only → combined',
        `${significant(ex.contentWeights.data[at])} → ${significant(ex.combinedWeights.data[at])}`,
      ],
      // A positive bias, yet a smaller weight: the row's largest bias is elsewhere.
      ...(bias > 0 && ex.combinedWeights.data[at] < ex.contentWeights.data[at]
        ? [
            [
              'why it fell',
              `the row’s other keys got larger biases (the largest: ${significant(rowMax)} at key ${rowMaxAt} “${words[rowMaxAt]}”); each row’s weights sum to 1`,
            ],
          ]
        : []),
    ]);
    expect(bias > 0 && ex.combinedWeights.data[at] < ex.contentWeights.data[at]).toBe(true); // this cell is such a case
    // The breakdown adds up by hand, exactly as written, in every cell: the three numbers to the
    // same decimals, each its value to those decimals.
    for (let i = 0; i < 6; i += 1) {
      for (let j = 0; j < 6; j += 1) {
        await hoverCell(page, 'positionBiases', i, j);
        const text = (await tooltipRows(page)).find(([name]) => name === 'content + bias = combined')[1];
        const [content, sign, term, , combined] = text.replaceAll('−', '-').split(' ');
        const decimals = (content.split('.')[1] ?? '').length;
        expect(
          [term, combined].map((x) => (x.split('.')[1] ?? '').length),
          text,
        ).toEqual([decimals, decimals]);
        const units = [content, term, combined].map((x) => Math.round(Number(x) * 10 ** decimals));
        expect(units[0] + (sign === '-' ? -units[1] : units[1]), `(${i}, ${j}): ${text}`).toBe(units[2]);
        const c = i * 6 + j;
        expect(Number(content)).toBeCloseTo(ex.contentScores.data[c], decimals);
        expect(Number(combined)).toBeCloseTo(ex.combinedScores.data[c], decimals);
      }
    }
    await hoverCell(page, 'combinedWeights', 5, 0);
    expect((await tooltipRows(page))[0]).toEqual(['Combined weights', significant(ex.combinedWeights.data[30])]);
    expect((await tooltipRows(page)).slice(3, 5)).toEqual([
      ['offset j − i', '−5'],
      ['clipped offset', '−3'],
    ]);
    await page.mouse.move(2, 2);
    expect(await page.isVisible('.relpos-tooltip')).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('keyboard: focus a panel, move with the arrows, hear it in the live region', async () => {
    const { page, context } = await env.open('', { viewport: { width: 1280, height: 900 } });
    const ex = pageExample(rp);
    await page.focus('#figure-contentWeights .relpos-canvas-wrap');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    const value = significant(ex.contentWeights.data[1 * 6 + 2]);
    expect(await page.textContent('.relpos-visually-hidden[aria-live]')).toBe(
      `Content-only weights, row 1 “cat”, column 2 “sat”: offset 1, clipped 1, value ${value}.`,
    );
    expect((await tooltipRows(page)).slice(0, 5)).toEqual([
      ['Content-only weights', value],
      ['(i, j)', '(1, 2)'],
      ['query → key', 'cat → sat'],
      ['offset j − i', '1'],
      ['clipped offset', '1'],
    ]);
    expect(await page.getAttribute('.relpos-visually-hidden[aria-live]', 'aria-live')).toBe('polite');
    for (let step = 0; step < 10; step += 1) await page.keyboard.press('ArrowLeft'); // stops at the edge
    expect(await page.textContent('.relpos-visually-hidden[aria-live]')).toContain('column 0 “the”');
    await page.fill('#seqLen', '8'); // past the sentence's six words: positions, not words
    await whenDrawn(page);
    await page.focus('#figure-contentWeights .relpos-canvas-wrap');
    for (let step = 0; step < 7; step += 1) await page.keyboard.press('ArrowDown');
    expect(await page.textContent('.relpos-visually-hidden[aria-live]')).toContain('row 7 “#7”');
    await page.keyboard.press('Escape');
    expect(await page.isVisible('.relpos-tooltip')).toBe(false);
    await context.close();
  });

  test('with the causal mask, hidden keys read "masked"', async () => {
    const { page, context } = await env.open('?causal=1', { viewport: { width: 1280, height: 900 } });
    await hoverCell(page, 'combinedWeights', 1, 4);
    expect((await tooltipRows(page))[0]).toEqual(['Combined weights', 'masked (j > i)']);
    await hoverCell(page, 'contentScores', 1, 4); // scores are not masked
    expect((await tooltipRows(page))[0][1]).toMatch(/^−?\d+(\.\d+)?$/);
    await context.close();
  });

  test('panel 7’s printed numbers never run into their neighbours (a half-width card at 1024 px, and 1280 px): smaller type where the widest needs it', async () => {
    for (const width of [1024, 1280]) {
      const { page, context, problems } = await env.open('?more=1', { viewport: { width, height: 900 } });
      await recordTablesNumbers(page);
      await hoverCell(page, 'combinedWeights', 0, 3);
      const drawn = await page.evaluate(() => window.tablesNumbers);
      expect(drawn.length, String(width)).toBeGreaterThan(40);
      const rows = new Map();
      for (const text of drawn) rows.set(Math.round(text.y), [...(rows.get(Math.round(text.y)) ?? []), text]);
      for (const row of rows.values()) {
        const sorted = row.sort((a, b) => a.x - b.x);
        for (let at = 1; at < sorted.length; at += 1) {
          const [left, right] = [sorted[at - 1], sorted[at]];
          const gap = right.x - right.width / 2 - (left.x + left.width / 2);
          expect(gap, `${width} px: ${left.text} then ${right.text}`).toBeGreaterThanOrEqual(3);
        }
      }
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  test('panel 7’s output split adds up by hand: each element’s two parts and their sum to the same decimals, the API’s numbers', async () => {
    const { page, context, problems } = await env.open('', { viewport: { width: 1280, height: 900 } });
    await recordTablesNumbers(page);
    const ex = pageExample(rp);
    const { v, relValues } = ex.inputs;
    const [n, k, dK, dV] = [6, 3, ex.inputs.q.cols, v.cols];
    const decimalsOf = (text) => (text.split('.')[1] ?? '').length;
    const number = (text) => Number(text.replace('−', '-'));
    for (const [i, j] of [
      [0, 0],
      [2, 4],
      [5, 1],
      [3, 3],
    ]) {
      await hoverCell(page, 'combinedWeights', i, j);
      const shown = await page.evaluate(() => window.tablesNumbers.map(({ text }) => text));
      // After q_i, k_j (d_k each) and aᴷ ((2k + 1) × d_k): the part from the values, from the positions, the output.
      const first = 2 * dK + (2 * k + 1) * dK;
      const [fromValues, fromPositions, output] = [0, 1, 2].map((b) =>
        shown.slice(first + b * dV, first + (b + 1) * dV),
      );
      for (let d = 0; d < dV; d += 1) {
        // z_i = Σ_j w_ij v_j + Σ_j w_ij aⱽ[clip(j − i, ±k)], from the API's weights and tables.
        let values = 0;
        let positions = 0;
        for (let key = 0; key < n; key += 1) {
          const w = ex.combinedWeights.data[i * n + key];
          values += w * v.data[key * dV + d];
          positions += w * relValues.data[(Math.min(k, Math.max(-k, key - i)) + k) * dV + d];
        }
        const texts = [fromValues[d], fromPositions[d], output[d]];
        const where = `cell (${i}, ${j}), element ${d}: ${texts.join(' + ')}`;
        const decimals = decimalsOf(texts[0]);
        expect(decimals, where).toBeGreaterThanOrEqual(2);
        expect(texts.map(decimalsOf), where).toEqual([decimals, decimals, decimals]);
        // Each is its number to those decimals, and the two parts add up to the sum as written.
        [values, positions, ex.output.data[i * dV + d]].forEach((value, at) =>
          expect(number(texts[at]), where).toBeCloseTo(value, decimals),
        );
        const units = texts.map((text) => Math.round(number(text) * 10 ** decimals));
        expect(units[0] + units[1], where).toBe(units[2]);
      }
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  test('every cell with the same clipped offset lights up in every panel, and the profile point too', async () => {
    const { page, context } = await env.open('?n=8&k=2', { viewport: { width: 1280, height: 900 } });
    const profileBefore = await canvasHash(page, '#profile-canvas');
    await hoverCell(page, 'contentScores', 1, 6); // offset 5, clipped to 2
    const outline = [17, 17, 20]; // --outline, light theme
    const edge = async (panel, i, j) => {
      const l = await layoutOf(page, panel);
      return pixelAt(page, `#figure-${panel} canvas`, l.x0 + j * l.cell + 1, l.y0 + (i + 0.5) * l.cell);
    };
    for (const panel of ['positionBiases', 'offsets', 'difference']) {
      expect(await edge(panel, 0, 2), `${panel} (0, 2): offset 2`).toEqual(outline);
      expect(await edge(panel, 0, 7), `${panel} (0, 7): offset 7 -> 2`).toEqual(outline);
      expect(await edge(panel, 5, 7), `${panel} (5, 7): offset 2`).toEqual(outline);
      expect(await edge(panel, 0, 1), `${panel} (0, 1): offset 1`).not.toEqual(outline);
      expect(await edge(panel, 3, 1), `${panel} (3, 1): offset -2`).not.toEqual(outline);
    }
    expect(await canvasHash(page, '#profile-canvas')).not.toBe(profileBefore);
    await page.mouse.move(2, 2);
    expect(await canvasHash(page, '#profile-canvas')).toBe(profileBefore);
    await context.close();
  });
});

describe('exports', () => {
  test('CSV, JSON and PNG carry the numbers on screen', async () => {
    const { page, context } = await env.open('?seed=5', { acceptDownloads: true });
    const ex = pageExample(rp, { seed: 5 });
    // The schemes section above the exports is drawn when it nears the view, and grows by about
    // 2 600 px: drawn before the clicks, so that no click lands where a button was a moment before.
    await page.$eval('#export-csv', (button) => button.scrollIntoView({ block: 'center' }));
    await page.waitForSelector('#schemes-section[data-drawn]');
    const save = async (selector) => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
      return { name: file.suggestedFilename(), bytes: await downloadedBytes(file) };
    };
    const csv = await save('#export-csv');
    expect(csv.name).toBe('relpos-matrices.csv');
    const all = csv.bytes.toString('utf8').trim().split('\n');
    // Two "#" lines state the settings (a spreadsheet or pandas with comment='#' skips them).
    expect(all[0]).toMatch(/^# relpos matrices; settings: draw=stable, table=locality, .*seed=5/);
    expect(all[1]).toBe('# link query: ?seed=5');
    const lines = all.slice(2);
    expect(lines[0]).toBe('panel,i,j,query_token,key_token,offset,clipped_offset,value');
    expect(lines).toHaveLength(1 + 6 * 36);
    expect(lines).toContain(`combinedWeights,2,5,sat,mat,3,3,${ex.combinedWeights.data[2 * 6 + 5]}`);
    expect(lines).toContain(`offsets,5,0,mat,the,-5,-3,-3`);

    const json = JSON.parse((await save('#export-json')).bytes.toString('utf8'));
    expect(json.tokens).toEqual(TOKENS);
    expect(json.panels.positionBiases.data).toEqual(Array.from(ex.positionBiases.data));
    expect(json.output.data).toEqual(Array.from(ex.output.data));
    expect(json.settings.seed).toBe(5);

    const png = await save('#figure-combinedWeights button[data-png]');
    expect(png.name).toBe('relpos-combinedWeights.png');
    expect(png.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // 2× (the default) the panel's CSS width, whatever the screen's pixel density.
    const width = await page.$eval('#figure-combinedWeights canvas', (canvas) => parseFloat(canvas.style.width));
    expect(png.bytes.readUInt32BE(16)).toBe(2 * width);
    const profile = await save('#figure-profile button');
    expect(profile.name).toBe('relpos-profile.png');
    // As drawn, on the panel's opaque background, its title and caption above (the canvas alone
    // was transparent: dark axis text on a dark slide vanished).
    const canvasSize = await page.$eval('#profile-canvas', (canvas) => [canvas.width, canvas.height]);
    expect(profile.bytes.readUInt32BE(16)).toBe(canvasSize[0]);
    expect(profile.bytes.readUInt32BE(20)).toBeGreaterThan(canvasSize[1] + 40);
    const pixels = await page.evaluate(async (bytes) => {
      const image = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }));
      const g = new OffscreenCanvas(image.width, image.height).getContext('2d');
      g.drawImage(image, 0, 0);
      const alpha = g.getImageData(0, 0, image.width, image.height).data.filter((_, at) => at % 4 === 3);
      // The title's ink: dark pixels in the first 24 rows.
      const top = g.getImageData(0, 0, image.width, 24).data;
      let ink = 0;
      for (let at = 0; at < top.length; at += 4) if (top[at] + top[at + 1] + top[at + 2] < 300) ink += 1;
      return { transparent: alpha.filter((a) => a < 255).length, ink };
    }, Array.from(profile.bytes));
    expect(pixels.transparent).toBe(0);
    expect(pixels.ink).toBeGreaterThan(20);
    await context.close();
  });
});

describe('the address', () => {
  test('keeps what the exports section says it keeps: a reload of it shows the same inputs, schemes and panels', async () => {
    const { page, context, problems } = await env.open('', { closedPanels: true });
    const claim = await page.textContent('section.export p');
    expect(claim).toContain(
      'The URL of this page keeps the inputs, the position schemes chosen, whether “More panels” is open, and the training section’s task, model size and seed',
    );
    // The inputs (k and the sentence), a scheme left out, "More panels" opened, as a reader does.
    await page.fill('#tokens', 'my dog ate the homework');
    await page.$eval('#maxDistance', (input) => {
      input.value = '2';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.click('#scheme-pick-alibi');
    await page.click('#more-panels > summary');
    await whenDrawn(page);
    const shown = async (p) => ({
      state: await p.evaluate(() => window.relposPage.state()),
      schemes: await p.$$eval('#schemes-picker input:checked', (boxes) => boxes.map((b) => b.value)),
      more: await p.$eval('#more-panels', (d) => d.open),
    });
    const before = await shown(page);
    expect(before.state).toMatchObject({ tokens: 'my dog ate the homework', maxDistance: 2, seqLen: 5 });
    expect(before.schemes).not.toContain('alibi');
    expect(before.more).toBe(true);
    await expect.poll(() => new URL(page.url()).search).toContain('more=1');
    const link = new URL(page.url()).search;
    await env.load(page, link, { closedPanels: true });
    expect(await shown(page)).toEqual(before);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the tooltip keeps the figure readable', () => {
  test('at 1280 px, a cell of the top rows shows its tooltip below it and to its left: never over its panel’s title, never over its own offset’s cells', async () => {
    const { page, context, problems } = await env.open('', { viewport: { width: 1280, height: 800 } });
    for (const [panel, i, j] of [
      ['contentWeights', 0, 3],
      ['combinedWeights', 1, 5],
      ['positionBiases', 0, 4],
    ]) {
      await hoverCell(page, panel, i, j);
      await expect.poll(() => page.isVisible('.relpos-tooltip')).toBe(true);
      const tip = await page.$eval('.relpos-tooltip', (t) => t.getBoundingClientRect().toJSON());
      const title = await page.$eval(`#figure-${panel} h2`, (h) => h.getBoundingClientRect().toJSON());
      const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      expect(overlaps(tip, title), `${panel} (${i}, ${j})`).toBe(false);
      // No cell of the hovered cell's offset (down-right along its diagonal) under the tooltip.
      const layout = await layoutOf(page, panel);
      const canvas = await page.$eval(`#figure-${panel} canvas`, (c) => c.getBoundingClientRect().toJSON());
      for (let step = 1; i + step < 6 && j + step < 6; step += 1) {
        const x = canvas.left + layout.x0 + (j + step + 0.5) * layout.cell;
        const y = canvas.top + layout.y0 + (i + step + 0.5) * layout.cell;
        const inside = x > tip.left && x < tip.right && y > tip.top && y < tip.bottom;
        expect(inside, `${panel} (${i + step}, ${j + step})`).toBe(false);
      }
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the keyboard’s tooltip on a phone', () => {
  for (const width of [320, 360, 390]) {
    test(`at ${width} px, reading cells from the keyboard: the tooltip never hides the panel’s title, its column labels or the cell it reads, and holds its values whole`, async () => {
      const phone = { viewport: { width, height: 780 }, isMobile: true, hasTouch: true };
      const { page, context, problems } = await env.open('', phone);
      const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      for (const panel of ['contentWeights', 'positionBiases']) {
        await page.focus(`#figure-${panel} .relpos-canvas-wrap`);
        // To cell (0, 0) (a panel resumes from the cell read last), then down the first column to
        // the last row, then right along it.
        const moves = [
          ...Array(5).fill('ArrowUp'),
          'Home',
          ...Array(5).fill('ArrowDown'),
          ...Array(5).fill('ArrowRight'),
        ];
        for (const key of moves) {
          await page.keyboard.press(key);
          const [i, j] = await tooltipCell(page);
          const where = `${panel} (${i}, ${j})`;
          const layout = await layoutOf(page, panel);
          const boxes = await page.evaluate((id) => {
            const rect = (el) => el.getBoundingClientRect().toJSON();
            return {
              tip: rect(document.querySelector('.relpos-tooltip')),
              title: rect(document.querySelector(`#figure-${id} h2`)),
              canvas: rect(document.querySelector(`#figure-${id} canvas`)),
            };
          }, panel);
          const { tip, title, canvas } = boxes;
          const labels = { left: canvas.left, right: canvas.right, top: canvas.top, bottom: canvas.top + layout.y0 };
          const cellAt = (r, c) => ({
            left: canvas.left + layout.x0 + c * layout.cell,
            right: canvas.left + layout.x0 + (c + 1) * layout.cell,
            top: canvas.top + layout.y0 + r * layout.cell,
            bottom: canvas.top + layout.y0 + (r + 1) * layout.cell,
          });
          expect(tip.top, where).toBeGreaterThanOrEqual(0);
          expect(tip.bottom, where).toBeLessThanOrEqual(780);
          expect(overlap(tip, cellAt(i, j)), `${where}: the cell`).toBe(false);
          // The title, where it is on screen (the page scrolls the panel into view), whenever the
          // window has room for the tooltip under the cell (else it goes above the cell); row 0's
          // tooltip leaves the column labels too.
          const room = cellAt(i, j).bottom + 4 + tip.height <= 780 - 8;
          if (room && title.bottom > 0) expect(overlap(tip, title), `${where}: the title`).toBe(false);
          if (i === 0) expect(room, where).toBe(true);
          if (i === 0) expect(overlap(tip, labels), `${where}: the column labels`).toBe(false);
          // A value wraps between words, never inside a number (0.000439, not 0.00043 and 9).
          const split = await page.$$eval('.relpos-tooltip .relpos-tip-value', (values) =>
            values
              .flatMap((value) => {
                const text = value.firstChild;
                return [...text.data.matchAll(/[−-]?\d[\d.]*/g)].filter((match) => {
                  const range = document.createRange();
                  range.setStart(text, match.index);
                  range.setEnd(text, match.index + match[0].length);
                  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
                });
              })
              .map((match) => match[0]),
          );
          expect(split, where).toEqual([]);
          // Every value inside the box (at 320 px the labels wrap to leave them room).
          const outside = await page.$$eval('.relpos-tooltip .relpos-tip-value', (values) => {
            const box = values[0].closest('.relpos-tooltip').getBoundingClientRect();
            return values.filter((value) => value.getBoundingClientRect().right > box.right).map((v) => v.textContent);
          });
          expect(outside, where).toEqual([]);
          // A sentence ("why it fell") goes under its label: no label squeezed to a word a line.
          const squeezed = await page.$$eval('.relpos-tooltip .relpos-tip-label', (names) =>
            names
              .filter((label) => {
                const range = document.createRange();
                range.selectNodeContents(label);
                return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 2;
              })
              .map((label) => label.textContent),
          );
          expect(squeezed, where).toEqual([]);
        }
      }
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});

describe('the keyboard’s tooltip on a wide screen', () => {
  test('at 1280 px with cells of 60 px or more (n = 3), the panel at the window’s top: the tooltip goes below a cell with no room above it, and covers no cell it reads', async () => {
    const { page, context, problems } = await env.open('?n=3', { viewport: { width: 1280, height: 800 } });
    const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const panel = 'combinedWeights';
    const layout = await layoutOf(page, panel);
    expect(layout.cell, 'a big cell').toBeGreaterThanOrEqual(60);
    await page.focus(`#figure-${panel} .relpos-canvas-wrap`);
    // The canvas at the window's top: row 0 has no room for the tooltip above it.
    await page.$eval(`#figure-${panel} canvas`, (canvas) => window.scrollBy(0, canvas.getBoundingClientRect().top - 2));
    let below = 0;
    for (const key of [
      'ArrowUp',
      'ArrowUp',
      'Home',
      'ArrowRight',
      'ArrowRight',
      'ArrowDown',
      'ArrowLeft',
      'ArrowDown',
    ]) {
      await page.keyboard.press(key);
      const [i, j] = await tooltipCell(page);
      const { tip, canvas } = await page.evaluate((id) => {
        const rect = (el) => el.getBoundingClientRect().toJSON();
        return {
          tip: rect(document.querySelector('.relpos-tooltip')),
          canvas: rect(document.querySelector(`#figure-${id} canvas`)),
        };
      }, panel);
      const cell = {
        left: canvas.left + layout.x0 + j * layout.cell,
        right: canvas.left + layout.x0 + (j + 1) * layout.cell,
        top: canvas.top + layout.y0 + i * layout.cell,
        bottom: canvas.top + layout.y0 + (i + 1) * layout.cell,
      };
      expect(overlap(tip, cell), `(${i}, ${j}): the cell`).toBe(false);
      if (tip.top >= cell.bottom) below += 1;
    }
    expect(below, 'the tooltips placed below their cell').toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('axis labels on a phone', () => {
  const LONG = 'my grandmother always told me stories about the old house by the river';
  const PANELS_SHOWN = ['contentScores', 'positionBiases', 'contentWeights', 'combinedWeights'];

  test('a sentence too long for its words at 360 px: the panels label every position, with cells tall enough, and give the matrix the room; the tooltip still names the words', async () => {
    const phone = { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true };
    const { page, context, problems } = await env.open(`?tokens=${LONG.replaceAll(' ', '+')}`, phone);
    const words = LONG.split(' ');
    for (const panel of PANELS_SHOWN) {
      const layout = await layoutOf(page, panel);
      expect(layout.n, panel).toBe(words.length);
      expect(layout.axisLabels, panel).toBe('positions');
      expect(layout.cell, panel).toBeGreaterThanOrEqual(MIN_LABELLED_CELL); // every position labelled
      const width = await page.$eval(`#figure-${panel} canvas`, (c) => c.getBoundingClientRect().width);
      expect(layout.cell * layout.n, panel).toBeGreaterThan(0.7 * width); // the room the words would have taken
    }
    await hoverCell(page, 'positionBiases', 1, 12);
    expect(await tooltipRows(page)).toContainEqual(['query → key', 'grandmother → river']);
    // The lesson's six words fit at 360 px.
    await page.goto(env.server.url);
    await page.waitForSelector('body[data-ready="true"]');
    expect((await layoutOf(page, 'positionBiases')).axisLabels).toBe('words');
    await context.close();
    // At 1280 (two panels a row) and 1920 every position is labelled too, by its word where it fits.
    const wide = await env.open(`?tokens=${LONG.replaceAll(' ', '+')}`, { viewport: { width: 1280, height: 900 } });
    for (const width of [1280, 1920]) {
      await wide.page.setViewportSize({ width, height: 900 });
      await whenDrawn(wide.page);
      for (const panel of PANELS_SHOWN) {
        const layout = await layoutOf(wide.page, panel);
        expect(layout.cell, `${panel} at ${width}`).toBeGreaterThanOrEqual(MIN_LABELLED_CELL);
        if (width === 1920) expect(layout.axisLabels, panel).toBe('words');
      }
    }
    expect([...problems, ...wide.problems]).toEqual([]);
    await wide.context.close();
  });
});

describe('column labels in narrow cells', () => {
  // 38 words at 1280 px: cells of about 14 px, where labels slanted at 60° ran into each other
  // ("3 let" over "4 attention"). Each pair of neighbours is read across: from a point on one's
  // line, the segment to the other's line, perpendicular to both, crosses at least one pixel of
  // background (no ink of the one meets ink of the other), all along the labels' room.
  const WORDS =
    'relative position representations let attention see how far apart two words stand so attention weights depend on distance and content together while the clipping window keeps the number of learned vectors small for long sentences in practice today';
  test('38 words at 1280 px: no two column labels touch', async () => {
    const { page, context, problems } = await env.open(`?tokens=${WORDS.replaceAll(' ', '+')}`, {
      viewport: { width: 1280, height: 900 },
    });
    const layout = await layoutOf(page, 'contentScores');
    expect(layout.n).toBe(38);
    expect(layout.axisLabels).toBe('words');
    expect(layout.cell).toBeLessThan(16);
    const touching = await page.$eval(
      '#figure-contentScores canvas',
      (canvas, { x0, y0, cell, n, labels, labelSlant }) => {
        const ratio = canvas.width / canvas.getBoundingClientRect().width;
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        const ink = (x, y) => data[(Math.round(y * ratio) * canvas.width + Math.round(x * ratio)) * 4 + 3] > 40;
        const slant = (labelSlant * Math.PI) / 180;
        const along = [Math.cos(slant), -Math.sin(slant)]; // a label's line, from its column up
        const across = [Math.sin(slant), Math.cos(slant)]; // towards the next column's label
        const gap = cell * Math.sin(slant); // between two neighbours' lines
        const found = [];
        for (let j = 0; j + 1 < n; j += 1) {
          for (let t = 6; t < labels * 0.8; t += 0.5) {
            const start = [x0 + (j + 0.5) * cell + t * along[0], y0 - 6 + t * along[1]];
            let clear = false;
            for (let s = 0.5; s < gap && !clear; s += 0.5)
              clear = !ink(start[0] + s * across[0], start[1] + s * across[1]);
            if (!clear) {
              found.push(`${j}|${j + 1} at ${t} px`);
              break;
            }
          }
        }
        return found;
      },
      layout,
    );
    expect(touching).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the values printed in the cells', () => {
  // The four main panels print their six-word lesson's values in the cells at 1280 px (two panels a
  // row, 48 px cells) and at 1920 px (four a row, 37 px cells), each value's ink inside its own cell:
  // the cell's first and last device columns, across the text's rows, are the cell's fill alone.
  test('at 1280 and 1920 px every main panel prints its values, each inside its cell', async () => {
    const { page, context, problems } = await env.open('', { viewport: { width: 1920, height: 1080 } });
    const cells = { 1920: 37, 1280: 48 }; // four panels a row, then two
    for (const width of [1920, 1280]) {
      await page.setViewportSize({ width, height: 1080 });
      // Redrawn at the new width (the resize reaches the panels a frame or two later).
      for (const panel of ['contentScores', 'positionBiases', 'contentWeights', 'combinedWeights'])
        await expect.poll(async () => (await layoutOf(page, panel)).cell).toBe(cells[width]);
      await whenDrawn(page);
      for (const panel of ['contentScores', 'positionBiases', 'contentWeights', 'combinedWeights']) {
        const layout = await layoutOf(page, panel);
        expect(layout.valueFont, `${panel} at ${width} px: the values' size`).toBeGreaterThanOrEqual(11);
        const drawn = await page.$eval(
          `#figure-${panel} canvas`,
          (canvas, { x0, y0, cell, n, valueFont }) => {
            const ratio = canvas.width / canvas.getBoundingClientRect().width;
            const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
            const at = (x, y) => Array.from(data.slice((y * canvas.width + x) * 4, (y * canvas.width + x) * 4 + 3));
            const same = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 2);
            const out = [];
            for (let i = 0; i < n; i += 1)
              for (let j = 0; j < n; j += 1) {
                const left = Math.ceil((x0 + j * cell) * ratio) + 1;
                const right = Math.floor((x0 + (j + 1) * cell) * ratio) - 2;
                const top = Math.ceil((y0 + i * cell) * ratio) + 1;
                const middle = Math.round((y0 + (i + 0.5) * cell) * ratio);
                const fill = at(left, top);
                const half = Math.ceil((valueFont / 2) * ratio);
                let edgesClear = true;
                let ink = 0;
                for (let y = middle - half; y <= middle + half; y += 1) {
                  edgesClear &&= same(at(left, y), fill) && same(at(right, y), fill);
                  for (let x = left; x <= right; x += 1) if (!same(at(x, y), fill)) ink += 1;
                }
                out.push({ i, j, edgesClear, ink });
              }
            return out;
          },
          layout,
        );
        for (const { i, j, edgesClear, ink } of drawn) {
          expect(ink, `${panel} (${i}, ${j}) at ${width} px: its value's ink`).toBeGreaterThan(10);
          // Panel 2's dashed band edges run along cell edges: its values' ink is counted only.
          if (panel !== 'positionBiases')
            expect(edgesClear, `${panel} (${i}, ${j}) at ${width} px: ink at the cell's edge`).toBe(true);
        }
      }
    }
    // A cell read at 1920 px outlines every cell of its offset, up to the cells' edges where the
    // numbers now reach: the outlines are drawn first and the numbers over them (each haloed in
    // its cell's colour), so that an outline passes under a number, never through it. Read from
    // the canvas's own calls while panel 2 redraws with (4, 4) read.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(async () => (await layoutOf(page, 'positionBiases')).cell).toBe(37);
    await whenDrawn(page);
    await page.evaluate(() => {
      const canvas = document.querySelector('#figure-positionBiases canvas');
      window.panel2Calls = [];
      for (const name of ['clearRect', 'strokeRect', 'fillText']) {
        const method = CanvasRenderingContext2D.prototype[name];
        CanvasRenderingContext2D.prototype[name] = function (...args) {
          if (this.canvas === canvas) window.panel2Calls.push(name === 'fillText' ? args[0] : [name, args[1]]);
          return method.apply(this, args);
        };
      }
    });
    const layout = await layoutOf(page, 'positionBiases');
    await page.click('#figure-positionBiases canvas', {
      position: { x: layout.x0 + 4.5 * layout.cell, y: layout.y0 + 4.5 * layout.cell },
    });
    // The outlines: strokeRect calls over the matrix (the colour bar's frame is below it).
    const matrixBottom = layout.y0 + layout.n * layout.cell;
    const outline = (call) => Array.isArray(call) && call[0] === 'strokeRect' && call[1] < matrixBottom;
    await expect.poll(() => page.evaluate(() => window.panel2Calls.length)).toBeGreaterThan(0);
    await whenDrawn(page);
    // The last draw with outlines, from its clearRect on.
    const all = await page.evaluate(() => window.panel2Calls);
    const lastOutline = all.findLastIndex(outline);
    expect(lastOutline).toBeGreaterThanOrEqual(0);
    const calls = all.slice(all.findLastIndex((call, index) => index < lastOutline && call[0] === 'clearRect'));
    const numbers = calls.flatMap((call, index) => (/^[−+]?\d+\.\d\d$/.test(call) ? [index] : []));
    expect(numbers).toHaveLength(36);
    expect(calls.findLastIndex(outline)).toBeLessThan(Math.min(...numbers));
    expect(problems).toEqual([]);
    await context.close();
  });
});
