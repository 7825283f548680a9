// <relpos-attention> and <relpos-profile> on the examples page, in Chromium: they draw, follow
// their attributes, share one WASM instance, take styles from outside, and turn invalid
// attributes into a visible message instead of an error.
import { describe, expect, test } from 'vitest';
import { screenshot } from './browser.js';
import { usePage } from './page-fixture.js';

const env = usePage();
const EXAMPLES = 'examples/elements.html';

// Counts WebAssembly instantiations in the page.
const COUNT_INSTANCES = () => {
  window.__wasmInstances = 0;
  for (const name of ['instantiate', 'instantiateStreaming']) {
    const original = WebAssembly[name];
    WebAssembly[name] = (...args) => {
      window.__wasmInstances += 1;
      return original.apply(WebAssembly, args);
    };
  }
};

async function openExamples(options = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 }, ...options });
  await context.addInitScript(COUNT_INSTANCES);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${env.server.url}${EXAMPLES}`);
  await page.waitForFunction(() =>
    [...document.querySelectorAll('relpos-attention, relpos-profile')].every(
      (el) => el.view && el.shadowRoot.querySelector('canvas[aria-label]'),
    ),
  );
  return { page, context, problems };
}

const inShadow = (page, id, selector, fn) =>
  page.$eval(
    `#${id}`,
    (el, [s, f]) => new Function('nodes', `return (${f})(nodes)`)([...el.shadowRoot.querySelectorAll(s)]),
    [selector, fn.toString()],
  );

