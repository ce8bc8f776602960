#!/usr/bin/env bash
# One device call: who makes the slow pthread_cond_signal / _broadcast calls that gpuscope records on the
# PyTorch programs' main threads and nsys does not (docs/measurements/issue10_osrt_counts.txt, item 5).
# Runs WORKLOADS (classes.py names; default graph fp32) under `gpuscope record` with
# workloads/cond_callers.c preloaded in front of gpuscope's interposer, and again under the CUPTI floor
# alone, and prints each run's chains of libraries for the calls of 1 us or more, with gpuscope's count
# of each function on the main thread beside them.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LIMIT=${LIMIT:-300}
O=/tmp/cc
source "$ROOT/tests/gpu/device_call.sh"
build_in_call
OUT=${OUT:-$O}
source "$ROOT/tests/gpu/check_env.sh"
B=$GPUSCOPE_GPU_BUILD
gcc -O2 -fPIC -shared "$ROOT/tests/gpu/workloads/cond_callers.c" -o $O/libcond_callers.so -ldl
build_cupti_floor
INJECT=$B/lib/gpuscope/libgpuscope_inject.so
for w in ${WORKLOADS:-graph fp32}; do
  echo "== $w under gpuscope record (cuda,nvtx,osrt)"
  "$B/app/gpuscope" record -f -o $O/$w.sqlite -- env LD_PRELOAD=$O/libcond_callers.so:$INJECT \
    $PYTHON "$ROOT/tests/gpu/workloads/classes.py" $w 2>&1 | grep '^cond ' | sort -k4,4nr | head -12
  python3 -c 'import sqlite3, sys
for name, count in sqlite3.connect(sys.argv[1]).execute("select s.value, count(*) from OSRT_API o join StringIds s "
    "on s.id = o.nameId where s.value like ? and o.globalTid % 16777216 = o.globalTid / 16777216 % 16777216 "
    "group by 1", ("pthread_cond_%",)):
    print("  gpuscope main thread:", name, count)' $O/$w.sqlite
  echo "== $w under the CUPTI floor"
  CUDA_INJECTION64_PATH=$FLOOR LD_PRELOAD=$O/libcond_callers.so $PYTHON "$ROOT/tests/gpu/workloads/classes.py" \
    $w 2>&1 | grep '^cond ' | sort -k4,4nr | head -12
done
