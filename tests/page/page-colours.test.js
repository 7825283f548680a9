// The colour at each cell of each heatmap is the colour map's colour for the value the JS API
// returns for the same inputs. Expected colours come straight from d3-scale-chromatic and the
// documented rule (README "The page"): weights on viridis over [0, w], w the larger of the two
// weight panels' largest weights (over the cells shown: j ≤ i under the causal mask), or with
// wscale=panel each panel's own; signed panels on
// reversed RdBu over [-m, m], m = max |value| (offsets: m = max(1, min(k, n - 1))); entry
// round(t · 255), colour at t = entry / 255; keys hidden by the causal mask grey in the weight
// panels.
import { interpolateRdBu, interpolateViridis } from 'd3-scale-chromatic';
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { MATRIX_PANELS, layoutOf, pageExample, significant, usePage } from './page-fixture.js';

const env = usePage();
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

function rgb(css) {
  return css.startsWith('#')
    ? [1, 3, 5].map((at) => parseInt(css.slice(at, at + 2), 16))
    : css.match(/\d+/g).slice(0, 3).map(Number);
}

function expectedPanels({ seed, seqLen, dK, maxDistance, causal }) {
  const ex = pageExample(rp, { seed, seqLen, dK, maxDistance, causal });
  const difference = ex.combinedWeights.data.map((w, i) => w - ex.contentWeights.data[i]);
  return {
    contentScores: ex.contentScores.data,
    positionBiases: ex.positionBiases.data,
    contentWeights: ex.contentWeights.data,
    combinedWeights: ex.combinedWeights.data,
    difference,
    offsets: rp.relativeOffsets(seqLen, maxDistance).data,
  };
}

const MASKED_GREY = [0xbd, 0xbd, 0xc4]; // --relpos-masked, light theme

/** A weight panel's top: its largest weight over the cells shown. */
function weightTopOf(values, { seqLen: n, causal }) {
  let top = 0;
  for (let i = 0; i < n; i += 1)
    for (let j = 0; j <= (causal ? i : n - 1); j += 1) top = Math.max(top, values[i * n + j]);
  return top;
}

/** The colour top of weight panel `panel`: shared by both (the default) or its own (wscale=panel). */
function weightTopFor(expected, panel, settings) {
  if (settings.ownScale) return weightTopOf(expected[panel], settings);
  return Math.max(weightTopOf(expected.contentWeights, settings), weightTopOf(expected.combinedWeights, settings));
}

function expectedColour(panel, expected, value, settings, i, j) {
  if (settings.causal && j > i && ['contentWeights', 'combinedWeights', 'difference'].includes(panel))
    return MASKED_GREY;
  const values = expected[panel];
  if (panel === 'contentWeights' || panel === 'combinedWeights') {
    return rgb(interpolateViridis(Math.round((value / weightTopFor(expected, panel, settings)) * 255) / 255));
  }
  const { maxDistance: k, seqLen: n } = settings;
  const m = panel === 'offsets' ? Math.max(1, Math.min(k, n - 1)) : Math.max(...Array.from(values, Math.abs));
  const entry = Math.round(((value + m) / (2 * m)) * 255);
  return rgb(interpolateRdBu(1 - entry / 255));
}

async function checkColours(query, settings, where) {
  const { page, context, problems } = await env.open(query, {
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
  });
  const expected = expectedPanels(settings);
  const n = settings.seqLen;
  for (const panel of MATRIX_PANELS) {
    const layout = await layoutOf(page, panel);
    expect(layout.n).toBe(n);
    if (panel.endsWith('Weights')) {
      // The stated rule, on the colour bar, in the canvas's label and in the caption.
      const weightTop = weightTopFor(expected, panel, settings);
      expect([layout.min, layout.max], panel).toEqual([0, weightTop]);
      expect(await page.getAttribute(`#figure-${panel} canvas`, 'aria-label')).toContain(
        `colour scale 0 to ${significant(weightTop)}`,
      );
      expect(await page.textContent(`#figure-${panel} .relpos-caption`)).toContain(
        settings.ownScale
          ? 'Colours: 0 to this panel’s largest weight (each weight panel its own scale).'
          : 'Colours: one scale for both weight panels, 0 to the largest weight in either',
      );
    }
    const got = await page.$eval(
      `#figure-${panel} canvas`,
      (canvas, { layout: l, n: size, where: at }) => {
        const g = canvas.getContext('2d');
        const colours = [];
        for (let i = 0; i < size; i += 1) {
          for (let j = 0; j < size; j += 1) {
            const x = Math.floor(l.x0 + (j + at) * l.cell);
            const y = Math.floor(l.y0 + (i + at) * l.cell);
            colours.push(Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3)));
          }
        }
        return colours;
      },
      { layout, n, where },
    );
    const values = expected[panel];
    for (let index = 0; index < n * n; index += 1) {
      const want = expectedColour(panel, expected, values[index], settings, Math.floor(index / n), index % n);
      expect(got[index], `${panel} cell (${Math.floor(index / n)}, ${index % n}) value ${values[index]}`).toEqual(want);
    }
  }
  expect(problems).toEqual([]);
  await context.close();
}

describe('heatmap colours are the colour map of the API values', () => {
  test('n = 16 (no printed values): the centre of every cell', async () => {
    await checkColours('?n=16&k=4&seed=7&dk=8', { seed: 7, seqLen: 16, dK: 8, maxDistance: 4, causal: false }, 0.5);
  });

  test('the default view (values printed in the cells): a point clear of the text', async () => {
    await checkColours('', { seed: 42, seqLen: 6, dK: 4, maxDistance: 3, causal: false }, 0.12);
  });

  test('k >= n: the offsets span -(n - 1)..n - 1', async () => {
    await checkColours('?n=5&k=20', { seed: 42, seqLen: 5, dK: 4, maxDistance: 20, causal: false }, 0.12);
  });

  test('n = 12: the weights are no longer one dark field (the top colour is the largest weight, not 1)', async () => {
    await checkColours('?n=12&k=2', { seed: 42, seqLen: 12, dK: 4, maxDistance: 2, causal: false }, 0.5);
  });

  test('wscale=panel: each weight panel from 0 to its own largest weight', async () => {
    const settings = { seed: 42, seqLen: 6, dK: 4, maxDistance: 3, causal: false, ownScale: true };
    await checkColours('?wscale=panel', settings, 0.12);
  });

  test('causal mask (masked keys grey), n = 40', async () => {
    await checkColours('?n=40&k=6&causal=1&seed=3', { seed: 3, seqLen: 40, dK: 4, maxDistance: 6, causal: true }, 0.5);
  });
});
