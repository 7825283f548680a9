// Types for relpos-wasm/relpos-core.wasm: the WebAssembly binary of the core, a file rather than
// a JavaScript module. Use its address or its bytes and give them to createRelPos():
//   Vite:       import wasmUrl from 'relpos-wasm/relpos-core.wasm?url'  (vite/client types it)
//   browsers:   import.meta.resolve('relpos-wasm/relpos-core.wasm')      (with an import map)
//   Node:       readFileSync(fileURLToPath(import.meta.resolve('relpos-wasm/relpos-core.wasm')))
// It exports nothing to JavaScript by name, so importing it as a module is a type error.
export {};
