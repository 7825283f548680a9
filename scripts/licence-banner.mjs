// Puts a licence banner (/*! … */, which minifiers and bundlers keep; an HTML comment in
// relpos.html) at the top of every built file of dist/ that a course author may copy alone,
// naming the licences of what is inside (THIRD-PARTY-NOTICES.md has the full texts). Run by
// scripts/build.sh after the builds; running it again changes nothing. The .wasm, .bin and
// .json files have no comment syntax: their notices are THIRD-PARTY-NOTICES.md's.
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

const PARTS = {
  relpos: `relpos-wasm ${version}: MIT License, see LICENSE`,
  core:
    'its WebAssembly core: Eigen 3.4.0 (MPL-2.0, unmodified; source: https://gitlab.com/libeigen/eigen), ' +
    'the Emscripten 3.1.6 runtime (MIT / NCSA), musl libc (MIT), LLVM libc++, libc++abi and compiler-rt ' +
    '(Apache-2.0 WITH LLVM-exception)',
  glue: 'the Emscripten 3.1.6 JavaScript runtime (MIT / NCSA)',
  colours:
    'colour tables sampled from d3-scale-chromatic 3.1.1 (ISC; the RdBu scheme: ColorBrewer, Apache-2.0; viridis: CC0-1.0)',
  kernels: "its GEMM kernels modules: this package's own code (MIT), built by clang-19 with no library",
  corpus:
    'a training corpus of English text derived from the World English Bible (public domain), ' +
    'its parts of speech tagged by compromise 14.17.0 (MIT)',
};

/** Each built file and what is inside it. */
export const BUILT_FILES = Object.freeze({
  'relpos-core.mjs': ['relpos', 'glue'],
  'relpos-core-lite.mjs': ['relpos', 'glue'],
  'relpos-core-wasm.mjs': ['relpos', 'core'],
  'relpos-core-lite-wasm.mjs': ['relpos', 'core'],
  'relpos-kernels-wasm.mjs': ['relpos', 'kernels'],
  'relpos-slim.js': ['relpos', 'glue', 'kernels'],
  'relpos-elements.js': ['relpos', 'core', 'colours'],
  'relpos-elements.iife.js': ['relpos', 'core', 'colours'],
  'relpos-train.js': ['relpos', 'core', 'colours', 'corpus'],
  'relpos-train.iife.js': ['relpos', 'core', 'colours', 'corpus'],
  'relpos.html': ['relpos', 'core', 'colours', 'corpus'],
});

const MARK = 'relpos-wasm licence banner';

/** The banner's lines for a file. */
export function bannerLines(file) {
  return [
    `${file} (${MARK})`,
    ...BUILT_FILES[file].map((part, i) => (i === 0 ? PARTS[part] : `Contains ${PARTS[part]}.`)),
    'Full notices: THIRD-PARTY-NOTICES.md in the relpos-wasm package.',
  ];
}

function stamp(file) {
  const url = new URL(`dist/${file}`, root);
  let text = readFileSync(url, 'utf8');
  if (text.slice(0, 400).includes(MARK)) return; // its own banner (bundles hold others' inside)
  const lines = bannerLines(file);
  if (file.endsWith('.html')) {
    const comment = `<!--\n  ${lines.join('\n  ')}\n-->\n`;
    const doctype = /^<!doctype html>\n?/i.exec(text);
    text = doctype ? doctype[0] + comment + text.slice(doctype[0].length) : comment + text;
  } else {
    text = `/*! ${lines.join('\n *  ')} */\n${text}`;
  }
  writeFileSync(url, text);
}

if (process.argv[1] === import.meta.filename) {
  for (const file of Object.keys(BUILT_FILES)) stamp(file);
  console.log(`licence-banner: ${Object.keys(BUILT_FILES).length} files of dist/`);
}
