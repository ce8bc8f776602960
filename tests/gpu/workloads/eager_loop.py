# Overhead workload: a loop of 50,000 small PyTorch eager ops on the GPU. Prints the time the loop
# and the final synchronization took, on the program's own clock, as "loop_ns N"; with LOOP_REPS=R,
# R such loops in this one process, "loop_ns" their median and "loop_ns_each" all of them (as
# launch_loop.cu).
import os
import statistics
import sys
import time

import torch

ops = int(sys.argv[1]) if len(sys.argv) > 1 else 50000
reps = max(1, int(os.environ.get("LOOP_REPS", "1")))
x = torch.ones(256, device="cuda")
y = torch.ones(256, device="cuda")
torch.cuda._sleep(500_000_000)  # keep the GPU busy ~0.3 s so its clocks have ramped up (launch_loop.cu)
for _ in range(2000):  # warm up the allocator, the kernels and the launch path
    x = x * 0.5 + y
torch.cuda.synchronize()
loops = []
for _ in range(reps):
    start = time.monotonic_ns()
    for i in range(ops // 2):
        x = x * 0.5
        x = x + y
    torch.cuda.synchronize()
    loops.append(time.monotonic_ns() - start)
print("loop_ns_each " + " ".join(str(ns) for ns in loops))
print(f"loop_ns {int(statistics.median_low(loops))}")
