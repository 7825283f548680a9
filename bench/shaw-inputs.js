// The benchmarks' inputs to a Shaw attention, n positions and k, d_k = d: the API's own seeded
// Gaussians (rp.randn), seeds 1–5 for q, k, v, aᴷ and aⱽ, as { rows, cols, data } matrices.
export function shawInputs(rp, n, k, d) {
  const draw = (rows, seed) => ({ rows, cols: d, data: Float32Array.from(rp.randn(seed, rows * d)) });
  return {
    q: draw(n, 1),
    k: draw(n, 2),
    v: draw(n, 3),
    relKeys: draw(2 * k + 1, 4),
    relValues: draw(2 * k + 1, 5),
  };
}
