// npm's prepack: the package ships build products (dist/), which a fresh clone does not have.
// If they are missing or older than their sources, this builds them (scripts/build.sh) when the
// toolchain is there (Emscripten and the npm devDependencies), and otherwise refuses to pack,
// saying what to run: a tarball without dist/ fails on import. RELPOS_PREPACK_BUILD=0 refuses
// instead of building. Writes nothing to stdout (npm pack --json prints its report there).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../', import.meta.url).pathname;

/** What the package's files and exports name from dist/ (package.json "files"), and what each is built from. */
const PRODUCTS = [
  {
    built: [
      'dist/relpos-core.mjs',
      'dist/relpos-core-wasm.mjs',
      'dist/relpos-core.wasm',
      'dist/relpos-kernels-wasm.mjs',
    ],
    from: ['cpp', 'CMakeLists.txt', 'scripts/embed-wasm.mjs', 'scripts/embed-kernels.mjs'],
  },
  {
    built: [
      'dist/relpos-elements.js',
      'dist/relpos-elements.iife.js',
      'dist/relpos-train.js',
      'dist/relpos-train.iife.js',
      'dist/relpos-slim.js',
      'dist/relpos.html',
      'dist/custom-elements.json',
    ],
    from: [
      'web',
      'index.html',
      'vite.bundles.config.js',
      'scripts/make-single-html.mjs',
      'scripts/make-custom-elements.mjs',
      'scripts/licence-banner.mjs',
    ],
  },
  {
    built: ['dist/training-corpus.bin'],
    from: ['scripts/make-corpus.mjs', 'web/train/build-corpus.js', 'web/train/corpus-format.js'],
  },
];

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function missing() {
  const absent = PRODUCTS.flatMap(({ built }) => built).filter((file) => !existsSync(join(ROOT, file)));
  return absent.length ? `${absent.join(', ')} ${absent.length === 1 ? 'is' : 'are'} missing` : null;
}

function problems() {
  const absent = missing();
  if (absent) return absent;
  for (const { built, from } of PRODUCTS) {
    const oldest = Math.min(...built.map((file) => statSync(join(ROOT, file)).mtimeMs));
    const stale = from.filter((path) => existsSync(join(ROOT, path)) && newest(join(ROOT, path)) > oldest);
    if (stale.length) return `${built.join(', ')} ${built.length === 1 ? 'is' : 'are'} older than ${stale.join(', ')}`;
  }
  return null;
}

const toolchain = () =>
  existsSync(join(ROOT, 'node_modules/.bin/vite')) && spawnSync('which', ['emcmake']).status === 0;

let problem = problems();
if (problem && process.env.RELPOS_PREPACK_BUILD !== '0' && toolchain()) {
  process.stderr.write(`prepack: ${problem}; building (scripts/build.sh)\n`);
  const build = spawnSync('bash', ['scripts/build.sh'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // The build decides what a change of source rebuilds (a core source leaves the kernels module
  // as it was, and so older than cpp/): after it, only a missing product is a problem, and every
  // product is as new as the build, so the next pack does not build again for the same sources.
  problem = missing();
  const now = new Date();
  if (!problem) for (const file of PRODUCTS.flatMap(({ built }) => built)) utimesSync(join(ROOT, file), now, now);
}
if (problem) {
  process.stderr.write(
    `prepack: refusing to pack: ${problem}. Build first: npm ci && npm run build (needs Emscripten; see README "Build from source").\n`,
  );
  process.exit(1);
}
