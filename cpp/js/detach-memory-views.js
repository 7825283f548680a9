// Linked into the core module (--post-js, inside Emscripten's module factory, where `wasmMemory`
// and `updateGlobalBufferAndViews` live). detachMemoryViews() detaches every typed array over
// the module's memory that exists now and gives Emscripten (and Module.HEAP*) fresh ones:
// WebAssembly.Memory.prototype.grow(0) replaces the memory's ArrayBuffer, and the old one
// becomes detached (length 0), as every growth does (WebAssembly JavaScript interface,
// "refresh the memory buffer"). The API uses it to retire the views it handed out
// (attention(…, { views: true }), docs/memory-views.md).
Module['detachMemoryViews'] = function detachMemoryViews() {
  wasmMemory.grow(0);
  updateGlobalBufferAndViews(wasmMemory.buffer);
};
