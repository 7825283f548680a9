// The story tells the truth whatever came before (Chromium, the real WASM module): every step puts
// the page into the same settings from a fresh page, from a perturbed one and right after every
// other step, leaves the panel it names drawn on screen, and every number in its reveal equals
// the API's value for the state shown (recomputed here with rp.example, not the page's code).
import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { colourOf } from 'relpos-wasm/render';
import { formatSignificant } from '../../web/views/panels.js';
import { ATTENTION_SETTINGS } from '../../web/settings/settings.js';
import { ARTIFACTS } from './browser.js';
import { canvasHash, pageExample, usePage } from './page-fixture.js';

const env = usePage();
let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

const VIEW = { viewport: { width: 1280, height: 800 } };
const SENTENCE = 'the cat sat on the mat';
const STEPS = ['shuffle', 'same-query', 'clip', 'locality', 'output'];
const PANEL = {
  shuffle: 'contentWeights',
  'same-query': 'positionBiases',
  clip: 'positionBiases',
  locality: 'combinedWeights',
  output: 'tables',
};
// Causal on, k = 0, the same query, a random table, bump 2, other words, seed, d_k and numbers.
const PERTURBED = '?causal=1&k=0&sameq=1&table=random&strength=2&seed=5&dk=6&draw=handbook&tokens=a+b+c+d+e+f+g+h';
// Every ordered pair of different steps once (an Eulerian circuit of the complete digraph on 5).
const CIRCUIT = [0, 4, 3, 4, 2, 4, 1, 4, 0, 3, 2, 3, 1, 3, 0, 2, 1, 2, 0, 1, 0];

const settingsOf = (page) =>
  page.evaluate(
    (names) => {
      const state = window.relposPage.state();
      return Object.fromEntries(names.map((name) => [name, state[name]]));
    },
    [...ATTENTION_SETTINGS, 'long'],
  );
const revealOf = (page, name) => page.textContent(`[data-reveal="${name}"]`);
const press = async (page, name, own = false) => {
  const selector = `[data-story="${name}"][data-own="true"]`;
  await page.evaluate((n) => {
    document.querySelector(`[data-story="${n}"]`).closest('details.step').open = true;
  }, name);
  await page.click(own ? selector : `[data-story="${name}"]:not([data-own])`);
};
const number = (text) => Number(text.replace('−', '-'));
const f2 = (v) => formatSignificant(v, 2);
const percent = (v) => (100 * v).toFixed(0);

/** The named figure: at least 120 px of it inside the viewport and its canvas drawn (many colours). */
async function expectDrawnOnScreen(page, panel) {
  const canvas = panel === 'tables' ? '#tables-canvas' : `#figure-${panel} canvas`;
  await expect
    .poll(
      () =>
        page.$eval(canvas, (c) => {
          const box = c.getBoundingClientRect();
          const visible = Math.min(box.bottom, innerHeight) - Math.max(box.top, 0);
          const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
          const colours = new Set();
          for (let i = 0; i < data.length; i += 4 * 37) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
          return visible >= 120 && colours.size >= 8;
        }),
      { timeout: 4000 },
    )
    .toBe(true);
}

const nearShare = (w, n) => {
  let share = 0;
  for (let i = 0; i < n; i += 1)
    for (let j = Math.max(0, i - 1); j <= Math.min(n - 1, i + 1); j += 1) share += w[i * n + j];
  return share / n;
};

/** Every permutation taking `from`'s words to `to`'s (repeated words in either order). */
function wordMoves(from, to) {
  const moves = [];
  const walk = (p, used, moved) => {
    if (p === from.length) return moves.push([...moved]);
    for (let q = 0; q < to.length; q += 1) {
      if (used[q] || to[q] !== from[p]) continue;
      used[q] = true;
      moved[p] = q;
      walk(p + 1, used, moved);
      used[q] = false;
    }
  };
  walk(0, [], []);
  return moves;
}

