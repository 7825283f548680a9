// The Content-Security-Policy under which the one-file page (dist/relpos.html) works, given its
// inline script's hash: the script by hash, its WebAssembly compiled, its inline style sheet, its
// workers from Blob URLs and its modules and corpus read from data: URLs (docs/troubleshooting.md).
export const oneFilePolicy = (hash) =>
  `default-src 'self'; script-src '${hash}' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; ` +
  `img-src 'self' data: blob:; worker-src blob:; connect-src 'self' data:`;
