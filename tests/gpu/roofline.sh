#!/usr/bin/env bash
# GPU check of `gpuscope record --metrics roofline` against Nsight Compute, on a machine with an NVIDIA GPU.
#
# Builds gpuscope and tests/fixtures/workloads/transpose.cu as tests/gpu/run.sh does (BUILD_ONLY=1 and
# NO_CMAKE=1 work the same; the dependencies' headers are found under .deps/usr), then:
#   1. runs transpose bare, recorded without metrics, and recorded with --metrics roofline (wall times);
#   2. runs ncu (NCU, default the Nsight Compute 2025.3.1 path, else `ncu` on PATH) on the same program with
#      the same raw metrics (--csv --page raw --print-units base), once with its default cache control
#      (caches flushed before every pass) and once with --cache-control none, and attaches each report to a
#      copy of the gpuscope trace with `gpuscope import-ncu` (same kernels, matched by name and launch order);
#   3. compares FP32/FP64/FP16 FLOPs and DRAM bytes launch by launch (by correlation id), per kernel, and
#      prints a short table last: FLOPs and DRAM bytes of gpuscope and ncu, worst per-launch difference,
#      whether it is within 1%, and the overhead.
# Writes every file to $OUT (default build-gpu/out). Without a GPU it says SKIPPED and exits 0.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export OUT=${OUT:-$ROOT/build-gpu/out}
BUILD=${GPUSCOPE_GPU_BUILD:-$ROOT/build-gpu}
PYTHON=${PYTHON:-python3}
mkdir -p "$OUT"
LOG=$OUT/roofline.log
: > "$LOG"
say() { echo "== $*" | tee -a "$LOG"; }
fail() {
  echo "FAILED: $*" | tee -a "$LOG"
  exit 1
}

if [ "${BUILD_ONLY:-0}" != 1 ] && { ! command -v nvidia-smi > /dev/null 2>&1 || ! nvidia-smi -L > /dev/null 2>&1; }; then
  echo "SKIPPED: no NVIDIA GPU visible (nvidia-smi -L failed); the roofline check needs one."
  exit 0
fi

# ---- 1. build (run.sh's build step: gpuscope, its collector libraries, the workloads) ----
say "building gpuscope and the workloads (tests/gpu/run.sh BUILD_ONLY=1)"
BUILD_ONLY=1 GPUSCOPE_GPU_BUILD=$BUILD "$ROOT/tests/gpu/run.sh" >> "$LOG" 2>&1 || fail "the build failed (see $LOG and $OUT/run.log)"
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
GPUSCOPE=$BUILD/app/gpuscope
WORKLOAD=$BUILD/gpu/transpose
[ -x "$WORKLOAD" ] || fail "no $WORKLOAD"

NCU=${NCU:-/opt/nvidia/nsight-compute/2025.3.1/ncu}
[ -x "$NCU" ] || NCU=$(command -v ncu || true)
[ -n "$NCU" ] && [ -x "$NCU" ] || fail "no ncu (set NCU)"
say "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); ncu: $NCU"

# ---- 2. bare, traced, traced + profiled ----
wall() {
  local start end
  start=$(date +%s%N)
  "$@"
  local status=$?
  end=$(date +%s%N)
  echo $(((end - start) / 1000000)) >> "$OUT/walls.txt"
  return $status
}
: > "$OUT/walls.txt"
cd "$BUILD/gpu" || fail "no $BUILD/gpu"
say "transpose bare"
wall "$WORKLOAD" > "$OUT/bare.log" 2>&1 || fail "transpose failed (see $OUT/bare.log)"
say "gpuscope record (no metrics)"
wall "$GPUSCOPE" record -f -o "$OUT/traced.sqlite" -- "$WORKLOAD" > "$OUT/traced.log" 2>&1 ||
  fail "gpuscope record failed (see $OUT/traced.log)"
say "gpuscope record --metrics roofline"
# GPUSCOPE_PROFILER_TRACE=1: the profiler's steps go to record.log, so a failure says where it happened.
GPUSCOPE_PROFILER_TRACE=1 wall "$GPUSCOPE" record -f --metrics roofline -o "$OUT/roofline.sqlite" -- "$WORKLOAD" \
  > "$OUT/record.log" 2>&1 || echo "gpuscope record --metrics roofline exited with $?" | tee -a "$LOG"
grep -v "^gpuscope profiler:" "$OUT/record.log" | tee -a "$LOG"
echo "last profiler steps:" | tee -a "$LOG"
grep "^gpuscope profiler:" "$OUT/record.log" | tail -12 | tee -a "$LOG"
rm -f "$OUT/traced.sqlite"

