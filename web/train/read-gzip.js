// A gzip stream expanded with a bound: read chunk by chunk through DecompressionStream and
// stopped (the stream cancelled) as soon as the expanded bytes pass `maxBytes`, so a small file
// that expands to gigabytes costs at most maxBytes of memory and is refused with a message.

/**
 * The most bytes a corpus file may expand to: 16 MiB (the package's corpus expands to 242,386
 * bytes; the corpus tool's are of the same size, its settings being the same).
 */
export const MAX_CORPUS_BYTES = 16 * 1024 * 1024;

/**
 * The bytes `stream` (a ReadableStream of gzip) expands to, at most `maxBytes` of them; more is
 * an Error "expands past …" (the stream is cancelled at the bound), a bad gzip stream the
 * DecompressionStream's error.
 */
export async function gunzipBounded(stream, maxBytes = MAX_CORPUS_BYTES) {
  const reader = stream.pipeThrough(new DecompressionStream('gzip')).getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new RangeError(
        `it expands past ${maxBytes.toLocaleString('en')} bytes (a corpus is well under a megabyte); it was not read further`,
      );
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
