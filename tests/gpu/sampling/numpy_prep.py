"""A PyTorch loop whose GPU waits on NumPy: each step prepares its batch on the main thread (an FFT and a
sort of a large array, in prepare()), copies it to the GPU and runs a few small matrix products. The GPU
is idle while prepare() runs. Argument: steps (default 40)."""
import sys

import numpy as np
import torch


def prepare(rng, size):
    signal = rng.standard_normal(size)
    spectrum = np.abs(np.fft.rfft(signal))
    ordered = np.sort(signal)
    return np.concatenate([spectrum[: size // 4], ordered[: size // 4]]).astype(np.float32)


def train_step(batch, weight):
    x = torch.from_numpy(batch).cuda(non_blocking=False).reshape(-1, 1024)
    for _ in range(4):
        x = torch.tanh(x @ weight)
    return x.sum()


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    rng = np.random.default_rng(0)
    weight = torch.randn(1024, 1024, device="cuda") / 32
    total = torch.zeros((), device="cuda")
    for _ in range(steps):
        batch = prepare(rng, 1 << 21)
        total += train_step(batch, weight)
    torch.cuda.synchronize()
    print(f"done {float(total):.3f}")


main()
