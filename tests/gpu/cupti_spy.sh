#!/usr/bin/env bash
# What Nsight Systems' default CUDA trace asks of CUPTI (issue 10's cost comparison): runs a short launch
# loop under `nsys profile -t cuda,nvtx,osrt` with workloads/cupti_spy.c preloaded, and prints the CUPTI
# activity kinds, API-record switches and callbacks it turned on, counted. No gpuscope build needed.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-/tmp/spy}
source "$ROOT/tests/gpu/check_env.sh"
require_gpu
gcc -O2 -fPIC -shared -I"$CUDA_HOME/include" "$ROOT/tests/gpu/workloads/cupti_spy.c" -o "$OUT/libcupti_spy.so" -ldl
"$CUDA_HOME/bin/nvcc" -o "$OUT/launch_loop" "$ROOT/tests/gpu/workloads/launch_loop.cu"
LD_PRELOAD=$OUT/libcupti_spy.so nsys_run profile -t cuda,nvtx,osrt --sample=none --cpuctxsw=none \
  --force-overwrite=true -o "$OUT/nsys" "$OUT/launch_loop" 2000 > "$OUT/nsys.txt" 2>&1
echo "== nsys: $(grep -c cupti_spy "$OUT/nsys.txt") CUPTI calls seen"
grep cupti_spy "$OUT/nsys.txt" | grep -v " lookup " | sed "s/cbid=[0-9]* //" | sort | uniq -c
echo "== looked up: $(grep -o "cupti_spy lookup [a-zA-Z_0-9]*" "$OUT/nsys.txt" | cut -d" " -f3 | sort -u | tr "\n" " ")"
echo "== callbacks and API records switched one by one (call domain: cbids with enable=1, then enable=0):"
grep -E 'cupti_spy (enable_callback|activity_driver_api|activity_runtime_api)' "$OUT/nsys.txt" |
  sed 's/cupti_spy //; s/domain=//; s/cbid=//; s/enable=//' |
  awk '{ key = $1 " " ($2 ~ /^[0-9]+$/ && NF == 4 ? $2 : "") " " $NF; ids[key] = ids[key] " " $(NF - 1) }
       END { for (k in ids) print k ":" ids[k] }' | cut -c1-600
