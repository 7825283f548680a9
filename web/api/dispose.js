// `using rp = await createRelPos()` (explicit resource management): where the engine has
// Symbol.dispose, [Symbol.dispose]() is dispose(). Engines without it have no `using` either.

/** Gives Class.prototype a [Symbol.dispose] that calls dispose(), where Symbol.dispose exists. */
export function addSymbolDispose(Class) {
  if (typeof Symbol.dispose !== 'symbol' || Object.hasOwn(Class.prototype, Symbol.dispose)) return;
  Object.defineProperty(Class.prototype, Symbol.dispose, {
    value() {
      this.dispose();
    },
    writable: true,
    configurable: true,
  });
}
