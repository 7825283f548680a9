// The checkpoint figure's numbers, without a DOM (docs/checkpoints.md): the position tables of
// rp.checkpointPositions as a small JSON file a course page can host (and back), each head's
// softmax mass of the bias alone, and the caption that says what this file's tables show.
import { biasMass } from '../api/checkpoint-positions.js';
import { SYMMETRIC_BAND, sideOf } from './left-right.js';
import { formatFixed } from '../render/number-text.js';

/** The offsets −MASS_WINDOW…MASS_WINDOW the left/right mass of a head is taken over. */
export const MASS_WINDOW = 64;
/** The `format` of the saved position tables. */
export const POSITION_TABLES_FORMAT = 'relpos-position-tables';

// The shortest decimal that reads back as the same float32 (the tables are float32 or narrower).
function round(x) {
  const f = Math.fround(x);
  for (let digits = 6; digits < 9; digits += 1) {
    const text = Number(f.toPrecision(digits));
    if (Math.fround(text) === f) return text;
  }
  return Number(f.toPrecision(9));
}

/**
 * The tables as a JSON-able object: T5 tables as their bucket of each offset and one value per
 * bucket and head (exact, a few KB); other tables as their bias at each offset.
 */
export function positionTablesJson(tables, { files = [], metadata = null } = {}) {
  return {
    format: POSITION_TABLES_FORMAT,
    version: 1,
    files: [...files],
    metadata,
    tables: tables.map((t) => {
      const common = {
        tensor: t.tensor,
        scheme: t.scheme,
        part: t.part,
        layer: t.layer,
        bidirectional: t.bidirectional,
        maxDistance: t.maxDistance,
        heads: t.heads,
        rule: t.rule,
        offsets: Array.from(t.offsets),
      };
      const count = t.offsets.length;
      if (t.buckets) {
        const values = Array.from({ length: t.numBuckets }, () => new Array(t.heads).fill(null));
        for (let o = 0; o < count; o += 1)
          for (let h = 0; h < t.heads; h += 1) values[t.buckets[o]][h] = round(t.bias[h * count + o]);
        return { ...common, numBuckets: t.numBuckets, buckets: Array.from(t.buckets), values };
      }
      return {
        ...common,
        bias: Array.from({ length: t.heads }, (_, h) => Array.from(t.bias.subarray(h * count, (h + 1) * count), round)),
      };
    }),
  };
}

/** A saved position-tables file back to tables like checkpointPositions'; an Error names `name`. */
export function tablesFromJson(data, name) {
  const fail = (what) => {
    throw new Error(`${name} is not a position-tables file this page reads: ${what}.`);
  };
  if (data === null || typeof data !== 'object' || data.format !== POSITION_TABLES_FORMAT)
    fail(`its "format" is not "${POSITION_TABLES_FORMAT}"`);
  if (data.version !== 1) fail(`version ${JSON.stringify(data.version)} is not 1`);
  if (!Array.isArray(data.tables) || data.tables.length === 0) fail('it has no "tables"');
  return data.tables.map((t, i) => {
    const at = `tables[${i}]`;
    if (t === null || typeof t !== 'object') fail(`${at} is not an object`);
    if (!Number.isInteger(t.heads) || t.heads < 1 || t.heads > 1024) fail(`${at}.heads must be 1 to 1024`);
    if (t.part !== 'encoder' && t.part !== 'decoder') fail(`${at}.part must be "encoder" or "decoder"`);
    if (
      !Array.isArray(t.offsets) ||
      t.offsets.length === 0 ||
      t.offsets.length > 4097 ||
      !t.offsets.every(Number.isInteger)
    )
      fail(`${at}.offsets must be up to 4097 whole numbers`);
    const count = t.offsets.length;
    const bias = new Float64Array(t.heads * count);
    const finite = (v) => typeof v === 'number' && Number.isFinite(v);
    if (Array.isArray(t.buckets)) {
      if (t.buckets.length !== count) fail(`${at}.buckets must hold one bucket per offset`);
      if (!Array.isArray(t.values)) fail(`${at}.values is missing`);
      t.buckets.forEach((b, o) => {
        const row = t.values[b];
        if (!Number.isInteger(b) || !Array.isArray(row) || row.length !== t.heads)
          fail(`${at}.values has no row of ${t.heads} for bucket ${b}`);
        for (let h = 0; h < t.heads; h += 1) {
          if (!finite(row[h])) fail(`${at}.values[${b}][${h}] is not a number`);
          bias[h * count + o] = Math.fround(row[h]); // saved as the shortest decimal of a float32
        }
      });
    } else {
      if (!Array.isArray(t.bias) || t.bias.length !== t.heads) fail(`${at}.bias must hold one row per head`);
      t.bias.forEach((row, h) => {
        if (!Array.isArray(row) || row.length !== count || !row.every(finite))
          fail(`${at}.bias[${h}] must hold ${count} numbers`);
        bias.set(row, h * count);
      });
    }
    return {
      tensor: String(t.tensor ?? ''),
      scheme: t.scheme === 'shaw' ? 'shaw' : 't5',
      part: t.part,
      layer: Number.isInteger(t.layer) ? t.layer : 0,
      bidirectional: t.bidirectional !== false,
      numBuckets: Number.isInteger(t.numBuckets) ? t.numBuckets : undefined,
      maxDistance: Number.isInteger(t.maxDistance) ? t.maxDistance : undefined,
      heads: t.heads,
      offsets: Int32Array.from(t.offsets),
      buckets: Array.isArray(t.buckets) ? Int32Array.from(t.buckets) : undefined,
      bias,
      rule: String(t.rule ?? ''),
    };
  });
}

