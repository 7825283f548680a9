// npm run fuzz:js [cases] [seed]: long runs of the JS boundary's property-based fuzzers
// (tests/js/fuzz/, tests/page/fuzz/): the API's arguments and every entry point's options, the
// model files and corpora, safetensors files, the worker pool on real threads, the corpus
// pipeline (files and the corpus tool's text), and the page's URL state and the render API in
// headless Chromium. Prints each fuzzer's counts; a failure prints fast-check's counterexample
// and seed, and exits non-zero. The slow fuzzers run a fraction of `cases`: the pool 1/50, the
// page 1/100, the corpus tool's text 1/500 (about a second each).
import { fuzzBoundary } from '../tests/js/fuzz/api-boundary.js';
import { fuzzCorpusPipeline } from '../tests/js/fuzz/corpus-pipeline.js';
import { fuzzFiles } from '../tests/js/fuzz/model-files.js';
import { fuzzOptions } from '../tests/js/fuzz/options-getters.js';
import { fuzzPool } from '../tests/js/fuzz/pool.js';
import { fuzzSafetensors } from '../tests/js/fuzz/safetensors.js';
import { fuzzPage } from '../tests/page/fuzz/url-render.js';

const numRuns = Number(process.argv[2] ?? 20000);
const seed = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const part = (divisor) => Math.max(1, Math.round(numRuns / divisor));
const started = performance.now();
const api = await fuzzBoundary({ numRuns, seed });
console.log(
  `API arguments: ${api.cases} calls, ${api.returned} returned as their plain twins, ${api.refused} refused as theirs`,
);
const options = await fuzzOptions({ numRuns, seed });
console.log(
  `options getters: ${options.cases} calls, ${options.returned} returned as their plain twins, ${options.refused} refused as theirs`,
);
const files = await fuzzFiles({ numRuns, seed });
for (const [kind, { cases, read, refused }] of Object.entries(files)) {
  console.log(`${kind} files: ${cases} inputs, ${read} read, ${refused} refused with a named message`);
}
const checkpoints = await fuzzSafetensors({ numRuns, seed });
console.log(
  `safetensors files: ${checkpoints.cases} files, ${checkpoints.opened} opened and read back, ${checkpoints.refused} refused naming the file; slowest ${checkpoints.slowest.toFixed(2)} s`,
);
const corpora = await fuzzCorpusPipeline({ files: numRuns, texts: part(500), seed });
console.log(
  `corpus files: ${corpora.files}, ${corpora.trainedFiles} trained a step, ${corpora.refusedFiles} refused; texts: ${corpora.texts}, ${corpora.trainedTexts} gave a corpus that trained, ${corpora.refusedTexts} refused naming the file`,
);
const pool = await fuzzPool({ numRuns: part(50), seed });
console.log(
  `worker pool: ${pool.cases} interleavings, ${pool.equal} calls equal to one instance's, ${pool.refused} refused, ${pool.aborted} aborted, ${pool.terminated} ended by terminate()`,
);
const page = await fuzzPage({ numRuns: part(100), seed });
console.log(
  `page: ${page.urls} URLs loaded and drawn, ${page.heatmaps} render API heatmaps drawn, ${page.refused} refused; at most ${page.maxMeasures} text measurements a label`,
);
console.log(`no failure in ${((performance.now() - started) / 1000).toFixed(1)} s`);
