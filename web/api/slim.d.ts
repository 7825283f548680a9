// relpos-wasm/slim: the API of relpos-wasm with no WebAssembly binary inside (dist/relpos-slim.js).
// createRelPos needs one of options.wasmUrl, options.wasmBinary or options.wasmModule, each of
// relpos-wasm/relpos-core.wasm.
import type { CreateRelPosOptions, RelPos } from './index.js';

export * from './index.js';

/** Where the binary comes from: exactly one of the three. */
export type SlimCreateRelPosOptions = CreateRelPosOptions &
  (
    | { wasmUrl: string | URL; wasmBinary?: undefined; wasmModule?: undefined }
    | { wasmBinary: ArrayBuffer | Uint8Array | Blob; wasmUrl?: undefined; wasmModule?: undefined }
    | { wasmModule: WebAssembly.Module; wasmUrl?: undefined; wasmBinary?: undefined }
  );

/**
 * Loads the WebAssembly module from options (nothing is inlined): each call gives an instance
 * with its own memory.
 */
export declare function createRelPos(options: SlimCreateRelPosOptions): Promise<RelPos>;
