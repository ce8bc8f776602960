"""A loop whose host is blocked in host-to-device copies from PAGEABLE memory (a recording for the viewer).

Each iteration copies a non-pinned CPU tensor of several MB to the GPU with tensor.to("cuda", non_blocking=True)
(cudaMemcpyAsync from pageable memory: the call returns only once the driver has staged the whole buffer, so
"non_blocking" does not help) and runs a few small kernels on it. The sizes cycle over 4, 8 and 16 MB.
NVTX ranges: "warmup", then "iter 0" .. "iter N-1". Prints
  PAGEABLE <iterations> copies, <MB> MB, <s> s in copies of <s> s, <GB/s>
Arguments: iterations (default 300).
"""
import sys
import time

import torch


def main():
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    sizes_mb = [4, 8, 16]
    host = [torch.randn(mb * 1024 * 1024 // 4) for mb in sizes_mb]  # plain (pageable) CPU tensors
    assert not any(t.is_pinned() for t in host)
    scale = torch.ones(1, device="cuda")
    acc = torch.zeros((), device="cuda")

    torch.cuda.nvtx.range_push("warmup")
    for t in host:
        acc += (t.to("cuda", non_blocking=True) * scale).relu().sum()
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()

    in_copies, moved = 0.0, 0
    start = time.perf_counter()
    for i in range(iterations):
        torch.cuda.nvtx.range_push(f"iter {i}")
        src = host[i % len(host)]
        t0 = time.perf_counter()
        dev = src.to("cuda", non_blocking=True)
        in_copies += time.perf_counter() - t0
        moved += src.numel() * 4
        dev = torch.relu(dev * scale + 0.5)
        acc += dev.sum()
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()
    wall = time.perf_counter() - start
    print(f"PAGEABLE {iterations} copies, {moved / 2**20:.0f} MB, {in_copies:.2f} s in copies of {wall:.2f} s "
          f"({100 * in_copies / wall:.0f}%), {moved / in_copies / 1e9:.1f} GB/s as the host saw it; "
          f"checksum {float(acc):.1f}")


main()
