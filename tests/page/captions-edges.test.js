// The clipping-band edges sit where a row's shared run begins (between offsets k − 1 and k: the
// |j − i| = k diagonal already uses the edge row), never on the matrix border; under the causal
// mask only the lower edge is drawn and a note says why. The captions say it once, the same way;
// the notes say what they mean; the maths is written one way (<sub>/<sup>) and the main
// equation is typeset once.
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { layoutOf, pixelsAt, usePage } from './page-fixture.js';

const env = usePage();
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

const VIEW = { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 };
const N = 12;
const K = 2;

/**
 * Checks a panel's lines against its cells, all its pixels read in one round trip: each check is
 * [message, a point on a line, a point in a cell, whether the two must be equal]. Points are
 * ['cell', i, j] (a fifth of the way into cell (i, j)), ['column', x, i] (on the vertical line
 * x = column x, in row i), ['row', y, j] (on the horizontal line y = row y, in column j),
 * ['right', i] (row i's last pixel on the matrix's right border) and ['bottom', j].
 */
async function checkLines(page, panel, checks) {
  const l = await layoutOf(page, panel);
  const at = (t) => t + 0.2;
  const point = ([kind, a, b]) =>
    ({
      cell: () => [l.x0 + at(b) * l.cell, l.y0 + at(a) * l.cell],
      column: () => [l.x0 + a * l.cell, l.y0 + at(b) * l.cell],
      row: () => [l.x0 + at(b) * l.cell, l.y0 + a * l.cell],
      right: () => [l.x0 + N * l.cell - 1, l.y0 + at(a) * l.cell],
      bottom: () => [l.x0 + at(a) * l.cell, l.y0 + N * l.cell - 1],
    })[kind]();
  const points = checks.flatMap(([, line, cell]) => [point(line), point(cell)]);
  const pixels = await pixelsAt(page, `#figure-${panel} canvas`, points);
  checks.forEach(([message, , , equal], c) => {
    if (equal) expect(pixels[2 * c], message).toEqual(pixels[2 * c + 1]);
    else expect(pixels[2 * c], message).not.toEqual(pixels[2 * c + 1]);
  });
  expect(checks.length).toBeGreaterThan(0);
}

