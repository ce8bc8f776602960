#!/usr/bin/env bash
# How the process nsys profiles differs from one run under the CUPTI floor, outside CUPTI (issue 10: nsys's
# launch loop runs below the floor, and no CUPTI setting of nsys's explains it). While launch_loop runs (one
# long process each, LOOP_REPS=40), prints side by side for nsys and the floor: the environment variables
# one has and the other lacks, the main thread's scheduling (policy, nice, CPU affinity, timer slack,
# personality, transparent huge pages, cgroup), and every thread's name, CPU time and last CPU.
# Then, for the seventh session's "gpuscope recorded no CUDA on nsys's libcupti": whether libgpuscope_cuda.so
# loads with nsys's libcupti first on LD_LIBRARY_PATH, and what `gpuscope record -t cuda` printed.
# Uses the build of check_env.sh (GPUSCOPE_GPU_BUILD) and builds the floor.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-/tmp/target}
source "$ROOT/tests/gpu/check_env.sh"
require_gpu
build_cupti_floor
L=$BUILD/gpu/launch_loop
T=$(mktemp -d)

# Facts of the running launch_loop, once its timed loops have started (2 s after CUPTI is mapped).
snapshot() {
  local pid="" i
  for i in $(seq 60); do
    sleep 0.25
    pid=$(pgrep -x launch_loop | head -1)
    [ -n "$pid" ] && grep -q -i cupti "/proc/$pid/maps" 2> /dev/null && break
  done
  [ -z "$pid" ] && { echo "no launch_loop seen"; return; }
  sleep 2
  tr '\0' '\n' < "/proc/$pid/environ" | sort > "$1.env"
  {
    echo "policy,prio: $(awk '{print $41 "," $18 " nice " $19}' "/proc/$pid/stat")"
    echo "affinity: $(taskset -pc "$pid" | sed 's/.*: //')"
    echo "timerslack_ns: $(cat "/proc/$pid/timerslack_ns" 2> /dev/null)"
    echo "personality: $(cat "/proc/$pid/personality" 2> /dev/null)"
    grep -E 'THP_enabled|Speculation|voluntary' "/proc/$pid/status" | xargs -L1 echo
    echo "cgroup: $(cat "/proc/$pid/cgroup" | xargs)"
    echo "threads (name utime+stime ticks, last cpu, policy):"
    for task in /proc/"$pid"/task/*; do
      awk -v name="$(cat "$task/comm")" '{print "  " name, $14 + $15, "cpu" $39, "pol" $41}' "$task/stat"
    done
  } > "$1.facts" 2>&1
}
LOOP_REPS=40 nsys_run profile -t cuda,nvtx,osrt --sample=none --cpuctxsw=none --force-overwrite=true -o "$T/n" \
  "$L" 50000 > /dev/null 2>&1 &
snapshot "$T/nsys"
wait
LOOP_REPS=40 CUDA_INJECTION64_PATH=$FLOOR "$L" 50000 > /dev/null 2>&1 &
snapshot "$T/floor"
wait
echo "== environment: only under nsys (<) or only under the floor (>)"
diff "$T/nsys.env" "$T/floor.env" | grep '^[<>]' | cut -c1-200
for mode in nsys floor; do
  echo "== $mode"
  cat "$T/$mode.facts"
done

echo "== libgpuscope_cuda.so with nsys's libcupti first on LD_LIBRARY_PATH"
mkdir -p "$T/nsyscupti" && ln -sf "$(dirname "$NSYS")/libcupti.so.13.0" "$T/nsyscupti/libcupti.so.13"
"$PYTHON" -c 'import ctypes, sys
try:
    ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_LOCAL); print("loads")
except OSError as error:
    print("does not load:", error)' "$BUILD/lib/gpuscope/libgpuscope_cuda.so"
LD_LIBRARY_PATH="$T/nsyscupti:${LD_LIBRARY_PATH:-}" "$PYTHON" -c 'import ctypes, sys
try:
    ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_LOCAL); print("with nsys libcupti: loads")
except OSError as error:
    print("with nsys libcupti: does not load:", error)' "$BUILD/lib/gpuscope/libgpuscope_cuda.so"
LOOP_REPS=1 LD_LIBRARY_PATH="$T/nsyscupti:${LD_LIBRARY_PATH:-}" "$GPUSCOPE" record -f -t cuda -o "$T/x.sqlite" -- \
  "$L" 2000 2>&1 | grep -v '_each\|^loop_ns'
rm -rf "$T"
