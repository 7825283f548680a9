// Each control changes the drawing and the URL, and loading that URL restores the view.
import { describe, test } from 'vitest';
import { allHashes, choose, layoutOf, usePage, usePagePool, whenDrawn } from './page-fixture.js';

const env = usePage();

// [control id, how to change it, URL parameter it must set, canvases it must change]
const MATRICES = 'matrices';
// The position table's settings change what reads aᴷ, never the content panels or the offsets
// (with wscale=panel each weight panel has its own colour range, so the content-only weights
// keep their colours; by default the two share one, which the table's changes move).
const TABLE = [
  '#figure-positionBiases canvas',
  '#figure-combinedWeights canvas',
  '#figure-difference canvas',
  '#profile-canvas',
];
const NEVER_BY_TABLE = ['#figure-contentScores canvas', '#figure-contentWeights canvas', '#figure-offsets canvas'];
const CHANGES = [
  ['seqLen', (page) => page.fill('#seqLen', '9'), 'n=9', MATRICES],
  ['dK', (page) => page.fill('#dK', '7'), 'dk=7', MATRICES],
  ['maxDistance', (page) => page.fill('#maxDistance', '1'), 'k=1', MATRICES],
  ['seed', (page) => page.fill('#seed', '99'), 'seed=99', MATRICES],
  ['causal', (page) => page.check('#causal'), 'causal=1', MATRICES],
  ['long', (page) => page.check('#long'), 'long=1', MATRICES],
  [
    'tokens',
    (page) => page.fill('#tokens', 'one two three four five six seven eight'),
    'tokens=one+two+three+four+five+six+seven+eight',
    MATRICES,
  ],
  ['draw', (page) => page.selectOption('#draw', 'handbook'), 'draw=handbook', MATRICES],
  ['sameQuery', (page) => page.check('#sameQuery'), 'sameq=1', MATRICES],
  ['table', (page) => page.selectOption('#table', 'random'), 'table=random', TABLE],
  ['strength', (page) => page.fill('#strength', '12'), 'strength=12', TABLE],
  ['noise', (page) => page.fill('#noise', '0.3'), 'noise=0.3', TABLE],
  ['width', (page) => page.fill('#width', '2.5'), 'width=2.5', TABLE],
  ['asymmetry', (page) => page.fill('#asymmetry', '0.4'), 'asym=0.4', TABLE],
  // Each its own colours: the content-only panel's top falls to its own; both colour bars' labels change.
  [
    'weightScale',
    (page) => page.selectOption('#weightScale', 'panel'),
    'wscale=panel',
    ['#figure-contentWeights canvas', '#figure-combinedWeights canvas'],
  ],
];

const controlValue = (page, id) =>
  page.$eval(`#${id}`, (input) => (input.type === 'checkbox' ? String(input.checked) : input.value));

const VIEW = { viewport: { width: 1280, height: 900 } };

// Pages a reader edits, each put back at a test's start by the Reset button (and the controls), and
// pages that follow the links the edits write: two of each, so that two tests run at once, each on
// an edited page and a linked page of its own.
const edits = usePagePool(env, 2, VIEW);
const links = usePagePool(env, 2, VIEW);
// Each test may wait for a page another test holds.
const TIMEOUT = 120_000;

