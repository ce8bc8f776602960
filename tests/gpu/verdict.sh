#!/usr/bin/env bash
# Issue 26's verdict fixtures, on a machine with an NVIDIA GPU: records each program with gpuscope and
# with nsys (classes.sh's record_both: nsys's stats and analyze CSVs beside its export), then prints
# gpuscope's verdict on both recordings. Copy $OUT/<workload>/ to tests/fixtures/verdict/<workload>/.
#
#   fp32_gemm     verdict_loops.py: 3 warm-up then 40 FP32 GEMMs of 4096^3, TF32 off  (gpu_compute, fp32_gemm first)
#   bf16_gemm     verdict_loops.py: the same in bf16, 8192^3                           (gpu_compute, no fp32_gemm)
#   numpy_batch   verdict_loops.py: NumPy prepares every batch on the main thread     (cpu)
#   tiny_kernels  tiny_kernels.cu: 10 steps of 1,000 launches of a near-empty kernel  (cuda_api)
#   transfer_loop transfer_loop.cu: managed/pinned memsets and pageable copies        (transfer)
#
# OUT (default build-gpu/verdict) and WORKLOADS (default: all five) as classes.sh takes them; PACK=DIR
# also writes DIR/<workload>.tar.gz of each folder (for bringing them back from a lent machine).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export OUT=${OUT:-$ROOT/build-gpu/verdict}
export WORKLOADS=${WORKLOADS:-fp32_gemm bf16_gemm numpy_batch tiny_kernels transfer_loop}
"$ROOT/tests/gpu/classes.sh" || exit 1
GPUSCOPE=${GPUSCOPE_GPU_BUILD:-$ROOT/build-gpu}/app/gpuscope
for workload in $WORKLOADS; do
  for tool in gpuscope nsys; do
    echo "== $workload, $tool's recording: $("$GPUSCOPE" analyze "$OUT/$workload/$tool.sqlite" 2>&1 | head -4)"
  done
  if [ -n "${PACK:-}" ]; then
    mkdir -p "$PACK" && tar -C "$OUT" -czf "$PACK/$workload.tar.gz" "$workload"
  fi
done
