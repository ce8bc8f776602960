#!/usr/bin/env python3
"""PyTorch programs for issue 26's verdict fixtures, recorded by tests/gpu/verdict.sh.

Each one has a start-up (importing PyTorch, creating the context, loading cuBLAS, a warm-up) before the
work it stands for, so a verdict judged from the first GPU operation sees start-up, and a verdict judged
on the steady state sees the work. Every program marks its work with NVTX ranges "step N" and its warm-up
with "warmup".

  verdict_loops.py fp32_gemm    3 warm-up then 40 GEMMs of 4096^3 in FP32, TF32 off (FFMA, no tensor cores)
  verdict_loops.py bf16_gemm    3 warm-up then 40 GEMMs of 8192^3 in bf16 (tensor cores)
  verdict_loops.py numpy_batch  each step prepares its batch with NumPy (FFT, sort) on the main thread,
                                then copies it and runs a small MLP step: the GPU waits on the host
"""
import sys

import numpy as np
import torch


def gemm_loop(size, dtype, steps=10, per_step=4):
    torch.backends.cuda.matmul.allow_tf32 = False
    a = torch.randn(size, size, device="cuda", dtype=dtype)
    b = torch.randn(size, size, device="cuda", dtype=dtype)
    torch.cuda.nvtx.range_push("warmup")
    for _ in range(3):
        c = a @ b
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    for step in range(steps):
        torch.cuda.nvtx.range_push(f"step {step}")
        for _ in range(per_step):
            c = a @ b
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()
    return c


def prepare_batch(rng, rows, width):
    # The host-side preparation the GPU waits for: an FFT and a sort of every row, on the main thread.
    raw = rng.standard_normal((rows, 2 * width))
    spectrum = np.abs(np.fft.rfft(raw, axis=1))[:, :width]
    return np.sort(spectrum, axis=1).astype(np.float32)


def numpy_batch_loop(steps=30, rows=512, width=1024):
    rng = np.random.default_rng(0)
    model = torch.nn.Sequential(torch.nn.Linear(width, width), torch.nn.ReLU(), torch.nn.Linear(width, 10)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    for step in range(steps):
        torch.cuda.nvtx.range_push(f"step {step}")
        batch = torch.from_numpy(prepare_batch(rng, rows, width)).cuda()
        loss = model(batch).pow(2).mean()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()


def main():
    programs = {
        "fp32_gemm": lambda: gemm_loop(4096, torch.float32),
        "bf16_gemm": lambda: gemm_loop(8192, torch.bfloat16),
        "numpy_batch": numpy_batch_loop,
    }
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode not in programs:
        sys.exit("usage: verdict_loops.py " + "|".join(programs))
    torch.cuda.init()
    programs[mode]()
    print(f"{mode}: done")


if __name__ == "__main__":
    main()
