// "Does word order make attention lean one way?", the comparison of languages in the training section
// (docs/training.md, docs/verdicts.md "Word order"): the handbook's sentence, the computed
// answer under it (every number in words one click away, under the figures), each layer's left share per language with its spread over seeds, each
// head's left share with its interval over held-out windows, each head's profile per language and
// the adposition claims. Imported by train-section.js once the section is open (its own chunk:
// the readings of four reference runs); draws the shipped readings only.
import { formatPercent } from '../render/number-text.js';
import { el, fmt, signed } from './train-dom.js';
import { setKeptText } from '../figures/math-dom.js';
import { drawLineChart, SERIES_COLOURS } from '../render/line-chart.js';
import { fittedAxes } from '../render/fitted-axes.js';
import { drawShares } from './language-plots.js';
import { LANGUAGE_READINGS } from './language-readings.js';
import { onSchemeChange } from '../figures/scheme-change.js';
import {
  COMPARISONS,
  LANGUAGES,
  SYMMETRIC_SHARES,
  compareLanguages,
  comparisonAnswer,
  comparisonCaveat,
  comparisonStatement,
  leftShare,
  plateauText,
} from './language-comparison.js';

/** The handbook's sentence the comparison tests (its section "Learned position patterns"). */
export const HANDBOOK_SENTENCE =
  'A trained model’s position profiles are also typically asymmetric. This reflects the fact that English (and many other languages) has predominantly left-to-right dependency structure. Subjects appear before verbs, modifiers often precede their heads, and complementizers introduce subordinate clauses that follow the main verb.';

/** The part's layout (the training section's styles give the rest). */
const LANGUAGE_CSS = `
.relpos-languages { margin-top: 1.4rem; }
.relpos-languages h3 { font-size: 1.05rem; margin: 0 0 0.4rem; }
.relpos-languages h4 { font-size: 0.95rem; margin: 0.6rem 0 0.3rem; }
.relpos-languages blockquote { margin: 0.4rem 0; padding-left: 0.8rem; border-left: 4px solid var(--relpos-grid, #ccc); font-style: italic; }
.relpos-languages figure { margin: 0.6rem 0; }
.relpos-languages select { max-width: 100%; }
.relpos-languages .language-caveat { margin: 0.4rem 0 0; padding: 0.3rem 0.8rem; border-left: 4px dashed var(--relpos-accent, #d55e00); font-size: 0.95rem; }
.relpos-languages .language-profiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 360px), 1fr)); gap: 1rem; }
`;

/** A head's left share and the bound its window intervals give: [low, high] from sides. */
export function shareInterval({ sides: [leftLow, leftHigh, rightLow, rightHigh] }) {
  return [leftLow / (leftLow + rightHigh), leftHigh / (leftHigh + rightLow)];
}

