"""A bf16 mixed-precision MLP training loop (a recording for the viewer's side-by-side compare).

fp32 weights, forward and backward under torch.autocast(dtype=torch.bfloat16), AdamW; synthetic regression
data made on the GPU. Run it twice with a different --hidden (4096 vs 8192) or --batch to compare the runs.
NVTX ranges: "warmup", then "train_step_0" .. "train_step_{N-1}". Prints
  MLP hidden H batch B layers L: N steps, ms/step, TFLOP/s (the model's matmul FLOPs, 6 * params * rows)
Options: --hidden (4096), --batch (4096), --layers (4 Linear layers), --steps (30), --warmup (3),
--kineto PATH: run under torch.profiler (CPU + CUDA activities, record_shapes) and export_chrome_trace(PATH)
(a .json.gz path is written gzip-compressed).
"""
import argparse
import time

import torch
from torch import nn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hidden", type=int, default=4096)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--width", type=int, default=1024, help="input and output features")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--kineto", default="")
    args = parser.parse_args()

    torch.manual_seed(0)
    dims = [args.width] + [args.hidden] * (args.layers - 1) + [args.width]
    layers = []
    for i in range(args.layers):
        layers.append(nn.Linear(dims[i], dims[i + 1]))
        if i < args.layers - 1:
            layers.append(nn.GELU())
    model = nn.Sequential(*layers).cuda()
    params = sum(p.numel() for p in model.parameters())
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    x = torch.randn(args.batch, args.width, device="cuda")
    target = torch.randn(args.batch, args.width, device="cuda")

    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = nn.functional.mse_loss(model(x).float(), target)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        return loss

    torch.cuda.nvtx.range_push("warmup")
    for _ in range(args.warmup):
        step()
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()

    def loop():
        start = time.perf_counter()
        for i in range(args.steps):
            torch.cuda.nvtx.range_push(f"train_step_{i}")
            loss = step()
            torch.cuda.nvtx.range_pop()
        torch.cuda.synchronize()
        return time.perf_counter() - start, float(loss)

    if args.kineto:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as prof:
            wall, loss = loop()
        prof.export_chrome_trace(args.kineto)
    else:
        wall, loss = loop()
    flops = 6 * params * args.batch * args.steps
    print(f"MLP hidden {args.hidden} batch {args.batch} layers {args.layers} ({params / 1e6:.0f}M params): "
          f"{args.steps} steps in {wall:.3f} s, {1e3 * wall / args.steps:.2f} ms/step, "
          f"{flops / wall / 1e12:.0f} TFLOP/s; loss {loss:.4f}{' (under torch.profiler)' if args.kineto else ''}")


main()
