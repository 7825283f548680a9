// Batches for the training section's tasks from the training corpus (corpus-format.js): masked words
// (bidirectional), next word (causal), from windows of the token stream. Pure functions over a
// seeded generator, so the held-out batches are the same every run (docs/corpus.md).
import { MASK_ID, UNK_ID } from './corpus-format.js';

/** Ids for a model of `vocabSize` (= words + 2): corpus ids beyond it become <unk>. */
export const clampId = (id, vocabSize) => (id < vocabSize ? id : UNK_ID);

/** The fraction of positions whose word is hidden and predicted (BERT's 15 %). */
export const MASK_RATE = 0.15;

/**
 * One masked-word batch: `batchSize` windows of `seqLen` tokens starting at `starts` (or random
 * ones). About MASK_RATE of the positions whose word is known are chosen; each chosen input is
 * <mask> (80 %), a random word (10 %) or itself (10 %), and its target is the word; every other
 * target is −1 (no loss).
 */
export function maskedBatch(stream, { vocabSize, seqLen, batchSize, random, starts = null }) {
  const tokens = new Int32Array(batchSize * seqLen);
  const targets = new Int32Array(batchSize * seqLen).fill(-1);
  for (let b = 0; b < batchSize; b += 1) {
    const start = starts ? starts[b] : Math.floor(random() * (stream.length - seqLen + 1));
    for (let i = 0; i < seqLen; i += 1) {
      const at = b * seqLen + i;
      const id = clampId(stream[start + i], vocabSize);
      tokens[at] = id;
      if (id === UNK_ID || random() >= MASK_RATE) continue;
      targets[at] = id;
      const r = random();
      if (r < 0.8) tokens[at] = MASK_ID;
      else if (r < 0.9) tokens[at] = 2 + Math.floor(random() * (vocabSize - 2));
    }
  }
  return { tokens, targets, batchSize, seqLen };
}

/** One next-word batch: the target at i is the word at i + 1 (−1 where it is <unk>). */
export function nextWordBatch(stream, { vocabSize, seqLen, batchSize, random, starts = null }) {
  const tokens = new Int32Array(batchSize * seqLen);
  const targets = new Int32Array(batchSize * seqLen);
  for (let b = 0; b < batchSize; b += 1) {
    const start = starts ? starts[b] : Math.floor(random() * (stream.length - seqLen));
    for (let i = 0; i < seqLen; i += 1) {
      tokens[b * seqLen + i] = clampId(stream[start + i], vocabSize);
      const next = clampId(stream[start + i + 1], vocabSize);
      targets[b * seqLen + i] = next === UNK_ID ? -1 : next;
    }
  }
  return { tokens, targets, batchSize, seqLen };
}

/** `count` window starts spread evenly over a stream (the held-out windows). */
export function evenStarts(length, seqLen, count) {
  const last = length - seqLen - 1;
  return Int32Array.from({ length: count }, (_, i) => Math.floor((i * last) / Math.max(1, count - 1)));
}
