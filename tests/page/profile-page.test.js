// The page in real headless Chromium, served from the built static files (build/site).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { launchBrowser, openPage, screenshot } from './browser.js';
import { serveFolder } from './static-server.js';

let server;
let browser;
let rp;

beforeAll(async () => {
  server = await serveFolder(new URL('../../build/site/', import.meta.url).pathname);
  browser = await launchBrowser();
  rp = await createRelPos();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Non-background pixels of the canvas, counted in the page. */
const inkedPixels = (page) =>
  page.$eval('#profile-canvas', (canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) count += 1;
    return count;
  });

describe('the locality profile page', () => {
  test('loads with no error and draws the handbook profile', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await inkedPixels(page)).toBeGreaterThan(2000);
    const label = await page.getAttribute('#profile-canvas', 'aria-label');
    const { profile } = rp.localityProfile();
    const max = Math.max(...profile);
    expect(label).toContain(`offsets -5 to 5`);
    expect(label).toContain(`highest at offset 0`);
    expect(label).toContain(max.toFixed(3));
    await screenshot(page, 'profile-light.png');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('a control redraws with the API\'s numbers, and a bad value shows a message', async () => {
    const { page, context, problems } = await openPage(browser, server.url, { colorScheme: 'dark' });
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('input[name="asymmetry"]', '0.6');
    await page.fill('input[name="noise"]', '0');
    const { profile } = rp.localityProfile({ asymmetry: 0.6, noise: 0 });
    await expect.poll(() => page.textContent('#profile-status')).toBe(`Highest score ${Math.max(...profile).toFixed(3)} at offset 0.`);
    await screenshot(page, 'profile-dark.png');
    await page.fill('input[name="width"]', '0');
    await expect.poll(() => page.textContent('#profile-status')).toMatch(/^localityProfile: width must be a finite number > 0/);
    await page.fill('input[name="width"]', '2');
    await expect.poll(() => page.getAttribute('#profile-status', 'class')).toBe('status');
    expect(problems).toEqual([]);
    await context.close();
  });
});
