#!/usr/bin/env python3
"""Small PyTorch programs, one per bottleneck class of issue 14, recorded by tests/gpu/classes.sh.

  classes.py fp32     an MLP trained in FP32 with TF32 off: SGEMMs on the FFMA pipes, no tensor cores
  classes.py bf16     the same MLP under bf16 autocast: tensor-core GEMMs
  classes.py launch   a loop of tiny element-wise ops on 1,000 floats: the host's launches are the limit
  classes.py gemm     back-to-back 8192x8192 bf16 matmuls: the GPU's compute is the limit
  classes.py graph    a CUDA graph of 20 small ops captured once and replayed 100 times

Every program marks its steps with NVTX ranges ("step N") so that --by nvtx has something to split by.
"""
import sys

import torch

STEPS = {"fp32": 12, "bf16": 12, "launch": 10, "gemm": 10, "graph": 100}


def mlp_step(model, optimizer, batch, autocast):
    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=autocast):
        loss = model(batch).float().pow(2).mean()
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()


def run_mlp(autocast):
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    width = 4096
    model = torch.nn.Sequential(torch.nn.Linear(width, width), torch.nn.ReLU(), torch.nn.Linear(width, width)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    batch = torch.randn(2048, width, device="cuda")
    for step in range(STEPS["bf16" if autocast else "fp32"]):
        torch.cuda.nvtx.range_push(f"step {step}")
        mlp_step(model, optimizer, batch, autocast)
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()


def run_launch():
    x = torch.zeros(1000, device="cuda")
    for step in range(STEPS["launch"]):
        torch.cuda.nvtx.range_push(f"step {step}")
        for _ in range(1000):
            x.add_(1.0)
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()


def run_gemm():
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    for step in range(STEPS["gemm"]):
        torch.cuda.nvtx.range_push(f"step {step}")
        for _ in range(10):
            c = a @ b
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()
    return c


def run_graph():
    x = torch.zeros(4096, device="cuda")
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):  # warm up outside the graph, as PyTorch asks
            x.mul_(0.5).add_(1.0)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(10):
            x.mul_(0.5).add_(1.0)
    for step in range(STEPS["graph"]):
        torch.cuda.nvtx.range_push(f"step {step}")
        graph.replay()
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    programs = {"fp32": lambda: run_mlp(False), "bf16": lambda: run_mlp(True), "launch": run_launch,
                "gemm": run_gemm, "graph": run_graph}
    if mode not in programs:
        sys.exit("usage: classes.py " + "|".join(programs))
    torch.cuda.init()
    programs[mode]()
    print(f"{mode}: done")


if __name__ == "__main__":
    main()
