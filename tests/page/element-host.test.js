// The elements in a host page: fit="box" fits the element's own height (reserved by the host's
// CSS before the script runs: no layout shift), max-height caps it, captions="off" and
// actions="off" hide those; theme="inherit" follows the host (see the theme tests below).
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser.js';
import { SITE } from './page-fixture.js';
import { serveFolder } from './static-server.js';

let server;
let browser;
const folder = mkdtempSync(join(tmpdir(), 'relpos-element-host-'));
const page = (name, head, body) =>
  writeFileSync(
    join(folder, `${name}.html`),
    `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">${head}</head><body>${body}</body></html>`,
  );
beforeAll(async () => {
  copyFileSync(join(SITE, 'relpos-elements.js'), join(folder, 'relpos-elements.js'));
  page(
    'fit',
    // The script comes late (as a slow network would): the space is reserved before it.
    '<style>body { margin: 0; width: 900px } #box { display: block; height: 520px }</style>',
    `<relpos-attention id="box" fit="box" panels="combined-weights offsets" tokens="a b c d e f g h"></relpos-attention>
     <relpos-attention id="capped" max-height="380" captions="off" actions="off" panels="position-biases"></relpos-attention>
     <p id="after">after</p>
     <script type="module">
       window.before = document.querySelector('#box').getBoundingClientRect().height;
       await new Promise((resume) => setTimeout(resume, 300));
       await import('./relpos-elements.js');
     </script>`,
  );
  server = await serveFolder(folder);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const rendered = (p, selector) =>
  p.waitForFunction(
    (s) => document.querySelector(s)?.view && document.querySelector(s).shadowRoot.querySelector('canvas[data-layout]'),
    selector,
  );

describe('fit, max-height, captions, actions', () => {
  test('fit="box" fills the reserved box without overflow and nothing moves; max-height caps; captions and actions off', async () => {
    const {
      page: p,
      context,
      problems,
    } = await openPage(browser, `${server.url}fit.html`, {
      viewport: { width: 900, height: 900 },
    });
    await rendered(p, '#box');
    await rendered(p, '#capped');
    await p.waitForTimeout(100);
    const m = await p.evaluate(() => {
      const box = document.querySelector('#box');
      const grid = box.shadowRoot.querySelector('.relpos-grid');
      const capped = document.querySelector('#capped');
      return {
        boxHeight: box.getBoundingClientRect().height,
        gridBottom: grid.getBoundingClientRect().bottom - box.getBoundingClientRect().top,
        cappedHeight: capped.getBoundingClientRect().height,
        afterBefore: window.before,
        cappedTop: capped.getBoundingClientRect().top,
        captionShown: capped.shadowRoot.querySelector('.relpos-caption').offsetParent !== null,
        actionsShown: capped.shadowRoot.querySelector('.relpos-actions').offsetParent !== null,
      };
    });
    expect(m.afterBefore).toBe(520); // reserved before the script ran
    expect(m.boxHeight).toBe(520);
    expect(m.gridBottom).toBeLessThanOrEqual(520.5);
    expect(m.gridBottom).toBeGreaterThan(520 - 60); // the height is used
    expect(m.cappedTop).toBe(520); // the reserved box did not move what follows it
    expect(m.cappedHeight).toBeLessThanOrEqual(380.5);
    expect(m.cappedHeight).toBeGreaterThan(300);
    expect(m.captionShown).toBe(false);
    expect(m.actionsShown).toBe(false);
    // Another box height: fitted again.
    await p.evaluate(() => (document.querySelector('#box').style.height = '400px'));
    await p.waitForFunction(() => {
      const box = document.querySelector('#box');
      const grid = box.shadowRoot.querySelector('.relpos-grid');
      const bottom = grid.getBoundingClientRect().bottom - box.getBoundingClientRect().top;
      return bottom <= 400.5 && bottom > 340;
    });
    await screenshot(p, 'element-fit.png');
    expect(problems).toEqual([]);
    await context.close();
  });
});