describe.concurrent('controls, the URL and shared links', () => {
  /** The edited page at the defaults (Reset), then `edit` applied; its URL says exactly `search`. */
  async function startAt(expect, page, search, edit) {
    await page.click('#reset');
    await whenDrawn(page);
    if (edit) {
      await edit(page);
      await whenDrawn(page);
    }
    await expect.poll(() => new URL(page.url()).search).toBe(search); // the drawer the fixture opened stays open
    return page;
  }

  for (const [id, change, param, affects] of CHANGES) {
    test(
      `${id}: redraws, writes ${param}, and the link restores it`,
      ({ expect }) =>
        edits.withPage(null, async (edited) => {
          const page =
            affects === TABLE
              ? await startAt(expect, edited.page, '?wscale=panel&more=1', (p) =>
                  p.selectOption('#weightScale', 'panel'),
                )
              : await startAt(expect, edited.page, '?more=1');
          const before = await allHashes(page);
          await change(page);
          await whenDrawn(page); // drawn in the next frame
          const after = await allHashes(page);
          await expect.poll(() => new URL(page.url()).search).toContain(param); // written within 150 ms
          const url = new URL(page.url());
          const changed = Object.keys(before).filter((key) => before[key] !== after[key]);
          if (Array.isArray(affects)) {
            expect(changed).toEqual(expect.arrayContaining(affects));
            if (affects === TABLE) for (const canvas of NEVER_BY_TABLE) expect(changed).not.toContain(canvas);
            else expect(changed).toEqual(affects); // nothing else
          } else expect(changed.length).toBeGreaterThanOrEqual(id === 'tokens' || id === 'seqLen' ? 6 : 3);
          const value = await controlValue(page, id);

          await links.withPage(url.search, async (linked) => {
            expect(await controlValue(linked.page, id)).toBe(value);
            expect(await allHashes(linked.page)).toEqual(after);
            expect(await linked.page.textContent('#notes')).toBe('');
            expect([...edited.problems, ...linked.problems]).toEqual([]);
          });
        }),
      TIMEOUT,
    );
  }

  test(
    'typing a sentence sets n to its word count, the slider can extend it',
    ({ expect }) =>
      edits.withPage(null, async (edited) => {
        const page = await startAt(expect, edited.page, '?more=1');
        await page.fill('#tokens', 'attention is all you need');
        expect(await controlValue(page, 'seqLen')).toBe('5');
        await page.fill('#seqLen', '7');
        await whenDrawn(page);
        const label = await page.getAttribute('#figure-offsets canvas', 'aria-label');
        expect(label).toContain('7 by 7 heatmap');
        // More words than the sentence view draws: n stops at 64, and the notes say so.
        const seventy = Array.from({ length: 70 }, (_, i) => `w${i}`).join(' ');
        await page.fill('#tokens', seventy);
        await whenDrawn(page);
        expect(await controlValue(page, 'seqLen')).toBe('64');
        expect(await page.textContent('#notes')).toContain(
          'the sentence view draws at most 64 words: the first 64 of your 70 are drawn',
        );
        expect(await page.getAttribute('#figure-offsets canvas', 'aria-label')).toContain('64 by 64 heatmap');
      }),
    TIMEOUT,
  );

  test(
    "k's slider ends at n − 1; a larger k in force stays, said by its number, the thumb at the end",
    ({ expect }) =>
      links.withPage('?k=10', async ({ page }) => {
        const k = () =>
          page.$eval('#maxDistance', (input) => ({
            thumb: input.value,
            max: input.max,
            said: input.getAttribute('aria-valuetext'),
            shown: document.getElementById('maxDistance-out').textContent,
            state: window.relposPage.state().maxDistance,
          }));
        // The lesson's 6 words with a link's k = 10: the track ends at n − 1 = 5, k = 10 stays in force.
        expect(await k()).toEqual({ thumb: '5', max: '5', said: '10', shown: '10', state: 10 });
        expect(await page.getAttribute('#figure-positionBiases canvas', 'aria-label')).toContain(
          'k = 10 ≥ n − 1: no cell is clipped.',
        );
        // The reader's first key moves from the track's end: k = 4.
        await page.focus('#maxDistance');
        await page.keyboard.press('ArrowLeft');
        await whenDrawn(page);
        expect(await k()).toEqual({ thumb: '4', max: '5', said: '4', shown: '4', state: 4 });
        await page.keyboard.press('End');
        await whenDrawn(page);
        expect(await k()).toEqual({ thumb: '5', max: '5', said: '5', shown: '5', state: 5 });
        // A longer n lengthens the track, a shorter one shortens it, k kept; one word keeps 0 and 1.
        await page.fill('#seqLen', '20');
        await whenDrawn(page);
        expect(await k()).toEqual({ thumb: '5', max: '19', said: '5', shown: '5', state: 5 });
        await page.fill('#tokens', 'the cat sat');
        await whenDrawn(page);
        expect(await k()).toEqual({ thumb: '2', max: '2', said: '5', shown: '5', state: 5 });
        await page.fill('#tokens', 'one');
        await whenDrawn(page);
        expect(await k()).toEqual({ thumb: '1', max: '1', said: '5', shown: '5', state: 5 });
        await page.focus('#maxDistance');
        await page.keyboard.press('Home');
        await whenDrawn(page);
        expect(await k()).toEqual({ thumb: '0', max: '1', said: '0', shown: '0', state: 0 });
      }),
    TIMEOUT,
  );

  test(
    'the Tokens box says what its words are under each draw: their own vectors, or names of positions',
    ({ expect }) =>
      links.withPage('?draw=handbook&tokens=the+cat+saw+the+dog', async ({ page }) => {
        expect(await page.textContent('label[for="tokens"]')).toContain(
          '(with the handbook’s numbers, the words only name the positions)',
        );
        // True for what is drawn: the two "the" rows of panel 1 (rows 0 and 3) differ; with stable numbers, the same.
        const row = (i) =>
          page.evaluate(
            (r) => Array.from({ length: 5 }, (_, j) => window.relposPage.valueAt('contentScores', r, j)),
            i,
          );
        expect(await row(0)).not.toEqual(await row(3));
        await choose(page, '#draw', 'stable');
        await whenDrawn(page);
        expect(await page.textContent('label[for="tokens"]')).toContain(
          '(with stable numbers, each word has its own vectors)',
        );
        expect(await row(0)).toEqual(await row(3));
      }),
    TIMEOUT,
  );

  test(
    'a link with bad values is corrected, says so, and still draws',
    ({ expect }) =>
      links.withPage('?n=-4&k=-3&seed=abc&causal=maybe&width=0', async ({ page, problems }) => {
        expect(await controlValue(page, 'seqLen')).toBe('1');
        expect(await controlValue(page, 'maxDistance')).toBe('0');
        expect(await controlValue(page, 'seed')).toBe('42');
        const notes = await page.textContent('#notes');
        for (const param of [
          'n must be',
          'k must be',
          'seed must be',
          'causal: unknown maybe; choose from 1, true, on, yes, 0, false, off, no; using off',
          'width must be',
        ])
          expect(notes).toContain(param);
        expect(await page.getAttribute('#figure-offsets canvas', 'aria-label')).toContain('1 by 1 heatmap');
        expect(problems).toEqual([]);
      }),
    TIMEOUT,
  );

  test(
    'under the words, what the panels draw of them: all, the first n, or them and positions #i of their own',
    ({ expect }) =>
      links.withPage('?n=2', async ({ page }) =>
        links.withPage('?n=9', async (more) => {
          const words = (await controlValue(page, 'tokens')).trim().split(/\s+/).length; // the lesson's 6
          expect(words).toBe(6);
          expect((await layoutOf(page, 'contentScores')).n).toBe(2);
          expect(await page.textContent('#tokens-n')).toBe('n = 2: the panels draw the first 2 of these 6 words.');
          expect((await layoutOf(more.page, 'contentScores')).n).toBe(9);
          expect(await more.page.textContent('#tokens-n')).toBe(
            'n = 9: the panels draw these 6 words, then positions #6–#8 with vectors of their own.',
          );
          // A position past the words is the word "#i": the tooltip names it so.
          const scores = await layoutOf(more.page, 'contentScores');
          await more.page.click('#figure-contentScores canvas', {
            position: { x: scores.x0 + 6.5 * scores.cell, y: scores.y0 + 7.5 * scores.cell },
          });
          expect(await more.page.textContent('.relpos-tooltip')).toContain('query → key#7 → #6');
          // Words typed set n to their count.
          await page.fill('#tokens', 'one two three');
          await whenDrawn(page);
          expect((await layoutOf(page, 'contentScores')).n).toBe(3);
          expect(await page.textContent('#tokens-n')).toBe('n = 3: the panels draw these 3 words.');
          // The input names the sentence as its description; the room kept for longer sentences is not read.
          expect(await page.getAttribute('#tokens', 'aria-describedby')).toBe('tokens-n');
          expect(await page.$$eval('.tokens-n > [aria-hidden="true"]', (rooms) => rooms.length)).toBeGreaterThan(0);
        }),
      ),
    TIMEOUT,
  );

  test(
    'a link with a long sequence opens the long-sequence view',
    ({ expect }) =>
      links.withPage('?n=5000', async ({ page }) => {
        // The long view at n = 2048 beside another test's page: over 30 s to draw at load 15.
        await whenDrawn(page, { timeout: 100_000 });
        expect(await controlValue(page, 'seqLen')).toBe('2048');
        expect(await controlValue(page, 'long')).toBe('true');
        expect(await page.textContent('#notes')).toContain('n must be an integer from 1 to 2048; using 2048');
      }),
    TIMEOUT,
  );

  test(
    'reset goes back to the defaults and a clean URL',
    ({ expect }) =>
      // A link's page reset, against a page loaded without one.
      edits.withPage('?n=9&seed=3&pk=7', ({ page }) =>
        links.withPage('', async (linked) => {
          await page.click('#reset');
          await whenDrawn(page);
          // The drawer the fixture opened stays open: Reset resets the inputs, not what is shown.
          await expect.poll(() => new URL(page.url()).search).toBe('?more=1');
          expect(await allHashes(page)).toEqual(await allHashes(linked.page));
        }),
      ),
    TIMEOUT,
  );
});