describe('custom elements', () => {
  test('draw the chosen panels, share one WASM instance, no errors', async () => {
    const { page, context, problems } = await openExamples();
    expect(await page.evaluate(() => window.__wasmInstances)).toBe(1);
    expect(await inShadow(page, 'attention', 'figure', (nodes) => nodes.map((n) => n.dataset.panel))).toEqual([
      'combinedWeights',
      'offsets',
    ]);
    expect(
      await inShadow(page, 'attention', 'canvas', (nodes) =>
        nodes.map((n) => n.getAttribute('aria-label').slice(0, 40)),
      ),
    ).toEqual(['Combined weights: 8 by 8 heatmap, query ', 'Clipped offsets: 8 by 8 heatmap, query p']);
    expect(await page.$eval('#profile', (el) => el.shadowRoot.querySelector('.relpos-caption').textContent)).toContain(
      'σ = 2 (σ × 1.40 looking back',
    );
    // The profile's label: its numbers are the view's, every negative one with a minus sign (U+2212).
    const { label, offsets, profile } = await page.$eval('#profile', (el) => ({
      label: el.shadowRoot.querySelector('canvas').getAttribute('aria-label'),
      offsets: [...el.view.offsets],
      profile: [...el.view.profile],
    }));
    const low = Math.min(...profile);
    const high = Math.max(...profile);
    const peak = offsets[profile.indexOf(high)];
    expect(offsets[0]).toBe(-8);
    expect(low).toBeLessThan(-0.0005); // a negative score, written with three decimals
    const signedText = (x, digits) => `${x < 0 ? '\u2212' : ''}${Math.abs(x).toFixed(digits)}`;
    expect(label).toBe(
      `Line plot of the profile over offsets \u22128 to 8; scores from ${signedText(low, 3)} to ${signedText(high, 3)}, highest at offset ${signedText(peak, 0)}.`,
    );
    expect(label).not.toMatch(/-\d/);
    await screenshot(page, 'elements.png');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('changing an attribute redraws; several changes make one render', async () => {
    const { page, context } = await openExamples();
    const renders = await page.evaluate(async () => {
      const el = document.getElementById('attention');
      let count = 0;
      el.addEventListener('relpos-render', () => (count += 1));
      el.setAttribute('seq-len', '12');
      el.setAttribute('max-distance', '4');
      el.setAttribute('seed', '3');
      await new Promise((done) => setTimeout(done, 100));
      return { count, n: el.view.n, k: el.view.maxDistance };
    });
    expect(renders).toEqual({ count: 1, n: 12, k: 4 });
    expect(await inShadow(page, 'attention', 'canvas', (nodes) => nodes[0].getAttribute('aria-label'))).toContain(
      '12 by 12 heatmap',
    );
    await page.evaluate(() => document.getElementById('attention').setAttribute('panels', 'content-scores'));
    await page.waitForFunction(
      () => document.getElementById('attention').shadowRoot.querySelectorAll('figure').length === 1,
    );
    await page.evaluate(() => document.getElementById('profile').setAttribute('width', '3'));
    await page.waitForFunction(() =>
      document.getElementById('profile').shadowRoot.querySelector('.relpos-caption').textContent.includes('σ = 3'),
    );
    // The element has no checkboxes: its captions name none ("tick it"), and the causal mask only
    // when its attribute is on.
    const captions = () =>
      inShadow(page, 'attention', 'figure', (nodes) =>
        nodes.map((n) => [n.dataset.panel, n.querySelector('.relpos-caption').textContent]),
      );
    await page.evaluate(() =>
      document.getElementById('attention').setAttribute('panels', 'position-biases content-weights'),
    );
    await expect.poll(async () => (await captions()).length).toBe(2);
    const [[, biases], [, weights]] = await captions();
    expect(biases).toContain('a diagonal is constant only with the same query in every row.');
    expect(biases).not.toMatch(/tick/);
    expect(weights).not.toContain('causal mask');
    await page.evaluate(() => document.getElementById('attention').setAttribute('causal', ''));
    await expect
      .poll(async () => (await captions())[1][1])
      .toContain('the causal mask is on: keys after the query (j > i) get weight 0');
    expect((await captions())[0][1]).not.toMatch(/tick/);
    await context.close();
  });

  test('invalid attributes show a message and never throw', async () => {
    const { page, context, problems } = await openExamples();
    const message = (id) =>
      page.$eval(`#${id}`, (el) => {
        const m = el.shadowRoot.querySelector('[part="message"]');
        return m.hidden ? null : m.textContent;
      });
    expect(await message('invalid')).toBe('seq-len must be a number from 1 to 512; using 6');
    expect(await message('attention')).toBeNull();
    const bad = [
      ['attention', 'd-k', '-5', /^d-k must be an integer from 1 to 64; using 1$/],
      ['attention', 'seed', 'NaN', /^seed must be a number/],
      ['attention', 'max-distance', '1e9', /^max-distance must be an integer from 0 to 63; using 63$/],
      [
        'attention',
        'causal',
        'perhaps',
        /^causal: unknown perhaps; choose from 1, true, on, yes, 0, false, off, no; using off$/,
      ],
      ['attention', 'panels', 'heat', /^panels: unknown heat; choose from/],
      ['attention', 'theme', 'neon', /^theme: unknown neon; choose from light, dark, auto, inherit; using auto$/],
      ['attention', 'panels', 'heat warmth', /^panels: unknown heat, warmth; choose from .*offsets; using all$/],
      ['attention', 'fit', 'sideways', /^fit: unknown sideways; choose from width, box; using width$/],
      ['attention', 'tokens', 'x'.repeat(10000), null],
      ['profile', 'width', '0', /^width must be a number from 0.1 to 20; using 0.1$/],
      ['profile', 'noise', 'Infinity', /^noise must be a number/],
      ['profile', 'asymmetry', '2', /^asymmetry must be a number from \u22120\.9 to 0\.9; using 0\.9$/],
      ['profile', 'asymmetry', '-2', /^asymmetry must be a number from \u22120\.9 to 0\.9; using \u22120\.9$/],
    ];
    for (const [id, attribute, value, pattern] of bad) {
      await page.evaluate(
        ([i, a, v]) => {
          const el = document.getElementById(i);
          for (const name of el.getAttributeNames()) if (!['id', 'class'].includes(name)) el.removeAttribute(name);
          el.setAttribute(a, v);
        },
        [id, attribute, value],
      );
      await page.waitForTimeout(30);
      const text = await message(id);
      if (pattern) expect(text, `${attribute}=${value}`).toMatch(pattern);
      else expect(text, `${attribute}=${value.slice(0, 10)}`).toBeNull();
      expect(await page.$eval(`#${id}`, (el) => el.view !== null)).toBe(true);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  test('in a 300 px column the profile’s axis title under the plot is whole: no ink in the canvas’s outer 2 px along it', async () => {
    const { page, context, problems } = await openExamples();
    const ink = await page.evaluate(async () => {
      const el = document.getElementById('profile');
      el.style.display = 'block';
      el.style.width = '300px';
      const drawn = new Promise((done) => el.addEventListener('relpos-render', done, { once: true }));
      el.setAttribute('seed', '3'); // a redraw at the new width
      await drawn;
      const canvas = el.shadowRoot.querySelector('canvas');
      const ratio = canvas.width / canvas.getBoundingClientRect().width;
      // The band of the x axis title: the canvas's last 18 CSS px (the title's 13 px type and 3 px under it).
      const band = Math.round(18 * ratio);
      const { data } = canvas.getContext('2d').getImageData(0, canvas.height - band, canvas.width, band);
      const columns = [];
      for (let x = 0; x < canvas.width; x += 1)
        for (let y = 0; y < band; y += 1)
          if (data[(y * canvas.width + x) * 4 + 3] > 0) {
            columns.push(x);
            break;
          }
      return { width: canvas.width, edge: Math.ceil(2 * ratio), first: columns[0], last: columns.at(-1) };
    });
    // "offset j − i  (< 0: key before the query)" ran past the right edge ("…before the quer").
    expect(ink.first).toBeGreaterThanOrEqual(ink.edge - 1);
    expect(ink.last).toBeLessThan(ink.width - ink.edge + 1);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('styled from outside: custom properties, ::part, theme, and sized to the container', async () => {
    const { page, context } = await openExamples();
    const styled = await page.$eval('#styled', (el) => {
      const caption = el.shadowRoot.querySelector('[part="caption"]');
      const panel = el.shadowRoot.querySelector('[part="panel"]');
      return {
        captionStyle: getComputedStyle(caption).fontStyle,
        accent: getComputedStyle(panel).getPropertyValue('--relpos-accent').trim(),
        background: getComputedStyle(panel).backgroundColor,
      };
    });
    expect(styled).toEqual({ captionStyle: 'italic', accent: '#d1495b', background: 'rgb(28, 28, 33)' }); // theme="dark"
    // The theme in any case, as the other attributes: "DARK" is dark, "Light" light, and no message.
    const cased = await page.$eval('#styled', async (el) => {
      const read = () => [
        getComputedStyle(el.shadowRoot.querySelector('[part="panel"]')).backgroundColor,
        el.theme,
        el.shadowRoot.querySelector('.relpos-message').hidden,
      ];
      const rendered = () => new Promise((done) => el.addEventListener('relpos-render', done, { once: true }));
      const themed = async (theme) => {
        const next = rendered();
        el.setAttribute('theme', theme);
        await next;
        return read();
      };
      const result = { dark: await themed('DARK'), light: await themed('Light') };
      await themed('dark');
      return result;
    });
    expect(cased).toEqual({ dark: ['rgb(28, 28, 33)', 'dark', true], light: ['rgb(255, 255, 255)', 'light', true] });
    const light = await page.$eval(
      '#attention',
      (el) => getComputedStyle(el.shadowRoot.querySelector('[part="panel"]')).backgroundColor,
    );
    expect(light).toBe('rgb(255, 255, 255)');
    const widths = await page.evaluate(async () => {
      const el = document.getElementById('attention');
      el.setAttribute('panels', 'offsets');
      el.style.width = '420px';
      await new Promise((done) => setTimeout(done, 150));
      const first = el.shadowRoot.querySelector('canvas').getBoundingClientRect().width;
      el.style.width = '700px';
      await new Promise((done) => setTimeout(done, 150));
      return [first, el.shadowRoot.querySelector('canvas').getBoundingClientRect().width];
    });
    expect(widths[0]).toBeLessThanOrEqual(420);
    expect(widths[1]).toBeGreaterThan(widths[0] + 200);
    await context.close();
  });
});
