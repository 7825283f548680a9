// Writes web/train/language-readings.js (docs/corpus.md, "Other languages"): what the training
// section's comparison of languages draws, from the reference runs on each language
// (build/reference-runs/<name>.js, written by scripts/train-languages.sh): per language its corpus
// (source, terms, tagger), per seed its final held-out loss and, per head, the left/self/right
// masses with their intervals over the held-out windows, the position profile and the verdicts on
// the handbook's claims and the adposition claims. Size budget: LANGUAGE_READINGS_BUDGET.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import {
  COMPARISONS,
  LANGUAGES,
  LANGUAGE_READINGS_BUDGET,
  compareLanguages,
  comparisonStatement,
  comparisonTableRow,
  plateauText,
} from '../web/train/language-comparison.js';
import { HANDBOOK_CLAIMS } from '../web/train/pos-verdicts.js';
import { decodeCorpus } from '../web/train/corpus-format.js';
import { heldOutLevels } from '../web/train/reference.js';

const root = resolve(import.meta.dirname, '..');
const OUT = resolve(root, 'web/train/language-readings.js');
/** The corpus each language's run was trained on. */
const corpusFile = (id) => resolve(root, id === 'bible' ? 'dist/training-corpus.bin' : `build/corpora/${id}.bin`);

/** Where the runs are read from (`--from DIR`; default build/reference-runs). */
const fromFlag = process.argv.indexOf('--from');
const RUNS = fromFlag > 0 ? resolve(process.argv[fromFlag + 1]) : resolve(root, 'build/reference-runs');

/** Numbers to 3 decimals: the readings' budget (the page prints at most 3). */
const round3 = (v) => (Number.isFinite(v) ? Number(v.toFixed(3)) : null);
const verdictOf = ({ verdict, effect, low, high, ratio }) => ({
  verdict,
  effect: round3(effect),
  low: round3(low),
  high: round3(high),
  ratio: round3(ratio),
});

const readings = [];
for (const language of LANGUAGES) {
  const file = resolve(RUNS, `${language.id}.js`);
  let run;
  try {
    ({ REFERENCE_RUN: run } = await import(pathToFileURL(file).href));
  } catch (error) {
    throw new Error(`compare-languages: cannot read ${file} (${error.message}); run npm run train:languages`, {
      cause: error,
    });
  }
  const bytes = readFileSync(corpusFile(language.id));
  const { header } = decodeCorpus(gunzipSync(bytes));
  if (header.source !== run.corpus.source)
    throw new Error(`compare-languages: ${file} was trained on another corpus than ${corpusFile(language.id)}`);
  readings.push({
    id: language.id,
    corpus: {
      ...run.corpus,
      terms: header.terms,
      tagger: header.tagger,
      ...(header.language ? { language: header.language } : {}),
      ...(header.taggedPos ? { taggedPos: header.taggedPos } : {}),
      sha256: createHash('sha256').update(bytes).digest('hex'),
    },
    task: run.task,
    preset: run.preset,
    steps: run.convergence.steps,
    peakLearningRate: run.peakLearningRate,
    seeds: run.seeds.map((s) => ({
      seed: s.seed,
      heldOut: s.heldOut,
      // The held-out level of every 1000 steps (runPlateau reads where the run ended against its lowest).
      levels: heldOutLevels(s.curve).map(round3),
      heads: s.heads.map((h) => ({
        layer: h.layer,
        head: h.head,
        left: h.left,
        self: h.self,
        right: h.right,
        sides: h.sides.map(round3),
        profile: h.profile.map(round3),
        claims: Object.fromEntries(HANDBOOK_CLAIMS.map((name) => [name, verdictOf(h.verdicts[name])])),
        adpositions: Object.fromEntries(Object.entries(h.adpositions).map(([name, v]) => [name, verdictOf(v)])),
      })),
    })),
  });
}
const text = `// Written by scripts/compare-languages.mjs (npm run train:languages): the reference runs on each
// language, what the training section's comparison of languages draws (docs/corpus.md). Do not edit by hand.
export const LANGUAGE_READINGS = ${JSON.stringify(readings)};
`;
if (text.length > LANGUAGE_READINGS_BUDGET)
  throw new Error(`language-readings.js would be ${text.length} bytes, over its ${LANGUAGE_READINGS_BUDGET}`);
writeFileSync(OUT, text);
console.log(`web/train/language-readings.js: ${(text.length / 1024).toFixed(1)} KiB`);
// What docs/verdicts.md ("What the shipped readings show") states, computed from what was just written.
for (const r of readings)
  console.log(`${r.id}: final held-out loss ${r.seeds.map((s) => s.heldOut.toFixed(3)).join(', ')}; ${plateauText(r)}`);
for (const c of COMPARISONS) {
  const result = compareLanguages(c, readings);
  console.log(`\n${comparisonStatement(result)}\n${comparisonTableRow(result)}`);
}
