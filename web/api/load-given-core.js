// Loading the WebAssembly core from what the caller gives: the address, the bytes or a compiled
// WebAssembly.Module of relpos-wasm/relpos-core.wasm (options.wasmUrl, wasmBinary, wasmModule),
// with no binary of its own. load-core.js adds the package's inlined binary as the default; the
// workers, which are posted the page's compiled module, load from here alone, so no worker bundle
// carries a copy of the binary. Either way the GEMM kernels come from a module of their own
// (kernels.js).
import createRelPosCore from '../../dist/relpos-core.mjs';
import { chooseKernels, linkKernels } from './kernels.js';
import { checkWasmSimd } from './simd.js';
import { readOwnBytes } from './own-bytes.js';
import { checkOptions, describe } from './validate.js';

/** What a call with none of the three options, where no binary is inside, is told. */
export const noBinary = (where) =>
  `${where}: this build (relpos-wasm/slim) has no WebAssembly binary inside; pass options.wasmUrl (the address of relpos-wasm/relpos-core.wasm), options.wasmBinary (its bytes) or options.wasmModule (it compiled), or import relpos-wasm, which has it inside`;

const isModule = (value) => Object.prototype.toString.call(value) === '[object WebAssembly.Module]';

/**
 * relpos-core.wasm compiled from its address (a string or URL): streaming where the server says
 * application/wasm. `what` names the address in messages.
 */
export async function compileFrom(where, wasmUrl, what = 'options.wasmUrl') {
  if (typeof wasmUrl !== 'string' && !(wasmUrl instanceof URL)) {
    throw new TypeError(`${where}: ${what} must be a string or URL, got ${describe(wasmUrl)}`);
  }
  const url = String(wasmUrl);
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new TypeError(
      `${where}: ${what} ${url} could not be fetched (${error.message}); in Node, read the file and pass options.wasmBinary`,
      { cause: error },
    );
  }
  if (!response.ok) {
    throw new TypeError(
      `${where}: ${what} ${url} answered HTTP ${response.status}; it must be the address of relpos-wasm/relpos-core.wasm`,
    );
  }
  const streaming =
    typeof WebAssembly.compileStreaming === 'function' && response.headers.get('content-type') === 'application/wasm';
  try {
    return await (streaming
      ? WebAssembly.compileStreaming(response)
      : WebAssembly.compile(await response.arrayBuffer()));
  } catch (error) {
    throw new TypeError(
      `${where}: ${what} ${url} is not a WebAssembly module (${error.message}); it must be relpos-wasm/relpos-core.wasm`,
      { cause: error },
    );
  }
}

/**
 * The core module, instantiated from options.wasmUrl, options.wasmBinary or options.wasmModule
 * (exactly one), with the GEMM kernels of options.kernels ('relaxed' or 'plain'; default: relaxed
 * SIMD where this engine has it, web/api/kernels.js) linked in. `fallback()`: the compiled module
 * to use when none of the three is given (load-core.js: the inlined binary); without one, such a
 * call is refused. `core.kernels` names the build in use.
 */
export async function loadGivenCore(where, options, fallback = null) {
  const given = checkOptions(where, 'options', options, {
    wasmBinary: undefined,
    wasmModule: undefined,
    wasmUrl: undefined,
    kernels: undefined,
  });
  checkWasmSimd(where);
  const { wasmBinary, wasmUrl } = given;
  let { wasmModule } = given;
  const sources = ['wasmUrl', 'wasmBinary', 'wasmModule'].filter((name) => given[name] !== undefined);
  if (sources.length > 1) {
    throw new TypeError(
      `${where}: give one of options.wasmUrl, options.wasmBinary and options.wasmModule, not ${sources.join(' and ')}`,
    );
  }
  const kernels = chooseKernels(where, given.kernels);
  if (wasmUrl !== undefined) wasmModule = await compileFrom(where, wasmUrl);
  if (wasmModule !== undefined) {
    if (!isModule(wasmModule)) {
      throw new TypeError(`${where}: options.wasmModule must be a WebAssembly.Module, got ${describe(wasmModule)}`);
    }
    return fromModule(where, wasmModule, kernels, 'options.wasmModule');
  }
  if (wasmBinary !== undefined) {
    // The caller's bytes exactly, copied (own-bytes.js): a Buffer, a view at an offset, an
    // ArrayBuffer, a Blob or a File.
    const bytes = await readOwnBytes(where, 'options.wasmBinary', wasmBinary).catch((error) => {
      throw error instanceof TypeError
        ? new TypeError(`${error.message} (the bytes of relpos-wasm/relpos-core.wasm)`)
        : error;
    });
    if (!WebAssembly.validate(bytes)) {
      throw new TypeError(
        `${where}: options.wasmBinary is not a valid WebAssembly module; pass the bytes of relpos-wasm/relpos-core.wasm`,
      );
    }
    return fromModule(where, WebAssembly.compile(bytes), kernels, 'options.wasmBinary');
  }
  if (!fallback) throw new TypeError(noBinary(where));
  return fromModule(where, fallback(where), kernels, 'the inlined core');
}

// Emscripten's hook for instantiating the module ourselves: the kernels are linked into its
// imports first. A module that is not this package's core fails there, and that failure is this
// call's. `module`: a WebAssembly.Module or a promise of one.
async function fromModule(where, module, kernels, source) {
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
