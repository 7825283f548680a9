// The colour bar of an exported SVG draws the ticks the canvas draws, by one rule
// (colourBarNumbers, web/render/colour-bar.js): on a narrow panel (a phone's, 360 px) no two of
// its numbers' boxes, measured with getBBox as Chromium lays the SVG's text out, overlap or touch
// (at least 3 px between them), and its numbers are the canvas's. Screenshots of each SVG (tests/artifacts/export-ticks-<panel>-<scheme>.png).
import { describe, expect, test } from 'vitest';
import { downloadedBytes, screenshot } from './browser.js';
import { usePage } from './page-fixture.js';

const env = usePage();

const save = async (page, selector) => {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return (await downloadedBytes(file)).toString('utf8');
};

// The numbers under the colour bar of the SVG shown in `page`: the texts hung 5 px under its
// outline (its one rect without fill), each with its box as laid out.
const barNumbers = (page) =>
  page.evaluate(() => {
    const outline = document.querySelector('rect[fill="none"]');
    const under = Number(outline.getAttribute('y')) + Number(outline.getAttribute('height'));
    return [...document.querySelectorAll('text')]
      .filter(
        (t) =>
          t.getAttribute('dominant-baseline') === 'hanging' && Math.abs(Number(t.getAttribute('y')) - under - 5) < 0.01,
      )
      .map((t) => {
        const box = t.getBBox();
        return { text: t.textContent, left: box.x, right: box.x + box.width };
      });
  });

describe('the colour bar of an exported SVG', () => {
  test.each(['dark', 'light'])(
    'at 360 px (%s): no two of its numbers overlap, and they are the canvas’s',
    async (colorScheme) => {
      // k = 12: the offsets run from −12 to 12, integers, ticked every 3 (nine numbers), which the
      // canvas's bar, about 208 px wide here, thins to every other (−12, −6, 0, 6, 12).
      const { page, context, problems } = await env.open('?k=12&n=16', {
        acceptDownloads: true,
        viewport: { width: 360, height: 800 },
        colorScheme,
      });
      const panels = await page.$$eval('figure[id^="figure-"]', (figures) =>
        figures.filter((f) => f.querySelector('button[data-svg]')).map((f) => f.id.slice('figure-'.length)),
      );
      expect(panels).toContain('offsets');
      expect(panels.length).toBeGreaterThanOrEqual(6);
      const viewer = await context.newPage();
      for (const panel of panels) {
        const svg = await save(page, `#figure-${panel} button[data-svg]`);
        const { bar } = JSON.parse(await page.$eval(`#figure-${panel} canvas`, (c) => c.dataset.layout));
        await viewer.setContent(`<!doctype html><body style="margin: 0">${svg}</body>`);
        const numbers = await barNumbers(viewer);
        await screenshot(viewer, `export-ticks-${panel}-${colorScheme}.png`, { fullPage: false });
        expect(numbers.length, panel).toBeGreaterThanOrEqual(2);
        const sorted = numbers.toSorted((a, b) => a.left - b.left);
        // The rule keeps 4 px between neighbours' widths as the canvas measures them; 1 px of it
        // allowed for getBBox's measure (before the rule, −12 and −9 stood 2.7 px apart).
        for (let i = 1; i < sorted.length; i += 1)
          expect(
            sorted[i].left - sorted[i - 1].right,
            `${panel}: ${sorted[i - 1].text} and ${sorted[i].text}`,
          ).toBeGreaterThanOrEqual(3);
        if (panel === 'offsets') expect(bar.ticks.map((t) => t.value)).toEqual([-12, -6, 0, 6, 12]);
        expect(
          numbers.map((n) => n.text),
          panel,
        ).toEqual(bar.ticks.map((t) => t.text));
      }
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
