// Baseline: relative self-attention (Shaw et al. 2018, docs/maths.md) written by hand in plain
// JavaScript with typed arrays and loops, the way a web developer would. No SIMD, no WASM.
// Computes all six results of a full attention; every output is allocated per call.

/** index(i, j) = clamp(j - i, -k, k) + k: the row of a^K / a^V for query i and key j. */
function tableIndex(i, j, k) {
  return Math.min(Math.max(j - i, -k), k) + k;
}

/** out[r, c] = scale * (a_r · b_c) for a (rows × d) and b (cols × d), i.e. scale · a bᵀ. */
function matMulTransposed(a, b, rows, cols, d, scale, ArrayType) {
  const out = new ArrayType(rows * cols);
  for (let r = 0; r < rows; r++) {
    const aRow = r * d;
    for (let c = 0; c < cols; c++) {
      const bRow = c * d;
      let sum = 0;
      for (let t = 0; t < d; t++) sum += a[aRow + t] * b[bRow + t];
      out[r * cols + c] = sum * scale;
    }
  }
  return out;
}

/** position[i, j] = P[i, index(i, j)], with P = Q a^Kᵀ / √d (n × (2k + 1)). */
function gatherPositions(P, n, k, ArrayType) {
  const tableRows = 2 * k + 1;
  const out = new ArrayType(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) out[i * n + j] = P[i * tableRows + tableIndex(i, j, k)];
  }
  return out;
}

/** Element-wise a + b. */
function add(a, b, ArrayType) {
  const out = new ArrayType(a.length);
  for (let t = 0; t < a.length; t++) out[t] = a[t] + b[t];
  return out;
}

/** Row softmax of an n × n matrix, stable (the row max is subtracted first). */
function softmaxRows(scores, n, ArrayType) {
  const out = new ArrayType(n * n);
  for (let i = 0; i < n; i++) {
    const row = i * n;
    let max = -Infinity;
    for (let j = 0; j < n; j++) max = Math.max(max, scores[row + j]);
    let sum = 0;
    for (let j = 0; j < n; j++) {
      const e = Math.exp(scores[row + j] - max);
      out[row + j] = e;
      sum += e;
    }
    for (let j = 0; j < n; j++) out[row + j] /= sum;
  }
  return out;
}

/**
 * output[i] = Σ_j w[i, j] (v_j + a^V[index(i, j)]). The a^V part is bucketed: the weights of
 * row i are summed per table row, then the 2k + 1 bucket sums multiply a^V.
 */
function weightedValues(weights, v, relValues, n, d, k, ArrayType) {
  const tableRows = 2 * k + 1;
  const out = new ArrayType(n * d);
  const acc = new Float64Array(d);
  const buckets = new Float64Array(tableRows);
  for (let i = 0; i < n; i++) {
    acc.fill(0);
    buckets.fill(0);
    for (let j = 0; j < n; j++) {
      const w = weights[i * n + j];
      buckets[tableIndex(i, j, k)] += w;
      const vRow = j * d;
      for (let t = 0; t < d; t++) acc[t] += w * v[vRow + t];
    }
    for (let c = 0; c < tableRows; c++) {
      const b = buckets[c];
      const aRow = c * d;
      for (let t = 0; t < d; t++) acc[t] += b * relValues[aRow + t];
    }
    out.set(acc, i * d);
  }
  return out;
}

/**
 * Full relative self-attention. q, k, v: n × d; relKeys, relValues: (2 maxDistance + 1) × d;
 * all row-major Float32Array or Float64Array (ArrayType). Returns the six results as ArrayType.
 */
export function plainJsAttention({ q, k, v, relKeys, relValues, n, d, maxDistance, ArrayType }) {
  const scale = 1 / Math.sqrt(d);
  const tableRows = 2 * maxDistance + 1;
  const contentScores = matMulTransposed(q, k, n, n, d, scale, ArrayType);
  const P = matMulTransposed(q, relKeys, n, tableRows, d, scale, ArrayType);
  const positionBiases = gatherPositions(P, n, maxDistance, ArrayType);
  const combinedScores = add(contentScores, positionBiases, ArrayType);
  const contentWeights = softmaxRows(contentScores, n, ArrayType);
  const combinedWeights = softmaxRows(combinedScores, n, ArrayType);
  const output = weightedValues(combinedWeights, v, relValues, n, d, maxDistance, ArrayType);
  return { contentScores, positionBiases, combinedScores, contentWeights, combinedWeights, output };
}
