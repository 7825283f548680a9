// Loading the WebAssembly core for createRelPos(options): by default from the binary inlined in
// the package (dist/relpos-core-wasm.mjs: nothing is fetched, so it works in every bundler, in
// Node and from file://); or from bytes or a compiled WebAssembly.Module the caller gives
// (`relpos-wasm/relpos-core.wasm`), so a page can compile once, streaming, and share the module
// with its workers. Either way its GEMM kernels come from a module of their own (kernels.js).
import createRelPosCore from '../../dist/relpos-core.mjs';
import { wasmBase64 } from '../../dist/relpos-core-wasm.mjs';
import { chooseKernels, linkKernels } from './kernels.js';
import { checkWasmSimd } from './simd.js';
import { checkOptions, describe } from './validate.js';

let inlinedModule = null;

const isModule = (value) => Object.prototype.toString.call(value) === '[object WebAssembly.Module]';

/**
 * The core module, instantiated from options.wasmBinary, options.wasmModule or the inlined binary,
 * with the GEMM kernels of options.kernels ('relaxed' or 'plain'; default: relaxed SIMD where
 * this engine has it, web/api/kernels.js) linked in. `core.kernels` names the build in use.
 */
export async function loadCore(where, options) {
  const given = checkOptions(where, 'options', options, {
    wasmBinary: undefined,
    wasmModule: undefined,
    kernels: undefined,
  });
  checkWasmSimd(where);
  const { wasmBinary, wasmModule } = given;
  if (wasmBinary !== undefined && wasmModule !== undefined) {
    throw new TypeError(`${where}: give options.wasmBinary or options.wasmModule, not both`);
  }
  const kernels = chooseKernels(where, given.kernels);
  let module;
  let source = 'options.wasmModule';
  if (wasmModule !== undefined) {
    if (!isModule(wasmModule)) {
      throw new TypeError(`${where}: options.wasmModule must be a WebAssembly.Module, got ${describe(wasmModule)}`);
    }
    module = wasmModule;
  } else if (wasmBinary !== undefined) {
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
    module = WebAssembly.compile(bytes);
    source = 'options.wasmBinary';
  } else {
    inlinedModule ??= WebAssembly.compile(Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0)));
    module = inlinedModule;
    source = 'the inlined core';
  }
  // Emscripten's hook for instantiating the module ourselves: the kernels are linked into its
  // imports first. A module that is not this package's core fails there, and that failure is
  // this call's.
  let fail;
  const failed = new Promise((_, reject) => {
    fail = (error) =>
      reject(
        new TypeError(
          `${where}: ${source} could not be instantiated; it must be relpos-wasm/relpos-core.wasm of this version (${error.message})`,
        ),
      );
  });
  const settings = {
    instantiateWasm(imports, receive) {
      Promise.resolve(module)
        .then(async (compiled) => {
          linkKernels(imports, settings.kernelImports ?? {}, kernels);
          receive(await WebAssembly.instantiate(compiled, imports), compiled);
        })
        .catch(fail);
      return {};
    },
  };
  const core = await Promise.race([createRelPosCore(settings), failed]);
  core.kernels = kernels;
  return core;
}
