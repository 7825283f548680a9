// A request for the core's attentionInto* bindings as the API sends one: every region empty and
// every setting harmless unless the test gives it, so a test names only what it checks. The
// regions are the core's shape table's (web/api/attention-regions.js).
import { ATTENTION_REGIONS } from '../../web/api/attention-regions.js';
import { ROPE_DEFAULTS, T5_BUCKET_DEFAULTS } from '../../web/api/defaults.js';

/** A region of WASM memory: rows × cols float64 values at `address` (`bytes` reserved). */
export const region = (address, rows, cols, bytes = rows * cols * 8) => ({ address, rows, cols, bytes });

/** The request with `given` over its defaults: no position term, one head, every region 0 × 0. */
export function coreRequest(core, given = {}) {
  const none = region(0, 0, 0, 0);
  return {
    heads: 1,
    causal: false,
    firstQuery: 0,
    queryRows: 0,
    scale: 0,
    scheme: core.PositionScheme.none,
    t5: { ...T5_BUCKET_DEFAULTS },
    base: ROPE_DEFAULTS.base,
    layout: core.RopeLayout[ROPE_DEFAULTS.layout],
    ...Object.fromEntries(ATTENTION_REGIONS.map((name) => [name, none])),
    ...given,
  };
}
