#!/usr/bin/env python3
"""Writes the seed corpus (corpus/<target>/) and the hand-made reproducers of findings
(regressions/<target>/) of the relpos fuzz targets. Deterministic; run it again after changing
how a target decodes its input:  python3 tests/fuzz/make_corpus.py

The targets read their input with libFuzzer's FuzzedDataProvider, which takes integers from the
END of the input, most significant byte first, each one only as many bytes as its range needs,
reduced modulo the range. Encoder mirrors that: it records values in the order the target
consumes them and writes the bytes reversed.
"""
import pathlib
import shutil

HERE = pathlib.Path(__file__).resolve().parent

# Indices of fuzz_common.hpp's specialValue<T>().
NAN, INF, NEG_INF, MAX, NEG_MAX, BIG, MIN_NORMAL, NEG_MIN_NORMAL, DENORM, NEG_DENORM = range(10)
DENORM3, ZERO, NEG_ZERO, E30, NEG_E30, ONE, NEG_ONE, THOUSAND, SNAN = range(10, 19)
NAMED_VALUE_COUNT = 19


class Encoder:
    def __init__(self):
        self.consumed = []  # bytes in the order the target consumes them

    def integral(self, value, lo, hi, type_bytes=8):
        span = hi - lo
        assert lo <= value <= hi, (value, lo, hi)
        count = 0
        while count < type_bytes and (span >> (8 * count)) > 0:
            count += 1
        self.consumed += list((value - lo).to_bytes(count, 'big')) if count else []
        return self

    def u8(self, value):
        return self.integral(value, 0, 255, 1)

    def i8(self, value):
        return self.integral(value, -128, 127, 1)

    def boolean(self, value):
        return self.u8(1 if value else 0)

    def u32(self, value):
        return self.integral(value, 0, 2**32 - 1, 4)

    def probability(self, p):
        """ConsumeProbability<double>(): a uint64 over its maximum."""
        return self.integral(round(p * (2**64 - 1)), 0, 2**64 - 1, 8)

    def bytes(self):
        return bytes(reversed(self.consumed))


# --- fuzz_attention: type, n, d_k, d_v, k, causal, [relative values], seed, rate, values.
def attention(*, single=False, n, dk, dv, k, causal=False, rel_values=False, seed=1, rate=255,
              values=()):
    """values: numbers m/8 (m an int in [-128, 127]) or ('s', index) specials, row-major over
    queries, keys, relative keys, values, relative values; the rest come from the PRNG."""
    e = Encoder().boolean(single)
    e.integral(n, 1, 48).integral(dk, 1, 16).integral(dv, 0, 16).integral(k, 0, 64)
    e.boolean(causal)
    if dv > 0:
        e.boolean(rel_values)
    e.u32(seed).u8(rate)
    for v in values:
        if isinstance(v, tuple):
            e.u8(v[1])
        else:
            m = round(v * 8)
            assert -128 <= m <= 127 and m / 8 == v, v
            e.u8(200).i8(m)
    return e.bytes()


def special(index):
    return ('s', index)


# --- fuzz_random: seed, count, split, raw draws, then the scenario's n, d_model, d_k, k.
def random_input(*, seed, count, split, draws, n=6, dmodel=8, dk=4, k=2):
    e = Encoder().u32(seed).integral(count, 0, 4096).integral(split, 0, count)
    e.integral(draws, 1, 1300)
    e.integral(n, 1, 16).integral(dmodel, 1, 16).integral(dk, 1, 16).integral(k, 0, 16)
    return e.bytes()


# --- fuzz_profile: seed, d_k, maxDistance, noise, width, asymmetry (see the pick* functions).
WIDTH_EDGES = ['denorm_min', 1e-320, 1e-310, 'min', 1e-300, 1e-150, 1e-6, 0.5, 1.0, 2.0, 1e6,
               1e300, 'max', 'inf']
ASYMMETRY_EDGES = [0.0, '-0', 0.999999, -0.999999, '1-ulp', '-(1-ulp)', 0.5, -0.5, 1e-308,
                   -1e-308]


