"""The anchors' --serve protocol (bench/anchor-process.mjs drives it): print `info` as one JSON
line once ready, then for each line {"calls": c} on stdin run `call` c times and print
{"wall_ms": [...], "cpu_ms": [...]}, one time per call, taken in this process (CPU summed over
its threads)."""

import json
import sys
import time


def serve_calls(call, info):
    print(json.dumps(info), flush=True)
    for line in sys.stdin:
        wall, cpu = [], []
        for _ in range(json.loads(line)["calls"]):
            cpu_start = time.process_time()
            start = time.perf_counter()
            call()
            wall.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - cpu_start) * 1000)
        print(json.dumps({"wall_ms": wall, "cpu_ms": cpu}), flush=True)
