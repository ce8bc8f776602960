#!/usr/bin/env bash
# Whether heap allocation explains why nsys's launch loop runs below the CUPTI floor (issue 10: in the
# sixth session nsys's loop spent 192 ms of user time on the program's thread, the floor's 212 ms), on a
# machine with an NVIDIA GPU:
#   - what nsys's injection libraries export of the allocator (does libToolsInjectionMemoryAllocator.so
#     replace the program's malloc?) and what they need;
#   - heap calls per launch on the program's main thread (workloads/count_allocs.c): launch_loop with 50,000
#     launches minus launch_loop with none, LOOP_REPS=1, bare, under the floor, floor-nsys, gpuscope -t cuda
#     and nsys (under nsys the counter sits in front of nsys's own preloads);
#   - what gpuscope record says when the program loads nsys's libcupti (LD_LIBRARY_PATH), a run the seventh
#     session saw record no CUDA at all.
# Uses the build of check_env.sh (GPUSCOPE_GPU_BUILD) and builds the floor.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-/tmp/alloc}
source "$ROOT/tests/gpu/check_env.sh"
require_gpu
build_cupti_floor
L=$BUILD/gpu/launch_loop
T=$(mktemp -d)
NSYS_DIR=$(dirname "$NSYS")
echo "== allocator symbols that nsys's injection libraries define, and what they need"
for lib in "$NSYS_DIR"/libToolsInjectionMemoryAllocator.so "$NSYS_DIR"/libToolsInjectionProxy64.so \
  "$NSYS_DIR"/libToolsInjection64.so; do
  echo "$(basename "$lib"): $(nm -D --defined-only "$lib" 2> /dev/null |
    awk '$3 ~ /^(malloc|calloc|realloc|free|memalign|posix_memalign|aligned_alloc|valloc|_Znwm|_ZdlPv|mmap)$/ {print $3}' |
    xargs) | needs: $(objdump -p "$lib" 2> /dev/null | awk '$1 == "NEEDED" {print $2}' | xargs)"
done
gcc -O2 -fPIC -shared "$ROOT/tests/gpu/workloads/count_allocs.c" -o "$T/libcount_allocs.so"
counts() {
  local mode=$1 launches=$2
  case $mode in
    bare) LD_PRELOAD=$T/libcount_allocs.so "$L" "$launches" ;;
    floor) LD_PRELOAD=$T/libcount_allocs.so CUDA_INJECTION64_PATH=$FLOOR "$L" "$launches" ;;
    floor-nsys) CUPTI_FLOOR_NSYS=1 LD_PRELOAD=$T/libcount_allocs.so CUDA_INJECTION64_PATH=$FLOOR "$L" "$launches" ;;
    gpuscope-cuda) LD_PRELOAD=$T/libcount_allocs.so "$GPUSCOPE" record -f -t cuda -o "$T/c.sqlite" -- "$L" "$launches" ;;
    nsys) LD_PRELOAD=$T/libcount_allocs.so nsys_run profile -t cuda,nvtx,osrt --sample=none --cpuctxsw=none \
      --force-overwrite=true -o "$T/n" "$L" "$launches" ;;
  esac 2>&1 | awk '$1 == "allocs" && $2 == "launch_loop" {print $3, $4}'
}
echo "== heap calls per launch on launch_loop's main thread (50,000 launches minus none; mode: function=count)"
for mode in bare floor floor-nsys gpuscope-cuda nsys; do
  LOOP_REPS=1 counts "$mode" 0 > "$T/zero"
  LOOP_REPS=1 counts "$mode" 50000 > "$T/full"
  echo "$mode: $(paste "$T/zero" "$T/full" | awk '{printf "%s=%.2f ", $1, ($5 - $2) / 50000}')"
done
echo "== gpuscope record -t cuda with nsys's libcupti first on LD_LIBRARY_PATH (launch_loop 2000)"
mkdir -p "$T/nsyscupti" && ln -sf "$NSYS_DIR/libcupti.so.13.0" "$T/nsyscupti/libcupti.so.13"
LOOP_REPS=1 LD_LIBRARY_PATH="$T/nsyscupti:${LD_LIBRARY_PATH:-}" "$GPUSCOPE" record -f -t cuda -o "$T/x.sqlite" -- \
  "$L" 2000 2>&1 | tail -12
rm -rf "$T"
