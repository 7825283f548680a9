// The project's one seeded generator of uniform numbers (mulberry32): the training batches, the
// page's shuffles and the tests' random cases. (The attention examples draw from numpy's stream,
// rp.randn: docs/random-stream.md.)

/** A seeded generator: each call returns the next uniform number in [0, 1); equal seeds, equal streams. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
