#!/usr/bin/env bash
# One device call for issue 10's counts (tests/gpu/): build, osrt_probe.sh, classes.sh without nsys's
# stats CSVs, then rec_check.sh, each given what is left of LIMIT seconds (default 570). Keeps the
# results under /tmp/o and tars them into $OUT (a.tgz: tables, logs and three programs' recordings;
# b.tgz: the other recordings). Prints the per-name count summary last.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LIMIT=${LIMIT:-570}
O=/tmp/o
source "$ROOT/tests/gpu/device_call.sh"
build_in_call
echo "== demangler: $(grep -h 'demangled with' "$GPUSCOPE_GPU_BUILD/CMakeCache.txt" $O/build/run.log 2> /dev/null | head -1)"
OUT=$O/probe timeout "$(left)" "$ROOT/tests/gpu/osrt_probe.sh" > $O/probe.txt 2>&1
s=$(date +%s)
NSYS_STATS=0 OUT=$O/classes WORKLOADS=${WORKLOADS:-launch sync loader2 fp32 gemm graph bf16 loader0 transpose} \
  timeout "$(left)" "$ROOT/tests/gpu/classes.sh" > $O/classes.txt 2>&1
echo "== classes: $(($(date +%s) - s)) s"
s=$(date +%s)
[ "$(left)" -gt 60 ] && OUT=$O/rec RUNS=${RUNS:-3} timeout "$(left)" "$ROOT/tests/gpu/rec_check.sh" > $O/rec.txt 2>&1
echo "== rec_check: $(($(date +%s) - s)) s"
cd $O && tar czf "$OUT/a.tgz" build.txt probe.txt classes.txt rec.txt classes/counts.txt \
  classes/{launch,sync,loader2}/*.sqlite rec/*.log rec/lb*.sqlite rec/mp_fork*.sqlite 2> /dev/null
tar czf "$OUT/b.tgz" classes/*/*.sqlite 2> /dev/null
ls -la "$OUT"
grep -E "^ *[a-z0-9]+ +(cuda_api|osrt|kernels|nvtx) " $O/classes/counts.txt
