// Shared by the API tests: fixtures as typed arrays, the real module with the shipped training
// corpus, and closeness measures.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createRelPos } from 'relpos-wasm';
import { decodeCorpus } from '../../web/train/corpus-format.js';

export function loadFixture(name) {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));
}

/** A fixture matrix { rows, cols, data: number[] } as a matrix over `ArrayType`. */
export function toMatrix(fixture, ArrayType = Float64Array) {
  return { rows: fixture.rows, cols: fixture.cols, data: ArrayType.from(fixture.data) };
}

/** The shipped training corpus (dist/training-corpus.bin), decoded (decodeCorpus: { header, train, heldOut, … }). */
export function trainingCorpus() {
  return decodeCorpus(gunzipSync(readFileSync(new URL('../../dist/training-corpus.bin', import.meta.url))));
}

/** A new instance of the real module and the shipped training corpus: { rp, corpus }. */
export async function moduleAndCorpus() {
  return { rp: await createRelPos(), corpus: trainingCorpus() };
}

/** The largest |got - want| relative to the largest |want| (the matrix's scale). */
export function relativeError(got, want) {
  let scale = 0;
  let error = 0;
  for (let i = 0; i < want.length; i += 1) {
    scale = Math.max(scale, Math.abs(want[i]));
    error = Math.max(error, Math.abs(got[i] - want[i]));
  }
  return scale === 0 ? error : error / scale;
}

/** How many representable doubles lie between a and b (0 when identical). */
export function ulpDistance(a, b) {
  const view = new DataView(new ArrayBuffer(16));
  view.setFloat64(0, a);
  view.setFloat64(8, b);
  const ordered = (offset) => {
    const bits = view.getBigInt64(offset);
    return bits < 0n ? -(bits & 0x7fffffffffffffffn) : bits;
  };
  const distance = ordered(0) - ordered(8);
  return Number(distance < 0n ? -distance : distance);
}

/**
 * Where two arrays of numbers differ, as `what[index]: got for want` (at most `limit`, the length
 * first): [] when every element is the same number, by Object.is (NaN equals NaN, 0 differs from
 * −0). An expect per element, or toEqual over a long array, takes seconds at 10⁵ elements.
 */
export function numberDifferences(got, want, what = '', limit = 10) {
  const found = [];
  if (got.length !== want.length) found.push(`${what} length: ${got.length} for ${want.length}`);
  for (let index = 0; index < want.length && found.length < limit; index += 1)
    if (!Object.is(got[index], want[index])) found.push(`${what}[${index}]: ${got[index]} for ${want[index]}`);
  return found;
}
