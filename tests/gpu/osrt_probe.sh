#!/usr/bin/env bash
# Which OS-runtime calls nsys's default trace records, against gpuscope's (issue 10's osrt_sum per-name
# counts): records workloads/osrt_probe.c (the same calls through glibc's current and pre-2.34 symbol
# versions, and from a library constructor run by dlopen) with both tools and prints the calls per thread;
# lists the symbol versions nsys's injection libraries define for the functions whose counts differed, and
# which of PyTorch's and NumPy's libraries bind pthread_create's pre-2.34 version. Builds as run.sh does.
# Writes $OUT (default build-gpu/probe).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-$ROOT/build-gpu/probe}
source "$ROOT/tests/gpu/check_env.sh"
ensure_build
gcc -O1 -o "$BUILD/gpu/osrt_probe" "$ROOT/tests/gpu/workloads/osrt_probe.c" -ldl -pthread &&
  gcc -O1 -shared -fPIC -o "$BUILD/gpu/osrt_probe_plugin.so" "$ROOT/tests/gpu/workloads/osrt_probe_plugin.c" -pthread ||
  { echo "FAILED: building the probe"; exit 1; }
PROBE=("$BUILD/gpu/osrt_probe" "$BUILD/gpu/osrt_probe_plugin.so")
nsys_run profile -t osrt --sample=none --cpuctxsw=none --force-overwrite=true -o "$OUT/probe.nsys" "${PROBE[@]}" \
  > "$OUT/probe.nsys.log" 2>&1
nsys_run export --type sqlite --force-overwrite=true -o "$OUT/probe.nsys.sqlite" "$OUT/probe.nsys.nsys-rep" > /dev/null 2>&1
"$GPUSCOPE" record -t osrt -f -o "$OUT/probe.sqlite" -- "${PROBE[@]}" > /dev/null 2>&1
echo "== osrt_probe: calls per thread (thread in order of first call), gpuscope | nsys"
"$PYTHON" - "$OUT/probe.sqlite" "$OUT/probe.nsys.sqlite" << 'PY'
import sqlite3, sys
def table(path):
    db = sqlite3.connect(path)
    rows = db.execute("SELECT o.globalTid, s.value, count(*), min(o.start) FROM OSRT_API o JOIN StringIds s "
                      "ON s.id = o.nameId GROUP BY 1, 2").fetchall()
    first = {}
    for tid, _, _, start in rows:
        first[tid] = min(first.get(tid, start), start)
    order = {tid: i for i, tid in enumerate(sorted(first, key=first.get))}
    return {(order[tid], name): count for tid, name, count, _ in rows}
ours, theirs = table(sys.argv[1]), table(sys.argv[2])
for key in sorted(set(ours) | set(theirs)):
    print("thread %d %-24s %4d | %4d" % (key[0], key[1], ours.get(key, 0), theirs.get(key, 0)))
for path in sys.argv[1:]:
    db = sqlite3.connect(path)
    durations = sorted(d for (d,) in db.execute("SELECT o.end - o.start FROM OSRT_API o JOIN StringIds s ON "
                                                "s.id = o.nameId WHERE s.value = 'pthread_cond_signal'"))
    if durations:
        print("%s: pthread_cond_signal %d calls, ns at 10/50/90%%: %s" % (path.split("/")[-1], len(durations),
              [durations[int(len(durations) * q)] for q in (0.1, 0.5, 0.9)]))
PY
echo "== versions nsys's injection libraries define"
for lib in "$(dirname "$NSYS")"/*.so*; do
  nm -D --defined-only --with-symbol-versions "$lib" 2> /dev/null |
    grep -E ' (pthread_create|pthread_join|sem_wait|pthread_cond_wait|fgets|fopen)(@|$)' | sed "s|^|$(basename "$lib"): |"
done | head -30
echo "== PyTorch/NumPy libraries that bind pthread_create@GLIBC_2.2.5"
dirs=$("$PYTHON" -c "import os, torch, numpy; print(os.path.dirname(torch.__file__), os.path.dirname(numpy.__file__))" 2> /dev/null)
for dir in $dirs; do
  find "$dir" "$dir/../numpy.libs" -name '*.so*' 2> /dev/null | while read -r lib; do
    objdump -T "$lib" 2> /dev/null | grep -q 'GLIBC_2.2.5.*pthread_create' && echo "  $lib"
  done
done | head -20
