#!/usr/bin/env bash
# Where gpuscope's recording overhead comes from, on a machine with an NVIDIA GPU: the two overhead
# workloads of run.sh (50,000 tiny-kernel launches; 50,000 small eager PyTorch ops) run bare, under
# CUPTI's activity API alone (workloads/cupti_floor.cpp: the same activity kinds, buffers handed back
# unread: what any CUPTI-based tracer costs), under gpuscope with one source at a time (-t cuda, -t osrt,
# -t nvtx), with all of them, and under nsys, in REPEATS round-robin rounds (default 3) after one
# warm-up round that is not counted.
#
# Every mode runs pinned to the same CPUs (CPUS, a taskset list; default, where there are 8 or more: one
# hardware thread of each of CORES physical cores, below), so that no round runs where the others did not.
# The table gives, per mode, the median loop time as +% over bare's median, and the median over rounds of
# (mode / same round's bare - 1), which a slow or fast round moves less.
#
# Modes:
#   bare, gpuscope (CPU sampling on, its default), gpuscope-nosample (--sample none --cpuctxsw none),
#   gpuscope-<trace> (-t <trace>), nsys (--sample=none --cpuctxsw=none), nsys-sampling (nsys's default
#   CPU sampling and context switches);
#   cupti-floor (workloads/cupti_floor.cpp) and its variants: floor-zeroed (CUPTI given zeroed buffers),
#     floor-raw / floor-tscb / floor-raw-tscb (libcupti's unpublished raw timestamps, a time-stamp-counter
#     timestamp callback, or both), floor-nsys (CUPTI set up as nsys sets it up, sync included:
#     CUPTI_FLOOR_NSYS; floor-nsys-nosync without sync; floor-nsys-without:PARTS without those parts,
#     CUPTI_FLOOR_NSYS_WITHOUT), floor-preload (gpuscope's interposer preloaded
#     but not recording: what its pass-through wrappers cost), floor-systid (system thread ids, as gpuscope and nsys ask for),
#     floor:KINDS:CALLBACKS (only those activity kinds and those API callbacks);
#   variants of gpuscope's CUDA injection: gpuscope-cuda-session / gpuscope-session (CUPTI stamped with
#     clock_gettime instead of the time-stamp counter), gpuscope-cuda-cupticlock (CUPTI's own clock: no
#     timestamp callback; the file's times are then wrong), gpuscope-cuda-sync (with --cuda-sync),
#     gpuscope-cuda-noflush (no flush every 50 ms), gpuscope-cuda-nosub (no CUPTI subscriber: the activity
#     API only, as the floor), gpuscope-cuda-min (those three left out at once), gpuscope-cuda-apart (the
#     recorder on APART_CPUS, default 8-13, and only the program on CPUS), gpuscope-cuda-locks (the full
#     injection library, lock wrappers included, where -t cuda preloads the one without them),
#     gpuscope-cuda-cuptizero (CUPTI zeroes each buffer on the program's thread, not gpuscope's worker);
#     floor-nsyscupti (the floor with the libcupti that nsys ships and loads, a CUDA 13.0 build, where the
#     toolkit's is 13.1), floor-nsys-nsyscupti (floor-nsys on that libcupti); floor-jemalloc and bare-jemalloc (jemalloc, from .deps, preloaded as the program's
#     allocator), floor-nsysalloc (nsys's libToolsInjectionMemoryAllocator.so preloaded).
#   with:VAR=VALUE:MODE: MODE with VAR=VALUE in its environment (for example
#     with:NSYS_CONTROL_CUPTI_FEATURES=1:cupti-floor, a variable nsys sets for the programs it profiles).
# MODES and WORKLOADS (launch_loop eager_loop) choose a subset. Builds as run.sh does (BUILD_ONLY=1).
# Writes to $OUT (default build-gpu/overhead).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-$ROOT/build-gpu/overhead}
REPEATS=${REPEATS:-3}
source "$ROOT/tests/gpu/check_env.sh"
require_gpu
ALWAYS=1 ensure_build
SCRATCH=$OUT/scratch
build_cupti_floor
mkdir -p "$SCRATCH"

# One logical CPU per physical core (no two hardware threads of one core: a helper thread on the main
# thread's sibling slows it), skipping the cores of CPUs 0 and 1, at most CORES (default 6).
one_cpu_per_core() {
  local seen=" " list="" count=0 cpu siblings
  for cpu in $(ls -d /sys/devices/system/cpu/cpu[0-9]* | sed 's/.*cpu//' | sort -n); do
    siblings=$(cat "/sys/devices/system/cpu/cpu$cpu/topology/thread_siblings_list" 2> /dev/null) || continue
    [[ "$seen" == *" $siblings "* ]] && continue
    seen+="$siblings "
    [[ ",$siblings," =~ [,-]0[,-] || ",$siblings," =~ [,-]1[,-] ]] && continue
    list+="${list:+,}$cpu"
    count=$((count + 1))
    [ "$count" -ge "${CORES:-6}" ] && break
  done
  echo "$list"
}
if [ -z "${CPUS:-}" ] && [ "$(nproc)" -ge 8 ]; then CPUS=$(one_cpu_per_core); fi
echo "== hardware threads per core: $(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list) (cpu0's siblings)"
PIN=()
[ -n "${CPUS:-}" ] && PIN=(taskset -c "$CPUS")
echo "== pinned to CPUs ${CPUS:-(all)}; GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
nvidia-smi topo -m 2> /dev/null | sed -n '1,3p'

