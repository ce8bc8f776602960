#!/usr/bin/env bash
# Issue 14's bottleneck-class fixtures and issue 10's per-name counts, on a machine with an NVIDIA GPU.
# Records each program with gpuscope (default tracing) and with nsys (-t cuda,nvtx,osrt), keeps nsys's
# `stats` and `analyze` CSVs beside its export, and compares per-name counts (tests/gpu/count_compare.py).
#
#   loader0 / loader2   tests/fixtures/workloads/loader.py with 0 and 2 DataLoader workers
#   fp32 / bf16 / launch / gemm / graph   tests/gpu/workloads/classes.py (see its docstring)
#   sync                tests/gpu/workloads/sync_loop.cu: a short kernel, cudaDeviceSynchronize and a 4-byte copy, 5,000 times
#   transpose           tests/fixtures/workloads/transpose.cu, gpuscope with --metrics roofline
#   issue 26's verdict programs (tests/gpu/verdict.sh records them):
#   fp32_gemm / bf16_gemm / numpy_batch   tests/gpu/workloads/verdict_loops.py
#   tiny_kernels / transfer_loop          tests/gpu/workloads/{tiny_kernels,transfer_loop}.cu
#
# WORKLOADS (default: all of the above) picks some; NSYS_STATS=0 skips nsys's stats and analyze CSVs.
# Builds as run.sh does (BUILD_ONLY=1). Writes
# $OUT/<workload>/{gpuscope.sqlite,nsys.sqlite,nsys_stats_<report>.csv,nsys_analyze_<rule>.csv}.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-$ROOT/build-gpu/classes}
WORKLOADS=${WORKLOADS:-loader0 loader2 fp32 bf16 launch sync gemm graph transpose}
REPORTS="cuda_api_sum cuda_gpu_kern_sum cuda_gpu_mem_time_sum cuda_gpu_mem_size_sum nvtx_sum osrt_sum
  cuda_kern_exec_sum nvtx_gpu_proj_sum nvtx_kern_sum"
source "$ROOT/tests/gpu/check_env.sh"
require_gpu
ensure_build

command_for() {  # WORKLOAD -> the program's command line
  case $1 in
    loader0) echo "$PYTHON $ROOT/tests/fixtures/workloads/loader.py 0" ;;
    loader2) echo "$PYTHON $ROOT/tests/fixtures/workloads/loader.py 2" ;;
    transpose) echo "$BUILD/gpu/transpose" ;;
    sync) echo "$BUILD/gpu/sync_loop" ;;
    tiny_kernels | transfer_loop) echo "$BUILD/gpu/$1" ;;
    fp32_gemm | bf16_gemm | numpy_batch) echo "$PYTHON $ROOT/tests/gpu/workloads/verdict_loops.py $1" ;;
    *) echo "$PYTHON $ROOT/tests/gpu/workloads/classes.py $1" ;;
  esac
}

record_both() {  # WORKLOAD
  local dir=$OUT/$1 metrics=() graphs=()
  mkdir -p "$dir"
  [ "$1" = transpose ] && metrics=(--metrics roofline)
  # nsys traces a replayed CUDA graph as one item by default; gpuscope traces every node's kernel, so
  # the graph program is compared against nsys's node-level tracing.
  [ "$1" = graph ] && graphs=(--cuda-graph-trace=node)
  # shellcheck disable=SC2046
  "$GPUSCOPE" record -f "${metrics[@]}" -o "$dir/gpuscope.sqlite" -- $(command_for "$1") > "$dir/gpuscope.out" 2>&1
  # shellcheck disable=SC2046
  nsys_run profile -t cuda,nvtx,osrt --sample=none --cpuctxsw=none "${graphs[@]}" --force-overwrite=true -o "$dir/nsys" \
    $(command_for "$1") > "$dir/nsys.out" 2>&1
  nsys_run export --type sqlite --force-overwrite=true -o "$dir/nsys.sqlite" "$dir/nsys.nsys-rep" > /dev/null 2>&1
  # NSYS_STATS=0: the export only (the per-name counts need no more); the fixtures keep the CSVs.
  [ "${NSYS_STATS:-1}" = 0 ] && { rm -f "$dir/nsys.nsys-rep"; return; }
  for report in $REPORTS; do
    nsys_run stats --report "$report" --format csv --force-export=false -o "$dir/nsys_stats" "$dir/nsys.sqlite" \
      > /dev/null 2>&1
  done
  nsys_run analyze --format csv -o "$dir/nsys_analyze" "$dir/nsys.sqlite" > /dev/null 2>&1
  rm -f "$dir/nsys.nsys-rep"
}

if [[ " $WORKLOADS " == *" sync "* ]]; then
  "$CUDA_HOME/bin/nvcc" -O2 -arch=native -o "$BUILD/gpu/sync_loop" "$ROOT/tests/gpu/workloads/sync_loop.cu" -ldl ||
    { echo "FAILED: nvcc sync_loop.cu"; exit 1; }
fi
for program in tiny_kernels transfer_loop; do
  if [[ " $WORKLOADS " == *" $program "* ]]; then
    "$CUDA_HOME/bin/nvcc" -O2 -arch=native -o "$BUILD/gpu/$program" "$ROOT/tests/gpu/workloads/$program.cu" ||
      { echo "FAILED: nvcc $program.cu"; exit 1; }
  fi
done
if [[ " $WORKLOADS " == *" transpose "* ]]; then
  "$CUDA_HOME/bin/nvcc" -O2 -arch=native -o "$BUILD/gpu/transpose" "$ROOT/tests/fixtures/workloads/transpose.cu" ||
    { echo "FAILED: nvcc transpose.cu"; exit 1; }
fi
for workload in $WORKLOADS; do
  start=$(date +%s)
  record_both "$workload"
  echo "== $workload recorded in $(($(date +%s) - start)) s: $(tail -1 "$OUT/$workload/gpuscope.out" | cut -c1-100)"
done
echo "== per-name counts, gpuscope against nsys"
for workload in $WORKLOADS; do
  "$PYTHON" "$ROOT/tests/gpu/count_compare.py" "$OUT/$workload/gpuscope.sqlite" "$OUT/$workload/nsys.sqlite" \
    "$workload" --details
done | tee "$OUT/counts.txt"
