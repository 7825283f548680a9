// npm run fuzz:js [cases] [seed]: long runs of the JS boundary's property-based fuzzers (the API's
// arguments, the model files, the corpus decoder; tests/js/fuzz/). Prints each fuzzer's counts;
// a failure prints fast-check's counterexample and seed, and exits non-zero.
import { fuzzBoundary } from '../tests/js/fuzz/api-boundary.js';
import { fuzzFiles } from '../tests/js/fuzz/model-files.js';

const numRuns = Number(process.argv[2] ?? 20000);
const seed = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const started = performance.now();
const api = await fuzzBoundary({ numRuns, seed });
console.log(
  `API arguments: ${api.cases} calls, ${api.returned} returned as their plain twins, ${api.refused} refused as theirs`,
);
const files = await fuzzFiles({ numRuns, seed });
for (const [kind, { cases, read, refused }] of Object.entries(files)) {
  console.log(`${kind} files: ${cases} inputs, ${read} read, ${refused} refused with a named message`);
}
console.log(`no failure in ${((performance.now() - started) / 1000).toFixed(1)} s`);
