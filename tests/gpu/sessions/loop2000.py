#!/usr/bin/env python3
"""A training-like loop of 2,000 steps for the session measurements (run.sh).

    python loop2000.py TIMES_FILE

Each step, inside an NVTX range "step N" (torch.cuda.nvtx): four small matmuls, each followed by tanh, on a
1024x1024 bf16 tensor, then a GPU spin of SLEEP_CYCLES clock cycles (torch.cuda._sleep; a fixed count, the same
work in every mode, about 3.8 ms at the H200's 1.98 GHz) standing for the rest of a step's GPU work, then
torch.cuda.synchronize(): about 4 ms a step, so that 2,000 steps last about 8 s, long enough for run.sh's three
start/stop windows after step 200.
TIMES_FILE gets one line per step as it ends, "step_index start_monotonic_ns end_monotonic_ns"
(time.monotonic_ns(): CLOCK_MONOTONIC, the clock of gpuscope's clock_origin_ns; start before the push, end
after the pop), line-buffered so that another process can follow it, and at the end "loop_seconds X".
Environment: LOOP_STEPS (default 2000), SLEEP_CYCLES (default 7500000).
"""
import os
import sys
import time

import torch

path = sys.argv[1]
steps = int(os.environ.get("LOOP_STEPS", "2000"))
cycles = int(os.environ.get("SLEEP_CYCLES", "7500000"))
spin = getattr(torch.cuda, "_sleep", None)

torch.manual_seed(0)
weights = [torch.randn(1024, 1024, device="cuda", dtype=torch.bfloat16) / 32.0 for _ in range(4)]
x = torch.randn(1024, 1024, device="cuda", dtype=torch.bfloat16)


def work(x):
    for w in weights:
        x = torch.tanh(x @ w)
    if spin is not None:
        spin(cycles)
    else:  # no torch.cuda._sleep in this torch: pad with more matmuls instead (said at the end)
        for _ in range(60):
            x = torch.tanh(x @ weights[0])
    return x


for _ in range(10):  # warm-up: cuBLAS picks its kernels, the caching allocator fills
    x = work(x)
torch.cuda.synchronize()

nvtx = torch.cuda.nvtx
clock = time.monotonic_ns
with open(path, "w", buffering=1) as out:
    loop_start = time.perf_counter()
    for i in range(steps):
        t0 = clock()
        nvtx.range_push(f"step {i}")
        x = work(x)
        torch.cuda.synchronize()
        nvtx.range_pop()
        t1 = clock()
        out.write(f"{i} {t0} {t1}\n")
    seconds = time.perf_counter() - loop_start
    out.write(f"loop_seconds {seconds:.4f}\n")
print(f"loop_seconds {seconds:.4f} steps {steps} sleep_cycles {cycles if spin else 'none (60 matmuls instead)'} "
      f"mean_step_ms {seconds / steps * 1e3:.3f} checksum {float(x.float().sum()):.4g}")
