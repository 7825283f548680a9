// "Longer than trained": one small causal model per position scheme, trained on next-word
// prediction on the training corpus at length L, then its held-out loss per word at L, 2L, 4L
// and 8L on the same words (web/train/length-extrapolation.js; the page draws it from one click).
// Prints a table (with each change from L to 8L and twice its standard error over the held-out
// passages, the ± of the page's caption); whatever happens is the result.
//   node bench/length-extrapolation.mjs [L=16] [steps=600] [seed=1]
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createRelPos } from '../web/api/index.js';
import { decodeCorpus } from '../web/train/corpus-format.js';
import {
  EXTRAPOLATION,
  EXTRAPOLATION_SCHEMES,
  lengthExtrapolation,
  lossChange,
} from '../web/train/length-extrapolation.js';

const [length = EXTRAPOLATION.length, steps = EXTRAPOLATION.steps, seed = EXTRAPOLATION.seed] = process.argv
  .slice(2)
  .map(Number);
const corpus = decodeCorpus(gunzipSync(readFileSync(new URL('../dist/training-corpus.bin', import.meta.url))));
const rp = await createRelPos();
const r = lengthExtrapolation(rp, corpus, EXTRAPOLATION_SCHEMES, { length, steps, seed });
const s = r.settings;
console.log(
  `next word, causal; V ${r.vocabSize}, d ${s.dModel}, ${s.heads} heads, ${s.layers} layer(s), k ${s.maxDistance}, ` +
    `T5 ${s.numBuckets} one-way buckets to ${s.length}; ${steps} steps of ${s.batchSize} windows at L = ${length}, ` +
    `seed ${seed}, kernels ${rp.kernels}; held-out: the same ${r.words} words at ${r.lengths.join(', ')} ` +
    `(unigram ${r.unigram.toFixed(3)} nats, uniform ln V ${Math.log(r.vocabSize).toFixed(3)})`,
);
console.table(
  r.rows.map((row) => ({
    scheme: row.scheme,
    'train s': row.seconds.toFixed(1),
    'train loss': row.trainLoss.toFixed(3),
    ...Object.fromEntries(r.lengths.map((n, i) => [`loss@${n}`, row.loss[i].toFixed(3)])),
    [`ppl@${r.lengths[0]}`]: Math.exp(row.loss[0]).toFixed(1),
    [`ppl@${r.lengths.at(-1)}`]: Math.exp(row.loss.at(-1)).toFixed(1),
    [`${r.lengths.at(-1)} − ${r.lengths[0]}`]: lossChange(row, r.passageWords).change.toFixed(3),
    '± 2 se': (2 * lossChange(row, r.passageWords).se).toFixed(3),
  })),
);
rp.dispose();
