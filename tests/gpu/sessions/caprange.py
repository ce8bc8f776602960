# Copied from /work/shared/fixtures/workloads/caprange.py (the workload of the nsys-capture fixtures cap_api/cap_nvtx,
# copied here as cap_*.nsys.sqlite.gz): the device has no /work/shared.
# capture-range probe: 20 steps, the profiler range opened at step 8 and closed after step 11 (cudaProfilerStart/Stop),
# NVTX "step N" around each step.
import sys, torch
w = torch.randn(2048, 2048, device="cuda"); x = torch.randn(2048, 2048, device="cuda")
for i in range(20):
    if i == 8: torch.cuda.profiler.start()
    torch.cuda.nvtx.range_push(f"step {i}")
    for _ in range(5): x = torch.tanh(x @ w) / 45.0
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    if i == 11: torch.cuda.profiler.stop()
print("done", float(x.sum()))
