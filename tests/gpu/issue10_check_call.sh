#!/usr/bin/env bash
# One device call for issue 10's closing checks (tests/gpu/): build, osrt_probe.sh, osrt_noise.sh (sync
# and launch, 2 runs per tool), rec_check.sh with RUNS (default 10) loss runs, each given what is left
# of LIMIT seconds (default 560). Results under /tmp/o2, tarred into $OUT/c.tgz; a summary last.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LIMIT=${LIMIT:-560}
O=/tmp/o2
source "$ROOT/tests/gpu/device_call.sh"
build_in_call
OUT=$O/probe timeout "$(left)" "$ROOT/tests/gpu/osrt_probe.sh" > $O/probe.txt 2>&1
s=$(date +%s)
OUT=$O/rec RUNS=${RUNS:-10} timeout "$(left)" "$ROOT/tests/gpu/rec_check.sh" > $O/rec.txt 2>&1
echo "== rec_check: $(($(date +%s) - s)) s"
s=$(date +%s)
OUT=$O/noise timeout "$(left)" "$ROOT/tests/gpu/osrt_noise.sh" > $O/noise.txt 2>&1
echo "== noise: $(($(date +%s) - s)) s"
cd $O && tar czf "$OUT/c.tgz" build.txt probe.txt rec.txt noise.txt rec/*.log rec/mp_fork*.sqlite \
  noise/*/*.sqlite 2> /dev/null
ls -la "$OUT"
grep -A40 "^== osrt_probe" $O/probe.txt | grep -v "^thread" | head; grep -E "names [0-9]+, equal" $O/noise.txt
grep -E "identical|kernels per pid|complete" $O/rec.txt
