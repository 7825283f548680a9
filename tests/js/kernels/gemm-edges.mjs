// The GEMM micro-kernel of a kernels module (relpos_gemm_f32_4x8, cpp/relpos/kernels/) called
// directly on its own memory, at every edge of its blocking: rows 1–4 (a block has at most 4),
// columns 1, 7, 8, 9, 16, 17 (8-column panels), depths 1–5, 64, 257, both layouts of A
// (rows apart by a stride as in A·B; columns of a depth-major A as in Aᵀ·B), with and without
// accumulation. Each result is compared with two references computed here: the scalar sum in
// float32 in the kernel's order (in order of depth, each product and sum rounded, then × alpha,
// then + c), which the plain build must match bit for bit, and the exact sum (float64), which
// either build must match within (depth + 3)·u·(|alpha|·Σ|a·b| + |c|), u = 2⁻²⁴. Cells outside
// the block must keep their value.
const U = 2 ** -24;
const ROWS = [1, 2, 3, 4];
const COLS = [1, 7, 8, 9, 16, 17];
const DEPTHS = [1, 2, 3, 4, 5, 64, 257];
const MARK = 12345.5;

export function checkGemmEdges(bytes) {
  const memory = new WebAssembly.Memory({ initial: 4 });
  const { relpos_gemm_f32_4x8: gemm } = new WebAssembly.Instance(new WebAssembly.Module(bytes), {
    env: { memory },
  }).exports;
  const heap = new Float32Array(memory.buffer);
  let state = 7;
  const draw = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return Math.fround(state / 2 ** 30 - 1);
  };
  const summary = { cases: 0, notOrderedSum: 0, outsideBound: 0, touchedOutside: 0 };
  for (const transposed of [false, true])
    for (const accumulate of [0, 1])
      for (const rows of ROWS)
        for (const cols of COLS)
          for (const depth of DEPTHS) {
            const alpha = accumulate ? 1 : 0.375;
            const panelCount = Math.ceil(cols / 8);
            const panelStride = depth * 8 + 8; // panels need not be adjacent
            const lda = transposed ? rows + 2 : depth + 3;
            const cStride = cols + 3;
            const aAt = 0;
            const bAt = aAt + (transposed ? depth * lda : rows * lda);
            const cAt = bAt + panelCount * panelStride;
            const cSize = (rows + 1) * cStride;
            const aIndex = (r, p) => aAt + (transposed ? p * lda + r : r * lda + p);
            const bIndex = (p, j) => bAt + Math.floor(j / 8) * panelStride + p * 8 + (j % 8);
            for (let i = aAt; i < cAt; i += 1) heap[i] = draw();
            for (let p = 0; p < depth; p += 1) for (let j = cols; j < panelCount * 8; j += 1) heap[bIndex(p, j)] = 0;
            const before = new Float32Array(cSize);
            for (let i = 0; i < cSize; i += 1) {
              const inside = Math.floor(i / cStride) < rows && i % cStride < cols;
              before[i] = inside && accumulate ? draw() : MARK;
            }
            heap.set(before, cAt);
            gemm(
              rows,
              cols,
              depth,
              aAt * 4,
              transposed ? 1 : lda,
              transposed ? lda : 1,
              bAt * 4,
              panelStride,
              alpha,
              accumulate,
              cAt * 4,
              cStride,
            );
            summary.cases += 1;
            for (let i = 0; i < cSize; i += 1) {
              const r = Math.floor(i / cStride);
              const j = i % cStride;
              const got = heap[cAt + i];
              if (r >= rows || j >= cols) {
                if (got !== MARK) summary.touchedOutside += 1;
                continue;
              }
              let ordered = 0;
              let exact = 0;
              let magnitude = 0;
              for (let p = 0; p < depth; p += 1) {
                const product = heap[aIndex(r, p)] * heap[bIndex(p, j)];
                ordered = Math.fround(ordered + Math.fround(product));
                exact += product;
                magnitude += Math.abs(product);
              }
              const c0 = accumulate ? before[i] : 0;
              ordered = Math.fround(alpha * ordered);
              if (accumulate) ordered = Math.fround(ordered + c0);
              exact = alpha * exact + c0;
              if (!Object.is(got, ordered)) summary.notOrderedSum += 1;
              const bound = (depth + 3) * U * (Math.abs(alpha) * magnitude + Math.abs(c0));
              if (!(Math.abs(got - exact) <= bound)) summary.outsideBound += 1;
            }
          }
  return summary;
}
