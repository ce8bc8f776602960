#!/usr/bin/env bash
# Where launch_loop's main thread spends its CPU time under each tracer, by library (workloads/pc_sampler.c, a
# sampler of the main thread's instruction pointer; the lent machines have no perf): bare, the CUPTI floor,
# floor-nsys (CUPTI set up as nsys does), gpuscope -t cuda, gpuscope's default and nsys, ROUNDS times each
# (default 2), one process of LOOP_REPS loops (default 40) of 50,000 launches per run, pinned to CPUS.
# Prints per run the loop time (median of the process's loops) and the share of samples per library, then
# the hottest symbols (or 4 KiB pages, where stripped) of libcuda and libcupti. Issue 10: nsys runs this
# loop below the CUPTI floor; this says in whose code the difference is.
# Uses the build of check_env.sh (GPUSCOPE_GPU_BUILD) and builds the floor.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-/tmp/pcs}
source "$ROOT/tests/gpu/check_env.sh"
require_gpu
build_cupti_floor
L=$BUILD/gpu/launch_loop
T=$(mktemp -d)
gcc -O2 -fPIC -shared "$ROOT/tests/gpu/workloads/pc_sampler.c" -o "$T/libpc_sampler.so" -ldl -lrt
PIN=(taskset -c "${CPUS:-2-7}")
export LOOP_REPS=${LOOP_REPS:-40}
sampled() {
  case $1 in
    bare) LD_PRELOAD=$T/libpc_sampler.so "${PIN[@]}" "$L" 50000 ;;
    floor) LD_PRELOAD=$T/libpc_sampler.so CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$L" 50000 ;;
    floor-nsys) CUPTI_FLOOR_NSYS=1 LD_PRELOAD=$T/libpc_sampler.so CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$L" 50000 ;;
    gpuscope-cuda) LD_PRELOAD=$T/libpc_sampler.so "${PIN[@]}" "$GPUSCOPE" record -f -t cuda -o "$T/c.sqlite" -- \
      "$L" 50000 ;;
    gpuscope) LD_PRELOAD=$T/libpc_sampler.so "${PIN[@]}" "$GPUSCOPE" record -f -o "$T/d.sqlite" -- "$L" 50000 ;;
    nsys) LD_LIBRARY_PATH="$DEPS/lib/x86_64-linux-gnu:$(dirname "$NSYS"):${LD_LIBRARY_PATH:-}" \
      LD_PRELOAD=$T/libpc_sampler.so "${PIN[@]}" "$NSYS" profile -t cuda,nvtx,osrt --sample=none \
      --cpuctxsw=none --force-overwrite=true -o "$T/n" "$L" 50000 ;;
  esac 2>&1 | awk '$1 == "loop_ns" || (($1 == "pcs" || $1 == "pcs_top") && $2 == "launch_loop")'
}
for round in $(seq "${ROUNDS:-2}"); do
  for mode in ${MODES:-bare floor floor-nsys gpuscope-cuda gpuscope nsys}; do
    sampled "$mode" > "$T/$mode.$round"
    printf '%-14s round %s  loop %6.1f ms  samples %5d |' "$mode" "$round" \
      "$(awk '$1 == "loop_ns" {print $2 / 1e6}' "$T/$mode.$round")" \
      "$(awk '$1 == "pcs" {n += $4} END {print n + 0}' "$T/$mode.$round")"
    awk '$1 == "pcs" && ++n <= 8 {printf " %s %s%%", $3, $5}' "$T/$mode.$round"
    echo
  done
done
echo "== hottest symbols or pages of libcuda and libcupti (last round; samples)"
for mode in ${MODES:-bare floor floor-nsys gpuscope-cuda gpuscope nsys}; do
  echo "$mode: $(awk '$1 == "pcs_top" {printf "%s=%s ", $3, $4}' "$T/$mode.${ROUNDS:-2}")"
done
rm -rf "$T"
