// The API's package-level contract: loading from options, the SIMD check, dispose()
// and what it gives back, detached methods, typed arrays from another realm, the `out` misuse
// message, the version, and importing the elements where there is no DOM.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import ts from 'typescript';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ENGINE_BASELINE, createRelPos, version } from 'relpos-wasm';

const ROOT = new URL('../../', import.meta.url).pathname;
const WASM = readFileSync(`${ROOT}dist/relpos-core.wasm`);
const m = (rp, rows, cols, seed, ArrayType = Float64Array) => ({
  rows,
  cols,
  data: ArrayType.from(rp.randn(seed, rows * cols)),
});

let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

describe('createRelPos(options)', () => {
  test('{ wasmBinary } (Uint8Array or ArrayBuffer) and { wasmModule } give the same numbers as the inlined binary', async () => {
    const want = rp.example({ seed: 7 }).combinedWeights.data;
    const fromBytes = await createRelPos({ wasmBinary: new Uint8Array(WASM) });
    const fromBuffer = await createRelPos({
      wasmBinary: WASM.buffer.slice(WASM.byteOffset, WASM.byteOffset + WASM.byteLength),
    });
    const fromModule = await createRelPos({ wasmModule: await WebAssembly.compile(WASM) });
    for (const other of [fromBytes, fromBuffer, fromModule]) {
      expect(other.example({ seed: 7 }).combinedWeights.data).toEqual(want);
      other.dispose();
    }
  });

  test('options.wasmUrl: the binary fetched from its address and compiled (a data: URL, which Node can fetch)', async () => {
    const fromUrl = await createRelPos({ wasmUrl: `data:application/wasm;base64,${WASM.toString('base64')}` });
    expect(fromUrl.randn(42, 1)[0]).toBe(0.4967141530112327);
    fromUrl.dispose();
  });

  test('wrong options are refused by name', async () => {
    await expect(createRelPos({ wasmBinary: 'x' })).rejects.toThrow(
      /^createRelPos: options\.wasmBinary must be a Uint8Array \(a Node Buffer is one\), an ArrayBuffer, a Blob or a File, got a string/,
    );
    await expect(createRelPos({ wasmBinary: new Uint8Array([1, 2, 3]) })).rejects.toThrow(
      /^createRelPos: options\.wasmBinary is not a valid WebAssembly module/,
    );
    await expect(createRelPos({ wasmModule: WASM })).rejects.toThrow(
      /^createRelPos: options\.wasmModule must be a WebAssembly\.Module, got a Buffer/,
    );
    const wasmModule = await WebAssembly.compile(WASM);
    await expect(createRelPos({ wasmModule, wasmBinary: WASM })).rejects.toThrow(
      /^createRelPos: give one of options\.wasmUrl, options\.wasmBinary and options\.wasmModule, not wasmBinary and wasmModule$/,
    );
    await expect(createRelPos({ wasmUrl: 42 })).rejects.toThrow(
      /^createRelPos: options\.wasmUrl must be a string or URL, got/,
    );
    await expect(createRelPos({ wasmUrl: 'relpos-core.wasm' })).rejects.toThrow(
      /^createRelPos: options\.wasmUrl relpos-core\.wasm could not be fetched .*in Node, read the file and pass options\.wasmBinary$/,
    );
    await expect(createRelPos({ wasmUrl: 'data:application/wasm;base64,AAAA' })).rejects.toThrow(
      /^createRelPos: options\.wasmUrl data:application\/wasm;base64,AAAA is not a WebAssembly module/,
    );
    await expect(createRelPos({ wasmURL: 'x' })).rejects.toThrow(/^createRelPos: unknown option "wasmURL"/);
    const { SIMD_PROBE } = await import('../../web/api/simd.js');
    await expect(createRelPos({ wasmModule: await WebAssembly.compile(SIMD_PROBE) })).rejects.toThrow(
      /^createRelPos: options\.wasmModule could not be instantiated; it must be relpos-wasm\/relpos-core\.wasm of this version/,
    );
  });

  describe('without WebAssembly SIMD', () => {
    const validate = WebAssembly.validate;
    afterEach(() => {
      WebAssembly.validate = validate;
    });

    test('the probe is a SIMD module this engine validates, and a scalar copy of it is not a SIMD test', async () => {
      const { SIMD_PROBE } = await import('../../web/api/simd.js');
      expect(validate(SIMD_PROBE)).toBe(true);
      // The same bytes with the v128 result type (0x7b) made i32 (0x7f) no longer validate: the
      // probe's validity depends on its SIMD parts.
      const broken = Uint8Array.from(SIMD_PROBE);
      broken[broken.indexOf(0x7b)] = 0x7f;
      expect(validate(broken)).toBe(false);
    });

    test('an engine that refuses SIMD gets an Error naming the baseline, before anything is compiled', async () => {
      const seen = [];
      WebAssembly.validate = (bytes) => {
        seen.push(bytes.length);
        return !Array.from(bytes).includes(0xfd) && validate(bytes); // 0xfd: the SIMD opcode prefix
      };
      const instantiate = WebAssembly.instantiate;
      let compiled = 0;
      WebAssembly.instantiate = (...args) => {
        compiled += 1;
        return instantiate(...args);
      };
      try {
        await expect(createRelPos()).rejects.toThrow(
          'createRelPos: this engine has no WebAssembly SIMD; relpos-wasm needs WebAssembly SIMD: Chrome or Edge 91+, Firefox 89+, Safari 16.4+',
        );
      } finally {
        WebAssembly.instantiate = instantiate;
      }
      expect(compiled).toBe(0);
      expect(seen.length).toBeGreaterThan(0);
      expect(ENGINE_BASELINE).toMatch(/^WebAssembly SIMD: Chrome or Edge 91\+/);
    });
  });
});

