// "Longer than trained": one small model per position scheme, trained on copy-offset at length L,
// then its held-out loss and accuracy at L, 2L, 4L and 8L — the experiment of the ALiBi paper's
// Figure 1 at toy scale (web/train/length-extrapolation.js; the page draws it from one click).
// Prints a table; whatever happens is the result.
//   node bench/length-extrapolation.mjs [L=16] [steps=300] [offset=-2] [causal=1]
import { createRelPos } from '../web/api/index.js';
import { EXTRAPOLATION, lengthExtrapolation } from '../web/train/length-extrapolation.js';

const [length = EXTRAPOLATION.length, steps = 300, offset = EXTRAPOLATION.offset, causal = 1] = process.argv
  .slice(2)
  .map(Number);
const schemes = ['shaw', 't5', 'alibi', 'rope', 'sinusoidal', 'absolute', 'none'];
const rp = await createRelPos();
const { lengths, rows } = lengthExtrapolation(rp, schemes, { length, steps, offset, causal: Boolean(causal) });
console.log(
  `copy-offset (target = token at i ${offset < 0 ? '−' : '+'} ${Math.abs(offset)}), vocabulary 16, trained ${steps} steps at L = ${length}` +
    `${causal ? ', causal' : ''}; held-out loss and accuracy at ${lengths.join(', ')} (chance loss ln 16 = ${Math.log(16).toFixed(3)})`,
);
console.table(
  rows.map((r) => ({
    scheme: r.scheme,
    'train s': r.seconds.toFixed(1),
    ...Object.fromEntries(
      lengths.flatMap((n, i) => [
        [`loss@${n}`, r.loss[i].toFixed(3)],
        [`acc@${n}`, r.accuracy[i].toFixed(2)],
      ]),
    ),
  })),
);
