#!/usr/bin/env bash
# How far osrt_sum's per-name counts move between two runs of the same program with the same tool,
# against the gpuscope-nsys differences (issue 10): records each of WORKLOADS (default: sync launch,
# as classes.sh runs them) RUNS times (default 2) with gpuscope and with nsys, alternating, and prints
# per name the counts of every run and whether the two tools' ranges overlap ("apart" where they do not).
# Builds as run.sh does. Writes $OUT (default build-gpu/noise).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-$ROOT/build-gpu/noise}
RUNS=${RUNS:-2}
source "$ROOT/tests/gpu/check_env.sh"
require_gpu
ensure_build
"$CUDA_HOME/bin/nvcc" -O2 -arch=native -o "$BUILD/gpu/sync_loop" "$ROOT/tests/gpu/workloads/sync_loop.cu" -ldl ||
  { echo "FAILED: nvcc sync_loop.cu"; exit 1; }
command_for() {
  case $1 in
    sync) echo "$BUILD/gpu/sync_loop" ;;
    loader2) echo "$PYTHON $ROOT/tests/fixtures/workloads/loader.py 2" ;;
    *) echo "$PYTHON $ROOT/tests/gpu/workloads/classes.py $1" ;;
  esac
}
for workload in ${WORKLOADS:-sync launch}; do
  dir=$OUT/$workload
  mkdir -p "$dir"
  for ((i = 1; i <= RUNS; ++i)); do
    # shellcheck disable=SC2046
    "$GPUSCOPE" record -f -o "$dir/gpuscope$i.sqlite" -- $(command_for "$workload") > /dev/null 2>&1
    # shellcheck disable=SC2046
    nsys_run profile -t cuda,nvtx,osrt --sample=none --cpuctxsw=none --force-overwrite=true -o "$dir/nsys$i" \
      $(command_for "$workload") > /dev/null 2>&1
    nsys_run export --type sqlite --force-overwrite=true -o "$dir/nsys$i.sqlite" "$dir/nsys$i.nsys-rep" > /dev/null 2>&1
    rm -f "$dir/nsys$i.nsys-rep"
  done
  echo "== $workload: osrt calls per name, gpuscope runs | nsys runs"
  "$PYTHON" - "$dir" "$RUNS" << 'PY'
import sqlite3, sys
from collections import Counter
folder, runs = sys.argv[1], int(sys.argv[2])
def counts(path):
    db = sqlite3.connect(path)
    return Counter(dict(db.execute("SELECT s.value, count(*) FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId "
                                   "GROUP BY 1").fetchall()))
ours = [counts(f"{folder}/gpuscope{i}.sqlite") for i in range(1, runs + 1)]
theirs = [counts(f"{folder}/nsys{i}.sqlite") for i in range(1, runs + 1)]
names = sorted(set().union(*ours, *theirs))
apart = 0
for name in names:
    a, b = [c[name] for c in ours], [c[name] for c in theirs]
    overlap = max(min(a), min(b)) <= min(max(a), max(b))
    apart += not overlap
    if len(set(a + b)) > 1:
        print("  %-26s %s | %s %s" % (name, " ".join("%6d" % x for x in a), " ".join("%6d" % x for x in b),
                                      "" if overlap else "apart"))
print("  names %d, equal in every run %d, tools' ranges apart %d" % (len(names),
      sum(len(set([c[n] for c in ours + theirs])) == 1 for n in names), apart))
PY
done