/** Checks each number of a reveal against the API, for the settings the page then shows. */
const CHECK = {
  shuffle(text, s) {
    const before = SENTENCE.split(' ');
    const after = s.tokens.split(' ');
    expect(text).toContain(`“${SENTENCE}” became “${s.tokens}”`);
    const a = pageExample(rp, { tokens: SENTENCE });
    const b = pageExample(rp, { tokens: s.tokens });
    const differences = wordMoves(before, after).map((moved) => {
      const worst = (m) => {
        let w = 0;
        for (let i = 0; i < 6; i += 1)
          for (let j = 0; j < 6; j += 1)
            w = Math.max(w, Math.abs(a[m].data[i * 6 + j] - b[m].data[moved[i] * 6 + moved[j]]));
        return w;
      };
      return { content: worst('contentWeights'), combined: worst('combinedWeights') };
    });
    const [, content] = text.match(/differ by at most (\S+) \(rounding\)/);
    expect(number(content)).toBeLessThanOrEqual(1e-15);
    for (const d of differences) expect(d.content).toBeLessThanOrEqual(1e-15);
    const [, combined] = text.match(/combined weights \(panel 4\) differ by up to (\S+):/);
    expect(differences.map((d) => f2(d.combined))).toContain(combined);
    expect(number(combined)).toBeGreaterThan(0.05);
  },
  'same-query'(text, s) {
    const ex = pageExample(rp, { sameQuery: true });
    const b = ex.positionBiases.data;
    let spread = 0;
    for (let i = 0; i < 6; i += 1)
      for (let j = 0; j < 6; j += 1) {
        const c = Math.min(s.maxDistance, Math.max(-s.maxDistance, j - i));
        const [i0, j0] = c >= 0 ? [0, c] : [-c, 0]; // the diagonal's first cell
        spread = Math.max(spread, Math.abs(b[i * 6 + j] - b[i0 * 6 + j0]));
      }
    expect(text).toContain(`largest difference ${f2(spread)})`);
  },
  clip(text) {
    const a = pageExample(rp, { maxDistance: 3 }).positionBiases.data;
    const b = pageExample(rp, { maxDistance: 1 }).positionBiases.data;
    let changed = 0;
    let near = 0;
    for (let i = 0; i < 6; i += 1)
      for (let j = 0; j < 6; j += 1)
        if (a[i * 6 + j] !== b[i * 6 + j]) {
          changed += 1;
          if (Math.abs(j - i) <= 1) near += 1;
        }
    expect(near).toBe(0);
    expect(text).toContain(
      `Compared with k = 3, the lesson’s k, ${changed} of 36 cells of panel 2 changed at k = 1, ${near} of them within |j − i| ≤ 1: clipping only changes`,
    );
  },
  locality(text, s, tokens = SENTENCE) {
    const n = tokens.split(' ').length;
    const same = pageExample(rp, { tokens, sameQuery: true });
    const random = pageExample(rp, { tokens, sameQuery: true, table: 'random' });
    const real = pageExample(rp, { tokens });
    const positive = Array.from({ length: n }, (_, i) => real.inputs.q.data[i * 4]).filter((v) => v > 0).length;
    const uniform = (3 * n - 2) / (n * n); // no mask: 2 keys in the two end rows, 3 in the others
    expect(text).toContain(
      `With one query for every row, ${percent(nearShare(same.combinedWeights.data, n))} % of the weight stays within one position with the locality table, ` +
        `${percent(nearShare(random.combinedWeights.data, n))} % with a random table (uniform attention: about ${percent(uniform)} %). ` +
        `With the words’ own queries it is ${percent(nearShare(real.combinedWeights.data, n))} %`,
    );
    expect(text).toContain(`as it is for ${positive} of these ${n} queries`);
  },
  output(text) {
    expect(text).toContain('now shows query 2: its output split in two');
  },
};

/** The settings each step's lesson is written for, stated here independently of the page. */
const LESSON = {
  draw: 'stable',
  table: 'locality',
  sameQuery: false,
  seqLen: 6,
  dK: 4,
  maxDistance: 3,
  seed: 42,
  causal: false,
  tokens: SENTENCE,
  strength: 8,
  noise: 0.1,
  width: 1,
  asymmetry: 0,
  long: false,
};

