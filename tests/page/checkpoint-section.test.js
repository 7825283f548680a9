// "A real model's position patterns" in headless Chromium, one browser session: a T5-shaped file
// and its config.json opened through the file input draw both parts, each head's mass table and a
// caption equal to the one the API's numbers give (computed here in Node); a bad file leaves the
// drawing as it was; the sharded pair opens; "Save the position tables" writes a small JSON that
// <relpos-profile src> draws with the same caption. Screenshots light and dark.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRelPos, openCheckpoint } from 'relpos-wasm';
import { checkpointCaption } from '../../web/views/checkpoint-view.js';
import { corpusName } from '../../web/train/corpus-format.js';
import { trainingCorpus } from '../js/helpers.js';
import { downloadedBytes, screenshot } from './browser.js';
import { canvasDrawn as drawn, clickTrainOpen, usePage } from './page-fixture.js';

const env = usePage();
let dir;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'relpos-checkpoint-page-'));
  execFileSync('/usr/bin/python3', [new URL('../fixtures/make_checkpoints.py', import.meta.url).pathname, dir]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (name) => join(dir, name);

// The opaque pixels of a canvas exactly of colour [r, g, b].
const pixelsOfColour = (page, selector, rgb) =>
  page.$eval(
    selector,
    (canvas, [r, g, b]) => {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i + 3] === 255 && data[i] === r && data[i + 1] === g && data[i + 2] === b) count += 1;
      return count;
    },
    rgb,
  );

// The theme's text colour where the canvas is (its --relpos-fg now, as [r, g, b] and as text) and
// how many of the canvas's opaque pixels are exactly that colour.
async function fgPixels(page, selector) {
  const { fg, rgb } = await page.$eval(selector, (canvas) => {
    const value = getComputedStyle(canvas).getPropertyValue('--relpos-fg').trim();
    const probe = document.createElement('canvas').getContext('2d');
    probe.fillStyle = value;
    probe.fillRect(0, 0, 1, 1);
    return { fg: value, rgb: Array.from(probe.getImageData(0, 0, 1, 1).data.slice(0, 3)) };
  });
  return { fg, rgb, own: await pixelsOfColour(page, selector, rgb) };
}

async function expectedCaption() {
  const rp = await createRelPos();
  const checkpoint = await openCheckpoint(new Uint8Array(readFileSync(at('t5-tiny.safetensors'))));
  const config = JSON.parse(readFileSync(at('config.json'), 'utf8'));
  const tables = await rp.checkpointPositions(checkpoint, { config });
  return checkpointCaption(['encoder', 'decoder'].map((part) => tables.find((t) => t.part === part)));
}