def profile(*, seed=42, dk=4, max_distance=5, noise=0.1, width=1.0, asymmetry=0.0):
    e = Encoder().u32(seed).integral(dk, 1, 64).integral(max_distance, 0, 256)
    if isinstance(noise, tuple):  # a special value
        e.u8(noise[1])
    elif noise == 0.0:
        e.u8(NAMED_VALUE_COUNT)
    else:
        e.u8(64).probability(noise / 1e6)
    if width in WIDTH_EDGES:
        e.u8(WIDTH_EDGES.index(width))
    else:
        e.u8(255).probability(width / 1e6)
    if asymmetry in ASYMMETRY_EDGES:
        e.u8(ASYMMETRY_EDGES.index(asymmetry))
    else:  # ConsumeFloatingPointInRange(-1, 1): a bool picks the half, then a probability
        upper = asymmetry >= 0
        e.u8(255).boolean(upper).probability(asymmetry + (0.0 if upper else 1.0))
    return e.bytes()


# --- fuzz_offsets: n, then a distance mode (0 small, 1 INT32_MAX - small, else any) and value.
def offsets(*, n, k):
    e = Encoder().integral(n, 1, 300)
    int32_max = 2**31 - 1
    if k <= 600:
        e.integral(0, 0, 3).integral(k, 0, 600)
    elif int32_max - k <= 600:
        e.integral(1, 0, 3).integral(int32_max - k, 0, 600)
    else:
        e.integral(2, 0, 3).integral(k, 0, int32_max)
    return e.bytes()


def seed_values(count, step=3):
    """Moderate values m/8 cycling through [-4, 4]."""
    return [((i * step) % 65 - 32) / 8 for i in range(count)]


# --- fuzz_softmax: type, count, the row, then the shift (raised to the row's maximum).
def softmax(*, single=False, row, shift=0.0):
    """row, shift: numbers; multiples of 1/4 in [-32, 32) take one byte, others thousandths in
    [-800, 100]; ('s', index) for specials."""
    e = Encoder().boolean(single).integral(len(row), 1, 64)
    for v in list(row) + [shift]:
        if isinstance(v, tuple):
            e.u8(v[1])
        elif v * 4 == int(v * 4) and -128 <= v * 4 <= 127:
            e.u8(200).i8(int(v * 4))
        else:
            e.u8(NAMED_VALUE_COUNT).integral(round(v * 1000), -800000, 100000, 4)
    return e.bytes()