describe('every story step, from every starting state', () => {
  test('the lesson on the first screen: at 1280 × 800, 1920 × 1080 and a 1024 × 768 tablet, unscrolled, panel 2 (the biases) and panel 1 (at 1920 panel 3) are drawn in view; on a phone the idea, then panel 2 drawn, then the controls', async () => {
    for (const viewport of [VIEW.viewport, { width: 1920, height: 1080 }, { width: 1024, height: 768 }]) {
      const { page, context, problems } = await env.open('', { viewport, closedPanels: true });
      expect(await page.evaluate(() => scrollY)).toBe(0);
      await expectDrawnOnScreen(page, 'positionBiases');
      for (const panel of viewport.width >= 1920 ? ['contentScores', 'contentWeights'] : ['contentScores'])
        await expectDrawnOnScreen(page, panel);
      expect(problems).toEqual([]);
      await context.close();
    }
    const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, closedPanels: true };
    const { page, context, problems } = await env.open('', phone);
    await expectDrawnOnScreen(page, 'positionBiases');
    const top = (selector) => page.$eval(selector, (el) => el.getBoundingClientRect().top);
    const idea = await page.$eval('.idea-sentence', (el) => el.getBoundingClientRect());
    expect(idea.top).toBeGreaterThanOrEqual(0);
    expect(idea.bottom).toBeLessThanOrEqual(await top('#figure-positionBiases canvas'));
    expect(await top('section.controls')).toBeGreaterThan(await top('#figure-positionBiases canvas'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390); // nothing sideways
    expect(problems).toEqual([]);
    await context.close();
  });

  test('the skip link lands on the first figure drawn, focused and in view, on a phone and at 1280', async () => {
    const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
    // On the phone panel 2 comes first; the panels' section has no box there (display: contents).
    for (const [options, first] of [
      [phone, 'figure-positionBiases'],
      [VIEW, 'figure-contentScores'],
    ]) {
      const { page, context, problems } = await env.open('', { ...options, closedPanels: true });
      await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
      await page.focus('a.skip');
      await page.keyboard.press('Enter');
      const target = await page.evaluate(() => {
        const box = document.activeElement.getBoundingClientRect();
        return { id: document.activeElement.id, top: box.top, inView: box.top >= 0 && box.top < innerHeight };
      });
      expect(target, `${options.viewport.width}`).toEqual({ id: first, top: target.top, inView: true });
      await expectDrawnOnScreen(page, first.slice('figure-'.length));
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  test('an open “More panels” is kept in the URL (?more=1): a link with it opens the drawer drawn; the iframe view has none', async () => {
    const { page, context, problems } = await env.open('?k=2', { ...VIEW, closedPanels: true });
    const more = () => new URL(page.url()).searchParams.get('more');
    const open = () => page.$eval('#more-panels', (d) => d.open);
    await page.click('#more-panels > summary');
    await expect.poll(more).toBe('1');
    expect(new URL(page.url()).searchParams.get('k')).toBe('2'); // beside the settings
    await page.click('#more-panels > summary');
    await expect.poll(more).toBeNull();
    expect(new URL(page.url()).search).toBe('?k=2');
    await page.goto(`${env.server.url}?k=2&more=1`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await open()).toBe(true);
    for (const id of ['difference', 'offsets'])
      await expect.poll(() => page.$eval(`#figure-${id} canvas`, (c) => c.dataset.layout !== undefined)).toBe(true);
    expect(await page.$eval('#profile-canvas', (c) => c.width > 0 && c.height > 0)).toBe(true);
    // The iframe view shows the panels it is asked for, in its own grid, and keeps its address.
    await page.goto(`${env.server.url}?embed=1&panels=offsets&more=1`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await open()).toBe(false);
    expect(await page.$$eval('#panels > figure:not([hidden])', (figures) => figures.map((f) => f.id))).toEqual([
      'figure-offsets',
    ]);
    expect(new URL(page.url()).search).toBe('?embed=1&panels=offsets&more=1');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('panels 5–8 wait under “More panels”, closed: a click draws them; a link or ?present= naming one opens it', async () => {
    const { page, context, problems } = await env.open('', { ...VIEW, closedPanels: true });
    const drawn = (id) => page.$eval(`#figure-${id} canvas`, (c) => c.dataset.layout !== undefined);
    const inDrawer = (id) => page.$eval(`#figure-${id}`, (f) => Boolean(f.closest('#more-panels')));
    for (const id of ['contentScores', 'positionBiases', 'contentWeights', 'combinedWeights']) {
      expect(await inDrawer(id)).toBe(false);
      expect(await drawn(id)).toBe(true);
    }
    for (const id of ['difference', 'offsets', 'tables', 'profile']) expect(await inDrawer(id), id).toBe(true);
    expect(await page.$eval('#more-panels', (d) => d.open)).toBe(false);
    expect(await drawn('difference')).toBe(false);
    await page.click('#more-panels > summary');
    await expect.poll(() => drawn('difference')).toBe(true);
    expect(await drawn('offsets')).toBe(true);
    const profileColours = () =>
      page.$eval('#profile-canvas', (c) => {
        const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
        const colours = new Set();
        for (let i = 0; i < data.length; i += 4 * 31) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
        return colours.size;
      });
    expect(await profileColours()).toBeGreaterThan(4);
    // A link to a figure in the drawer, and ?present= of a panel in it, open the drawer.
    await page.goto(`${env.server.url}?k=2#figure-offsets`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.$eval('#more-panels', (d) => d.open)).toBe(true);
    await expectDrawnOnScreen(page, 'offsets');
    await page.goto(`${env.server.url}?present=difference`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.$eval('#more-panels', (d) => d.open)).toBe(true);
    expect(await page.$eval('#figure-difference', (f) => f.classList.contains('relpos-presenting'))).toBe(true);
    await expectDrawnOnScreen(page, 'difference');
    // The iframe view keeps every panel it is asked for in its own grid, no drawer.
    await page.goto(`${env.server.url}?embed=1&panels=offsets,profile`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.$eval('#more-panels', (d) => getComputedStyle(d).display)).toBe('none');
    expect(await page.$$eval('#panels > figure:not([hidden])', (figures) => figures.map((f) => f.id))).toEqual([
      'figure-offsets',
      'figure-profile',
    ]);
    expect(await drawn('offsets')).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('from a fresh page: the lesson’s settings, the named panel drawn on screen, every number the API’s', async () => {
    // "More panels" closed, as a reader first sees it: step 5 opens it for panel 7.
    const { page, context, problems } = await env.open('', { ...VIEW, closedPanels: true });
    const expected = {};
    for (const name of STEPS) {
      if (name !== STEPS[0]) {
        await page.goto(env.server.url); // fresh again (the first step's page is fresh already)
        await page.waitForSelector('body[data-ready="true"]');
      }
      await press(page, name);
      const s = await settingsOf(page);
      const text = await revealOf(page, name);
      const want = {
        ...LESSON,
        ...{ 'same-query': { sameQuery: true }, clip: { maxDistance: 1 }, locality: { sameQuery: true } }[name],
      };
      if (name === 'shuffle') {
        expect(s.tokens.split(' ').sort()).toEqual(SENTENCE.split(' ').sort());
        expect(s.tokens).not.toBe(SENTENCE);
        want.tokens = s.tokens;
      }
      expect(s, name).toEqual(want);
      CHECK[name](text, s);
      await expectDrawnOnScreen(page, PANEL[name]);
      expected[name] = { s, text };
      if (name === 'same-query') {
        expect(await page.textContent('[data-set="same-query"]')).toBe(
          'This step set same query in every row on (was off).',
        );
        await expect.poll(() => new URL(page.url()).search).toContain('sameq=1');
      }
    }
    await expect.poll(() => page.textContent('#figure-tables .relpos-caption')).toContain('The selected cell (2, 3)');
    // The lead does not claim every reveal number is of the panels shown: it names the contrasts
    // (step 3 compares with k = 3, step 4 quotes a random table and the words' own queries).
    const lead = (await page.textContent('.story-lead')).replace(/\s+/g, ' ');
    expect(lead).toContain('for what the panels then show, or for a contrast the reveal names');
    for (const contrast of ['k = 3', 'a random table', 'the words’ own queries']) expect(lead).toContain(contrast);
    expect(expected.clip.text).toContain('Compared with k = 3');
    expect(expected.locality.text).toContain('with a random table');
    env.expected = expected;
    expect(problems).toEqual([]);
    await context.close();
  });

  test('from a perturbed page (causal, k = 0, same query, random table, bump 2, handbook numbers): the same', async () => {
    const { page, context, problems } = await env.open(PERTURBED, { ...VIEW, closedPanels: true });
    for (const name of STEPS) {
      if (name !== STEPS[0]) {
        await page.goto(`${env.server.url}${PERTURBED}`);
        await page.waitForSelector('body[data-ready="true"]');
      }
      await press(page, name);
      expect(await settingsOf(page), name).toEqual(env.expected[name].s);
      expect(await revealOf(page, name), name).toBe(env.expected[name].text);
      await expectDrawnOnScreen(page, PANEL[name]);
      // What the step changed is said where it happens, the switch to stable numbers among it.
      const set = await page.textContent(`[data-set="${name}"]`);
      for (const change of [
        'numbers: stable (was the handbook’s)',
        'causal mask off (was on)',
        'table: locality (was random)',
        'bump height 8 (was 2)',
        'seed 42 (was 5)',
        'dk = 4 (was 6)',
      ])
        expect(set, name).toContain(change);
      expect(set).toContain(name === 'clip' ? 'k = 1 (was 0)' : 'k = 3 (was 0)');
      if (['same-query', 'locality'].includes(name))
        expect(set).not.toContain('same query'); // on before and after
      else expect(set).toContain('same query in every row off (was on)');
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  test('right after each other step: the same', async () => {
    // Instant scrolling (a reader's reduced-motion setting), so the circuit takes less time.
    const { page, context, problems } = await env.open(PERTURBED, {
      ...VIEW,
      reducedMotion: 'reduce',
      closedPanels: true,
    });
    for (let index = 0; index < CIRCUIT.length; index += 1) {
      const name = STEPS[CIRCUIT[index]];
      await press(page, name);
      const after = index ? STEPS[CIRCUIT[index - 1]] : 'the perturbed page';
      expect(await settingsOf(page), `${name} after ${after}`).toEqual(env.expected[name].s);
      expect(await revealOf(page, name), `${name} after ${after}`).toBe(env.expected[name].text);
      await expectDrawnOnScreen(page, PANEL[name]);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  test('“On my sentence” keeps the reader’s words and sets every other setting of the lesson', async () => {
    const tokens = 'a dog chased the ball across the park';
    const { page, context, problems } = await env.open(
      `${PERTURBED.replace(/tokens=[^&]*/, `tokens=${tokens.replaceAll(' ', '+')}`)}`,
      VIEW,
    );
    await press(page, 'locality', true);
    const s = await settingsOf(page);
    expect(s).toEqual({ ...LESSON, tokens, seqLen: 8, sameQuery: true });
    const text = await revealOf(page, 'locality');
    expect(text.startsWith('On your sentence: ')).toBe(true);
    CHECK.locality(text, s, tokens);
    await press(page, 'shuffle', true);
    const shuffled = (await settingsOf(page)).tokens;
    expect(shuffled.split(' ').sort()).toEqual(tokens.split(' ').sort());
    expect(shuffled).not.toBe(tokens);
    // A main step shows the lesson's sentence; "On my sentence" then still uses the reader's, and
    // its clip reveal compares with the lesson's k = 3 (named), not with the page's k before.
    await press(page, 'locality');
    expect((await settingsOf(page)).tokens).toBe(SENTENCE);
    await page.fill('#maxDistance', '0');
    await press(page, 'clip', true);
    expect((await settingsOf(page)).tokens).toBe(tokens);
    expect(await page.textContent('[data-set="clip"]')).toContain('k = 1 (was 0)');
    const clip = await revealOf(page, 'clip');
    const a = pageExample(rp, { tokens, maxDistance: 3 }).positionBiases.data;
    const b = pageExample(rp, { tokens, maxDistance: 1 }).positionBiases.data;
    const changed = a.filter((v, c) => v !== b[c]).length;
    expect(changed).toBeGreaterThan(0);
    expect(clip).toContain(`On your sentence: Compared with k = 3, the lesson’s k, ${changed} of 64 cells`);
    // A sentence typed into Tokens becomes the reader's own.
    await page.fill('#tokens', 'one two three');
    await press(page, 'shuffle');
    await press(page, 'same-query', true);
    expect((await settingsOf(page)).tokens).toBe('one two three');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('“On my sentence” before any sentence was typed says it runs on the lesson’s; at n = 2 nothing is clipped', async () => {
    const { page, context, problems } = await env.open('?k=0', VIEW);
    await press(page, 'locality', true);
    const text = await revealOf(page, 'locality');
    expect(text.startsWith('You have not typed a sentence (Tokens), so on the lesson’s: ')).toBe(true);
    CHECK.locality(text.slice(text.indexOf(': ') + 2), await settingsOf(page));
    await page.fill('#tokens', 'two words');
    await press(page, 'clip', true);
    expect(await revealOf(page, 'clip')).toBe(
      'On your sentence: Compared with k = 3, the lesson’s k, none of the 4 cells of panel 2 changed at k = 1: with 2 words no offset |j − i| is larger than 1, so nothing is clipped and no dashed line is drawn.',
    );
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('step 4’s reveal, drawn', () => {
  const shot = (name) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    return new URL(name, ARTIFACTS).pathname;
  };
  const openReveal = (page) =>
    page.evaluate(() => {
      document.querySelector('[data-reveal="locality"]').closest('details.reveal').open = true;
    });
  /** What the figure shows: its titles, shares, the layout of each map and of the bars. */
  const figureOf = (page) =>
    page.evaluate(() => {
      const box = document.querySelector('[data-contrast="locality"]');
      const maps = [...box.querySelectorAll('.contrast-map')].map((figure) => ({
        table: figure.dataset.table,
        share: Number(figure.dataset.share),
        title: figure.querySelector('figcaption').textContent,
        layout: JSON.parse(figure.querySelector('canvas').dataset.layout ?? 'null'),
      }));
      const bars = box.querySelector('.contrast-bars canvas');
      return {
        hidden: box.hidden,
        maps,
        shares: JSON.parse(bars.dataset.shares ?? 'null'),
        bars: JSON.parse(bars.dataset.layout ?? 'null'),
        caption: box.querySelector('.contrast-caption').textContent,
      };
    });
  const drawnFigure = async (page, tokens) => {
    await expect
      .poll(() => figureOf(page).then((f) => f.maps[0]?.layout?.n === tokens.split(' ').length && f.bars !== null), {
        timeout: 4000,
      })
      .toBe(true);
    return figureOf(page);
  };
  const rgbAt = (page, selector, index, x, y) =>
    page.$$eval(
      selector,
      (canvases, [i, cx, cy]) => {
        const canvas = canvases[i];
        const ratio = canvas.width / canvas.getBoundingClientRect().width;
        const at = canvas.getContext('2d').getImageData(Math.floor(cx * ratio), Math.floor(cy * ratio), 1, 1).data;
        return Array.from(at.slice(0, 3));
      },
      [index, x, y],
    );

  /**
   * The figure against the API (recomputed here with rp.example): each map's title and share,
   * each cell's colour (one scale, 0 to the larger largest weight), the bars' heights and the
   * uniform line; and the reveal's text quotes the same percentages.
   */
  async function expectTrueFigure(page, tokens = SENTENCE) {
    const n = tokens.split(' ').length;
    const figure = await drawnFigure(page, tokens);
    expect(figure.hidden).toBe(false);
    const same = pageExample(rp, { tokens, sameQuery: true }).combinedWeights.data;
    const random = pageExample(rp, { tokens, sameQuery: true, table: 'random' }).combinedWeights.data;
    const own = nearShare(pageExample(rp, { tokens }).combinedWeights.data, n);
    const uniform = (3 * n - 2) / (n * n); // no mask: 2 keys in the two end rows, 3 in the others (n = 1: 1)
    const weights = { locality: same, random };
    const top = Math.max(...same, ...random);
    expect(figure.maps.map((m) => m.table)).toEqual(['locality', 'random']);
    for (const [index, map] of figure.maps.entries()) {
      const w = weights[map.table];
      expect(map.share).toBeCloseTo(nearShare(w, n), 12);
      expect(map.title).toBe(`${map.table} table: ${percent(nearShare(w, n))} % within one position`);
      expect(map.layout.max).toBe(top);
      const { x0, y0, cell } = map.layout;
      for (let i = 0; i < n; i += 1)
        for (let j = 0; j < n; j += 1) {
          const got = await rgbAt(page, '.contrast-map canvas', index, x0 + (j + 0.5) * cell, y0 + (i + 0.5) * cell);
          const want = colourOf(w[i * n + j], { scale: 'sequential', min: 0, max: top });
          for (let c = 0; c < 3; c += 1)
            expect(Math.abs(got[c] - want[c]), `${map.table} (${i}, ${j})`).toBeLessThanOrEqual(2);
        }
    }
    const shares = { locality: nearShare(same, n), random: nearShare(random, n), own, uniform };
    for (const key of Object.keys(shares)) expect(figure.shares[key], key).toBeCloseTo(shares[key], 12);
    // Each bar's height over the uniform line's height above the axis is its share over uniform's.
    const values = [shares.locality, shares.random, shares.own];
    for (const [index, bar] of figure.bars.bars.entries()) {
      expect(bar.value).toBeCloseTo(values[index], 12);
      const height = bar.bottom - bar.top;
      expect(Math.abs(height - ((bar.bottom - figure.bars.reference.y) * values[index]) / uniform)).toBeLessThan(0.01);
      // Filled in the line colour, just inside its top and its foot (where the dashed line is not).
      const line = await page.$eval('.contrast-bars canvas', (c) =>
        getComputedStyle(c).getPropertyValue('--relpos-line'),
      );
      for (const y of [bar.top + 2, bar.bottom - 2].filter((at) => Math.abs(at - figure.bars.reference.y) > 3)) {
        const fill = await rgbAt(page, '.contrast-bars canvas', 0, bar.x + bar.width / 2, y);
        expect(`#${fill.map((v) => v.toString(16).padStart(2, '0')).join('')}`).toBe(line.trim().toLowerCase());
      }
    }
    expect(figure.caption).toContain(
      `${percent(shares.locality)} % with the locality table, ${percent(shares.random)} % with a random one, ${percent(own)} % with the locality table and the words’ own queries; the dashed line is uniform attention’s ${percent(uniform)} %`,
    );
    const text = await revealOf(page, 'locality');
    for (const key of ['locality', 'random', 'uniform']) expect(text).toContain(`${percent(shares[key])} %`);
    return figure;
  }

  test('pressing step 4 loads and draws the two tables’ weights and the shares, the API’s numbers, from any starting state', async () => {
    for (const start of ['?table=random&k=1', '?causal=1', '?n=2', PERTURBED, '?long=1&n=300']) {
      const { page, context, problems } = await env.open(start, { ...VIEW, closedPanels: true });
      const fetched = [];
      page.on('request', (request) => fetched.push(request.url()));
      // Loaded when the step first runs, not with the page.
      expect(await page.$eval('[data-contrast="locality"]', (box) => [box.hidden, box.children.length])).toEqual([
        true,
        0,
      ]);
      await press(page, 'locality');
      await openReveal(page);
      await expectTrueFigure(page);
      expect(
        fetched.filter((url) => /locality-contrast/.test(url)),
        start,
      ).toHaveLength(1);
      expect(problems, start).toEqual([]);
      await context.close();
    }
  });

  test('“On my sentence” draws the reader’s words, down to two and one; light and dark redraw it; phone and desktop screenshots', async () => {
    const { page, context, problems } = await env.open('?tokens=a+dog+chased+the+ball+across+the+park', VIEW);
    await press(page, 'locality', true);
    await openReveal(page);
    await expectTrueFigure(page, 'a dog chased the ball across the park');
    await press(page, 'locality'); // the lesson's sentence again: redrawn
    await expectTrueFigure(page);
    const step = page.locator('details.reveal:has([data-reveal="locality"])');
    await step.screenshot({ path: shot('locality-contrast-light.png') });
    await page.screenshot({ path: shot('locality-contrast-1280.png') }); // beside the panels
    const hashes = () =>
      Promise.all(
        ['.contrast-map:nth-child(1) canvas', '.contrast-map:nth-child(2) canvas', '.contrast-bars canvas'].map((c) =>
          canvasHash(page, c),
        ),
      );
    const light = await hashes();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(async () => (await hashes()).every((hash, index) => hash !== light[index])).toBe(true);
    await expectTrueFigure(page); // the same numbers and cell colours on the dark theme
    await step.screenshot({ path: shot('locality-contrast-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(hashes).toEqual(light);
    await page.fill('#tokens', 'three short words');
    await press(page, 'locality', true);
    expect((await expectTrueFigure(page, 'three short words')).caption).toContain(
      'Only the two corner cells, (0, 2) and (2, 0), are farther than one position.',
    );
    for (const tokens of ['two words', 'one']) {
      await page.fill('#tokens', tokens);
      await press(page, 'locality', true);
      const figure = await expectTrueFigure(page, tokens);
      expect(figure.maps.map((m) => m.title)).toEqual([
        'locality table: 100 % within one position',
        'random table: 100 % within one position',
      ]);
      expect(figure.caption).toContain('every key is within one position: every share is 100 %');
    }
    expect(problems).toEqual([]);
    await context.close();
    for (const colorScheme of ['light', 'dark']) {
      const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme };
      const opened = await env.open('', phone);
      await press(opened.page, 'locality');
      await openReveal(opened.page);
      await expectTrueFigure(opened.page);
      expect(await opened.page.evaluate(() => document.documentElement.scrollWidth)).toBe(390); // nothing sideways
      await opened.page
        .locator('details.reveal:has([data-reveal="locality"])')
        .screenshot({ path: shot(`locality-contrast-phone-${colorScheme}.png`) });
      expect(opened.problems).toEqual([]);
      await opened.context.close();
    }
  });
});
