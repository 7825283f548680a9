// "Embed this view": the element snippet draws the same numbers as the page, the iframe
// snippet's height fits what the frame shows in a 700 px column, the Jupyter line inlines the
// classic-script bundle, and Copy puts the code on the clipboard.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { SITE, usePage } from './page-fixture.js';

const env = usePage();
const HOST = join(SITE, 'embed-code-host.html');
afterAll(() => rmSync(HOST, { force: true }));

describe('embed this view', () => {
  test('the element and iframe snippets show the current view; the height fits; Copy copies', async () => {
    const { page, context, problems } = await env.open('?seed=7&k=2&causal=1&tokens=we+saw+a+red+fox', {
      viewport: { width: 1280, height: 900 },
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.click('#embed-code summary');
    await page.waitForFunction(() => document.querySelector('#embed-element')?.textContent); // built when opened
    await page.selectOption('#embed-panels', 'combinedWeights,offsets');
    const element = await page.textContent('#embed-element');
    const iframe = await page.textContent('#embed-iframe');
    const jupyter = await page.textContent('#embed-jupyter');
    expect(element).toContain(
      '<relpos-attention tokens="we saw a red fox" max-distance="2" seed="7" causal panels="combined-weights offsets"></relpos-attention>',
    );
    expect(iframe).toMatch(
      /^<iframe src="index\.html\?embed=1&amp;fit=width&amp;panels=combinedWeights,offsets&amp;k=2&amp;seed=7&amp;causal=1&amp;tokens=we\+saw\+a\+red\+fox"/,
    );
    expect(jupyter).toMatch(
      /^from IPython\.display import HTML; HTML\('<script>' \+ open\('relpos-elements\.iife\.js'\)\.read\(\) \+ '<\/script>' \+ "<relpos-attention tokens=\\"we saw a red fox\\"/,
    );
    await page.click('button[data-copy="iframe"]');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(iframe);
    const expected = await page.evaluate(() =>
      [0, 1, 2, 3, 4].flatMap((i) => [0, 1, 2, 3, 4].map((j) => window.relposPage.valueAt('combinedWeights', i, j))),
    );

    // Both snippets in a host page with a 700 px column.
    writeFileSync(
      HOST,
      `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>
<body style="margin: 0"><div style="width: 700px">${element}\n${iframe}</div></body></html>`,
    );
    const host = await context.newPage();
    await host.goto(`${env.server.url}embed-code-host.html`);
    await host.waitForFunction(() => document.querySelector('relpos-attention')?.view);
    const drawn = await host.evaluate(() =>
      Array.from(document.querySelector('relpos-attention').view.result.combinedWeights.data),
    );
    expect(drawn).toEqual(expected);
    const frame = host.frames().find((f) => f !== host.mainFrame());
    await frame.waitForSelector('body[data-ready="true"]');
    await frame.waitForSelector('body[data-fit]');
    const [contentHeight, frameHeight] = await frame.evaluate(() => [
      document.querySelector('main').getBoundingClientRect().bottom,
      innerHeight,
    ]);
    const zoom = await frame.evaluate(() => document.querySelector('main').style.zoom);
    expect(zoom).toBe(''); // fit=width never zooms
    expect(contentHeight, 'the frame shows all of it').toBeLessThanOrEqual(frameHeight);
    expect(contentHeight, 'and is not much taller').toBeGreaterThan(frameHeight - 40);
    expect(problems).toEqual([]);
    await context.close();
  });
});