describe('dispose()', () => {
  test('frees the instance: later calls throw, models are disposed, twice is fine, [Symbol.dispose] is dispose', async () => {
    const own = await createRelPos();
    const model = own.createModel({ vocabSize: 8, maxDistance: 2 });
    expect(own.disposed).toBe(false);
    own.dispose();
    own.dispose();
    expect(own.disposed).toBe(true);
    expect(model.disposed).toBe(true);
    expect(() => own.randn(1, 2)).toThrow(/^randn: this RelPos instance has been disposed$/);
    expect(() => own.example()).toThrow(/^example: this RelPos instance has been disposed$/);
    expect(() => own.memory()).toThrow(/^memory: this RelPos instance has been disposed$/);
    expect(() => own.createModel({ vocabSize: 8 })).toThrow(/^createModel: .* disposed$/);

    expect(typeof Symbol.dispose).toBe('symbol'); // Node 20
    const other = await createRelPos();
    other[Symbol.dispose]();
    expect(other.disposed).toBe(true);
  });

  // In a child process with --expose-gc: WebAssembly memory is V8 "external" memory.
  const measure = (dispose) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--expose-gc',
          '--input-type=module',
          '-e',
          `import { createRelPos } from 'relpos-wasm';
const rp = await createRelPos();
const m = (rows, cols, seed) => ({ rows, cols, data: rp.randn(seed, rows * cols) });
rp.attention({ q: m(2500, 8, 1), k: m(2500, 8, 2), relKeys: m(3, 8, 3) });
const wasmBytes = rp.memory().wasmBytes;
const before = process.memoryUsage().external;
${dispose ? 'rp.dispose();' : ''}
for (let i = 0; i < 4; i += 1) { globalThis.gc(); await new Promise((r) => setTimeout(r, 20)); }
console.log(JSON.stringify({ wasmBytes, before, after: process.memoryUsage().external, kept: typeof rp }));`,
        ],
        { cwd: ROOT, encoding: 'utf8' },
      ),
    );

  test('gives the WebAssembly memory back to the system while `rp` is still referenced; without it, the memory stays', () => {
    const disposed = measure(true);
    const kept = measure(false);
    expect(disposed.wasmBytes).toBeGreaterThan(250 * 2 ** 20); // 5 n × n float64 panels at n = 2500
    expect(disposed.before).toBeGreaterThan(disposed.wasmBytes);
    expect(disposed.after).toBeLessThan(32 * 2 ** 20);
    expect(kept.after).toBeGreaterThan(kept.wasmBytes);
  });
});

