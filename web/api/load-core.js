// Loading the WebAssembly core for createRelPos(options): by default from the binary inlined in
// the package (dist/relpos-core-wasm.mjs: nothing is fetched, so it works in every bundler, in
// Node and from file://); or from bytes or a compiled WebAssembly.Module the caller gives
// (`relpos-wasm/relpos-core.wasm`), so a page can compile once, streaming, and share the module
// with its workers.
import createRelPosCore from '../../dist/relpos-core.mjs';
import { wasmBase64 } from '../../dist/relpos-core-wasm.mjs';
import { checkWasmSimd } from './simd.js';
import { checkOptions, describe } from './validate.js';

let inlinedBinary = null;
let compiledCore = null;

const inlined = () => (inlinedBinary ??= Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0)));

/** The inlined binary compiled, once: the WebAssembly.Module a worker pool posts to its workers. */
export function compileCore() {
  compiledCore ??= WebAssembly.compile(inlined());
  return compiledCore;
}

const isModule = (value) => Object.prototype.toString.call(value) === '[object WebAssembly.Module]';

/** The core module, instantiated from options.wasmBinary, options.wasmModule or the inlined binary. */
export async function loadCore(where, options) {
  const given = checkOptions(where, 'options', options, { wasmBinary: undefined, wasmModule: undefined });
  checkWasmSimd(where);
  const { wasmBinary, wasmModule } = given;
  if (wasmBinary !== undefined && wasmModule !== undefined) {
    throw new TypeError(`${where}: give options.wasmBinary or options.wasmModule, not both`);
  }
  if (wasmModule !== undefined) {
    if (!isModule(wasmModule)) {
      throw new TypeError(`${where}: options.wasmModule must be a WebAssembly.Module, got ${describe(wasmModule)}`);
    }
    return fromModule(where, wasmModule);
  }
  if (wasmBinary !== undefined) {
    const isBuffer = Object.prototype.toString.call(wasmBinary) === '[object ArrayBuffer]';
    if (!isBuffer && !ArrayBuffer.isView(wasmBinary)) {
      throw new TypeError(
        `${where}: options.wasmBinary must be an ArrayBuffer or Uint8Array of relpos-wasm/relpos-core.wasm, got ${describe(wasmBinary)}`,
      );
    }
    const bytes = ArrayBuffer.isView(wasmBinary)
      ? new Uint8Array(wasmBinary.buffer, wasmBinary.byteOffset, wasmBinary.byteLength)
      : new Uint8Array(wasmBinary);
    if (!WebAssembly.validate(bytes)) {
      throw new TypeError(
        `${where}: options.wasmBinary is not a valid WebAssembly module; pass the bytes of relpos-wasm/relpos-core.wasm`,
      );
    }
    return createRelPosCore({ wasmBinary: bytes });
  }
  // The inlined binary, compiled once (compileCore): the same module then goes to a pool's workers.
  return fromModule(where, await compileCore());
}

// Emscripten's hook for instantiating a module it did not compile itself; a module that is not
// this package's core fails there, and that failure is this call's.
function fromModule(where, wasmModule) {
  let fail;
  const failed = new Promise((_, reject) => {
    fail = (error) =>
      reject(
        new TypeError(
          `${where}: options.wasmModule could not be instantiated; it must be relpos-wasm/relpos-core.wasm of this version (${error.message})`,
        ),
      );
  });
  const instantiateWasm = (imports, receive) => {
    WebAssembly.instantiate(wasmModule, imports)
      .then((instance) => receive(instance, wasmModule))
      .catch(fail);
    return {};
  };
  return Promise.race([createRelPosCore({ instantiateWasm }), failed]);
}
