// The colour bar of an exported SVG draws the ticks the canvas draws, by one rule
// (colourBarShapes, web/render/colour-bar.js): on a narrow panel (a phone's, 360 px) no two of
// its numbers' boxes, measured with getBBox as Chromium lays the SVG's text out, overlap or touch
// (at least 3 px between them), its numbers are the canvas's, and so are its tick marks.
// Screenshots of each SVG (tests/artifacts/export-ticks-<panel>-<scheme>.png).
import { describe, expect, test } from 'vitest';
import { downloadedBytes, screenshot } from './browser.js';
import { usePage } from './page-fixture.js';

const env = usePage();

const save = async (page, selector) => {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return (await downloadedBytes(file)).toString('utf8');
};

// The numbers under the colour bar of the SVG shown in `page` (its group data-bar="numbers"), each
// with its box as laid out.
const barNumbers = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('g[data-bar="numbers"] text')].map((t) => {
      const box = t.getBBox();
      return { text: t.textContent, left: box.x, right: box.x + box.width, top: box.y };
    }),
  );

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
        const layout = JSON.parse(await page.$eval(`#figure-${panel} canvas`, (c) => c.dataset.layout));
        const { bar } = layout;
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
        // A tick mark under each of the canvas's ticks, within a pixel of it, hanging from the
        // bar's bottom (the canvas's layout; the SVG's cells stand as far down as its header reaches).
        const { marks, header } = await viewer.evaluate((y0) => {
          const number = (element, name) => Number(element.getAttribute(name));
          const first = document.querySelector('rect[data-i="0"][data-j="0"]');
          return {
            header: number(first, 'y') - y0,
            marks: [...document.querySelectorAll('g[data-bar="ticks"] rect')].map((r) => ({
              centre: number(r, 'x') + number(r, 'width') / 2,
              top: number(r, 'y'),
            })),
          };
        }, layout.y0);
        expect(marks.length, panel).toBe(bar.ticks.length);
        for (const [index, tick] of bar.ticks.entries()) {
          expect(Math.abs(marks[index].centre - tick.x), `${panel}: ${tick.text}`).toBeLessThanOrEqual(1);
          expect(marks[index].top - header, `${panel}: ${tick.text}`).toBeCloseTo(bar.bottom, 1);
          expect(numbers[index].top - header, `${panel}: ${tick.text}`).toBeGreaterThan(bar.bottom); // under the bar
        }
      }
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