describe('calling conventions', () => {
  test('methods work detached (const { randn, attention } = rp)', () => {
    const { randn, attention, example } = rp;
    expect(Array.from(randn(42, 2))).toEqual([0.4967141530112327, -0.13826430117118466]);
    const ex = example({ seed: 3 });
    expect(attention(ex.inputs).combinedWeights.data).toEqual(ex.combinedWeights.data);
  });

  test('typed arrays from another realm (a vm context, as from an iframe) are accepted, with their precision', () => {
    const realm = vm.createContext({});
    const foreign = (matrix) => {
      const data = vm.runInContext(`new ${matrix.data.constructor.name}(${matrix.data.length})`, realm);
      data.set(matrix.data);
      expect(data instanceof matrix.data.constructor).toBe(false);
      return { rows: matrix.rows, cols: matrix.cols, data };
    };
    for (const ArrayType of [Float64Array, Float32Array]) {
      const inputs = {
        q: m(rp, 5, 3, 1, ArrayType),
        k: m(rp, 5, 3, 2, ArrayType),
        relKeys: m(rp, 3, 3, 3, ArrayType),
        v: m(rp, 5, 2, 4, ArrayType),
        relValues: m(rp, 3, 2, 5, ArrayType),
      };
      const want = rp.attention(inputs);
      const got = rp.attention(Object.fromEntries(Object.entries(inputs).map(([key, value]) => [key, foreign(value)])));
      expect(got.combinedWeights.data).toBeInstanceOf(ArrayType);
      expect(got.combinedWeights.data).toEqual(want.combinedWeights.data);
      expect(got.output.data).toEqual(want.output.data);
      // and as `out`
      const out = rp.attention(inputs);
      const foreignOut = { ...out, output: foreign(out.output), combinedWeights: foreign(out.combinedWeights) };
      expect(rp.attention(inputs, { out: foreignOut })).toBe(foreignOut);
      expect(Array.from(foreignOut.output.data)).toEqual(Array.from(want.output.data));
    }
    const tokens = vm.runInContext('new Int32Array([1, 2, 3])', realm);
    const model = rp.createModel({ vocabSize: 4, maxDistance: 1, seqLen: 4 });
    expect(model.attention(tokens).combinedWeights.rows).toBe(3);
    model.dispose();
  });

  test('an `out` from a call with v, reused for one without (and the reverse), says so', () => {
    const base = { q: m(rp, 4, 2, 1), k: m(rp, 4, 2, 2), relKeys: m(rp, 3, 2, 3) };
    const withV = rp.attention({ ...base, v: m(rp, 4, 2, 4) });
    const withoutV = rp.attention(base);
    expect(() => rp.attention(base, { out: withV })).toThrow(
      new TypeError(
        'attention: out has an output (it came from a call with v) but this call has no v; pass the result of a call without v as out',
      ),
    );
    expect(() => rp.attention({ ...base, v: m(rp, 4, 2, 4) }, { out: withoutV })).toThrow(
      /^attention: out has no output \(it came from a call without v\) but this call has v/,
    );
  });

  test('matrices as { data, dims } (onnxruntime-web) and { data, shape } give the same result; bad dims are named', () => {
    const ex = rp.example({ seed: 5 });
    const asDims = (matrix) => ({ data: matrix.data, dims: [matrix.rows, matrix.cols] });
    const asShape = (matrix) => ({ data: matrix.data, shape: [matrix.rows, matrix.cols] });
    const { q, k, v, relKeys, relValues } = ex.inputs;
    const got = rp.attention({
      q: asDims(q),
      k: asShape(k),
      v: asDims(v),
      relKeys: asShape(relKeys),
      relValues: asDims(relValues),
    });
    expect(got.combinedWeights.data).toEqual(ex.combinedWeights.data);
    expect(got.output.data).toEqual(ex.output.data);
    expect(() => rp.attention({ q: { data: q.data, dims: [1, 6, 4] }, k, relKeys })).toThrow(
      new RangeError('attention: q.dims must be [rows, cols] (2 dimensions), got 3'),
    );
    expect(() => rp.attention({ q: { data: q.data, shape: [6, 5] }, k, relKeys })).toThrow(
      /^attention: q\.data must hold rows × cols = 6 × 5 = 30 numbers, got 24$/,
    );
    expect(() => rp.attention({ q: { data: q.data, dims: '6x4' }, k, relKeys })).toThrow(
      new TypeError('attention: q.dims must be [rows, cols], got a string ("6x4")'),
    );
  });

  test('"an Int32Array", "a Float64Array": the article fits the name', () => {
    expect(() => rp.attention({ q: { rows: 1, cols: 1, data: new Int32Array(1) }, k: 1, relKeys: 1 })).toThrow(
      /got an Int32Array$/,
    );
    expect(() => rp.attention({ q: { rows: 1, cols: 1, data: new Uint8Array(1) }, k: 1, relKeys: 1 })).toThrow(
      /got a Uint8Array$/,
    );
    expect(() => rp.attention({ q: { rows: 1, cols: 1, data: new ArrayBuffer(8) }, k: 1, relKeys: 1 })).toThrow(
      /got an ArrayBuffer$/,
    );
  });

  test('version is package.json "version"', () => {
    expect(version).toBe(JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')).version);
  });
});

// Every element class the package exports: relpos-wasm/elements's and relpos-wasm/elements/train's.
async function allElements() {
  const modules = [await import('relpos-wasm/elements'), await import('relpos-wasm/elements/train')];
  return modules.flatMap((exported) =>
    Object.values(exported).filter((value) => Array.isArray(value?.observedAttributes)),
  );
}

// What the .d.ts files declare, read by TypeScript's checker: `tags`, { class name: its tag }
// (HTMLElementTagNameMap), and `attributes`, { tag: the names of its JSX IntrinsicElements
// entry's properties, inherited ones too }.
function typedElements(files) {
  const program = ts.createProgram(
    files.map((file) => `${ROOT}${file}`),
    { strict: true, noEmit: true, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [] },
  );
  const checker = program.getTypeChecker();
  const tags = {};
  const attributes = {};
  const visit = (node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'HTMLElementTagNameMap') {
      for (const member of node.members) tags[member.type.getText()] = member.name.text;
    }
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'IntrinsicElements') {
      for (const member of node.members) {
        const type = checker.getTypeAtLocation(member.type);
        attributes[member.name.text] = checker.getPropertiesOfType(type).map((p) => p.name);
      }
    }
    ts.forEachChild(node, visit);
  };
  for (const file of files) visit(program.getSourceFile(`${ROOT}${file}`));
  return { tags, attributes };
}

