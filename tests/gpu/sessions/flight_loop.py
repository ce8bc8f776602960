#!/usr/bin/env python3
"""A loop for the flight recorder's measurement (flight.sh): steps of about 4 ms (as loop2000.py: four bf16
matmul+tanh on 1024x1024, a GPU spin, a synchronize, inside NVTX "step N") for SECONDS, one of them, SLOW_STEP,
with 20 ms more spin. The step is chosen by flight.sh at random and written only to TIMES_FILE's first line,
which the checker reads after the file is judged, so nothing in gpuscope's file can come from it.

    python flight_loop.py TIMES_FILE SECONDS SLOW_STEP

TIMES_FILE: "slow_step N", then one line per step "index start_ns end_ns" (time.monotonic_ns).
"""
import sys
import time

import torch

path, seconds, slow = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
spin = torch.cuda._sleep
torch.manual_seed(0)
weights = [torch.randn(1024, 1024, device="cuda", dtype=torch.bfloat16) / 32.0 for _ in range(4)]
x = torch.randn(1024, 1024, device="cuda", dtype=torch.bfloat16)
with open(path, "w", buffering=1) as out:
    out.write(f"slow_step {slow}\n")
    end_at = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end_at:
        start = time.monotonic_ns()
        torch.cuda.nvtx.range_push(f"step {i}")
        for w in weights:
            x = torch.tanh(x @ w)
        spin(7_500_000 + (40_000_000 if i == slow else 0))
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
        out.write(f"{i} {start} {time.monotonic_ns()}\n")
        i += 1
print("steps", i)
