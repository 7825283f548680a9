// The elements' JavaScript face, in Chromium on the examples page: every attribute is
// a property that reflects it, a property set before the element is upgraded still counts,
// relpos-render reaches the document from inside another shadow root, and the panels note names
// the ids as the attribute spells them.
import { createRelPos } from 'relpos-wasm';
import { describe, expect, test } from 'vitest';
import { usePage } from './page-fixture.js';

const env = usePage();

async function openExamples() {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${env.server.url}examples/elements.html`);
  await page.waitForFunction(() =>
    [...document.querySelectorAll('relpos-attention, relpos-profile')].every((el) => el.view),
  );
  return { page, context, problems };
}

// Runs `change` on the element and resolves after its next relpos-render.
const afterRender = (page, id, change) =>
  page.evaluate(
    ([i, f]) =>
      new Promise((done) => {
        const el = document.getElementById(i);
        el.addEventListener('relpos-render', (event) => done(event.detail.notes), { once: true });
        new Function('el', f)(el);
      }),
    [id, change],
  );

describe('custom element properties', () => {
  test('el.seed = 9 sets seed="9" and redraws with seed 9; booleans add and remove the bare attribute; null removes', async () => {
    const { page, context, problems } = await openExamples();
    await afterRender(page, 'attention', 'el.seed = 9; el.maxDistance = 1;');
    const state = await page.$eval('#attention', (el) => ({
      attribute: el.getAttribute('seed'),
      seed: el.seed,
      k: el.getAttribute('max-distance'),
      weights: Array.from(el.view.result.combinedWeights.data),
    }));
    expect(state).toMatchObject({ attribute: '9', seed: 9, k: '1' });
    // The same numbers as an element written with the attribute.
    const written = await page.evaluate(
      () =>
        new Promise((done) => {
          const el = document.createElement('relpos-attention');
          for (const [name, value] of Object.entries({
            seed: '9',
            'max-distance': '1',
            tokens: document.getElementById('attention').getAttribute('tokens'),
            panels: 'combined-weights',
          }))
            el.setAttribute(name, value);
          el.addEventListener('relpos-render', () => done(Array.from(el.view.result.combinedWeights.data)), {
            once: true,
          });
          document.body.append(el);
        }),
    );
    expect(written).toEqual(state.weights);

    await afterRender(page, 'attention', 'el.causal = true;');
    expect(await page.$eval('#attention', (el) => [el.getAttribute('causal'), el.causal, el.view.causal])).toEqual([
      '',
      true,
      true,
    ]);
    await afterRender(page, 'attention', 'el.causal = false; el.seed = null;');
    expect(
      await page.$eval('#attention', (el) => [el.hasAttribute('causal'), el.hasAttribute('seed'), el.seed]),
    ).toEqual([false, false, 42]);
    // Reading gives the value drawn with: an invalid attribute reads as what replaced it.
    await afterRender(page, 'profile', "el.setAttribute('width', '0');");
    expect(await page.$eval('#profile', (el) => [el.width, el.theme, el.dK])).toEqual([0.1, 'auto', 4]);
    // A theme that is none of light, dark, auto, inherit draws as auto, and reads so.
    await afterRender(page, 'profile', "el.theme = 'banana';");
    expect(await page.$eval('#profile', (el) => [el.getAttribute('theme'), el.theme])).toEqual(['banana', 'auto']);
    expect(await page.$eval('#attention', (el) => el.panels)).toBe('combined-weights offsets');
    // Read as drawn: in the page's order, the unknown left out.
    await afterRender(page, 'attention', "el.panels = 'offsets banana Combined-Weights';");
    expect(await page.$eval('#attention', (el) => [el.getAttribute('panels'), el.panels])).toEqual([
      'offsets banana Combined-Weights',
      'combined-weights offsets',
    ]);
    await afterRender(page, 'attention', "el.panels = 'combined-weights offsets';");
    expect(problems).toEqual([]);
    await context.close();
  });

  test('captions, actions, fit and max-height are properties of what is drawn; captions and actions are switches by the one rule, on both elements', async () => {
    const { page, context, problems } = await openExamples();
    // What each element shows: its captions and its buttons, laid out or not.
    const shown = (id) =>
      page.$eval(`#${id}`, (el) =>
        ['.relpos-caption', '.relpos-actions'].map((selector) =>
          [...el.shadowRoot.querySelectorAll(selector)].some((part) => part.getClientRects().length > 0),
        ),
      );
    const read = (id) =>
      page.$eval(`#${id}`, (el) => ({
        captions: el.captions,
        actions: el.actions,
        attributes: [el.getAttribute('captions'), el.getAttribute('actions')],
        fit: el.fit,
        maxHeight: el.maxHeight,
      }));
    for (const id of ['attention', 'profile']) {
      expect(await shown(id), id).toEqual([true, true]);
      expect(await read(id), id).toMatchObject({ captions: true, actions: true, attributes: [null, null] });
      // Words the one rule reads as off, in any case: hidden (the style sheet once matched off, 0, false only).
      for (const [captions, actions] of [
        ['no', 'OFF'],
        ['False', '0'],
      ]) {
        const notes = await afterRender(
          page,
          id,
          `el.setAttribute('captions', '${captions}'); el.setAttribute('actions', '${actions}');`,
        );
        expect(notes, `${id} ${captions} ${actions}`).toEqual([]);
        expect(await shown(id), `${id} ${captions} ${actions}`).toEqual([false, false]);
        expect(await read(id), id).toMatchObject({ captions: false, actions: false });
      }
      // Properties: true is the default, so the attribute goes; false writes "off".
      await afterRender(page, id, 'el.captions = true; el.actions = true;');
      expect(await read(id), id).toMatchObject({ captions: true, actions: true, attributes: [null, null] });
      expect(await shown(id), id).toEqual([true, true]);
      await afterRender(page, id, 'el.actions = false;');
      expect(await read(id), id).toMatchObject({ captions: true, actions: false, attributes: [null, 'off'] });
      expect(await shown(id), id).toEqual([true, false]);
      // A word that is none: the default, and the message says so.
      const notes = await afterRender(page, id, "el.setAttribute('actions', 'maybe');");
      expect(notes, id).toEqual(['actions: unknown maybe; choose from 1, true, on, yes, 0, false, off, no; using on']);
      expect(await shown(id), id).toEqual([true, true]);
      await afterRender(page, id, 'el.actions = null;');
    }
    // fit and max-height read as drawn with: a choice in any case, a number of px or null.
    await afterRender(page, 'attention', "el.setAttribute('fit', 'BOX'); el.maxHeight = 400;");
    expect(await read('attention')).toMatchObject({ fit: 'box', maxHeight: 400 });
    const notes = await afterRender(page, 'attention', "el.fit = 'sideways'; el.setAttribute('max-height', '50');");
    expect(notes).toEqual([
      'fit: unknown sideways; choose from width, box; using width',
      'max-height: expected a number of px ≥ 100, got 50; using no maximum',
    ]);
    expect(await read('attention')).toMatchObject({ fit: 'width', maxHeight: null });
    expect(problems).toEqual([]);
    await context.close();
  });

  test('a property set before upgrade is kept', async () => {
    const { page, context } = await openExamples();
    const state = await page.evaluate(
      () =>
        new Promise((done) => {
          const template = document.createElement('template');
          template.innerHTML = '<relpos-profile></relpos-profile>';
          const el = template.content.firstElementChild; // inert: not upgraded yet
          el.maxDistance = 3;
          el.addEventListener('relpos-render', () => done([el.getAttribute('max-distance'), el.view.offsets.length]), {
            once: true,
          });
          document.body.append(document.adoptNode(el));
        }),
    );
    expect(state).toEqual(['3', 7]);
    await context.close();
  });

  test('relpos-render bubbles and is composed: the document hears it from inside another shadow root', async () => {
    const { page, context } = await openExamples();
    const heard = await page.evaluate(
      () =>
        new Promise((done) => {
          const host = document.createElement('div');
          document.body.append(host);
          const el = document.createElement('relpos-profile');
          document.addEventListener(
            'relpos-render',
            (event) => done([event.target === host, event.composedPath()[0] === el]),
            {
              once: true,
            },
          );
          host.attachShadow({ mode: 'open' }).append(el);
        }),
    );
    expect(heard).toEqual([true, true]);
    await context.close();
  });

  // What index.d.ts promises of relpos-render (RelposRenderEvent): a CustomEvent, bubbling and
  // composed, whose detail.notes are the notes the message part shows (here one invalid value).
  test('relpos-render is the RelposRenderEvent of index.d.ts: a CustomEvent with detail.notes, the message part’s notes', async () => {
    const { page, context } = await openExamples();
    for (const tag of ['relpos-attention', 'relpos-profile']) {
      const heard = await page.evaluate(
        (name) =>
          new Promise((done) => {
            const el = document.createElement(name);
            el.setAttribute('noise', 'lots');
            el.addEventListener(
              'relpos-render',
              (event) =>
                done({
                  custom: event instanceof CustomEvent,
                  bubbles: event.bubbles,
                  composed: event.composed,
                  notes: event.detail?.notes,
                  message: el.shadowRoot.querySelector('[part="message"]').textContent,
                }),
              { once: true },
            );
            document.body.append(el);
          }),
        tag,
      );
      expect(heard, tag).toEqual({
        custom: true,
        bubbles: true,
        composed: true,
        notes: [expect.stringMatching(/^noise must be a number from 0 to 2; using \d/)],
        message: heard.notes.join(' · '),
      });
    }
    await context.close();
  });

  test('the panels note names the ids in kebab-case, as the attribute takes them', async () => {
    const { page, context } = await openExamples();
    const notes = await afterRender(page, 'attention', "el.panels = 'heat combined-weights';");
    expect(notes).toEqual([
      'panels: unknown heat; choose from content-scores, position-biases, content-weights, combined-weights, difference, offsets',
    ]);
    await context.close();
  });

  test('el.result = rp.attention(…) draws your own numbers (float32 too), with your words; null goes back; bad results throw', async () => {
    const rp = await createRelPos();
    const m = (rows, cols, seed) => ({ rows, cols, data: Float32Array.from(rp.randn(seed, rows * cols)) });
    const n = 7;
    const result = rp.attention({ q: m(n, 3, 1), k: m(n, 3, 2), relKeys: m(5, 3, 3), causal: true });
    const plain = Object.fromEntries(
      Object.entries(result).map(([key, value]) => [
        key,
        value?.data ? { ...value, data: Array.from(value.data) } : value,
      ]),
    );
    const { page, context, problems } = await openExamples();
    const notes = await afterRender(
      page,
      'attention',
      `const given = ${JSON.stringify(plain)};
       for (const value of Object.values(given)) if (value && value.data) value.data = Float32Array.from(value.data);
       el.setAttribute('tokens', 'a b c d e f g');
       el.causal = true;
       el.result = given;`,
    );
    expect(notes).toEqual([]);
    const drawn = await page.$eval('#attention', (el) => ({
      n: el.view.n,
      k: el.view.maxDistance,
      weights: Array.from(el.result.combinedWeights.data),
      offsets: Array.from(el.view.offsets.data.slice(0, 7)),
      labels: [...el.shadowRoot.querySelectorAll('canvas')].map((c) => c.getAttribute('aria-label').slice(0, 60)),
    }));
    expect(drawn.n).toBe(7);
    expect(drawn.k).toBe(2);
    expect(drawn.weights).toEqual(Array.from(result.combinedWeights.data));
    expect(drawn.offsets).toEqual([0, 1, 2, 2, 2, 2, 2]); // clip(j − i, ±2) for i = 0
    expect(drawn.labels[0]).toMatch(/^Combined weights: 7 by 7 heatmap/);
    const errors = await page.$eval('#attention', (el) =>
      [
        { combinedWeights: { rows: 100, cols: 100, data: new Float64Array(10000) } },
        5,
        { combinedWeights: { rows: 2, cols: 2, data: [1, 0, 0, 1] } },
      ].map((value) => {
        try {
          el.result = value;
          return null;
        } catch (error) {
          return `${error.constructor.name}: ${error.message}`;
        }
      }),
    );
    expect(errors).toEqual([
      "RangeError: relpos-attention: result: result.combinedWeights must be n × n with n from 1 to 64 (larger: relpos-wasm/render's heatmap), got 100",
      'TypeError: relpos-attention: result: result must be a result of attention(), got number',
      'TypeError: relpos-attention: result: result.contentScores must be an n × n matrix (n = 2) of a Float64Array or Float32Array, as attention() returns',
    ]);
    await afterRender(page, 'attention', "el.result = null; el.removeAttribute('tokens'); el.seqLen = 5;");
    expect(await page.$eval('#attention', (el) => [el.view.n, el.result.combinedWeights.rows])).toEqual([5, 5]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
