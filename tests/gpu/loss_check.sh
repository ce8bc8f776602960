#!/usr/bin/env bash
# Issue 10's loss check on a machine with an NVIDIA GPU: records workloads/lb.cu (50,000 tiny
# launches, an NVTX range and a cudaMemcpy per 1,000) RUNS times with gpuscope (default 10) and once
# with nsys, and prints per run the kernel, cudaLaunchKernel, memcpy and NVTX counts and the records
# the summary says were dropped, against nsys's. Builds as run.sh does (BUILD_ONLY=1). Writes $OUT.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-$ROOT/build-gpu/loss}
RUNS=${RUNS:-10}
LAUNCHES=${LAUNCHES:-50000}
source "$ROOT/tests/gpu/check_env.sh"
require_gpu
ensure_build
"$CUDA_HOME/bin/nvcc" -O2 -arch=native -o "$BUILD/gpu/lb" "$ROOT/tests/gpu/workloads/lb.cu" -ldl ||
  { echo "FAILED: nvcc lb.cu"; exit 1; }

PYTHON=${PYTHON:-python3}
counts() {  # FILE -> "kernels launches memcpys nvtx"
  "$PYTHON" - "$1" << 'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
q = lambda sql: db.execute(sql).fetchone()[0]
print(q("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
      q("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
        "WHERE s.value LIKE 'cudaLaunchKernel%'"),
      q("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"),
      q("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59"))
PY
}

nsys_run profile -t cuda,nvtx,osrt --sample=none --cpuctxsw=none --force-overwrite=true -o "$OUT/lb.nsys" \
  "$BUILD/gpu/lb" "$LAUNCHES" > "$OUT/lb.nsys.log" 2>&1
nsys_run export --type sqlite --force-overwrite=true -o "$OUT/lb.nsys.sqlite" "$OUT/lb.nsys.nsys-rep" > /dev/null 2>&1
printf "%-10s %8s %8s %8s %6s %s\n" run kernels launches memcpys nvtx "records dropped (summary)"
printf "%-10s %8s %8s %8s %6s\n" nsys $(counts "$OUT/lb.nsys.sqlite")
complete=0
for ((i = 1; i <= RUNS; ++i)); do
  "$GPUSCOPE" record -f -o "$OUT/lb.$i.sqlite" -- "$BUILD/gpu/lb" "$LAUNCHES" > /dev/null 2> "$OUT/lb.$i.log"
  dropped=$(sed -n 's/^ *records dropped: //p' "$OUT/lb.$i.log")
  line=$(counts "$OUT/lb.$i.sqlite")
  printf "%-10s %8s %8s %8s %6s %s\n" "gpuscope$i" $line "$dropped"
  [ "$line" = "$(counts "$OUT/lb.nsys.sqlite")" ] && complete=$((complete + 1))
  [ "$i" -gt 2 ] && rm -f "$OUT/lb.$i.sqlite"
done
echo "complete (all four counts equal to nsys's): $complete of $RUNS runs"
