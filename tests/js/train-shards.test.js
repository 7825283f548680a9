// A step in shards (docs/training.md): a batch's gradient as the sum of its parts' gradients
// (model.shardGradients against model.lossAndGradients of the whole batch, float64), one Adam
// step on given gradients (model.applyGradients of lossAndGradients' own gradient against
// trainStep, bit for bit), the parameters as one vector, and TrainSession's step in two shards:
// the same numbers when shard 1 comes from another instance (as from a second worker), when that
// peer fails, and all in one; every argument refused with a clear error that leaves the model usable.
import { MessageChannel } from 'node:worker_threads';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { ADAM, LIVE_SHARDS, TrainSession } from '../../web/train/train-session.js';
import { serveShards } from '../../web/train/shard-server.js';
import { trainingCorpus } from './helpers.js';

let rp;
let other;
beforeAll(async () => {
  rp = await createRelPos();
  other = await createRelPos(); // a second instance: what a second worker has
});

const CONFIG = {
  vocabSize: 9,
  dModel: 8,
  heads: 2,
  layers: 2,
  ffnWidth: 12,
  maxDistance: 3,
  seqLen: 6,
  maxBatchSize: 4,
  seed: 5,
};

function batchOf(batchSize, seed) {
  const b = rp.syntheticBatch({ task: 'copy-offset', offset: 1, vocabSize: 9, seqLen: 6, batchSize, seed });
  const targets = b.targets.map((t, r) => (r % 3 === 2 ? -1 : t));
  return { ...b, targets };
}
const part = (b, first, count) => ({
  tokens: b.tokens.slice(first * b.seqLen, (first + count) * b.seqLen),
  targets: b.targets.slice(first * b.seqLen, (first + count) * b.seqLen),
  batchSize: count,
  seqLen: b.seqLen,
});
const targetsOf = (b) => b.targets.filter((t) => t >= 0).length;

