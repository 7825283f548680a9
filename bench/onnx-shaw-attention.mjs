// Shaw attention as an ONNX graph, written here as protobuf bytes (no onnx package in this
// project), for npm run bench's onnxruntime-web row: the same maths as relpos's attention()
// output (docs/maths.md), with the relative table read by index:
//   scores  = (q kᵀ + GatherElements(q aᴷᵀ, index)) · scale     index[i][j] = clip(j − i, ±k) + k
//   weights = Softmax(scores)                                     (over j)
//   output  = weights v + ScatterElements(zeros, index, weights, reduction = add) aⱽ
// `index` (int64, n × n) and `zeros` (n × (2k + 1)) are inputs, so the model stays small.

// Protobuf wire format: varint keys (field << 3 | wire type), lengths as varints (a negative
// int64 as its 64-bit two's complement).
const varint = (value) => {
  const bytes = [];
  let v = BigInt.asUintN(64, BigInt(value));
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    bytes.push(byte);
  } while (v > 0n);
  return bytes;
};
const text = (s) => [...new TextEncoder().encode(s)];
const field = {
  int: (number, value) => [...varint((number << 3) | 0), ...varint(value)],
  bytes: (number, payload) => [...varint((number << 3) | 2), ...varint(payload.length), ...payload],
  string: (number, s) => field.bytes(number, text(s)),
};

const FLOAT = 1;
const INT64 = 7;
// AttributeProto: name 1, f 2, i 3, s 4, type 20 (FLOAT 1, INT 2, STRING 3, INTS 7), ints 8.
const attribute = {
  int: (name, i) => [...field.string(1, name), ...field.int(3, i), ...field.int(20, 2)],
  string: (name, s) => [...field.string(1, name), ...field.bytes(4, text(s)), ...field.int(20, 3)],
  ints: (name, list) => [...field.string(1, name), ...list.flatMap((i) => field.int(8, i)), ...field.int(20, 7)],
};
// NodeProto: input 1, output 2, name 3, op_type 4, attribute 5.
const node = (op, inputs, outputs, attributes = []) => [
  ...inputs.flatMap((s) => field.string(1, s)),
  ...outputs.flatMap((s) => field.string(2, s)),
  ...field.string(3, outputs[0]),
  ...field.string(4, op),
  ...attributes.flatMap((a) => field.bytes(5, a)),
];
// ValueInfoProto: name 1, type 2 → TypeProto.tensor_type 1 → elem_type 1, shape 2 → dim 1 → dim_value 1.
const valueInfo = (name, elemType, dims) => [
  ...field.string(1, name),
  ...field.bytes(
    2,
    field.bytes(1, [
      ...field.int(1, elemType),
      ...field.bytes(
        2,
        dims.flatMap((d) => field.bytes(1, field.int(1, d))),
      ),
    ]),
  ),
];
// TensorProto: dims 1, data_type 2, name 8, raw_data 9.
const scalarTensor = (name, value) => [
  ...field.int(2, FLOAT),
  ...field.string(8, name),
  ...field.bytes(9, [...new Uint8Array(new Float32Array([value]).buffer)]),
];

/** The ONNX model (opset 18) of Shaw attention for n queries and keys, d_k, d_v and 2k + 1 table rows. */
export function shawAttentionModel({ n, dk, dv, tableRows, scale }) {
  const nodes = [
    node('Transpose', ['k'], ['kT'], [attribute.ints('perm', [1, 0])]),
    node('MatMul', ['q', 'kT'], ['content']),
    node('Transpose', ['relKeys'], ['relKeysT'], [attribute.ints('perm', [1, 0])]),
    node('MatMul', ['q', 'relKeysT'], ['projected']),
    node('GatherElements', ['projected', 'index'], ['position'], [attribute.int('axis', 1)]),
    node('Add', ['content', 'position'], ['combined']),
    node('Mul', ['combined', 'scale'], ['scores']),
    node('Softmax', ['scores'], ['weights'], [attribute.int('axis', -1)]),
    node('MatMul', ['weights', 'v'], ['contentOutput']),
    node(
      'ScatterElements',
      ['zeros', 'index', 'weights'],
      ['buckets'],
      [attribute.int('axis', 1), attribute.string('reduction', 'add')],
    ),
    node('MatMul', ['buckets', 'relValues'], ['positionOutput']),
    node('Add', ['contentOutput', 'positionOutput'], ['output']),
  ];
  const inputs = [
    valueInfo('q', FLOAT, [n, dk]),
    valueInfo('k', FLOAT, [n, dk]),
    valueInfo('v', FLOAT, [n, dv]),
    valueInfo('relKeys', FLOAT, [tableRows, dk]),
    valueInfo('relValues', FLOAT, [tableRows, dv]),
    valueInfo('index', INT64, [n, n]),
    valueInfo('zeros', FLOAT, [n, tableRows]),
  ];
  // GraphProto: node 1, name 2, initializer 5, input 11, output 12.
  const graph = [
    ...nodes.flatMap((x) => field.bytes(1, x)),
    ...field.string(2, 'shaw_attention'),
    ...field.bytes(5, scalarTensor('scale', scale)),
    ...inputs.flatMap((x) => field.bytes(11, x)),
    ...field.bytes(12, valueInfo('output', FLOAT, [n, dv])),
  ];
  // ModelProto: ir_version 1, producer_name 2, graph 7, opset_import 8 (domain 1, version 2).
  return Uint8Array.from([
    ...field.int(1, 8),
    ...field.string(2, 'relpos bench'),
    ...field.bytes(7, graph),
    ...field.bytes(8, field.int(2, 18)),
  ]);
}

/** index[i][j] = clip(j − i, −k, k) + k, int64, row-major n × n. */
export function relativeIndex(n, k) {
  const index = new BigInt64Array(n * n);
  for (let i = 0; i < n; i += 1) {
    for (let j = 0; j < n; j += 1) index[i * n + j] = BigInt(Math.max(-k, Math.min(k, j - i)) + k);
  }
  return index;
}

/**
 * onnxruntime-web (bench/node_modules: scripts/bench-setup.sh) on its WebAssembly backend, one
 * thread, running the graph above for one shape; null if it is not installed. `run(inputs)`
 * takes relpos's matrices ({ rows, cols, data }) and resolves to the output's Float32Array.
 */
export async function createOrtAttention({ n, k, dk, dv }) {
  let ort;
  try {
    ort = await import('onnxruntime-web');
  } catch {
    return null;
  }
  ort.env.wasm.numThreads = 1;
  const tableRows = 2 * k + 1;
  const model = shawAttentionModel({ n, dk, dv, tableRows, scale: 1 / Math.sqrt(dk) });
  const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
  const index = new ort.Tensor('int64', relativeIndex(n, k), [n, n]);
  const zeros = new ort.Tensor('float32', new Float32Array(n * tableRows), [n, tableRows]);
  const tensor = (m) => new ort.Tensor('float32', m.data, [m.rows, m.cols]);
  return {
    version: ort.env.versions.web,
    async run({ q, k: keys, v, relKeys, relValues }) {
      const feeds = {
        q: tensor(q),
        k: tensor(keys),
        v: tensor(v),
        relKeys: tensor(relKeys),
        relValues: tensor(relValues),
      };
      return (await session.run({ ...feeds, index, zeros })).output.data;
    },
    dispose: () => session.release(),
  };
}
