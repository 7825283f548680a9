// Loading the WebAssembly core for createRelPos(options): by default from the binary inlined in
// the package (dist/relpos-core-wasm.mjs: nothing is fetched, so it works in every bundler, in
// Node and from file://); or from the address, the bytes or a compiled WebAssembly.Module of
// `relpos-wasm/relpos-core.wasm` the caller gives (wasmUrl, wasmBinary, wasmModule:
// load-given-core.js), so a page can compile once, streaming, and share the module with its
// workers. relpos-wasm/slim (dist/relpos-slim.js) is this API built with no binary inside: one of
// the three is required. The served page is built with the address of its .wasm file in place of
// the inlined binary (core-url.js), which it then compiles, streaming.
import { wasmBase64 } from '../../dist/relpos-core-wasm.mjs';
import { coreUrl } from './core-url.js';
import { compileFrom, loadGivenCore, noBinary } from './load-given-core.js';

let compiledCore = null;

const decode = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

/**
 * The package's own binary compiled, once: the WebAssembly.Module createRelPos() instantiates by
 * default and a worker pool posts to its workers. A failure (the served file unreachable) is not
 * kept: the next call tries again.
 */
export function compileCore(where = 'compileCore') {
  if (typeof wasmBase64 !== 'string' && coreUrl === undefined) throw new TypeError(noBinary(where));
  compiledCore ??= (
    coreUrl === undefined
      ? WebAssembly.compile(decode(wasmBase64))
      : compileFrom(where, coreUrl, "the core's .wasm file")
  ).catch((error) => {
    compiledCore = null;
    throw error;
  });
  return compiledCore;
}

/** The core module from options.wasmUrl, options.wasmBinary or options.wasmModule, or the package's binary (compileCore). */
export const loadCore = (where, options) => loadGivenCore(where, options, compileCore);
