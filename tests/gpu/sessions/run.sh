#!/usr/bin/env bash
# Capture ranges and sessions on a machine with an NVIDIA GPU: `gpuscope record --capture-range`, and
# `gpuscope launch` with `gpuscope start/stop` windows from another process, checked and timed in one call.
#
# 1. Capture ranges: records tests/fixtures/workloads/caprange.py (the workload of the nsys-capture fixtures) with --capture-range cudaProfilerApi --capture-range-end stop, and with
#    --capture-range nvtx --nvtx-capture 'step 5' --capture-range-end stop; compares each file with nsys's file of
#    the same capture (tests/fixtures/nsys-capture/cap_*.sqlite.gz) by counts.py:
#    kernels per shortName, NVTX ranges per text, and rows outside the captured 'step N' ranges (MATCH/DIFFER).
# 2. Sessions and cost, ROUNDS (default 3) paired rounds, the order alternating (bare record launch, then
#    launch record bare, ...), each mode running loop2000.py (2,000 steps of about 4 ms, step times to a file):
#      bare    python loop2000.py TIMES
#      record  gpuscope record -t cuda,nvtx --sample none --cpuctxsw none -o ... -- python loop2000.py TIMES
#      launch  gpuscope launch --session s$round -o $W/r$round/win ... -- python loop2000.py TIMES in the
#              background, and windows.py (another process) waits for step 200, then three times
#              gpuscope start, sleep 0.5, gpuscope stop, sleep 1.5; files win.1.sqlite .. win.3.sqlite.
#    steps.py checks each window file (kernels, NVTX steps, steps inside per the times file, rows outside the
#    window) and compares the median step time outside the windows (padded 50 ms) with the median of all steps
#    bare and under record: per round, min over rounds, and the median over rounds of the paired ratios.
# 3. The table comes last (also $OUT/table.txt); $OUT gets texts.tar.gz (every log, times file and JSON), the two
#    capture files and round 1's window files (gzip).
#
# gpuscope: PREBUILT=DIR (default tests/gpu/sessions/prebuilt, filled by make_prebuilt.sh: gpuscope,
# libgpuscope_inject.so, libgpuscope_inject_nolocks.so, libgpuscope_cuda.so, gpuscope-gpu-metrics, flat), carried
# in; without it, built as tests/gpu/metrics/run.sh does (tests/gpu/run.sh BUILD_ONLY=1 into GPUSCOPE_GPU_BUILD).
# Run tool: command `bash tests/gpu/sessions/run.sh`, carry ["tests/gpu/sessions/prebuilt", ".deps"]
# (.deps/usr/lib/x86_64-linux-gnu holds libsqlite3 and libelf, which gpuscope needs there). No nsys is run.
# Knobs: ROUNDS (0 skips part 2), PARTS ("capture sessions"), PYTHON, LOOP (the loop program), LOOP_STEPS and
# SLEEP_CYCLES (loop2000.py), OUT, W (work folder, emptied first).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
HERE=$ROOT/tests/gpu/sessions
OUT=${OUT:-/tmp/gs-out}
W=${W:-/tmp/gs-work}
T=$W/texts
ROUNDS=${ROUNDS:-3}
PARTS=${PARTS:-capture sessions}
PYTHON=${PYTHON:-python3}
export GPUSCOPE_GPU_BUILD=${GPUSCOPE_GPU_BUILD:-/tmp/bg}
rm -rf "$W"  # numbered window files skip names that exist: start clean
mkdir -p "$OUT" "$W" "$T"
say() { echo "== $*" | tee -a "$T/run.log"; }