describe('band edges', () => {
  test('a row’s constant run starts at offset k: at n = 12, k = 2, bias (1, 3) equals (1, 4…11)', () => {
    const ex = rp.example({ seqLen: N, maxDistance: K });
    const row = Array.from(ex.positionBiases.data.slice(N, 2 * N));
    expect(new Set(row.slice(1 + K)).size).toBe(1); // offsets 2..10: one value
    expect(row[1 + K - 1]).not.toBe(row[1 + K]); // offset 1 differs
    const last = Array.from(ex.positionBiases.data.slice((N - 1) * N, N * N)); // row 11
    expect(new Set(last.slice(0, N - K)).size).toBe(1); // offsets −11..−2: one value
    expect(last[N - K]).not.toBe(last[N - K - 1]); // offset −1 differs
  });

  test('the dashed edges run between offsets k − 1 and k, not k and k + 1, and never on the border', async () => {
    const { page, context, problems } = await env.open(`?n=${N}&k=${K}`, VIEW);
    for (const panel of ['positionBiases', 'offsets']) {
      const checks = [];
      for (let i = 0; i + K <= N - 1; i += 1) {
        // On the edge: the line (its white halo or its dash), not the cell's colour.
        checks.push([`${panel} upper edge, row ${i}`, ['column', i + K, i], ['cell', i, i + K], false]);
        // Where the edge used to be (between offsets k and k + 1): the run's colour, no line.
        if (i + K + 1 <= N - 1)
          checks.push([`${panel} row ${i}, offsets k | k + 1`, ['column', i + K + 1, i], ['cell', i, i + K], true]);
        // The mirror: between offsets −k + 1 and −k, as a horizontal line above cell (i + k, i).
        checks.push([`${panel} lower edge, column ${i}`, ['row', i + K, i], ['cell', i + K, i], false]);
        if (i + K + 1 <= N - 1)
          checks.push([
            `${panel} column ${i}, offsets −k | −k − 1`,
            ['row', i + K + 1, i],
            ['cell', i + K + 1, i],
            true,
          ]);
      }
      // No dashes on the matrix border: the last column's right edge and the last row's bottom.
      for (let i = 0; i < N; i += 1) {
        checks.push([`${panel} right border, row ${i}`, ['right', i], ['cell', i, N - 1], true]);
        checks.push([`${panel} bottom border, column ${i}`, ['bottom', i], ['cell', N - 1, i], true]);
      }
      await checkLines(page, panel, checks);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  test('causal: only the lower edge, and a note that a decoder never uses offsets 1…k', async () => {
    const { page, context } = await env.open(`?n=${N}&k=${K}&causal=1`, VIEW);
    for (const panel of ['positionBiases', 'offsets']) {
      const checks = [];
      for (let i = 0; i + K <= N - 1; i += 1) {
        checks.push([`${panel} no upper edge, row ${i}`, ['column', i + K, i], ['cell', i, i + K], true]);
        checks.push([`${panel} lower edge, column ${i}`, ['row', i + K, i], ['cell', i + K, i], false]);
      }
      await checkLines(page, panel, checks);
      expect(await page.getAttribute(`#figure-${panel} canvas`, 'aria-label')).toContain(
        'A decoder never uses offsets 1…k: only the lower edge is drawn.',
      );
    }
    // No panel's note cut short, at 1280 and on a phone.
    for (const viewport of [VIEW.viewport, { width: 390, height: 844 }]) {
      await page.setViewportSize(viewport);
      await page.goto(`${env.server.url}?causal=1`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.evaluate(() => (document.getElementById('more-panels').open = true));
      await expect.poll(() => page.$eval('#figure-offsets canvas', (c) => c.dataset.layout !== undefined)).toBe(true);
      const cut = await page.$$eval('#panels canvas[data-layout], #more-panels canvas[data-layout]', (list) =>
        list.filter((c) => JSON.parse(c.dataset.layout).noteCut).map((c) => c.closest('figure').id),
      );
      expect(cut, `${viewport.width}`).toEqual([]);
    }
    // Where a canvas must cut its note short (the iframe view at 390 px, twenty words), the caption
    // under it begins with the whole note.
    const words = Array.from({ length: 20 }, (_, i) => String.fromCharCode(97 + i)).join('+');
    await page.goto(`${env.server.url}?embed=1&panels=positionBiases,combinedWeights&causal=1&tokens=${words}`);
    await page.waitForSelector('body[data-ready="true"]');
    const biases = await page.$eval('#figure-positionBiases', (figure) => ({
      cut: JSON.parse(figure.querySelector('canvas').dataset.layout).noteCut,
      caption: figure.querySelector('.relpos-caption').textContent,
    }));
    expect(biases.cut).toBe(true);
    expect(biases.caption).toMatch(
      /^Unmasked \(the mask acts in the softmax\)\. A decoder never uses offsets 1…k: only the lower edge is drawn\. q/,
    );
    await context.close();
  });

  test('no edges where nothing is shared: k = 0 and k ≥ n − 1', async () => {
    for (const [query, k] of [
      ['?n=8&k=0', 0],
      ['?n=8&k=7', 7],
    ]) {
      const { page, context } = await env.open(query, VIEW);
      const checks = [];
      for (let i = 0; i < 8; i += 1) {
        for (const x of [k, k + 1].filter((v) => v >= 1 && v <= 7)) {
          if (i + x <= 7) checks.push([`${query} row ${i}`, ['column', i + x, i], ['cell', i, i + x], true]);
        }
      }
      await checkLines(page, 'offsets', checks);
      // No dashed line drawn, none named in the captions.
      for (const id of ['positionBiases', 'offsets'])
        expect(await page.textContent(`#figure-${id} .relpos-caption`), `${query} ${id}`).not.toMatch(/dashed/);
      // At k = 0 panel 4 says why it is panel 3, and is: each row's one bias cancels in the softmax.
      const note = 'k = 0: one bias per row, which the softmax cancels: panel 3’s weights.';
      expect(await page.getAttribute('#figure-combinedWeights canvas', 'aria-label'), query).toContain(
        k === 0 ? note : 'Combined weights',
      );
      if (k === 0) {
        const largest = await page.evaluate(async () => {
          let most = 0;
          for (let i = 0; i < 8; i += 1)
            for (let j = 0; j < 8; j += 1) {
              const [a, b] = await Promise.all(
                ['contentWeights', 'combinedWeights'].map((id) => window.relposPage.valueAt(id, i, j)),
              );
              most = Math.max(most, Math.abs(a - b));
            }
          return most;
        });
        expect(largest).toBeLessThan(1e-12);
      } else expect(await page.getAttribute('#figure-combinedWeights canvas', 'aria-label'), query).not.toContain(note);
      await context.close();
    }
  });
});

describe('captions and notes', () => {
  test('the edge rule is said once, with ≥ k everywhere; the uniform reference reads as a reference', async () => {
    const { page, context } = await env.open('', VIEW);
    const captions = await page.$$eval('.relpos-caption', (list) => list.map((p) => p.textContent));
    const all = captions.join('\n');
    expect(all).not.toContain('|j − i| > k');
    expect(all.split('the |j − i| = k diagonal already').length - 1).toBe(1);
    for (const id of ['positionBiases', 'offsets'])
      expect(await page.textContent(`#figure-${id} .relpos-caption`)).toContain('|j − i| ≥ k');
    expect(await page.getAttribute('#figure-contentWeights canvas', 'aria-label')).toContain(
      'For reference, uniform attention would give 1/n = 0.17 per key.',
    );
    expect(await page.getAttribute('#figure-contentWeights canvas', 'aria-label')).not.toContain('Uniform attention:');
    // The content weights' caption says the mask's state, off here and on after the checkbox.
    const weightsCaption = () => page.textContent('#figure-contentWeights .relpos-caption');
    expect(await weightsCaption()).toContain('the causal mask is off, so every key gets some weight');
    expect(await weightsCaption()).not.toContain('is on');
    await page.check('#causal');
    await expect.poll(weightsCaption).toContain('the causal mask is on: keys after the query (j > i) get weight 0');
    expect(await weightsCaption()).not.toContain('is off');
    await context.close();
  });

  test('a colour bar whose label does not fit draws its short form (the range alone), not a condensed long one', async () => {
    const { page, context, problems } = await env.open('', VIEW);
    const barLabel = (id) =>
      page.$eval(`#figure-${id} canvas`, (c) => {
        const layout = JSON.parse(c.dataset.layout);
        return { ...layout.barLabel, max: layout.max, width: parseFloat(c.style.width) };
      });
    const wide = await barLabel('combinedWeights');
    expect(wide.text).toMatch(/^weight, 0 to [\d.]+ \(both weight panels’ max\)$/);
    // Four panels in a 700 × 500 frame: small panels, the long form would be squeezed unreadably.
    await page.setViewportSize({ width: 700, height: 500 });
    await page.goto(
      `${env.server.url}?embed=1&panels=contentWeights,combinedWeights,positionBiases,offsets&captions=0`,
    );
    await page.waitForSelector('body[data-fit="700x500"]');
    const narrow = await barLabel('combinedWeights');
    expect(narrow.text).toBe(`weight, 0 to ${Number(narrow.max.toPrecision(3))}`);
    expect(narrow.right).toBeLessThanOrEqual(narrow.width);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('maths: <sub>/<sup> in every text, no Unicode sub- or superscripts; the equation typeset once', async () => {
    const { page, context } = await env.open('', VIEW);
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).not.toMatch(/[ᵢⱼₖᴷⱽ₀-₉]/u);
    expect(
      await page.$$eval('#figure-positionBiases .relpos-caption sup', (list) => list.map((e) => e.textContent)),
    ).toContain('K');
    expect(
      await page.$$eval('#figure-contentScores .relpos-caption sub', (list) => list.map((e) => e.textContent)),
    ).toEqual(['i', 'j', 'k']);
    expect(await page.$$eval('#figure-profile .relpos-caption sup', (list) => list.length)).toBeGreaterThan(0);
    expect(await page.$$eval('math', (list) => list.length)).toBe(1);
    // The typeset equation is laid out as maths (MathML Core), not as a line of plain text.
    const box = await page.$eval('.page-header math', (m) => m.getBoundingClientRect().toJSON());
    expect(box.height).toBeGreaterThan(100); // three rows, two of them fractions
    await context.close();
    // Enlarged text (a reader's 24 px) on a 320 px phone: wider than its box, the equation scrolls
    // sideways to its end; the page never cuts it.
    const phone = await env.open('', { viewport: { width: 320, height: 700 }, isMobile: true, hasTouch: true });
    await phone.page.evaluate(() => (document.documentElement.style.fontSize = '24px'));
    const reach = await phone.page.$eval('.equation', (equation) => {
      const math = equation.querySelector('math');
      const wide = math.getBoundingClientRect().width;
      equation.scrollLeft = equation.scrollWidth;
      const end = math.getBoundingClientRect().right;
      return {
        wide,
        room: equation.clientWidth,
        end,
        right: equation.getBoundingClientRect().right,
        window: innerWidth,
      };
    });
    expect(reach.wide).toBeGreaterThan(reach.room); // the case: wider than its box
    expect(reach.end).toBeLessThanOrEqual(Math.min(reach.right, reach.window) + 1); // its end scrolled into view
    expect(phone.problems).toEqual([]);
    await phone.context.close();
  });

  test('from 320 to 1280 px a formula clip(…) and a range a–b (1–6, 44.4 %–55.6 %) are never broken across lines: every text of the page and of the long view', async () => {
    const { page, context } = await env.open('', { viewport: { width: 360, height: 800 } });
    // Each match of a formula or a range in the page's text, with the lines its characters lie on
    // (rectangles that share no height are on different lines); hidden text (no boxes) is left out.
    const broken = () =>
      page.evaluate(() => {
        const nodes = [];
        let all = '';
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          nodes.push({ node, from: all.length });
          all += node.data;
        }
        const at = (offset) => {
          let index = nodes.length - 1;
          while (nodes[index].from > offset) index -= 1;
          return [nodes[index].node, offset - nodes[index].from];
        };
        const seen = [];
        const found = [];
        for (const match of all.matchAll(/clip\([^()]*\)|\d[\d.]*(?:\u00a0%)?–\d[\d.]*(?:\u00a0%)?/g)) {
          const range = document.createRange();
          range.setStart(...at(match.index));
          const end = at(match.index + match[0].length - 1);
          range.setEnd(end[0], end[1] + 1);
          const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
          if (!rects.length) continue;
          seen.push(match[0]);
          const lines = [];
          for (const r of rects) if (!lines.some((l) => r.top < l.bottom && r.bottom > l.top)) lines.push(r);
          if (lines.length > 1)
            found.push(
              `${match[0]} (${lines.length} lines) in “${range.commonAncestorContainer.textContent.slice(0, 80)}”`,
            );
        }
        return { seen, found };
      });
    // Where a line would break inside one (the page as built before: clip(j − i) in the story at
    // 320 and 1280 px, clip(j − i, ±k) in panel 2's long-view caption at 320 and 520 px, in a
    // reading at 390 px), and the phones' widths.
    for (const link of ['', '?long=1&n=400']) {
      if (link) await env.load(page, link);
      for (const width of [320, 360, 390, 520, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        await page.waitForFunction(() => !document.body.dataset.busy);
        const { seen, found } = await broken();
        const where = `${link || 'the defaults'} at ${width} px`;
        // Panel 2’s and panel 6’s captions and the story’s equation name clip(j − i…), every panel’s caption in the long view.
        expect(seen.filter((m) => m.startsWith('clip(')).length, where).toBeGreaterThanOrEqual(link ? 6 : 3);
        expect(found, where).toEqual([]);
      }
    }
    await context.close();
  });
});
