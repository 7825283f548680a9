// The training section's data and run, in Node on the real WASM module (docs/training.md,
// docs/corpus.md): the corpus built from the World English Bible and tagged by compromise
// (tags, vocabulary, split by document; the Brown source's tags and parser too), the
// masked-word and next-word batches, what a session reads from a model (weights against
// rp.attention, left/self/right, profiles by part of speech, the claims), and the model files
// (JSON, .npz) read back, with bad files refused by a clear message.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  coarsePos,
  coarsePosOfTags,
  decodeCorpus,
  encodeCorpus,
  POS_NAMES,
  MASK_ID,
  UNK_ID,
} from '../../web/train/corpus-format.js';
import { seededRandom } from '../../web/api/seeded-random.js';
import { MASK_RATE, maskedBatch, nextWordBatch } from '../../web/train/batches.js';
import { CLAIMS, TrainSession, sessionFromExport } from '../../web/train/train-session.js';
import { wordOrderReadings } from '../../web/train/word-order-readings.js';
import { crc32, modelFromNpz, modelToNpz, npyBytes, parseNpy, unzipStored } from '../../web/train/model-files.js';
import nlp from 'compromise';
import { booksFromImp, parseBrownFile } from '../../scripts/make-corpus.mjs';
import { sentencesOf } from '../../web/train/build-corpus.js';
import { moduleAndCorpus } from './helpers.js';

let rp;
let corpus;
beforeAll(async () => {
  ({ rp, corpus } = await moduleAndCorpus());
});

