# Overhead workload: a loop of 50,000 small PyTorch eager ops on the GPU. Prints the time the loop
# and the final synchronization took, on the program's own clock, as "loop_ns N".
import sys
import time

import torch

ops = int(sys.argv[1]) if len(sys.argv) > 1 else 50000
x = torch.ones(256, device="cuda")
y = torch.ones(256, device="cuda")
torch.cuda._sleep(500_000_000)  # keep the GPU busy ~0.3 s so its clocks have ramped up (launch_loop.cu)
for _ in range(2000):  # warm up the allocator, the kernels and the launch path
    x = x * 0.5 + y
torch.cuda.synchronize()
start = time.monotonic_ns()
for i in range(ops // 2):
    x = x * 0.5
    x = x + y
torch.cuda.synchronize()
print(f"loop_ns {time.monotonic_ns() - start}")