describe('the checkpoint part of the learned-patterns section', () => {
  test('opens a T5-shaped file, refuses a bad one, saves the tables, and <relpos-profile src> draws them', async () => {
    const { page, context, problems } = await env.open('', {
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    await clickTrainOpen(page);
    await page.waitForSelector('#checkpoint-files');
    expect(await page.textContent('#checkpoint-section')).toContain('Nothing leaves your machine');
    // The label and the file button stand apart on screen: the button under the label's words
    // (the part's own styles, there before any file is opened), not touching them.
    const { below, fileFont } = await page.$eval('#checkpoint-files', (input) => {
      const range = document.createRange();
      const words = input.previousSibling; // the label's text, measured without its spaces
      range.setStart(words, 0);
      range.setEnd(words, words.textContent.trimEnd().length);
      return {
        below: input.getBoundingClientRect().top - range.getBoundingClientRect().bottom,
        fileFont: getComputedStyle(input).fontFamily === getComputedStyle(document.body).fontFamily,
      };
    });
    expect(below).toBeGreaterThanOrEqual(0);
    expect(fileFont).toBe(true);

    await page.setInputFiles('#checkpoint-files', [at('t5-tiny.safetensors'), at('config.json')]);
    await page.waitForSelector('#checkpoint-section[data-drawn="2"]');
    const caption = await page.textContent('#checkpoint-caption');
    expect(caption).toBe(await expectedCaption());
    expect(caption).toContain('Encoder (4 heads, 32 buckets, max distance 128)');
    expect(await drawn(page, '#checkpoint-encoder canvas')).toBe(true);
    expect(await drawn(page, '#checkpoint-decoder canvas')).toBe(true);
    expect(await page.$$eval('#checkpoint-encoder-mass tr', (rows) => rows.length)).toBe(5);
    expect(await page.textContent('#checkpoint-status')).toBe('t5-tiny.safetensors, config.json: 2 position tables.');
    // Beside it: the training section's model, by its step (untrained at step 0) and the corpus named
    // from the corpus file's header.
    await page.waitForFunction(() =>
      document
        .querySelector('#checkpoint-compare .checkpoint-rule')
        .textContent.match(/The (model|reference run shown) above/),
    );
    const note = await page.textContent('#checkpoint-compare .checkpoint-rule');
    const { header } = trainingCorpus();
    const { step, showing } = await page.$eval('.relpos-train', (lab) => ({
      step: Number(lab.dataset.steps),
      showing: lab.dataset.showing,
    }));
    // A fresh default run opens on the shipped reference run's readings (web/train/reference-run.js).
    const { REFERENCE_RUN } = await import('../../web/train/reference-run.js');
    expect(note).toContain(
      showing === 'reference'
        ? `The reference run shown above was trained ${REFERENCE_RUN.seeds[0].steps} steps on ${corpusName(header)}.`
        : step === 0
          ? `The model above is untrained (step 0): its tables are their random start, not yet trained on ${corpusName(header)}.`
          : `The model above was trained ${step} step${step === 1 ? '' : 's'} on ${corpusName(header)}.`,
    );
    expect(note).not.toContain('Brown');
    expect(await page.textContent('#checkpoint-compare h4')).toBe(
      'Beside it: the model above and the handbook’s simulation',
    );
    await screenshot(page.locator('#checkpoint-section'), 'checkpoint-light.png');
    // A phone: nothing wider than the screen once the figure has redrawn.
    await page.setViewportSize({ width: 360, height: 800 });
    await page.waitForFunction(() => document.documentElement.scrollWidth <= 360, null, { timeout: 120_000 });
    await screenshot(page.locator('#checkpoint-section'), 'checkpoint-phone.png');
    await page.setViewportSize({ width: 1280, height: 900 });

    // A bad file: a message naming it, the drawing unchanged.
    await page.setInputFiles('#checkpoint-files', [at('bad-overlap.safetensors')]);
    await page.waitForSelector('#checkpoint-status[data-error="true"]');
    const status = await page.textContent('#checkpoint-status');
    expect(status).toContain('bad-overlap.safetensors: tensors "a" (bytes 0…8) and "b" (4…8) overlap');
    expect(status).toContain('Nothing was changed.');
    expect(await page.textContent('#checkpoint-caption')).toBe(caption);

    // The sharded pair and its index (no config.json: T5's defaults, said so).
    await page.setInputFiles('#checkpoint-files', [
      at('model.safetensors.index.json'),
      at('model-00001-of-00002.safetensors'),
      at('model-00002-of-00002.safetensors'),
    ]);
    await page.waitForFunction(() => !document.querySelector('#checkpoint-status').textContent.startsWith('Reading'));
    expect(await page.textContent('#checkpoint-status')).toContain('2 position tables (no config.json given');

    // Save, then draw the saved file with the element.
    await page.setInputFiles('#checkpoint-files', [at('t5-tiny.safetensors'), at('config.json')]);
    await page.waitForFunction((c) => document.querySelector('#checkpoint-caption').textContent === c, caption);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#checkpoint-save')]);
    expect(download.suggestedFilename()).toBe('t5-tiny.position-tables.json');
    const saved = (await downloadedBytes(download)).toString('utf8');
    expect(saved.length).toBeLessThan(12_000);
    expect(JSON.parse(saved)).toMatchObject({ format: 'relpos-position-tables', version: 1 });

    // The system's scheme flips to dark: the plots draw again, their text and axes in the dark
    // theme's --relpos-fg (the colour bar's and axes' labels are drawn on the canvas).
    const light = await fgPixels(page, '#checkpoint-encoder canvas');
    expect(light.own).toBeGreaterThan(0);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect
      .poll(async () => (await fgPixels(page, '#checkpoint-encoder canvas')).own, { timeout: 10_000 })
      .toBeGreaterThan(0); // drawn in the dark theme's text colour…
    expect((await fgPixels(page, '#checkpoint-encoder canvas')).fg).not.toBe(light.fg);
    expect(await pixelsOfColour(page, '#checkpoint-encoder canvas', light.rgb)).toBe(0); // …none left in the light one's
    await screenshot(page.locator('#checkpoint-section'), 'checkpoint-dark.png');

    await context.route('**/course/t5-tiny.position-tables.json', (route) =>
      route.fulfill({ body: saved, contentType: 'application/json' }),
    );
    await page.goto(`${env.server.url}examples/elements.html`);
    await page.evaluate(() => {
      const element = document.createElement('relpos-profile');
      element.id = 'from-file';
      element.setAttribute('src', '/course/t5-tiny.position-tables.json');
      document.body.prepend(element);
    });
    await page.waitForFunction(() => document.querySelector('#from-file').tables !== null);
    const inElement = await page.$eval(
      '#from-file',
      (el) => el.shadowRoot.querySelector('.checkpoint-caption').textContent,
    );
    expect(inElement).toBe(caption);
    // Only the file's figure shows, and each canvas fits its column.
    const layout = await page.$eval('#from-file', (el) => ({
      simulated: getComputedStyle(el.parts.figure).display,
      beside: el.checkpoint.compare.figure.hidden, // no trained model beside it on a course page
      overflow: [...el.shadowRoot.querySelectorAll('.relpos-checkpoint canvas')].map(
        (c) => c.getBoundingClientRect().width - c.parentElement.clientWidth,
      ),
    }));
    expect(layout.simulated).toBe('none');
    expect(layout.beside).toBe(true);
    expect(layout.overflow.every((px) => px <= 1)).toBe(true);
    await screenshot(page.locator('#from-file'), 'checkpoint-element.png');
    // A src that is missing or not a position-tables file: a message naming it, nothing thrown.
    await context.route('**/course/other.json', (route) =>
      route.fulfill({ body: '{"format":"x"}', contentType: 'application/json' }),
    );
    const messageFor = async (src) =>
      page.evaluate(async (value) => {
        const element = document.querySelector('#from-file');
        const rendered = new Promise((done) => element.addEventListener('relpos-render', done, { once: true }));
        element.setAttribute('src', value);
        await rendered;
        return element.shadowRoot.querySelector('[part="message"]').textContent;
      }, src);
    expect(await messageFor('/course/missing.json')).toContain('/course/missing.json: could not be fetched (HTTP 404)');
    expect(await messageFor('/course/other.json')).toContain(
      'other.json is not a position-tables file this page reads: its "format" is not "relpos-position-tables".',
    );
    expect(problems.filter((p) => !/missing\.json|status of 404/.test(p))).toEqual([]);
    problems.length = 0;
    // Without src it is the simulated profile again.
    await page.evaluate(() => document.querySelector('#from-file').removeAttribute('src'));
    await page.waitForFunction(() => document.querySelector('#from-file').view !== null);
    await page.emulateMedia({ colorScheme: 'light' });
    expect(problems).toEqual([]);
    await context.close();
  });
});
