// The call-form benchmark's page (bench/call-forms-bench.mjs): bench/call-forms.js in headless
// Chromium, on the page's main thread and on relpos-wasm/worker pools.
import { createRelPos } from '../web/api/index.js';
import { createRelPosWorker } from '../web/api/worker.js';
import { callForms, copyForms, poolForms } from './call-forms.js';

let rp = null;
const instance = async () => (rp ??= await createRelPos());

window.callForms = async ({ n, k }) => callForms(await instance(), n, k);
window.copyForms = (options) => copyForms(options);
window.poolForms = async ({ sizes, poolSizes }) => {
  const pools = {};
  for (const workers of poolSizes) pools[workers] = await createRelPosWorker({ workers });
  try {
    const results = [];
    for (const [n, k] of sizes) results.push(await poolForms(await instance(), pools, n, k));
    return { results, cores: navigator.hardwareConcurrency };
  } finally {
    for (const pool of Object.values(pools)) pool.terminate();
  }
};

document.body.dataset.ready = 'true';
