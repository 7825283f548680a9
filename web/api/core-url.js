// The address of the package's core binary where a build serves it as a file of its own, which
// createRelPos() then compiles, streaming, instead of the inlined copy: the served page's build
// puts its .wasm file's address here (vite.config.js, servedCore). Undefined: the inlined binary.
export const coreUrl = undefined;
