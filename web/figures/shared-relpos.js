// One WASM instance for every figure on a page (the elements, the page): created on first use.
import { createRelPos } from '../api/index.js';

let instance = null;

export function sharedRelPos() {
  instance ??= createRelPos();
  return instance;
}
