"""Baseline: relative self-attention (Shaw et al. 2018, docs/maths.md) vectorised with numpy.

Usage: /usr/bin/python3 bench/numpy_attention.py '<json config>'
  config: {"sizes": [[n, k], ...], "d": 64, "dtypes": ["float32", "float64"],
           "budget_seconds": 0.4, "max_reps": 20, "min_reps": 3}
Prints one line of JSON:
  {"numpy": "<version>", "results": [{"n", "k", "dtype", "median_ms", "median_cpu_ms", "reps"}, ...]}
or {"error": "numpy not installed"} (exit 0) when numpy is missing.

/usr/bin/python3 bench/numpy_attention.py --serve '{"n": 1024, "k": 16, "d": 64, "dtype": "float32"}'
  times calls on request (bench/anchor_serve.py): npm run bench alternates them with its own
  (bench/anchor-process.mjs), so that both meet the same moments of a shared machine.

Each timed call computes all six results of a full attention: content scores, position
biases, combined scores, content weights, combined weights and the output. The flat table
indices depend only on (n, k); they are built once per size, outside the timing.
"""

import json
import sys
import time

from anchor_serve import serve_calls

try:
    import numpy as np
except ImportError:
    np = None


def flat_table_indices(n, k):
    """i * (2k + 1) + clip(j - i, -k, k) + k for every (i, j), row-major, as one flat array."""
    rows = np.arange(n)[:, None]
    index = np.clip(np.arange(n)[None, :] - rows, -k, k) + k
    return (index + rows * (2 * k + 1)).ravel()


def softmax_rows(scores):
    """Row softmax, stable (the row max is subtracted first)."""
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    e /= e.sum(axis=1, keepdims=True)
    return e


def attention(q, k, v, rel_keys, rel_values, flat):
    """The six results; flat is flat_table_indices(n, k)."""
    n, d = q.shape
    table_rows = rel_keys.shape[0]
    qs = q * q.dtype.type(1 / np.sqrt(d))
    content = qs @ k.T
    position = (qs @ rel_keys.T).ravel()[flat].reshape(n, n)  # P = Q a^K^T / sqrt(d), gathered
    combined = content + position
    content_weights = softmax_rows(content)
    combined_weights = softmax_rows(combined)
    # Sum each row's weights per table row (bincount over flat indices), then multiply by a^V.
    buckets = np.bincount(flat, weights=combined_weights.ravel(), minlength=n * table_rows)
    buckets = buckets.reshape(n, table_rows).astype(q.dtype, copy=False)
    output = combined_weights @ v + buckets @ rel_values
    return content, position, combined, content_weights, combined_weights, output


def random_inputs(n, k, d, dtype):
    rng = np.random.default_rng(0)
    shapes = [(n, d), (n, d), (n, d), (2 * k + 1, d), (2 * k + 1, d)]
    return [rng.standard_normal(shape).astype(dtype) for shape in shapes]


def time_attention(n, k, d, dtype, budget, min_reps, max_reps):
    """Median wall time and process CPU time in ms over as many reps as fit in budget
    (min_reps..max_reps), after a warm-up."""
    q, key, v, rel_keys, rel_values = random_inputs(n, k, d, dtype)
    flat = flat_table_indices(n, k)
    attention(q, key, v, rel_keys, rel_values, flat)  # warm-up
    times = []
    cpu = []
    start = time.perf_counter()
    while len(times) < max_reps and (len(times) < min_reps or time.perf_counter() - start < budget):
        t0 = time.perf_counter()
        c0 = time.process_time()
        attention(q, key, v, rel_keys, rel_values, flat)
        cpu.append(time.process_time() - c0)
        times.append(time.perf_counter() - t0)
    return {
        "n": n,
        "k": k,
        "dtype": dtype,
        "median_ms": float(np.median(times)) * 1e3,
        "median_cpu_ms": float(np.median(cpu)) * 1e3,
        "reps": len(times),
    }


def serve(config):
    """Times calls on request (bench/anchor_serve.py's protocol)."""
    q, key, v, rel_keys, rel_values = random_inputs(config["n"], config["k"], config["d"], config["dtype"])
    flat = flat_table_indices(config["n"], config["k"])
    attention(q, key, v, rel_keys, rel_values, flat)  # warm-up
    serve_calls(lambda: attention(q, key, v, rel_keys, rel_values, flat), {"numpy": np.__version__, "blas": blas_in_use()})


def blas_in_use():
    """The BLAS libraries this process loaded (from /proc/self/maps): Debian's alternatives pick
    either the reference BLAS (.../blas/libblas.so.3) or OpenBLAS (.../openblas-pthread/...)."""
    try:
        with open("/proc/self/maps", encoding="utf8") as maps:
            paths = {line.split()[-1] for line in maps if "blas" in line.lower() and "/" in line}
    except OSError:
        return "unknown"
    return ", ".join(sorted(paths)) or "none loaded"


def main():
    if np is None:
        print(json.dumps({"error": "numpy not installed"}))
        return
    if sys.argv[1] == "--serve":
        serve(json.loads(sys.argv[2]))
        return
    config = json.loads(sys.argv[1])
    results = [
        time_attention(n, k, config["d"], dtype, config["budget_seconds"], config["min_reps"], config["max_reps"])
        for n, k in config["sizes"]
        for dtype in config["dtypes"]
    ]
    print(json.dumps({"numpy": np.__version__, "blas": blas_in_use(), "results": results}))


if __name__ == "__main__":
    main()