describe('the elements without a DOM (server-side rendering, plain Node)', () => {
  for (const entry of ['relpos-wasm/elements', 'relpos-wasm/elements/bundle']) {
    test(`import('${entry}') works and defines nothing`, () => {
      const printed = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import('${entry}');
console.log(JSON.stringify({ exports: Object.keys(m).sort(), dom: typeof HTMLElement, registry: typeof customElements,
  attributes: m.RelposAttentionElement.observedAttributes.length }));`,
        ],
        { cwd: ROOT, encoding: 'utf8' },
      );
      expect(JSON.parse(printed)).toEqual({
        exports: ['RelposAttentionElement', 'RelposProfileElement'],
        dom: 'undefined',
        registry: 'undefined',
        attributes: expect.any(Number),
      });
    });
  }

  test('custom-elements.json lists every element and every attribute it observes, each with its reflecting property where it has one', async () => {
    const elements = await allElements();
    const manifest = JSON.parse(readFileSync(`${ROOT}dist/custom-elements.json`, 'utf8'));
    const declarations = manifest.modules.flatMap((module) => module.declarations);
    expect(declarations.map((d) => d.name).sort()).toEqual(elements.map((Element) => Element.name).sort());
    for (const Element of elements) {
      const declaration = declarations.find((d) => d.name === Element.name);
      expect(declaration.attributes.map((a) => a.name).sort(), declaration.tagName).toEqual(
        [...Element.observedAttributes].sort(),
      );
      // A field the manifest says reflects an attribute, and every writable field (result, matrix
      // too), is a property of the class; an attribute with a fieldName has its reflecting field.
      for (const attribute of declaration.attributes.filter((a) => a.fieldName)) {
        expect(
          declaration.members.find(
            (member) => member.name === attribute.fieldName && member.attribute === attribute.name,
          ),
          attribute.name,
        ).toBeDefined();
      }
      for (const member of declaration.members.filter((entry) => entry.kind === 'field' && !entry.readonly)) {
        expect(Object.getOwnPropertyDescriptor(Element.prototype, member.name)?.set, member.name).toBeTypeOf(
          'function',
        );
      }
      // …and no writable property the class has (reflect.js's, result and matrix: the class's
      // `reflected`, which it upgrades) is left out.
      const fields = declaration.members.filter((member) => member.kind === 'field' && !member.readonly);
      expect(fields.map((member) => member.name).sort(), declaration.tagName).toEqual(
        [...(Element.reflected ?? [])].sort(),
      );
    }
    expect(declarations.find((d) => d.tagName === 'relpos-attention').members.map((entry) => entry.name)).toContain(
      'matrix',
    );
    // Each element defined where it is defined: the two by index.js, <relpos-train> by its own module.
    const definitions = manifest.modules.flatMap((module) =>
      module.exports.filter((e) => e.kind === 'custom-element-definition').map((e) => [module.path, e.name]),
    );
    expect(definitions).toEqual([
      ['web/elements/relpos-train.js', 'relpos-train'],
      ['web/elements/index.js', 'relpos-attention'],
      ['web/elements/index.js', 'relpos-profile'],
    ]);
  });

  test('custom-elements.json and both .d.ts files type every element’s relpos-render as index.d.ts’s RelposRenderEvent', async () => {
    const elements = await allElements();
    const manifest = JSON.parse(readFileSync(`${ROOT}dist/custom-elements.json`, 'utf8'));
    const declarations = manifest.modules.flatMap((module) => module.declarations);
    const renderEvent = /export type RelposRenderEvent = (.+);/.exec(
      readFileSync(`${ROOT}web/elements/index.d.ts`, 'utf8'),
    )[1];
    expect(renderEvent).toBe('CustomEvent<{ notes: string[] }>');
    for (const Element of elements) {
      const declaration = declarations.find((d) => d.name === Element.name);
      expect(
        declaration.events.map((event) => [event.name, event.type.text]),
        declaration.tagName,
      ).toEqual([['relpos-render', renderEvent]]);
    }
    // relpos-wasm/elements/train alone types the event as the other entry point does.
    for (const file of ['index.d.ts', 'relpos-train.d.ts'])
      expect(readFileSync(`${ROOT}web/elements/${file}`, 'utf8'), file).toMatch(
        /interface HTMLElementEventMap \{\s*'relpos-render': RelposRenderEvent;\s*\}/,
      );
  });

  test('the .d.ts types every attribute each element observes, for JSX (its IntrinsicElements entry)', async () => {
    const elements = await allElements();
    const { tags, attributes: typed } = typedElements(['web/elements/index.d.ts', 'web/elements/relpos-train.d.ts']);
    expect(Object.keys(tags).sort()).toEqual(elements.map((Element) => Element.name).sort());
    for (const Element of elements) {
      const tag = tags[Element.name];
      expect(typed[tag], tag).toBeDefined();
      for (const attribute of Element.observedAttributes)
        expect(typed[tag], `${tag} ${attribute}`).toContain(attribute);
    }
  });
});