CORPUS = {
    'fuzz_attention': {
        'seed_handbook_6x4_k2': attention(n=6, dk=4, dv=4, k=2, rel_values=True,
                                          values=seed_values(6 * 4 * 2 + 5 * 4 + 6 * 4 + 5 * 4)),
        'float_6x4_k2_causal': attention(single=True, n=6, dk=4, dv=4, k=2, causal=True,
                                         rel_values=True, seed=7),
        'single_token': attention(n=1, dk=3, dv=2, k=2, rel_values=True, values=[1, 2, 3]),
        'k0_no_values': attention(n=6, dk=4, dv=0, k=0, seed=3),
        'k_beyond_n': attention(n=5, dk=2, dv=3, k=9, seed=4),
        'clipping_active': attention(n=17, dk=7, dv=5, k=3, rel_values=True, seed=5),
        'largest_shapes': attention(n=48, dk=16, dv=16, k=64, rel_values=True, seed=6),
        'largest_float': attention(single=True, n=48, dk=16, dv=16, k=4, causal=True, seed=8),
        'd1': attention(n=33, dk=1, dv=1, k=1, rel_values=True, seed=9),
        'denormals': attention(single=True, n=4, dk=2, dv=1, k=1,
                               values=[special(DENORM), special(NEG_DENORM), special(DENORM3),
                                       special(MIN_NORMAL)] * 3, seed=11),
        'zeros_and_negative_zeros': attention(n=4, dk=2, dv=2, k=1, rate=0,
                                              values=[special(ZERO), special(NEG_ZERO)] * 20),
    },
    'fuzz_random': {
        'numpy_seed42': random_input(seed=42, count=6, split=3, draws=8),
        'seed0': random_input(seed=0, count=100, split=0, draws=1300),
        'seed_max': random_input(seed=2**32 - 1, count=7, split=7, draws=625, n=1, dmodel=1,
                                 dk=1, k=0),
        'mt_default_seed': random_input(seed=5489, count=4096, split=2049, draws=700),
        'odd_split': random_input(seed=3, count=7, split=3, draws=2),
        'empty_fill': random_input(seed=123456789, count=0, split=0, draws=1, n=16, dmodel=16,
                                   dk=16, k=16),
    },
    'fuzz_profile': {
        'handbook': profile(),
        'noiseless': profile(noise=0.0),
        'look_back': profile(noise=0.0, asymmetry=0.5),
        'wide': profile(noise=0.0, width=2.0),
        'tiny_width': profile(width=1e-300, asymmetry=0.999999),
        'near_one_asymmetry': profile(width=1e-150, asymmetry='1-ulp', max_distance=256, dk=64),
        'negative_asymmetry': profile(width=1e-6, asymmetry=-0.999999, max_distance=0, dk=1),
        'nan_noise': profile(noise=special(NAN)),
        'infinite_width': profile(width='inf', noise=special(MAX)),
    },
    'fuzz_offsets': {
        'n1_k0': offsets(n=1, k=0),
        'n6_k2': offsets(n=6, k=2),
        'k_equals_n': offsets(n=9, k=9),
        'k_beyond_n': offsets(n=5, k=20),
        'n300_k3': offsets(n=300, k=3),
        'k_large': offsets(n=40, k=123456789),
        'k_near_int32_max': offsets(n=40, k=2**31 - 1 - 100),  # i + k + 1 fits in int32
    },
    'fuzz_softmax': {
        'one': softmax(row=[0.5]),
        'three_float': softmax(single=True, row=[1, 2, 3], shift=3),
        'wide_range': softmax(row=[-700.5, 0, -80.25, -745.125, 12, -0.25, 99.999]),
        'float_underflow': softmax(single=True, row=[0, -87.3, -87.4, -103.5, -200]),
        'row_of_eight_float': softmax(single=True, row=[i / 4 for i in range(8)]),
        'row_of_64': softmax(row=[(i * 37 % 101 - 50) / 4 for i in range(64)]),
        'ties': softmax(row=[2.5] * 9),
        'huge_finite': softmax(row=[special(MAX), special(NEG_MAX), 0]),
        'denormals': softmax(single=True, row=[special(DENORM), special(NEG_DENORM), 0]),
        'negative_infinity': softmax(row=[special(NEG_INF), 1, 2], shift=special(INF)),
    },
}

# Hand-made reproducers of findings in the core; scripts/sanitize.sh runs each once.
REGRESSIONS = {
    'fuzz_attention': {
        # NaN in a score row: exp_kernels.cpp casts nearbyint(NaN) to int (UB; traps in WASM).
        'nan_score_exp_cast': attention(n=1, dk=1, dv=0, k=0, values=[special(NAN), 1, 1]),
        # Finite but huge inputs (valid through the JS API): q.k overflows to +inf, the row max
        # is +inf, inf - inf = NaN reaches the same cast.
        'finite_overflow_exp_cast': attention(n=2, dk=1, dv=1, k=1,
                                              values=[special(BIG)] * 5 + [1, 1]),
    },
    'fuzz_softmax': {
        # The same cast, on the kernel itself: a NaN in the row.
        'nan_in_row': softmax(row=[1, special(NAN), 2]),
    },
    'fuzz_profile': {
        # width 5e-324 and asymmetry 0.999999 (inside the JS API's contract): sigma underflows
        # to 0 and offset 0 gets z = 0 / 0 = NaN, so the profile is NaN at its peak.
        'denormal_width_nan_peak': profile(width='denorm_min', asymmetry=0.999999),
    },
    'fuzz_offsets': {
        # i + k + 1 overflows a 32-bit Index (the WASM build): wrong offsets there.
        'k_int32_max_wasm32_overflow': offsets(n=3, k=2**31 - 1),
    },
}


def write(tree, root, replace):
    """replace: start each folder afresh (the corpus); else only add (regressions may also hold
    inputs the fuzzer wrote)."""
    for target, files in tree.items():
        folder = root / target
        if replace and folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (folder / name).write_bytes(data)


if __name__ == '__main__':
    write(CORPUS, HERE / 'corpus', replace=True)
    write(REGRESSIONS, HERE / 'regressions', replace=False)
    for kind, tree in (('corpus', CORPUS), ('regressions', REGRESSIONS)):
        print(kind + ':', ', '.join(f'{t} {len(f)}' for t, f in tree.items()))
