// The "difference" panel's numbers: what the position term does to the weights.

/**
 * Combined weights minus content-only weights of `result` ({ combinedWeights, contentWeights },
 * row-major), cell by cell over its first `count` cells, in float64: each row sums to 0.
 */
export function weightDifference(result, count) {
  const difference = new Float64Array(count);
  const combined = result.combinedWeights.data;
  const content = result.contentWeights.data;
  for (let index = 0; index < count; index += 1) difference[index] = combined[index] - content[index];
  return difference;
}
