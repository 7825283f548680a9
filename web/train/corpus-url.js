// Where the training corpus is, beside the package's modules (dist/training-corpus.bin; the
// one-file builds carry it inside): the training section's and "Longer than trained"'s default.
export const CORPUS_URL = new URL('../../dist/training-corpus.bin', import.meta.url).href;
