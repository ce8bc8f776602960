#!/usr/bin/env bash
# Issue 10's recording checks on a machine with an NVIDIA GPU, against nsys on the same programs:
#   names   workloads/names.cu: demangledName, mangledName, shortName of every kernel, byte for byte,
#           and which demangler gpuscope used (GPUSCOPE_META kernel_name_demangler);
#   crash   workloads/crash_after.cu: 1,000 launches then SIGSEGV (and abort): kernels kept;
#   fork    workloads/fork_exit.py: torch.multiprocessing fork (workers end with os._exit) and
#           spawn, 2 workers x 82 kernels: kernels kept per process;
#   api     cuda_api_sum call counts per name on lb.cu (50,000 launches);
#   osrt    osrt_sum call counts per name on lb.cu and the fork workers: a name only one side has
#           is a gap in collector/transport/osrt_functions.h (counts of calls near the 1 us
#           threshold differ from run to run on both sides);
#   loss    loss_check.sh: 10 recordings of lb.cu against nsys.
# Builds as run.sh does. Writes $OUT; prints one table per check.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-$ROOT/build-gpu/rec}
source "$ROOT/tests/gpu/check_env.sh"
require_gpu
ensure_build
grep -h "demangled with" "$BUILD/CMakeCache.txt" "$OUT/build/run.log" 2> /dev/null | head -2
for program in names crash_after lb; do
  "$CUDA_HOME/bin/nvcc" -O2 -arch=native -o "$BUILD/gpu/$program" "$ROOT/tests/gpu/workloads/$program.cu" -ldl ||
    { echo "FAILED: nvcc $program.cu"; exit 1; }
done
# NAME COMMAND...: OUT/NAME.sqlite (gpuscope) and OUT/NAME.nsys.sqlite
both() {
  local name=$1
  shift
  "$GPUSCOPE" record -f -o "$OUT/$name.sqlite" -- "$@" > "$OUT/$name.out" 2> "$OUT/$name.log"
  nsys_run profile -t cuda,nvtx,osrt --sample=none --cpuctxsw=none --force-overwrite=true -o "$OUT/$name.nsys" \
    "$@" > "$OUT/$name.nsys.log" 2>&1
  nsys_run export --type sqlite --force-overwrite=true -o "$OUT/$name.nsys.sqlite" "$OUT/$name.nsys.nsys-rep" \
    > /dev/null 2>&1
}
compare() {  # CHECK NAME
  "$PYTHON" - "$1" "$OUT/$2.sqlite" "$OUT/$2.nsys.sqlite" << 'PY'
import sqlite3, sys
from collections import Counter
check, ours, theirs = sys.argv[1], sqlite3.connect(sys.argv[2]), sqlite3.connect(sys.argv[3])
def rows(db, sql):
    try:
        return db.execute(sql).fetchall()
    except sqlite3.Error as error:
        return [("error: %s" % error,)]
if check == "names":
    sql = ("SELECT m.value, d.value, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds m ON m.id = k.mangledName "
           "JOIN StringIds d ON d.id = k.demangledName JOIN StringIds s ON s.id = k.shortName")
    a, b = set(rows(ours, sql)), set(rows(theirs, sql))
    print("demangler:", rows(ours, "SELECT value FROM GPUSCOPE_META WHERE name = 'kernel_name_demangler'"))
    for m, d, s in sorted(b):
        print("nsys     %s | %s | %s" % (m, d, s))
    for m, d, s in sorted(a):
        print("gpuscope %s | %s | %s   %s" % (m, d, s, "SAME" if (m, d, s) in b else "DIFFERENT"))
    print("kernels with identical names: %d of %d" % (len(a & b), len(b)))
elif check == "kernels":
    sql = "SELECT globalPid >> 24 & 16777215, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1 ORDER BY 1"
    print("gpuscope kernels per pid:", rows(ours, sql), " nsys:", rows(theirs, sql))
elif check == "api":
    sql = ("SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId GROUP BY 1")
    a, b = Counter(dict(rows(ours, sql))), Counter(dict(rows(theirs, sql)))
    for name in sorted(set(a) | set(b)):
        print("%-60s %8d %8d %s" % (name, a[name], b[name], "" if a[name] == b[name] else "DIFFERENT"))
elif check == "osrt":
    sql = "SELECT s.value, count(*) FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId GROUP BY 1"
    a, b = Counter(dict(rows(ours, sql))), Counter(dict(rows(theirs, sql)))
    for name in sorted(set(a) | set(b)):
        side = "ONLY NSYS" if not a[name] else "ONLY GPUSCOPE" if not b[name] else ""
        print("%-40s %8d %8d %s" % (name, a[name], b[name], side))
PY
}
echo "== names (workloads/names.cu)"
both names "$BUILD/gpu/names"
compare names names
echo "== crash: 1,000 launches then SIGSEGV / abort"
both crash_segv "$BUILD/gpu/crash_after" 1000 segv
compare kernels crash_segv
grep -h "flushed\|ended by" "$OUT/crash_segv.log"
both crash_abort "$BUILD/gpu/crash_after" 1000 abort
compare kernels crash_abort
grep -h "flushed\|ended by" "$OUT/crash_abort.log"
for method in fork spawn; do
  echo "== torch.multiprocessing $method, 2 workers x 82 kernels"
  both "mp_$method" "$PYTHON" "$ROOT/tests/gpu/workloads/fork_exit.py" "$method" 2 82
  compare kernels "mp_$method"
  grep -h "flushed" "$OUT/mp_$method.log"
done
echo "== cuda_api_sum calls per name, lb.cu 50,000 launches (gpuscope, nsys)"
both lb "$BUILD/gpu/lb" 50000
compare api lb
echo "== osrt_sum calls per name (gpuscope, nsys): lb.cu, then the torch.multiprocessing fork run"
compare osrt lb
compare osrt mp_fork
echo "== loss: 10 recordings of lb.cu"
OUT=$OUT/loss RUNS=${RUNS:-10} "$ROOT/tests/gpu/loss_check.sh"