// One head's combined weights and position biases by plain loops, in float64 (docs/maths.md):
// score = (q_i·k_j + q_i·aᴷ[clip(j − i, −k, k) + k]) / √d_k, keys after the query masked when
// causal, row softmax; the reference the analysis (the core's attention) is held to.
function referenceWeights({ q, k: keys, relKeys, causal }, k) {
  const n = q.rows;
  const dk = q.cols;
  const scale = 1 / Math.sqrt(dk);
  const weights = new Float64Array(n * n);
  const bias = new Float64Array(n * n);
  for (let i = 0; i < n; i += 1) {
    let max = -Infinity;
    for (let j = 0; j < n; j += 1) {
      const c = Math.min(k, Math.max(-k, j - i)) + k;
      let content = 0;
      let position = 0;
      for (let x = 0; x < dk; x += 1) {
        content += q.data[i * dk + x] * keys.data[j * dk + x];
        position += q.data[i * dk + x] * relKeys.data[c * dk + x];
      }
      bias[i * n + j] = position * scale;
      weights[i * n + j] = causal && j > i ? -Infinity : (content + position) * scale;
      max = Math.max(max, weights[i * n + j]);
    }
    let sum = 0;
    for (let j = 0; j < n; j += 1) {
      weights[i * n + j] = Math.exp(weights[i * n + j] - max);
      sum += weights[i * n + j];
    }
    for (let j = 0; j < n; j += 1) weights[i * n + j] /= sum;
  }
  return { weights, bias };
}

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

  test("compromise's tags map to the coarse parts of speech", () => {
    const cases = [
      [['Determiner'], 'determiner'],
      [['Noun', 'Pronoun', 'Possessive'], 'determiner'],
      [['Noun', 'Pronoun'], 'pronoun'],
      [['Noun', 'Singular', 'ProperNoun'], 'noun'],
      [['Verb', 'Copula', 'PastTense'], 'verb'],
      [['Verb', 'Auxiliary'], 'verb'],
      [['Adjective'], 'adjective'],
      [['Adverb'], 'adverb'],
      [['Preposition'], 'preposition'],
      [['Conjunction'], 'conjunction'],
      [['Value', 'Cardinal'], 'other'],
      [[], 'other'],
    ];
    for (const [tags, name] of cases) expect(POS_NAMES[coarsePosOfTags(tags)], tags.join()).toBe(name);
  });

  test('the SWORD export parses into books of plain verses; compromise tokenizes and tags them', () => {
    const imp = [
      '$$$[ Module Heading ]',
      '$$$Genesis 0:0',
      'An introduction.',
      '$$$Genesis 1:1',
      '<w lemma="strong:H0430">In</w> <w>the</w> <w>beginning</w>, <w>God</w><note placement="foot">1:1 a note</note><w>created</w> the earth.',
      '$$$Genesis 1:2',
      '<title>A heading</title>The earth was empty—dark. <div eID="x" type="x-p"/>',
      '$$$Exodus 1:1',
      'Now these are the names.',
    ].join('\n');
    const books = booksFromImp(imp);
    expect(books).toEqual([
      { name: 'Genesis', text: 'In the beginning, God created the earth. The earth was empty — dark.' },
      { name: 'Exodus', text: 'Now these are the names.' },
    ]);
    const [first, second] = sentencesOf(nlp, books[0].text, true);
    expect(first.map((t) => t.word)).toEqual(['in', 'the', 'beginning', ',', 'god', 'created', 'the', 'earth', '.']);
    expect(first.map((t) => POS_NAMES[t.pos])).toEqual([
      'preposition',
      'determiner',
      'noun',
      'other',
      'noun',
      'verb',
      'determiner',
      'noun',
      'other',
    ]);
    expect(second.map((t) => t.word)).toEqual(['the', 'earth', 'was', 'empty', 'dark', '.']);
    // Untagged (the training text): the same tokens, no part of speech.
    expect(sentencesOf(nlp, books[0].text, false)[0].map((t) => [t.word, t.pos])[4]).toEqual(['god', undefined]);
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
    expect(header.words.slice(0, 4)).toEqual(['<mask>', '<unk>', ',', 'the']);
    expect(header.words.length).toBe(3002);
    expect(new Set(header.words).size).toBe(3002);
    expect(header.source).toContain('derived from the World English Bible');
    expect(header.source).toContain('not the World English Bible itself');
    expect(header.terms).toMatch(/^Public domain/);
    expect(header.tagger).toBe('compromise 14.17.0 (npm, MIT)');
    // Held out: every tenth book (Genesis, I Kings, …), none of them in training.
    expect(header.heldOutDocuments.slice(0, 2)).toEqual(['Genesis', 'I Kings']);
    expect(header.heldOutDocuments.length + header.trainDocuments).toBe(80);
    expect(train.length).toBeGreaterThan(130_000);
    expect(heldOut.length).toBeGreaterThan(15_000);
    expect(heldOutPos.length).toBe(heldOut.length);
    expect(train.reduce((a, b) => Math.max(a, b), 0)).toBe(3001);
    expect(trainSentenceStarts[0]).toBe(0);
    expect(heldOutSentenceStarts.length).toBeGreaterThan(500);
    // "the" is a determiner wherever it is held out, but for the tagger's rare slips (under 1 %).
    const the = header.words.indexOf('the');
    const thes = heldOutPos.filter((_, i) => heldOut[i] === the);
    expect(thes.length).toBeGreaterThan(500);
    expect(thes.filter((p) => POS_NAMES[p] !== 'determiner').length).toBeLessThan(thes.length / 100);
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
  test('the word-order readings (the comparison of languages) are the core’s attention: one window’s left and right masses, against a plain reference', () => {
    const session = new TrainSession(rp, corpus, { preset: 'tiny' });
    for (let i = 0; i < 3; i += 1) session.step();
    const [window] = session.analysisWindows;
    const n = window.tokens.length;
    const { maxDistance: k } = session.model.config;
    // One window: every bootstrap resample is that window, so each interval is its exact mass.
    const readings = wordOrderReadings({
      rp: session.rp,
      model: session.model,
      corpus: session.corpus,
      analysisWindows: [window],
    });
    session.model.headInputs(window.tokens).forEach((inputs, index) => {
      const { weights } = referenceWeights(inputs, k);
      let left = 0;
      let right = 0;
      for (let i = 0; i < n; i += 1)
        for (let j = 0; j < n; j += 1) {
          if (j < i) left += weights[i * n + j];
          else if (j > i) right += weights[i * n + j];
        }
      const [leftLow, leftHigh, rightLow, rightHigh] = readings[index].sides;
      for (const got of [leftLow, leftHigh]) expect(got).toBeCloseTo(left / n, 12);
      for (const got of [rightLow, rightHigh]) expect(got).toBeCloseTo(right / n, 12);
    });
    session.dispose();
  });

  test.each(['tiny', 'small'])(
    'the readings are the core’s attention (%s: every layer and head): one window’s, against a plain reference',
    (preset) => {
      const session = new TrainSession(rp, corpus, { preset });
      for (let i = 0; i < 3; i += 1) session.step();
      const { tokens } = session.analysisWindows[0];
      const n = tokens.length;
      const { maxDistance: k } = session.model.config;
      const analysis = session.analyse(1);
      session.model.headInputs(tokens).forEach((inputs, index) => {
        const { weights, bias } = referenceWeights(inputs, k);
        const mass = { left: 0, self: 0, right: 0 };
        const profile = new Float64Array(2 * k + 1);
        const counts = new Float64Array(2 * k + 1);
        for (let i = 0; i < n; i += 1) {
          for (let j = 0; j < n; j += 1) {
            mass[j < i ? 'left' : j > i ? 'right' : 'self'] += weights[i * n + j];
            if (Math.abs(j - i) > k) continue;
            profile[j - i + k] += bias[i * n + j];
            counts[j - i + k] += 1;
          }
        }
        const head = analysis.heads[index];
        for (const side of ['left', 'self', 'right']) expect(head[side]).toBeCloseTo(mass[side] / n, 12);
        profile.forEach((sum, c) => expect(head.profile[c]).toBeCloseTo(sum / counts[c], 12));
      });
      session.dispose();
    },
  );

  test('readings: left + self + right = 1, causal heads never look right, POS profiles and claims', () => {
    const masked = new TrainSession(rp, corpus, { preset: 'tiny' });
    const a = masked.analyse(16);
    expect(a.heads.length).toBe(2);
    for (const h of a.heads) {
      expect(h.left + h.self + h.right).toBeCloseTo(1, 9);
      expect(h.profile.length).toBe(17);
      expect(Object.keys(h.byPos)).toEqual(['determiner', 'noun', 'verb', 'adjective', 'preposition']);
      expect(h.byPos.noun.count).toBeGreaterThan(10);
      expect(Object.keys(h.verdicts)).toEqual(Object.keys(CLAIMS));
      // An untrained head: weights near 1/32 everywhere, so no part of speech stands out.
      const v = h.verdicts.determinerToFollowingNoun;
      expect(v.queries).toBeGreaterThan(20);
      expect(v.claimed).toBeGreaterThan(0);
      expect(v.claimed).toBeLessThanOrEqual(3 / 16);
      expect(v.verdict).not.toBe('shows');
      expect(v.low).toBeLessThan(v.high);
      for (let c = 0; c < 17; c += 1) expect(h.profileLow[c]).toBeLessThanOrEqual(h.profileHigh[c]);
      expect(h.near).toBeGreaterThan(0);
      expect(h.nearUniform).toBeCloseTo(4 / 32, 1);
    }
    const b = masked.lossBaselines();
    expect(b.uniform).toBeCloseTo(Math.log(502), 12);
    expect(b.unigram).toBeGreaterThan(3);
    expect(b.unigram).toBeLessThan(b.uniform);
    masked.dispose();
    const causal = new TrainSession(rp, corpus, { preset: 'tiny', task: 'next' });
    for (const h of causal.analyse(16).heads) {
      expect(h.right).toBe(0);
      expect(h.verdicts.verbToFollowingNoun).toMatchObject({ verdict: 'untestable', reason: 'causal' });
      expect(h.verdicts.determinerToFollowingNoun.verdict).toBe('untestable');
      expect(h.verdicts.verbToPrecedingSubject.verdict).not.toBe('untestable');
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

  test('copy-offset reads a typed sentence as symbols: a new word the next symbol, a repeated word its own, a symbol itself', () => {
    const session = new TrainSession(rp, null, { task: 'copy', preset: 'tiny' });
    expect(session.words.slice(0, 3)).toEqual(['s0', 's1', 's2']);
    expect(Array.from(session.idsOf(['the', 'cat', 'saw', 'The', 'dog']))).toEqual([0, 1, 2, 0, 3]);
    expect(Array.from(session.idsOf(['s5', 'cat', 's5']))).toEqual([5, 0, 5]);
    // More new words than symbols: they take the symbols again, in turn.
    const many = Array.from({ length: 20 }, (_, i) => `w${i}`);
    expect(Array.from(session.idsOf(many))).toEqual(many.map((_, i) => i % session.words.length));
    expect(session.attentionOn(['the', 'cat', 'the'], { layer: 0, head: 0 }).seen).toEqual(['s0', 's1', 's0']);
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
      [bad((m) => (m.parameters['output.bias'].data[7] = 'x')), /"output.bias"\[7\] is a string \("x"\), not a number/],
      [bad((m) => (m.parameters['output.bias'].data[7] = 1e39)), /"output.bias"\[7\] is not a finite number/],
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
