# torch.matmul in a loop for about 2 s: bf16 of 8192x8192 matrices (tensor cores, about 1 ms a matmul, so that
# 5 kHz samples fall inside each) or fp32 of 4096x4096 with TF32 off (no tensor cores, about 20 ms a matmul).
# Prints the loop's own time, the figure the recording's cost is measured on.
import sys
import time

import torch

dtype = sys.argv[1] if len(sys.argv) > 1 else "bf16"
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
kind = torch.bfloat16 if dtype == "bf16" else torch.float32
size = 8192 if dtype == "bf16" else 4096
a = torch.randn(size, size, device="cuda", dtype=kind)
b = torch.randn(size, size, device="cuda", dtype=kind)
for _ in range(3):  # warm-up: cuBLAS picks its kernel
    c = torch.matmul(a, b)
torch.cuda.synchronize()
# A fixed count, so every mode does the same work: about SECONDS on an H200 bare.
per_second = 1000 if dtype == "bf16" else 50
count = int(per_second * seconds)
start = time.perf_counter()
for _ in range(count):
    c = torch.matmul(a, b)
torch.cuda.synchronize()
print(f"loop_seconds {time.perf_counter() - start:.4f} {dtype} {count} matmuls")
