#!/usr/bin/env bash
# One device call for issue 10's cost targets: build, then overhead.sh's launch loop and (with the time
# left) its eager loop, bare / CUPTI floor / gpuscope -t cuda / gpuscope / nsys, round-robin, with the
# GPU warmed up inside each workload (a 0.3 s spin, then launches) before the timed loop. LIMIT seconds
# (default 340) bound the whole call; loop times are kept as they come, and the table is printed last.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LIMIT=${LIMIT:-340}
O=/tmp/c
source "$ROOT/tests/gpu/device_call.sh"
build_in_call
MODES="bare cupti-floor gpuscope-cuda gpuscope nsys"
export MODES
s=$(date +%s)
REPEATS=${LAUNCH_REPEATS:-14} WORKLOADS=launch_loop OUT=$O/launch timeout "$(($(left) - 100))" \
  "$ROOT/tests/gpu/overhead.sh" > $O/launch.txt 2>&1
echo "== launch_loop: $(($(date +%s) - s)) s"
s=$(date +%s)
[ "$(left)" -gt 70 ] && REPEATS=${EAGER_REPEATS:-8} WORKLOADS=eager_loop OUT=$O/eager timeout "$(($(left) - 15))" \
  "$ROOT/tests/gpu/overhead.sh" > $O/eager.txt 2>&1
echo "== eager_loop: $(($(date +%s) - s)) s"
cat $O/launch/loops.txt $O/eager/loops.txt > $O/loops.txt 2> /dev/null
cd $O && tar czf "$OUT/c.tgz" build.txt launch.txt eager.txt loops.txt 2> /dev/null
head -3 $O/launch.txt
${PYTHON:-python3} "$ROOT/tests/gpu/overhead_table.py" $O/loops.txt $MODES
