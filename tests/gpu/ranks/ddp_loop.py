"""A small DDP training loop over NCCL in which one rank is slower, for issue 29's rank fixtures.

Run under torchrun (one process a GPU), e.g. `torchrun --standalone --nproc_per_node=2 ddp_loop.py`.
Each step: forward, (on SLOW_RANK only) SLOW_MS of busy host work, backward (DDP all-reduces the
gradients in buckets, one NCCL kernel each), SGD, loss.item(). The busy work makes SLOW_RANK start its
backward late, so the other rank's all-reduce kernels wait for it. Every step is an NVTX range "step"
with "forward", "host_work", "backward" and "optimizer" inside.

Environment: BACKEND (nccl; gloo for one GPU), WARMUP (5) and STEPS (30) steps; SLOW_RANK (1) and SLOW_MS (15); HIDDEN (4096), LAYERS (4),
BATCH (1024), BUCKET_MB (64). KINETO_DIR set: torch.profiler (wait=WARMUP, warmup=2, active=KINETO_ACTIVE
(10)) writes KINETO_DIR/rank{R}.json, with distributedInfo. Don't set it under nsys or gpuscope (one CUPTI
subscriber at a time). Prints each rank's step times (median of the STEPS steps after the warm-up).
"""
import json
import os
import statistics
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def env_int(name, default):
    return int(os.environ.get(name, default))


def busy(ms):
    end = time.perf_counter() + ms / 1000.0
    x = 0
    while time.perf_counter() < end:
        x += 1
    return x


def main():
    warmup, steps = env_int("WARMUP", 5), env_int("STEPS", 30)
    slow_rank, slow_ms = env_int("SLOW_RANK", 1), env_int("SLOW_MS", 15)
    hidden, layers, batch = env_int("HIDDEN", 4096), env_int("LAYERS", 4), env_int("BATCH", 1024)
    # BACKEND=gloo puts every rank on GPU 0, for a machine of one GPU (NCCL needs a GPU per rank); its
    # all-reduces then run on the host, so there are no collective kernels.
    backend = os.environ.get("BACKEND", "nccl")
    dist.init_process_group(backend)
    rank, world = dist.get_rank(), dist.get_world_size()
    local_rank = env_int("LOCAL_RANK", rank) if backend == "nccl" else 0
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)
    torch.manual_seed(0)
    modules = []
    for _ in range(layers - 1):
        modules += [torch.nn.Linear(hidden, hidden), torch.nn.ReLU()]
    modules.append(torch.nn.Linear(hidden, hidden))
    model = DDP(torch.nn.Sequential(*modules).to(device), device_ids=[local_rank],
                bucket_cap_mb=env_int("BUCKET_MB", 64))
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
    generator = torch.Generator(device=device).manual_seed(1 + rank)

    kineto_dir = os.environ.get("KINETO_DIR")
    profiler = None
    if kineto_dir:
        os.makedirs(kineto_dir, exist_ok=True)
        path = os.path.join(kineto_dir, f"rank{rank}.json")
        profiler = torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA],
            schedule=torch.profiler.schedule(wait=warmup, warmup=2, active=env_int("KINETO_ACTIVE", 10), repeat=1),
            on_trace_ready=lambda p: p.export_chrome_trace(path))
        profiler.start()

    times = []
    for step in range(warmup + steps):
        start = time.perf_counter()
        torch.cuda.nvtx.range_push("step")
        x = torch.randn(batch, hidden, device=device, generator=generator)
        target = torch.randn(batch, hidden, device=device, generator=generator)
        torch.cuda.nvtx.range_push("forward")
        loss = torch.nn.functional.mse_loss(model(x), target)
        torch.cuda.nvtx.range_pop()
        if rank == slow_rank and slow_ms > 0:
            torch.cuda.nvtx.range_push("host_work")
            with torch.profiler.record_function("host_work"):
                busy(slow_ms)
            torch.cuda.nvtx.range_pop()
        torch.cuda.nvtx.range_push("backward")
        loss.backward()
        torch.cuda.nvtx.range_pop()
        torch.cuda.nvtx.range_push("optimizer")
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        torch.cuda.nvtx.range_pop()
        value = loss.item()
        torch.cuda.nvtx.range_pop()
        if step >= warmup:
            times.append((time.perf_counter() - start) * 1000.0)
        if profiler is not None:
            profiler.step()
    if profiler is not None:
        profiler.stop()
    torch.cuda.synchronize()
    summary = {"rank": rank, "world_size": world, "device": torch.cuda.get_device_name(device),
               "slow_rank": slow_rank, "slow_ms": slow_ms, "steps": steps, "warmup": warmup,
               "step_ms_median": round(statistics.median(times), 3), "step_ms_min": round(min(times), 3),
               "step_ms_max": round(max(times), 3), "last_loss": value,
               "params": sum(p.numel() for p in model.parameters())}
    print("DDP_LOOP " + json.dumps(summary), flush=True)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