# ---- 3. ncu on the same launches, the same counters ----
METRICS=gpu__time_duration.sum,dram__bytes.sum,lts__t_bytes.sum,l1tex__t_bytes.sum
for p in d f h; do
  for op in add mul fma; do METRICS=$METRICS,smsp__sass_thread_inst_executed_op_$p${op}_pred_on.sum; done
done
for mode in default none; do
  cache=()
  [ "$mode" = none ] && cache=(--cache-control none)
  say "ncu (cache control: $mode)"
  # --clock-control none: gpuscope profiles at the GPU's own clocks; ncu's default locks them to base, which
  # moves how much of a kernel's dirty L2 lines reach DRAM before the measurement ends.
  wall "$NCU" --metrics "$METRICS" "${cache[@]}" --clock-control none --csv --page raw --print-units base "$WORKLOAD" \
    > "$OUT/ncu_$mode.csv" 2>> "$LOG" || echo "ncu exited with $?" | tee -a "$LOG"
  "$GPUSCOPE" import-ncu "$OUT/roofline.sqlite" "$OUT/ncu_$mode.csv" -o "$OUT/ncu_$mode.sqlite" >> "$LOG" 2>&1 ||
    echo "gpuscope import-ncu of the $mode ncu report failed (see $LOG)" | tee -a "$LOG"
done
"$GPUSCOPE" roofline "$OUT/roofline.sqlite" --by name > "$OUT/roofline_by_name.txt" 2>&1 ||
  echo "gpuscope roofline failed (see $OUT/roofline_by_name.txt)" | tee -a "$LOG"

# ---- 4. the table ----
"$PYTHON" - "$OUT" > "$OUT/roofline_table.txt" 2>> "$LOG" << 'EOF'
import sqlite3, sys, os
out = sys.argv[1]
def rows(path):
    if not os.path.exists(path):
        return {}
    db = sqlite3.connect(path)
    try:
        got = db.execute("SELECT correlationId, kernelName, flopsFp64, flopsFp32, flopsFp16, dramBytes, durationNs "
                         "FROM GPUSCOPE_KERNEL_METRICS").fetchall()
    except sqlite3.Error:
        return {}
    names = dict(db.execute("SELECT k.correlationId, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                            "JOIN StringIds s ON s.id = k.shortName").fetchall())
    return {r[0]: (names.get(r[0], r[1]), sum(x or 0 for x in r[2:5]), r[5] or 0, r[6] or 0) for r in got}
ours = rows(f"{out}/roofline.sqlite")
walls = [int(x) for x in open(f"{out}/walls.txt").read().split()]
labels = ["bare", "gpuscope record", "record --metrics roofline", "ncu (default)", "ncu (cache none)"]
def diff(a, b):
    if a == b:
        return 0.0
    return abs(a - b) / max(abs(a), abs(b)) * 100
print(f"gpuscope --metrics roofline: {len(ours)} launches profiled")
for mode in ("default", "none"):
    ncu = rows(f"{out}/ncu_{mode}.sqlite")
    print(f"\nvs ncu, cache control {mode}: {len(ncu)} launches matched")
    print(f"{'kernel':<18}{'n':>4}{'FLOPs gpuscope':>16}{'FLOPs ncu':>14}{'max d%':>8}"
          f"{'DRAM B gpuscope':>17}{'DRAM B ncu':>14}{'max d%':>8}  within 1%")
    by = {}
    for cid, (name, flops, dram, dur) in ours.items():
        if cid not in ncu:
            continue
        _, nflops, ndram, _ = ncu[cid]
        k = by.setdefault(name, [0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
        k[0] += 1; k[1] += flops; k[2] += nflops; k[3] = max(k[3], diff(flops, nflops))
        k[4] += dram; k[5] += ndram; k[6] = max(k[6], diff(dram, ndram))
    for name, k in sorted(by.items()):
        ok = "yes" if k[3] <= 1 and k[6] <= 1 else "NO"
        print(f"{name[:17]:<18}{k[0]:>4}{k[1]:>16.4g}{k[2]:>14.4g}{k[3]:>8.2f}{k[4]:>17.4g}{k[5]:>14.4g}{k[6]:>8.2f}  {ok}")
print("\nwall times (ms): " + ", ".join(f"{l} {w}" for l, w in zip(labels, walls)))
EOF
cat "$OUT/roofline_table.txt"