/** Builds the part into `container` (the training section's lab). Returns { root, pick(id), dispose }. */
export function mountLanguageSection(container) {
  const doc = container.ownerDocument ?? container;
  // The menu offers each comparison by a short name that shows whole when closed, even on a phone;
  // the line under it says the chosen one in full.
  const pair = el(doc, 'p', { id: 'language-pair', className: 'train-chosen' });
  const picker = el(
    doc,
    'select',
    { id: 'language-pick', ariaDescribedby: 'language-pair' },
    COMPARISONS.map((c) => el(doc, 'option', { value: c.id, text: c.choice })),
  );
  const layerPick = el(doc, 'select', { id: 'language-layer' });
  const seedPick = el(doc, 'select', { id: 'language-seed' });
  const answer = el(doc, 'p', { id: 'language-answer', className: 'train-summary', role: 'status' });
  // What qualifies the answer, beside it (the runs over-fit), hidden when nothing does.
  const caveat = el(doc, 'p', { id: 'language-caveat', className: 'language-caveat', hidden: true });
  const statement = el(doc, 'p', { id: 'language-statement', className: 'train-caption' });
  // Both tables stack on a narrow screen (train-css.js's .train-stack): a block per row, each cell
  // after its column's name.
  const layerTable = el(doc, 'table', { id: 'language-layers', className: 'train-stack' });
  const sharesCanvas = el(doc, 'canvas', { role: 'img', ariaLabel: 'Left share of every head, by language' });
  const sharesCaption = el(doc, 'p', { className: 'train-caption' });
  const profileCanvases = [0, 1].map(() => el(doc, 'canvas', { role: 'img' }));
  const profileTitles = [0, 1].map(() => el(doc, 'h4'));
  const profileCaption = el(doc, 'p', { className: 'train-caption' });
  const adpositionTable = el(doc, 'table', { id: 'language-adpositions', className: 'train-stack' });
  const corpora = el(doc, 'p', { id: 'language-corpora', className: 'train-caption' });
  const wraps = profileCanvases.map((canvas, i) =>
    el(doc, 'figure', { className: 'language-profile' }, [
      profileTitles[i],
      el(doc, 'div', { className: 'train-canvas-wrap' }, [canvas]),
    ]),
  );
  const root = el(doc, 'section', { id: 'language-section', className: 'relpos-languages' }, [
    el(doc, 'style', { textContent: LANGUAGE_CSS }),
    el(doc, 'h3', { text: 'Does word order make attention lean one way? The same model in other languages' }),
    el(doc, 'blockquote', { id: 'language-handbook', text: `The handbook: “${HANDBOOK_SENTENCE}”` }),
    el(doc, 'div', { className: 'train-sentence-controls' }, [el(doc, 'label', {}, ['Compare', picker]), pair]),
    answer,
    caveat,
    el(doc, 'figure', { id: 'language-layer-figure', className: 'train-stack-box' }, [
      el(doc, 'h4', { text: 'Each layer’s share of attention on earlier words' }),
      el(doc, 'div', { className: 'train-table-wrap' }, [layerTable]),
    ]),
    el(doc, 'figure', { id: 'language-shares' }, [
      el(doc, 'h4', { text: 'Every head’s share on earlier words, by language and layer' }),
      el(doc, 'div', { className: 'train-canvas-wrap' }, [sharesCanvas]),
      sharesCaption,
    ]),
    el(doc, 'div', { className: 'train-sentence-controls' }, [
      el(doc, 'label', {}, ['Layer', layerPick]),
      el(doc, 'label', {}, ['Seed', seedPick]),
    ]),
    el(doc, 'div', { className: 'language-profiles' }, wraps),
    profileCaption,
    el(doc, 'figure', { id: 'language-adposition-figure', className: 'train-stack-box' }, [
      el(doc, 'h4', { text: 'Adpositions and their nouns' }),
      el(doc, 'div', { className: 'train-table-wrap' }, [adpositionTable]),
    ]),
    el(doc, 'details', { className: 'train-how', id: 'language-words' }, [
      el(doc, 'summary', { text: 'In words: every number of the comparison' }),
      statement,
    ]),
    corpora,
  ]);
  container.append(root);

  const languageOf = (readings) => LANGUAGES.find((l) => l.id === readings.id);
  let result = null;
  // A table's head row, and a body row whose cells name their columns (data-label: read where the
  // rows stack).
  const head = (cells) =>
    el(doc, 'thead', {}, [
      el(
        doc,
        'tr',
        {},
        cells.map((text) => el(doc, 'th', { text })),
      ),
    ]);
  const row = (cells) =>
    el(
      doc,
      'tr',
      {},
      cells.map(([label, text]) => {
        const cell = el(doc, 'td', label ? { 'data-label': `${label}:` } : {});
        setKeptText(cell, text); // a range of percentages on one line
        return cell;
      }),
    );

  const drawProfiles = () => {
    const layer = Number(layerPick.value);
    const seedIndex = Number(seedPick.value);
    [result.english, result.other].forEach((readings, i) => {
      const seed = readings.seeds[seedIndex];
      const heads = seed.heads.filter((h) => h.layer === layer);
      const k = (heads[0].profile.length - 1) / 2;
      const x = Array.from({ length: 2 * k + 1 }, (_, c) => c - k);
      const { name, text } = languageOf(readings);
      profileTitles[i].textContent = `${name} (${text}), layer ${layer}`;
      profileCanvases[i].setAttribute('aria-label', `Position profile of each head of layer ${layer}, ${name}`);
      drawLineChart(profileCanvases[i], {
        series: heads.map((h, index) => ({
          label: `head ${h.head}: ${formatPercent(leftShare(h))} left`,
          x,
          y: h.profile,
          colour: SERIES_COLOURS[index % SERIES_COLOURS.length],
        })),
        xLabel: 'offset j − i (key − query)',
        yLabel: 'mean qᵢ·aᴷ[c]/√dₖ',
        axes: fittedAxes({ xInteger: true }),
        height: 200,
      });
    });
    profileCaption.textContent = `Each head’s learned position profile in layer ${layer} (seed ${result.english.seeds[seedIndex].seed} of each run): the mean over held-out queries of the position bias it adds at each offset; the legend gives each head’s share of its off-diagonal attention on earlier words. A head numbered alike in two languages is not the same head: compare the shapes.`;
  };

  const draw = (comparison) => {
    result = compareLanguages(comparison, LANGUAGE_READINGS);
    root.dataset.comparison = comparison.id;
    pair.textContent = `${comparison.label}.`;
    setKeptText(answer, comparisonAnswer(result));
    setKeptText(caveat, comparisonCaveat(result));
    caveat.hidden = !caveat.textContent;
    setKeptText(statement, comparisonStatement(result));
    const en = languageOf(result.english);
    const ot = languageOf(result.other);
    const columns = [
      'layer',
      `${en.name}: mean (range over seeds)`,
      `${ot.name}: mean (range over seeds)`,
      'difference (per seed)',
      'seed ranges apart?',
    ];
    const range = (side) =>
      `${formatPercent(side.share)} (seeds ${formatPercent(side.seeds[0])}–${formatPercent(side.seeds[1])})`;
    layerTable.replaceChildren(
      head(columns),
      el(
        doc,
        'tbody',
        {},
        result.layers.map((l) =>
          row([
            ['layer', String(l.layer)],
            [en.name, range(l.english)],
            [ot.name, range(l.other)],
            [
              'difference',
              `${signed(100 * l.difference, 1)} points (seeds ${l.differences.map((d) => signed(100 * d, 1)).join(', ')})`,
            ],
            ['seed ranges apart?', l.differs ? 'yes' : 'no'],
          ]),
        ),
      ),
    );
    const rows = [];
    for (const readings of [result.english, result.other]) {
      const layers = [...new Set(readings.seeds[0].heads.map((h) => h.layer))];
      for (const layer of layers)
        rows.push({
          label: `${languageOf(readings).name} L${layer}`,
          points: readings.seeds.flatMap((s, seedIndex) =>
            s.heads
              .filter((h) => h.layer === layer)
              .map((h) => ({ share: leftShare(h), interval: shareInterval(h), seedIndex })),
          ),
        });
    }
    const drawn = drawShares(sharesCanvas, { rows, seeds: result.english.seeds.length });
    const counts = (c) => `${c.back} look back, ${c.ahead} ahead, ${c.symmetric} neither`;
    setKeptText(
      sharesCaption,
      `Each dot is one head of one seed (${result.english.seeds.length} seeds, one shade each), placed at its share of off-diagonal attention on earlier words, left / (left + right), on held-out text; its whisker spans the bound that the 95 % intervals of its left and right masses over the held-out windows give. The band is the symmetric one (left/right from 0.8 to 1.25, shares ${formatPercent(SYMMETRIC_SHARES.low)}–${formatPercent(SYMMETRIC_SHARES.high)}). Of ${result.sides.english.of} heads, ${en.name}: ${counts(result.sides.english)}; ${ot.name}: ${counts(result.sides.other)}.`,
    );
    root.dataset.sharesFrom = String(drawn.min);
    const layers = [...new Set(result.english.seeds[0].heads.map((h) => h.layer))];
    const chosen = layerPick.value;
    layerPick.replaceChildren(...layers.map((l) => el(doc, 'option', { value: String(l), text: String(l) })));
    layerPick.value = layers.map(String).includes(chosen) ? chosen : String(layers.at(-1));
    const seedChosen = seedPick.value;
    seedPick.replaceChildren(
      ...result.english.seeds.map((s, index) => el(doc, 'option', { value: String(index), text: String(s.seed) })),
    );
    seedPick.value = seedChosen !== '' && Number(seedChosen) < result.english.seeds.length ? seedChosen : '0';
    drawProfiles();
    const tallyCell = (t) => {
      if (!t.tagged) return 'not tagged (no noun tags in this corpus)';
      const strongest = t.strongest
        ? `; strongest: seed ${t.strongest.seed}, layer ${t.strongest.layer} head ${t.strongest.head}, ${signed(t.strongest.effect)} [${signed(t.strongest.low)}, ${signed(t.strongest.high)}]`
        : '';
      return `holds in ${t.holds} of ${t.of} seeds${t.opposite ? `, the opposite in ${t.opposite}` : ''}${strongest}`;
    };
    adpositionTable.replaceChildren(
      head(['claim', en.name, ot.name]),
      el(
        doc,
        'tbody',
        {},
        [0, 1].map((i) =>
          row([
            [null, result.adpositions.english[i].claim.text],
            [en.name, tallyCell(result.adpositions.english[i])],
            [ot.name, tallyCell(result.adpositions.other[i])],
          ]),
        ),
      ),
    );
    corpora.textContent = [result.english, result.other]
      .map(
        (r) =>
          `${languageOf(r).name}: ${r.corpus.source}; tagged by ${r.corpus.tagger}; ${r.corpus.train.toLocaleString('en')} training and ${r.corpus.heldOut.toLocaleString('en')} held-out tokens; ${r.task}, ${r.preset}, ${r.steps} steps a seed; final held-out loss ${r.seeds.map((s) => fmt(s.heldOut)).join(', ')}; ${plateauText(r)}.`,
      )
      .join(' ');
    root.dataset.drawn = comparison.id;
  };
  const pick = (id) => {
    picker.value = id;
    draw(COMPARISONS.find((c) => c.id === id));
  };
  picker.addEventListener('change', () => pick(picker.value));
  layerPick.addEventListener('change', drawProfiles);
  seedPick.addEventListener('change', drawProfiles);
  pick(COMPARISONS[0].id);
  // Redrawn at a new width or colour scheme (the canvases take both from the page).
  let width = root.clientWidth;
  const resize = new ResizeObserver(() => {
    if (root.clientWidth === width) return;
    width = root.clientWidth;
    pick(picker.value);
  });
  resize.observe(root);
  const stopScheme = onSchemeChange(container, () => pick(picker.value));
  return {
    root,
    pick,
    dispose: () => {
      resize.disconnect();
      stopScheme();
      root.remove();
    },
  };
}