describe('model.shardGradients and applyGradients', () => {
  test("two shards' gradients add up to the whole batch's (float64, every parameter)", () => {
    const model = rp.createModel({ ...CONFIG, precision: 'float64' });
    const batch = batchOf(4, 2);
    const whole = model.lossAndGradients(batch);
    const stepTargets = targetsOf(batch);
    const a = model.shardGradients(part(batch, 0, 1), { stepTargets });
    const b = model.shardGradients(part(batch, 1, 3), { stepTargets });
    expect(a.loss + b.loss).toBeCloseTo(whole.loss, 12);
    // The whole batch's gradients by name, laid out as parameterVector() lays out the parameters.
    const names = Object.keys(whole.gradients);
    const params = model.parameters();
    const flatParams = model.parameterVector();
    let offset = 0;
    for (const name of names) {
      const size = params[name].data.length;
      // parameterVector() is the parameters by name, in parameterTable order, end to end.
      expect(Array.from(flatParams.subarray(offset, offset + size))).toEqual(Array.from(params[name].data));
      for (let i = 0; i < size; i += 1) {
        expect(a.gradients[offset + i] + b.gradients[offset + i]).toBeCloseTo(whole.gradients[name][i], 12);
      }
      offset += size;
    }
    expect(offset).toBe(flatParams.length);
    model.dispose();
  });

  test('applyGradients on the whole batch as one shard is trainStep, bit for bit', () => {
    const options = { learningRate: 0.01, maxGradNorm: 0.5, weightDecay: 0.01 };
    const one = rp.createModel(CONFIG);
    const two = rp.createModel(CONFIG);
    for (let s = 0; s < 5; s += 1) {
      const batch = batchOf(4, 10 + s);
      const stepped = one.trainStep(batch, options);
      const shard = two.shardGradients(batch, { stepTargets: targetsOf(batch) });
      two.applyGradients([shard.gradients], options);
      expect(shard.loss).toBe(stepped.loss);
    }
    expect(two.steps).toBe(5);
    expect(two.parameterVector()).toEqual(one.parameterVector());
    one.dispose();
    two.dispose();
  });

  test('the parameters as one vector: read into out, written back whole', () => {
    const model = rp.createModel(CONFIG);
    const fresh = rp.createModel({ ...CONFIG, seed: 99 });
    const out = new Float32Array(model.parameterVector().length);
    const written = model.parameterVector({ out });
    expect(written).toBe(out); // the caller's own array, written through a view of it read once
    expect(out).toEqual(model.parameterVector());
    fresh.setParameters(out);
    expect(fresh.parameters()).toEqual(model.parameters());
    model.dispose();
    fresh.dispose();
  });

  test('bad arguments: a clear error naming the argument, and the model works after', () => {
    const model = rp.createModel(CONFIG);
    const batch = batchOf(2, 3);
    const count = model.parameterVector().length;
    const good = model.shardGradients(batch, { stepTargets: targetsOf(batch) }).gradients;
    const cases = [
      [() => model.shardGradients(batch), TypeError, /model.shardGradients: options.stepTargets is required/],
      [() => model.shardGradients(batch, { stepTargets: 1.5 }), RangeError, /stepTargets/],
      [() => model.shardGradients(batch, { stepTargets: 1 }), RangeError, /at least this batch's \d+; got 1/],
      [
        () => model.shardGradients(batch, { stepTargets: 99, out: new Float64Array(count) }),
        TypeError,
        /out must be a Float32Array/,
      ],
      [
        () => model.shardGradients(batch, { stepTargets: 99, out: new Float32Array(3) }),
        RangeError,
        /out must hold the model's \d+ parameters, got 3/,
      ],
      [() => model.shardGradients(batch, { stepTargets: 99, extra: 1 }), TypeError, /unknown option "extra"/],
      [() => model.applyGradients([], {}), TypeError, /shards must be a non-empty Array/],
      [() => model.applyGradients(good, {}), TypeError, /shards must be a non-empty Array/],
      [() => model.applyGradients([good, new Float32Array(5)], {}), RangeError, /shards\[1\] must hold/],
      [
        () => model.applyGradients([good.map((x, i) => (i === 7 ? NaN : x))], {}),
        RangeError,
        /shards\[0\]: gradients\[7\] is not finite/,
      ],
      [() => model.applyGradients([good], { learningRate: -1 }), RangeError, /learningRate/],
      [
        () => model.setParameters(new Float32Array(count + 1)),
        RangeError,
        /values must hold the model's \d+ parameters/,
      ],
      [() => model.setParameters(new Float32Array(count).fill(Infinity)), RangeError, /values\[0\] is not finite/],
      [
        () => model.setParameters(good.map((x, i) => (i === count - 1 ? NaN : x))),
        RangeError,
        /model\.setParameters: the core refused the call: values\[\d+\] is not finite; every entry must be/,
      ],
      [() => model.parameterVector({ out: [] }), TypeError, /out must be a Float32Array/],
    ];
    const before = model.parameterVector();
    for (const [call, type, message] of cases) {
      expect(call).toThrow(type);
      expect(call).toThrow(message);
    }
    // Nothing was changed by a refused call, and the model trains on.
    expect(model.parameterVector()).toEqual(before);
    expect(model.steps).toBe(0);
    model.applyGradients([good, good], { learningRate: 0.01 });
    expect(model.steps).toBe(1);
    expect(Number.isFinite(model.trainStep(batch, {}).loss)).toBe(true);
    model.dispose();
  });
});

describe('the step in shards under attack (float32 and float64)', () => {
  const bits = (data) => Array.from(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  // A view of the instance's memory (attention() with views: true) of `count` entries of type T.
  const instanceView = (T, count) => {
    const column = (rows) => ({ rows, cols: 1, data: T.from({ length: rows }, (_, i) => Math.sin(i) / 8) });
    const result = rp.attention(
      { q: column(count), k: column(count), v: column(count), relKeys: column(3) },
      { views: true, outputs: ['output'] },
    );
    return result.output.data;
  };
  // A model and a twin of it that takes only the plain calls: after each refusal of an attack on
  // the model, both take one step on `good` and must agree bit for bit (parameters and Adam state).
  const pairOf = (precision) => {
    const model = rp.createModel({ ...CONFIG, precision });
    const twin = rp.createModel({ ...CONFIG, precision });
    const batch = batchOf(2, 3);
    const stepTargets = targetsOf(batch);
    const good = model.shardGradients(batch, { stepTargets }).gradients;
    const before = bits(model.parameterVector());
    const expectUnchanged = () => {
      expect(bits(model.parameterVector())).toEqual(before);
      expect(model.steps).toBe(0);
      model.applyGradients([good], { learningRate: 0.01 });
      twin.applyGradients([good], { learningRate: 0.01 });
      expect(bits(model.parameterVector())).toEqual(bits(twin.parameterVector()));
    };
    return { model, twin, batch, stepTargets, good, expectUnchanged };
  };

  for (const [precision, T, big] of [
    ['float32', Float32Array, 3e38],
    ['float64', Float64Array, 1.7e308],
  ]) {
    test(`${precision}: finite shards whose sum is not finite are refused, the model unchanged`, () => {
      const { model, twin, good, expectUnchanged } = pairOf(precision);
      const n = good.length;
      const full = (x) => new T(n).fill(x);
      // The running sum: big, 0, big, then 2 · big, beyond the type's range at shards[3].
      const call = () => model.applyGradients([full(big), full(-big), full(big), full(big)], { learningRate: 0.01 });
      expect(call).toThrow(RangeError);
      expect(call).toThrow(
        /^model\.applyGradients: the core refused the call: shards\[3\]: gradients\[0\] added to the shards before it is not finite; the shards' sum must be$/,
      );
      expect(() => model.applyGradients([full(-big), full(-big)], { maxGradNorm: 0 })).toThrow(/shards\[1\]/);
      expectUnchanged();
      // The largest finite sum is taken.
      model.applyGradients([full(big / 2), full(big / 2)], { learningRate: 0 });
      expect(model.parameterVector().every(Number.isFinite)).toBe(true);
      model.dispose();
      twin.dispose();
    });

    test(`${precision}: trainStep on parameters too large for the forward pass refuses the step and keeps them`, () => {
      // Every parameter 1e19 (float32) or 1e150 (float64): finite, so setParameters takes them, but
      // the forward pass overflows; a step would make Adam's parameters NaN (984 of 1 016 were).
      const model = rp.createModel({ ...CONFIG, precision });
      const huge = model.parameterVector().fill(precision === 'float32' ? 1e19 : 1e150);
      model.setParameters(huge);
      const batch = batchOf(4, 3);
      const step = () => model.trainStep(batch, { learningRate: 0.01, maxGradNorm: 1 });
      expect(step).toThrow(RangeError);
      expect(step).toThrow(
        /^model\.trainStep: the core refused the call: (the loss|gradients\[\d+\]) is not finite \(parameters too large for the forward pass\?\): no step was taken, the parameters are unchanged$/,
      );
      expect(Array.from(model.parameterVector())).toEqual(Array.from(huge));
      // Ordinary parameters again: the model trains as a fresh one does.
      const fresh = rp.createModel({ ...CONFIG, precision });
      model.setParameters(fresh.parameterVector());
      expect(model.trainStep(batch, { learningRate: 0.01 }).loss).toBe(
        fresh.trainStep(batch, { learningRate: 0.01 }).loss,
      );
      expect(Array.from(model.parameterVector())).toEqual(Array.from(fresh.parameterVector()));
      model.dispose();
      fresh.dispose();
    });

    test(`${precision}: a shard whose norm overflows is clipped to maxGradNorm as its scaled-down twin is`, () => {
      // Every entry `big`: squared, beyond a double; the clipped gradient is that of every entry 1.
      const { model, twin, good } = pairOf(precision);
      const n = good.length;
      const options = { learningRate: 0.01, maxGradNorm: 1 };
      const before = model.parameterVector();
      model.applyGradients([new T(n).fill(big)], options);
      twin.applyGradients([new T(n).fill(1)], options);
      const moved = model.parameterVector();
      const expected = twin.parameterVector();
      let largest = 0;
      for (let i = 0; i < n; i += 1) {
        largest = Math.max(largest, Math.abs(moved[i] - expected[i]));
        // Adam's first step moves every parameter by about the learning rate (less its weight decay).
        expect(before[i] - moved[i]).toBeCloseTo(0.01, 4);
      }
      expect(largest).toBeLessThan(1e-6);
      model.dispose();
      twin.dispose();
    });

    test(`${precision}: out over a SharedArrayBuffer is written and returned, as the caller's own array`, () => {
      const { model, twin, batch, stepTargets, good } = pairOf(precision);
      const n = good.length;
      const shared = new T(new SharedArrayBuffer(n * T.BYTES_PER_ELEMENT));
      expect(model.parameterVector({ out: shared })).toBe(shared);
      expect(bits(shared)).toEqual(bits(twin.parameterVector()));
      const sharedGradients = new T(new SharedArrayBuffer(n * T.BYTES_PER_ELEMENT));
      const shard = model.shardGradients(batch, { stepTargets, out: sharedGradients });
      expect(shard.gradients).toBe(sharedGradients);
      expect(bits(sharedGradients)).toEqual(bits(good));
      // A subclass's instance, at an offset into a larger buffer: written through and returned.
      class Mine extends T {}
      const mine = new Mine(new ArrayBuffer((n + 3) * T.BYTES_PER_ELEMENT), 3 * T.BYTES_PER_ELEMENT, n);
      expect(model.shardGradients(batch, { stepTargets, out: mine }).gradients).toBe(mine);
      expect(bits(mine)).toEqual(bits(good));
      model.dispose();
      twin.dispose();
    });

    test(`${precision}: a view of the instance's memory (views: true) as out or as a shard is a TypeError naming it`, () => {
      const { model, twin, batch, stepTargets, good, expectUnchanged } = pairOf(precision);
      const n = good.length;
      const asOut = () => model.shardGradients(batch, { stepTargets, out: instanceView(T, n) });
      expect(asOut).toThrow(TypeError);
      expect(asOut).toThrow(
        /^model\.shardGradients: out is a view of this instance's memory from an earlier call with views: true, which this call detaches before reading it; pass a copy \(out\.slice\(\)\)$/,
      );
      const asShard = () => model.applyGradients([good, instanceView(T, n)], {});
      expect(asShard).toThrow(TypeError);
      expect(asShard).toThrow(
        /^model\.applyGradients: shards\[1\] is a view of this instance's memory from an earlier call with views: true/,
      );
      expectUnchanged();
      // Its copy is taken as any array.
      const copy = instanceView(T, n).slice();
      model.applyGradients([copy], { learningRate: 0.01 });
      twin.applyGradients([copy], { learningRate: 0.01 });
      expect(model.steps).toBe(2);
      expect(bits(model.parameterVector())).toEqual(bits(twin.parameterVector()));
      model.dispose();
      twin.dispose();
      const fresh = pairOf(precision);
      expect(() => fresh.model.applyGradients([instanceView(T, n)], {})).toThrow(
        /shards\[0\] is a view of this instance's memory/,
      );
      fresh.expectUnchanged();
      // parameterVector and setParameters detach nothing: such a view is read and written as it is.
      const view = instanceView(T, n);
      const drawn = view.slice();
      fresh.model.setParameters(view);
      expect(bits(fresh.model.parameterVector())).toEqual(bits(drawn));
      const target = instanceView(T, n);
      expect(fresh.model.parameterVector({ out: target })).toBe(target);
      expect(bits(target)).toEqual(bits(drawn));
      fresh.model.dispose();
      fresh.twin.dispose();
    });

    test(`${precision}: a batch getter that detaches out: out lost its memory, nothing computed`, () => {
      const { model, twin, batch, stepTargets, good, expectUnchanged } = pairOf(precision);
      const call = () => {
        const out = new T(good.length);
        const attacked = {
          ...batch,
          get seqLen() {
            structuredClone(out.buffer, { transfer: [out.buffer] });
            return batch.seqLen;
          },
        };
        return model.shardGradients(attacked, { stepTargets, out });
      };
      expect(call).toThrow(TypeError);
      expect(call).toThrow(
        /^model\.shardGradients: out lost its memory while the arguments were being read \(its ArrayBuffer was detached or resized by a getter or Proxy\); nothing was computed$/,
      );
      expectUnchanged();
      model.dispose();
      twin.dispose();
    });
  }
});

describe("TrainSession's step in shards", () => {
  const corpus = trainingCorpus();
  const STEPS = 12;
  const run = { task: 'masked', preset: 'tiny', seed: 4, shards: LIVE_SHARDS };

  // Shard 1 from a model of another instance that is sent this session's parameters (as the second
  // training worker is), answered later, as a message would be.
  const peerOf = (session, fails = () => false) => {
    let model = null;
    return (batch, stepTargets) => {
      if (fails()) return Promise.reject(new Error('gone'));
      model ??= other.createModel(session.config);
      model.setParameters(session.model.parameterVector());
      const done = model.shardGradients(batch, { stepTargets });
      return new Promise((resolve) => setTimeout(() => resolve(done), 1));
    };
  };

  test('the same parameters and losses with shard 1 elsewhere, with a failing peer, and all here', async () => {
    const here = new TrainSession(rp, corpus, run);
    const apart = new TrainSession(rp, corpus, run);
    const failing = new TrainSession(rp, corpus, run);
    let calls = 0;
    const peer = peerOf(apart);
    const flaky = peerOf(failing, () => (calls += 1) % 3 === 0);
    const losses = { here: [], apart: [], failing: [] };
    for (let s = 0; s < STEPS; s += 1) {
      losses.here.push(here.step());
      losses.apart.push(await apart.stepWith(peer));
      losses.failing.push(await failing.stepWith(flaky));
    }
    expect(losses.apart).toEqual(losses.here);
    expect(losses.failing).toEqual(losses.here);
    expect(apart.model.parameterVector()).toEqual(here.model.parameterVector());
    expect(failing.model.parameterVector()).toEqual(here.model.parameterVector());
    expect(here.steps).toBe(STEPS);
    // The same step in one piece (trainStep) differs from the shards' sum only by rounding.
    const whole = new TrainSession(rp, corpus, { ...run, shards: 1 });
    for (let s = 0; s < STEPS; s += 1) whole.step();
    const a = whole.model.parameterVector();
    const b = here.model.parameterVector();
    let largest = 0;
    for (let i = 0; i < a.length; i += 1) largest = Math.max(largest, Math.abs(a[i] - b[i]));
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThan(1e-3);
    for (const s of [here, apart, failing, whole]) s.dispose();
  });

  test('the held-out loss in parts: the same with the last part elsewhere, with a failing peer, and all here', async () => {
    const session = new TrainSession(rp, corpus, run);
    for (let s = 0; s < 5; s += 1) session.step();
    let model = null;
    const peer = (lastPart) => {
      model ??= other.createModel(session.config);
      model.setParameters(session.model.parameterVector());
      const done = model.evaluate(lastPart);
      return new Promise((resolve) => setTimeout(() => resolve(done), 1));
    };
    const here = session.heldOut();
    expect(await session.heldOutWith(peer)).toEqual(here);
    expect(await session.heldOutWith(() => Promise.reject(new Error('gone')))).toEqual(here);
    expect(
      await session.heldOutWith(() => {
        throw new Error('gone at once');
      }),
    ).toEqual(here);
    // Against the batch in one piece: the parts' means weighted by their targets, computed here.
    const whole = session.model.evaluate(session.heldOutBatch);
    expect(here.loss).toBeCloseTo(whole.loss, 12);
    expect(here.accuracy).toBeCloseTo(whole.accuracy, 12);
    const half = session.heldOutBatch.tokens.length / 2;
    const slice = (from, to) => ({
      ...session.heldOutBatch,
      batchSize: session.heldOutBatch.batchSize / 2,
      tokens: session.heldOutBatch.tokens.slice(from, to),
      targets: session.heldOutBatch.targets.slice(from, to),
    });
    const [a, b] = [slice(0, half), slice(half, 2 * half)];
    const count = (p) => p.targets.filter((t) => t >= 0).length;
    const [ea, eb] = [session.model.evaluate(a), session.model.evaluate(b)];
    expect(count(a)).toBeGreaterThan(0);
    expect(here.loss).toBe((ea.loss * count(a) + eb.loss * count(b)) / (count(a) + count(b)));
    // An unsharded session evaluates in one piece.
    const one = new TrainSession(rp, corpus, { ...run, shards: 1 });
    expect(one.heldOut()).toEqual(one.model.evaluate(one.heldOutBatch));
    expect(await one.heldOutWith(() => Promise.reject(new Error('never asked')))).toEqual(one.heldOut());
    one.dispose();
    session.dispose();
  });

  test('shards must divide the batch', () => {
    expect(() => new TrainSession(rp, corpus, { ...run, shards: 3 })).toThrow(
      /shards must divide the batch \(16\), got 3/,
    );
    expect(() => new TrainSession(rp, corpus, { ...run, shards: 0 })).toThrow(RangeError);
  });

  test('the step budget, learning rate and batches are those of the unsharded run', () => {
    const a = new TrainSession(rp, corpus, run);
    const b = new TrainSession(rp, corpus, { ...run, shards: 1 });
    expect(a.batch()).toEqual(b.batch());
    expect(a.learningRate).toBe(b.learningRate);
    expect(a.budget).toBe(b.budget);
    expect(ADAM.maxGradNorm).toBe(1);
    a.dispose();
    b.dispose();
  });
});

describe("the second worker's server (web/train/shard-server.js)", () => {
  const settle = () => new Promise((done) => setTimeout(done, 50));
  // A core whose createModel is counted, ready when `release` is called.
  function slowCore() {
    const counted = { made: 0, live: 0 };
    let release;
    const ready = new Promise((done) => (release = done));
    const core = {
      createModel(config) {
        const model = other.createModel(config);
        counted.made += 1;
        counted.live += 1;
        const dispose = model.dispose.bind(model);
        model.dispose = () => {
          counted.live -= 1;
          dispose();
        };
        return model;
      },
    };
    return { counted, core: () => ready, release: () => release(core) };
  }
  // A server on one end of a channel, a request sent from the other; the answers it gets.
  function serving() {
    const { port1, port2 } = new MessageChannel();
    const slow = slowCore();
    const stop = serveShards(slow.core, port2);
    const answers = [];
    port1.on('message', (data) => answers.push(data));
    port1.postMessage(request(1));
    return { slow, stop, answers, port1 };
  }
  const request = (id) => {
    const trainer = rp.createModel(CONFIG);
    const parameters = trainer.parameterVector();
    trainer.dispose();
    const batch = batchOf(2, 11);
    const stepTargets = batch.targets.filter((t) => t >= 0).length;
    return { id, config: CONFIG, parameters, batch, stepTargets };
  };

  test('answers a request with its shard, and stopping frees the model', async () => {
    const { slow, stop, answers, port1 } = serving();
    slow.release();
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    expect(answers[0].id).toBe(1);
    expect(answers[0].error).toBeUndefined();
    expect(answers[0].vector).toBeInstanceOf(Float32Array);
    expect(slow.counted).toEqual({ made: 1, live: 1 });
    stop();
    expect(slow.counted).toEqual({ made: 1, live: 0 });
    port1.close();
  });

  test('a request still waiting for the core when the server stops makes no model and gets no answer', async () => {
    const { slow, stop, answers, port1 } = serving();
    await settle(); // the request is in the server's hands, waiting for the core
    stop();
    slow.release();
    await settle();
    expect(slow.counted).toEqual({ made: 0, live: 0 });
    expect(answers).toEqual([]);
    port1.close();
  });
});
