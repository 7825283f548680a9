"""bench:train's PyTorch row: the same model as relpos's training engine (README "Training a
model"), in PyTorch CPU eager, float32: token embeddings, L post-LN blocks of multi-head
attention with Shaw relative positions (a^K, a^V shared by a layer's heads; the position terms by
gather/scatter over clip(j - i, -k, k) + k, not an n x n x d tensor) and a ReLU feed-forward
layer, a linear map to the vocabulary, cross-entropy, AdamW. Median ms per training step
(forward + backward + optimiser step) on copy-offset batches.

Usage: python3 train_torch.py THREADS name:V:d:heads:layers:k:n:B:ffn [...]   (THREADS 0 = every core)
Prints one JSON line with the BLAS PyTorch reports and the results.

python3 train_torch.py --serve THREADS name:V:d:heads:layers:k:n:B:ffn
  times steps on request, once the model is warm (bench/anchor_serve.py): bench:train alternates
  them with its own (bench/anchor-process.mjs), so that both meet the same moments of a shared machine.
"""
import json
import math
import os
import re
import sys
import time

import torch
import torch.nn.functional as F

from anchor_serve import serve_calls


class RelativeAttention(torch.nn.Module):
    def __init__(self, d, heads, k):
        super().__init__()
        self.h, self.dk, self.k = heads, d // heads, k
        self.wq = torch.nn.Parameter(torch.randn(d, d) / math.sqrt(d))
        self.wk = torch.nn.Parameter(torch.randn(d, d) / math.sqrt(d))
        self.wv = torch.nn.Parameter(torch.randn(d, d) / math.sqrt(d))
        self.wo = torch.nn.Parameter(torch.randn(d, d) / math.sqrt(d))
        rows = 2 * k + 1
        self.ak = torch.nn.Parameter(torch.randn(rows, self.dk) / math.sqrt(self.dk))
        self.av = torch.nn.Parameter(torch.randn(rows, self.dk) / math.sqrt(self.dk))

    def forward(self, x, index):
        b, n, d = x.shape
        split = lambda t: t.view(b, n, self.h, self.dk).transpose(1, 2)  # b h n dk
        q, k, v = split(x @ self.wq), split(x @ self.wk), split(x @ self.wv)
        rows = 2 * self.k + 1
        gather_index = index.expand(b, self.h, n, n)
        scores = q @ k.transpose(-1, -2) + torch.gather(q @ self.ak.t(), 3, gather_index)
        w = torch.softmax(scores / math.sqrt(self.dk), dim=-1)
        buckets = torch.zeros(b, self.h, n, rows).scatter_add(3, gather_index, w)
        z = w @ v + buckets @ self.av
        return z.transpose(1, 2).reshape(b, n, d) @ self.wo


class Block(torch.nn.Module):
    def __init__(self, d, heads, k, ffn):
        super().__init__()
        self.attention = RelativeAttention(d, heads, k)
        self.norm1 = torch.nn.LayerNorm(d)
        self.ffn1 = torch.nn.Linear(d, ffn)
        self.ffn2 = torch.nn.Linear(ffn, d)
        self.norm2 = torch.nn.LayerNorm(d)

    def forward(self, x, index):
        x = self.norm1(x + self.attention(x, index))
        return self.norm2(x + self.ffn2(F.relu(self.ffn1(x))))


class Model(torch.nn.Module):
    def __init__(self, vocab, d, heads, layers, k, ffn):
        super().__init__()
        self.k = k
        self.embedding = torch.nn.Parameter(torch.randn(vocab, d))
        self.blocks = torch.nn.ModuleList(Block(d, heads, k, ffn) for _ in range(layers))
        self.output = torch.nn.Linear(d, vocab)

    def forward(self, tokens):
        n = tokens.shape[1]
        positions = torch.arange(n)
        index = (positions[None, :] - positions[:, None]).clamp(-self.k, self.k) + self.k
        x = self.embedding[tokens]
        for block in self.blocks:
            x = block(x, index)
        return self.output(x)


def make_step(spec):
    """The training step of spec's model, warmed up by two steps."""
    _, *numbers = spec.split(':')
    vocab, d, heads, layers, k, n, batch, ffn = map(int, numbers)
    torch.manual_seed(1)
    model = Model(vocab, d, heads, layers, k, ffn)
    optimiser = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.0)
    tokens = torch.randint(0, vocab, (batch, n))
    targets = torch.full((batch, n), -1, dtype=torch.long)
    targets[:, :-1] = tokens[:, 1:]

    def step():
        optimiser.zero_grad(set_to_none=True)
        logits = model(tokens)
        loss = F.cross_entropy(logits.view(-1, vocab), targets.view(-1), ignore_index=-1)
        loss.backward()
        optimiser.step()

    step()
    step()
    return step


def run(spec):
    name = spec.split(':')[0]
    step = make_step(spec)
    times, cpu, spent = [], [], 0.0
    while len(times) < 5 or (spent < 3000 and len(times) < 30):
        cpu_start = time.process_time()
        start = time.perf_counter()
        step()
        ms = (time.perf_counter() - start) * 1000
        cpu.append((time.process_time() - cpu_start) * 1000)  # summed over threads
        times.append(ms)
        spent += ms
    times.sort()
    cpu.sort()
    return {'name': name, 'median_ms': times[len(times) // 2], 'cpu_ms': cpu[len(cpu) // 2],
            'steps': len(times)}


def blas_in_use():
    """The BLAS PyTorch was built against (BLAS_INFO) and the one this process loaded (Debian's
    alternatives pick it at run time)."""
    blas = re.search(r'BLAS_INFO=([^,\s]+)', torch.__config__.show())
    with open('/proc/self/maps') as maps:
        loaded = sorted({line.split()[-1] for line in maps if re.search(r'blas', line.split()[-1])})
    return {'blas_info': blas.group(1) if blas else 'unknown', 'blas_loaded': loaded}


def serve(threads, spec):
    """Times steps on request (bench/anchor_serve.py's protocol)."""
    torch.set_num_threads(threads if threads > 0 else os.cpu_count())
    step = make_step(spec)
    serve_calls(step, {'torch': torch.__version__, 'threads': torch.get_num_threads(), **blas_in_use()})


def main():
    if sys.argv[1] == '--serve':
        serve(int(sys.argv[2]), sys.argv[3])
        return
    threads = int(sys.argv[1])
    torch.set_num_threads(threads if threads > 0 else os.cpu_count())
    results = [run(spec) for spec in sys.argv[2:]]
    print(json.dumps({'torch': torch.__version__, 'threads': torch.get_num_threads(), **blas_in_use(),
                      'results': results}))


if __name__ == '__main__':
    main()