# A folder whose libcupti.so.13 is the one nsys ships and loads into the programs it profiles (its own build,
# not the toolkit's), for floor-nsyscupti.
nsys_cupti_dir() {
  mkdir -p "$SCRATCH/nsyscupti" && ln -sf "$(dirname "$NSYS")/libcupti.so.13.0" "$SCRATCH/nsyscupti/libcupti.so.13"
  echo "$SCRATCH/nsyscupti"
}

# The program's own loop time (its "loop_ns" line) in MODE; with LOOP_REPS (launch_loop) the median of its
# loops, each of which goes to $OUT/each.txt.
loop_ns() {
  local mode=$1 run=$1 assignment=""
  shift
  [[ $mode == with:* ]] && IFS=: read -r _ assignment run <<< "$mode"
  {
  [ -n "$assignment" ] && export "${assignment?}"
  case $run in
    bare) "${PIN[@]}" "$@" ;;
    cupti-floor) CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$@" ;;
    floor-zeroed) CUPTI_FLOOR_ZEROED=1 CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$@" ;;
    floor:*) IFS=: read -r _ kinds callbacks <<< "$run"
      CUPTI_FLOOR_KINDS=$kinds CUPTI_FLOOR_CALLBACKS=$callbacks CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$@" ;;
    nsys) LD_LIBRARY_PATH="$DEPS/lib/x86_64-linux-gnu:$(dirname "$NSYS"):${LD_LIBRARY_PATH:-}" "${PIN[@]}" "$NSYS" \
      profile -t cuda,nvtx,osrt --sample=none --cpuctxsw=none --force-overwrite=true -o "$SCRATCH/nsys" "$@" \
      2>> "$OUT/log" ;;
    gpuscope) "${PIN[@]}" "$GPUSCOPE" record -f -o "$SCRATCH/all.sqlite" -- "$@" 2>> "$OUT/log" ;;
    gpuscope-nosample) "${PIN[@]}" "$GPUSCOPE" record -f --sample none --cpuctxsw none -o "$SCRATCH/all.sqlite" -- \
      "$@" 2>> "$OUT/log" ;;
    nsys-sampling) LD_LIBRARY_PATH="$DEPS/lib/x86_64-linux-gnu:$(dirname "$NSYS"):${LD_LIBRARY_PATH:-}" "${PIN[@]}" \
      "$NSYS" profile -t cuda,nvtx,osrt --force-overwrite=true -o "$SCRATCH/nsys" "$@" 2>> "$OUT/log" ;;
    gpuscope-session) GPUSCOPE_CUPTI_CLOCK=session "${PIN[@]}" "$GPUSCOPE" record -f -o "$SCRATCH/all.sqlite" -- "$@" \
      2>> "$OUT/log" ;;
    gpuscope-cuda-session) GPUSCOPE_CUPTI_CLOCK=session "${PIN[@]}" "$GPUSCOPE" record -f -t cuda \
      -o "$SCRATCH/cuda.sqlite" -- "$@" 2>> "$OUT/log" ;;
    gpuscope-cuda-cupticlock) GPUSCOPE_CUPTI_CLOCK=cupti "${PIN[@]}" "$GPUSCOPE" record -f -t cuda \
      -o "$SCRATCH/cuda.sqlite" -- "$@" 2>> "$OUT/log" ;;
    gpuscope-cuda-noflush) GPUSCOPE_CUPTI_FLUSH_MS=0 "${PIN[@]}" "$GPUSCOPE" record -f -t cuda \
      -o "$SCRATCH/cuda.sqlite" -- "$@" 2>> "$OUT/log" ;;
    gpuscope-cuda-sync) "${PIN[@]}" "$GPUSCOPE" record -f -t cuda --cuda-sync -o "$SCRATCH/cuda.sqlite" -- "$@" \
      2>> "$OUT/log" ;;
    gpuscope-cuda-apart) taskset -c "${APART_CPUS:-8-13}" "$GPUSCOPE" record -f -t cuda -o "$SCRATCH/cuda.sqlite" -- \
      "${PIN[@]}" "$@" 2>> "$OUT/log" ;;
    floor-raw) CUPTI_FLOOR_RAW=1 CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$@" ;;
    floor-tscb) CUPTI_FLOOR_TSCB=1 CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$@" ;;
    floor-raw-tscb) CUPTI_FLOOR_RAW=1 CUPTI_FLOOR_TSCB=1 CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$@" ;;
    floor-nsys) CUPTI_FLOOR_NSYS=1 CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$@" ;;
    floor-nsys-without:*) CUPTI_FLOOR_NSYS=1 CUPTI_FLOOR_NSYS_WITHOUT=${run#floor-nsys-without:} \
      CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$@" ;;
    floor-nsys-nosync) CUPTI_FLOOR_NSYS=1 CUPTI_FLOOR_NSYS_NOSYNC=1 CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$@" ;;
    floor-nsyscupti) LD_LIBRARY_PATH="$(nsys_cupti_dir):${LD_LIBRARY_PATH:-}" CUDA_INJECTION64_PATH=$FLOOR \
      "${PIN[@]}" "$@" ;;
    floor-nsys-nsyscupti) CUPTI_FLOOR_NSYS=1 LD_LIBRARY_PATH="$(nsys_cupti_dir):${LD_LIBRARY_PATH:-}" \
      CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$@" ;;
    gpuscope-cuda-cuptizero) GPUSCOPE_CUPTI_ZEROED=0 "${PIN[@]}" "$GPUSCOPE" record -f -t cuda \
      -o "$SCRATCH/cuda.sqlite" -- "$@" 2>> "$OUT/log" ;;
    floor-jemalloc) LD_PRELOAD=$DEPS/lib/x86_64-linux-gnu/libjemalloc.so.2 CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$@" ;;
    floor-nsysalloc) LD_PRELOAD=$(dirname "$NSYS")/libToolsInjectionMemoryAllocator.so CUDA_INJECTION64_PATH=$FLOOR \
      "${PIN[@]}" "$@" ;;
    bare-jemalloc) LD_PRELOAD=$DEPS/lib/x86_64-linux-gnu/libjemalloc.so.2 "${PIN[@]}" "$@" ;;
    floor-preload) LD_PRELOAD=$BUILD/lib/gpuscope/libgpuscope_inject.so CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$@" ;;
    gpuscope-cuda-min) GPUSCOPE_CUPTI_FLUSH_MS=0 GPUSCOPE_CUPTI_SUBSCRIBE=0 GPUSCOPE_CUPTI_CLOCK=cupti "${PIN[@]}" \
      "$GPUSCOPE" record -f -t cuda -o "$SCRATCH/cuda.sqlite" -- "$@" 2>> "$OUT/log" ;;
    floor-systid) CUPTI_FLOOR_SYSTEM_TID=1 CUDA_INJECTION64_PATH=$FLOOR "${PIN[@]}" "$@" ;;
    gpuscope-cuda-locks) mkdir -p "$SCRATCH/locks" && ln -sf "$BUILD/lib/gpuscope/libgpuscope_inject.so" \
      "$BUILD/lib/gpuscope/libgpuscope_cuda.so" "$SCRATCH/locks/" && GPUSCOPE_LIB_DIR=$SCRATCH/locks "${PIN[@]}" \
      "$GPUSCOPE" record -f -t cuda -o "$SCRATCH/cuda.sqlite" -- "$@" 2>> "$OUT/log" ;;
    gpuscope-cuda-nosub) GPUSCOPE_CUPTI_SUBSCRIBE=0 "${PIN[@]}" "$GPUSCOPE" record -f -t cuda \
      -o "$SCRATCH/cuda.sqlite" -- "$@" 2>> "$OUT/log" ;;
    *) "${PIN[@]}" "$GPUSCOPE" record -f -t "${run#gpuscope-}" -o "$SCRATCH/$run.sqlite" -- "$@" 2>> "$OUT/log" ;;
  esac
  } | awk -v mode="$mode" -v each="$OUT/each.txt" \
    '$1 == "loop_ns" {print $2} $1 ~ /_each$/ {print mode, $0 >> each}'
}

MODES=(${MODES:-bare cupti-floor gpuscope-cuda gpuscope-osrt gpuscope-nvtx gpuscope nsys})
measure() {
  local name=$1
  shift
  for mode in "${MODES[@]}"; do loop_ns "$mode" "$@" > /dev/null; done  # warm-up round, not counted
  for ((i = 1; i <= REPEATS; ++i)); do
    for mode in "${MODES[@]}"; do echo "$i $name $mode $(loop_ns "$mode" "$@")"; done
  done >> "$OUT/loops.txt"
}
: > "$OUT/loops.txt"
cd "$BUILD/gpu" || exit 1
WORKLOADS=${WORKLOADS:-launch_loop eager_loop}
[[ " $WORKLOADS " == *" launch_loop "* ]] && measure launch_loop "$BUILD/gpu/launch_loop" 50000
[[ " $WORKLOADS " == *" eager_loop "* ]] && measure eager_loop "$PYTHON" "$ROOT/tests/gpu/workloads/eager_loop.py" 50000

"$PYTHON" "$ROOT/tests/gpu/overhead_table.py" "$OUT/loops.txt" "${MODES[@]}"
