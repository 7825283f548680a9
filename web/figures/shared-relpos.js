// One WASM instance for every figure on a page (the elements, the page): created on first use, of
// relpos.js's class, without the checkpoint reader (the page's checkpoint section loads it when
// a file is opened: web/train/checkpoint-section.js), so the first load does not carry it.
import { loadCore } from '../api/load-core.js';
import { BaseRelPos } from '../api/relpos.js';

let instance = null;

export function sharedRelPos() {
  instance ??= loadCore('createRelPos').then((core) => new BaseRelPos(core));
  return instance;
}