/** One head's bias as { x, y } arrays. */
export function headSeries(table, head) {
  const count = table.offsets.length;
  return { x: Array.from(table.offsets), y: Array.from(table.bias.subarray(head * count, (head + 1) * count)) };
}

/** Every head's biasMass over ±window. */
export const headMasses = (table, window = MASS_WINDOW) =>
  Array.from({ length: table.heads }, (_, h) => biasMass(table, h, window));

const share = (x) => formatFixed(x, 2);

// One part's sentence: how many heads lean back or ahead or are symmetric (one band: left-right.js), the most lopsided, the flat far end.
function partSentence(table, window) {
  const masses = headMasses(table, window);
  const heads = table.heads;
  const name = `${table.part === 'encoder' ? 'Encoder' : 'Decoder'} (${heads} head${heads === 1 ? '' : 's'}${
    table.scheme === 't5'
      ? `, ${table.numBuckets} buckets, max distance ${table.maxDistance}`
      : `, k = ${table.maxDistance}`
  })`;
  const nearest = masses.reduce((best, m, h) => (m.meanDistance < masses[best].meanDistance ? h : best), 0);
  const farthest = masses.reduce((best, m, h) => (m.meanDistance > masses[best].meanDistance ? h : best), 0);
  const reach = `mean distance under it from ${formatFixed(masses[nearest].meanDistance, 1)} (head ${nearest}) to ${formatFixed(masses[farthest].meanDistance, 1)} (head ${farthest})`;
  if (!table.bidirectional) {
    const selfish = masses.reduce((best, m, h) => (m.self > masses[best].self ? h : best), 0);
    return `${name}: sees only the past; over offsets −${window}…0 the bias alone puts ${share(masses[selfish].self)} on the token itself at most (head ${selfish}), ${reach}.`;
  }
  const sides = masses.map(sideOf);
  const count = (side) => sides.filter((x) => x === side).length;
  const lopsided = masses.reduce(
    (best, m, h) => (Math.abs(m.left - m.right) > Math.abs(masses[best].left - masses[best].right) ? h : best),
    0,
  );
  const m = masses[lopsided];
  const { low, high } = SYMMETRIC_BAND;
  return `${name}: over offsets −${window}…${window} the bias alone leans back (left/right softmax mass above ${high}) in ${count('back')} of ${heads} heads, ahead (below ${low}) in ${count('ahead')}, and is symmetric (${low}–${high}) in ${count('symmetric')}; the most lopsided, head ${lopsided}, puts ${share(m.left)} left, ${share(m.self)} on itself, ${share(m.right)} right; ${reach}.`;
}

/** What the file's tables show, in sentences with the numbers drawn. */
export function checkpointCaption(tables, window = MASS_WINDOW) {
  if (tables.length === 0) return 'This file holds no position table this page knows.';
  const far = tables.find((t) => t.scheme === 't5');
  const tail = far
    ? ` Past ±${far.maxDistance} every offset shares the last bucket, so each line is flat there (dashed marks at ±${far.maxDistance}).`
    : '';
  return `${tables.map((t) => partSentence(t, window)).join(' ')}${tail}`;
}
