#!/usr/bin/env bash
# Facts behind the launch loop's CUPTI cost, on a machine with an NVIDIA GPU (a device call's AFTER,
# tests/gpu/issue10_noise_call.sh):
#   - the libcupti nsys loads into the program it profiles, and whether it is the toolkit's (checksums and
#     the CUDA release each was built with);
#   - on which thread CUPTI hands completed buffers back under the floor (workloads/cupti_floor.cpp) and
#     floor-nsys: the program's (which then pays for the callback) or one of CUPTI's own;
#   - kernels in a gpuscope -t cuda recording of launch_loop (60,002 launches with the warm-up), with
#     zeroed buffers promised to CUPTI (the default) and without (GPUSCOPE_CUPTI_ZEROED=0): none lost.
# Uses the build of check_env.sh (GPUSCOPE_GPU_BUILD).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$ROOT/tests/gpu/check_env.sh"
require_gpu
L=$BUILD/gpu/launch_loop
T=$(mktemp -d)
echo "== libraries nsys loads into launch_loop"
LOOP_REPS=60 nsys_run profile -t cuda,nvtx,osrt --sample=none --cpuctxsw=none --force-overwrite=true -o "$T/n" \
  "$L" 50000 > /dev/null 2>&1 &
for _ in $(seq 40); do
  sleep 0.5
  pid=$(pgrep -x launch_loop | head -1)
  [ -n "$pid" ] && grep -q -i cupti "/proc/$pid/maps" 2> /dev/null && break
done
[ -n "${pid:-}" ] && awk '$6 ~ /cupti|[Ii]njection/ {print $6}' "/proc/$pid/maps" | sort -u
wait
for lib in "$(dirname "$NSYS")"/libcupti.so.13.0 "$(readlink -f "$CUDA_HOME"/lib64/libcupti.so.13)"; do
  echo "$(md5sum "$lib" | cut -c1-32) $lib: $(strings "$lib" | grep -E -m 1 'Cuda compilation tools')"
done
echo "== threads that CUPTI hands completed buffers back on (launch_loop 50000, LOOP_REPS=1)"
for mode in floor floor-nsys; do
  printf '%-12s ' "$mode"
  env $([ "$mode" = floor-nsys ] && echo CUPTI_FLOOR_NSYS=1) LOOP_REPS=1 CUPTI_FLOOR_PROBE=1 \
    CUDA_INJECTION64_PATH="$BUILD/gpu/libcupti_floor.so" "$L" 50000 2>&1 | grep '^completed_buffers'
done
echo "== kernels recorded by gpuscope -t cuda (launch_loop 50000, LOOP_REPS=1)"
for zeroed in 1 0; do
  GPUSCOPE_CUPTI_ZEROED=$zeroed LOOP_REPS=1 "$GPUSCOPE" record -f -t cuda -o "$T/z$zeroed.sqlite" -- "$L" 50000 \
    > /dev/null 2> "$T/z$zeroed.log"
  echo "GPUSCOPE_CUPTI_ZEROED=$zeroed kernels: $("$PYTHON" -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("select count(*) from CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0])' \
    "$T/z$zeroed.sqlite")  $(grep -i -E 'dropped|lost' "$T/z$zeroed.log" | head -2 | xargs)"
done
rm -rf "$T"
