#!/usr/bin/env bash
# Where gpuscope's recording overhead comes from, on a machine with an NVIDIA GPU: the two overhead
# workloads of run.sh (50,000 tiny-kernel launches; 50,000 small eager PyTorch ops) run bare, under
# CUPTI's activity API alone (workloads/cupti_floor.cpp: the same activity kinds, buffers handed back
# unread: what any CUPTI-based tracer costs), under gpuscope with one source at a time (-t cuda, -t osrt, -t nvtx), with all of them, and under nsys,
# REPEATS times each (default 3), and a table of the median loop time per mode, as +% over bare.
# Builds as run.sh does (BUILD_ONLY=1). Writes to $OUT (default build-gpu/overhead). MODES and
# WORKLOADS (launch_loop eager_loop) choose a subset.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-$ROOT/build-gpu/overhead}
REPEATS=${REPEATS:-3}
source "$ROOT/tests/gpu/check_env.sh"
require_gpu
ALWAYS=1 ensure_build
SCRATCH=$OUT/scratch
CUPTI_DIR=$(dirname "$(ls "$CUDA_HOME"/extras/CUPTI/lib64/libcupti.so "$CUDA_HOME"/lib64/libcupti.so 2> /dev/null | head -1)")
FLOOR=$BUILD/gpu/libcupti_floor.so
(cd "$ROOT" && ${CXX:-g++} -std=c++17 -O2 -fPIC -shared -I. -isystem "$CUDA_HOME/include" \
  -isystem "$CUDA_HOME/extras/CUPTI/include" tests/gpu/workloads/cupti_floor.cpp collector/cuda/query_api_filter.cpp \
  -L"$CUPTI_DIR" -lcupti -Wl,-rpath,"$CUPTI_DIR" -o "$FLOOR") || { echo "FAILED: building the CUPTI floor"; exit 1; }
mkdir -p "$SCRATCH"

# The program's own loop time (its "loop_ns" line) in MODE.
loop_ns() {
  local mode=$1
  shift
  case $mode in
    bare) "$@" ;;
    cupti-floor) CUDA_INJECTION64_PATH=$FLOOR "$@" ;;
    nsys) LD_LIBRARY_PATH="$DEPS/lib/x86_64-linux-gnu:$(dirname "$NSYS"):${LD_LIBRARY_PATH:-}" "$NSYS" profile \
      -t cuda,nvtx,osrt --sample=none --cpuctxsw=none --force-overwrite=true -o "$SCRATCH/nsys" "$@" 2>> "$OUT/log" ;;
    gpuscope) "$GPUSCOPE" record -f -o "$SCRATCH/all.sqlite" -- "$@" 2>> "$OUT/log" ;;
    *) "$GPUSCOPE" record -f -t "${mode#gpuscope-}" -o "$SCRATCH/$mode.sqlite" -- "$@" 2>> "$OUT/log" ;;
  esac | awk '/^loop_ns/ {print $2}'
}

MODES=(${MODES:-bare cupti-floor gpuscope-cuda gpuscope-osrt gpuscope-nvtx gpuscope nsys})
measure() {
  local name=$1
  shift
  for ((i = 0; i < REPEATS; ++i)); do
    for mode in "${MODES[@]}"; do echo "$name $mode $(loop_ns "$mode" "$@")"; done
  done >> "$OUT/loops.txt"
}
: > "$OUT/loops.txt"
cd "$BUILD/gpu" || exit 1
WORKLOADS=${WORKLOADS:-launch_loop eager_loop}
[[ " $WORKLOADS " == *" launch_loop "* ]] && measure launch_loop "$BUILD/gpu/launch_loop" 50000
[[ " $WORKLOADS " == *" eager_loop "* ]] && measure eager_loop "$PYTHON" "$ROOT/tests/gpu/workloads/eager_loop.py" 50000

"$PYTHON" - "$OUT/loops.txt" << 'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) == 3 and parts[2].isdigit():
        runs.setdefault((parts[0], parts[1]), []).append(int(parts[2]))
modes = ["bare", "cupti-floor", "gpuscope-cuda", "gpuscope-osrt", "gpuscope-nvtx", "gpuscope", "nsys"]
print(f"{'workload':<12}" + "".join(f"{m:>14}" for m in modes) + "   (median loop time; +% over bare)")
for name in sorted({k[0] for k in runs}):
    bare = statistics.median(runs.get((name, "bare"), [0])) or 1
    cells = []
    for m in modes:
        got = runs.get((name, m))
        if not got:
            cells.append("-")
        elif m == "bare":
            cells.append(f"{bare / 1e6:.1f} ms")
        else:
            cells.append(f"{(statistics.median(got) / bare - 1) * 100:+.1f}%")
    print(f"{name:<12}" + "".join(f"{c:>14}" for c in cells))
PY