# ---- gpuscope ----
PREBUILT=${PREBUILT:-tests/gpu/sessions/prebuilt}
case "$PREBUILT" in /*) ;; *) PREBUILT=$ROOT/$PREBUILT ;; esac
CUDA_DIR=${CUDA_HOME:-/usr/local/cuda}
CUPTI_DIRS=$CUDA_DIR/extras/CUPTI/lib64:$CUDA_DIR/lib64
if [ -x "$PREBUILT/gpuscope" ]; then
  G=$PREBUILT/gpuscope
  export GPUSCOPE_LIB_DIR=$PREBUILT
  export LD_LIBRARY_PATH="$PREBUILT:$ROOT/.deps/usr/lib/x86_64-linux-gnu:$CUPTI_DIRS:${LD_LIBRARY_PATH:-}"
else
  say "no $PREBUILT/gpuscope: building gpuscope from $ROOT"
  BUILD_ONLY=1 OUT=$T/build bash "$ROOT/tests/gpu/run.sh" > "$T/build.log" 2>&1 || { tail -40 "$T/build.log"; exit 1; }
  G=$(ls "$GPUSCOPE_GPU_BUILD"/app/gpuscope "$GPUSCOPE_GPU_BUILD"/gpuscope 2>/dev/null | head -1)
  export LD_LIBRARY_PATH="$ROOT/.deps/usr/lib/x86_64-linux-gnu:$CUPTI_DIRS:${LD_LIBRARY_PATH:-}"
fi
[ -x "${G:-}" ] || { echo "FAILED: no gpuscope"; exit 1; }
nvidia-smi -L > /dev/null 2>&1 || { echo "SKIPPED: no NVIDIA GPU"; exit 0; }
{
  echo "gpuscope $G"; ldd "$G" | grep -i 'not found'
  timeout 20 "$G" --version 2>&1 | head -2
  nvidia-smi -L
  timeout 60 $PYTHON -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "_sleep", hasattr(torch.cuda, "_sleep"))'
} > "$T/env.txt" 2>&1
cat "$T/env.txt"

# Every gpuscope and python call runs under timeout: a hang must not take the whole call.
rec() { timeout "${LIMIT:-150}" "$G" record --force-overwrite -t cuda,nvtx --sample none --cpuctxsw none "$@"; }
gz() { [ -f "$1" ] && gzip -c "$1" > "$2"; }

# ---- 1. capture ranges ----
if [[ " $PARTS " == *" capture "* ]]; then
  say "capture ranges: caprange.py, cudaProfilerApi and nvtx 'step 5', against nsys's files"
  LIMIT=120 rec --capture-range cudaProfilerApi --capture-range-end stop -o "$W/cap_api.gpuscope.sqlite" \
    -- $PYTHON "$ROOT/tests/fixtures/workloads/caprange.py" > "$T/cap_api.record.txt" 2>&1
  echo "gpuscope exit $?" >> "$T/cap_api.record.txt"
  LIMIT=120 rec --capture-range nvtx --nvtx-capture 'step 5' --capture-range-end stop -o "$W/cap_nvtx.gpuscope.sqlite" \
    -- $PYTHON "$ROOT/tests/fixtures/workloads/caprange.py" > "$T/cap_nvtx.record.txt" 2>&1
  echo "gpuscope exit $?" >> "$T/cap_nvtx.record.txt"
  for cap in cap_api cap_nvtx; do
    tail -2 "$T/$cap.record.txt"
    gunzip -c "$ROOT/tests/fixtures/nsys-capture/$cap.sqlite.gz" > "$W/$cap.nsys.sqlite"
    timeout 60 $PYTHON "$HERE/counts.py" "$W/$cap.gpuscope.sqlite" "$W/$cap.nsys.sqlite" > "$T/counts.$cap.txt" 2>&1
    echo "counts.py exit $?" >> "$T/counts.$cap.txt"
    gz "$W/$cap.gpuscope.sqlite" "$OUT/$cap.gpuscope.sqlite.gz"
    ls "$W"/$cap.gpuscope* >> "$T/$cap.record.txt" 2>&1  # a repeat or stray file would show here
  done
fi

# ---- 2. sessions and cost ----
LOOP=${LOOP:-$HERE/loop2000.py}
COST=$T/cost.tsv
run_bare() {
  timeout 120 $PYTHON "$LOOP" "$T/times.bare.$1.txt" > "$T/bare.$1.txt" 2>&1
  echo "exit $?" >> "$T/bare.$1.txt"
  timeout 30 $PYTHON "$HERE/steps.py" median "$T/times.bare.$1.txt" --mode bare --round "$1" --tsv "$COST" >> "$T/steps.txt" 2>&1
}
run_record() {
  LIMIT=150 rec -o "$W/record.$1.sqlite" -- $PYTHON "$LOOP" "$T/times.record.$1.txt" > "$T/record.$1.txt" 2>&1
  echo "gpuscope exit $?" >> "$T/record.$1.txt"
  timeout 30 $PYTHON "$HERE/steps.py" median "$T/times.record.$1.txt" --mode record --round "$1" --tsv "$COST" >> "$T/steps.txt" 2>&1
  timeout 30 $PYTHON -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
k = db.execute("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]
n = db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE end IS NOT NULL").fetchone()[0]
print(f"round {sys.argv[2]} record file: {k} kernels, {n} NVTX ranges")' "$W/record.$1.sqlite" "$1" >> "$T/steps.txt" 2>&1
  rm -f "$W/record.$1.sqlite"
}
run_launch() {
  local r=$1
  mkdir -p "$W/r$r"
  timeout 180 "$G" launch --session "s$r" -o "$W/r$r/win" -t cuda,nvtx --sample none --cpuctxsw none \
    -- $PYTHON "$LOOP" "$T/times.launch.$r.txt" > "$T/launch.$r.txt" 2>&1 &
  local pid=$!
  timeout 200 $PYTHON "$HERE/windows.py" "$G" "s$r" "$T/times.launch.$r.txt" "$T/windows.$r.json" --pid "$pid" \
    --windows 3 --open 0.5 --gap 1.5 --min-lines 200 --wait 150 > "$T/windows.$r.txt" 2>&1
  echo "windows.py exit $?" >> "$T/windows.$r.txt"
  wait "$pid"
  echo "gpuscope launch exit $?" >> "$T/launch.$r.txt"
  ls -l "$W/r$r" >> "$T/launch.$r.txt" 2>&1
  timeout 60 $PYTHON "$HERE/steps.py" windows "$T/times.launch.$r.txt" "$T/windows.$r.json" --round "$r" \
    --tsv "$COST" --pad-ms 50 >> "$T/windows_check.txt" 2>&1
}
if [[ " $PARTS " == *" sessions "* ]] && [ "$ROUNDS" -gt 0 ]; then
  say "sessions and cost: loop2000.py, $ROUNDS paired rounds of bare / record / launch + 3 windows"
  for round in $(seq "$ROUNDS"); do
    if [ $((round % 2)) = 1 ]; then order="bare record launch"; else order="launch record bare"; fi
    for mode in $order; do "run_$mode" "$round"; done
    echo "round $round ($order): $(grep "^round $round " "$T/steps.txt" | grep -v 'record file' | sed 's/^round [0-9]* //' | cut -d, -f1,2 | tr '\n' ';') launch: $(grep "round $round step medians" "$T/windows_check.txt" | sed 's/.*step medians: //')" | tee -a "$T/run.log"
  done
  for f in "$W"/r1/win.*.sqlite; do [ -f "$f" ] && gz "$f" "$OUT/r1.$(basename "$f").gz"; done
fi

# ---- 3. table ----
{
  echo "== environment"
  grep -v '^gpuscope /' "$T/env.txt"
  if [[ " $PARTS " == *" capture "* ]]; then
    for cap in cap_api cap_nvtx; do
      echo "== capture range $cap: gpuscope (A) vs nsys (B), counts.py"
      grep -h '^gpuscope exit\|^gpuscope: ' "$T/$cap.record.txt" | tail -3
      grep -v '^A = \|^B = ' "$T/counts.$cap.txt"
    done
  fi
  if [[ " $PARTS " == *" sessions "* ]] && [ "$ROUNDS" -gt 0 ]; then
    echo "== launch windows (steps.py windows; outside must be 0, open between the start call and its return)"
    cat "$T/windows_check.txt"
    echo "== gpuscope start/stop calls (windows.py)"
    grep -h '^window \|windows.py' "$T"/windows.*.txt
    grep -h 'exit' "$T"/launch.*.txt "$T"/record.*.txt "$T"/bare.*.txt | sort | uniq -c
    grep -h 'record file' "$T/steps.txt"
    echo "== step time, median ms (bare, record: all steps; launch_out: steps outside the windows +-50 ms)"
    timeout 30 $PYTHON "$HERE/steps.py" summary "$COST"
  fi
} > "$T/table.txt" 2>&1
cp "$T/table.txt" "$OUT/table.txt"
tar -czf "$OUT/texts.tar.gz" -C "$W" texts
cat "$T/table.txt"
