#!/usr/bin/env bash
# CPU sampling on the GPU machine (issue 28), in stages that each fit one 10-minute device call, on one
# warm machine (the build of the first is reused):
#   STAGE=build   builds gpuscope (tests/gpu/run.sh BUILD_ONLY=1), prints the CPython offsets of the
#                 machine's Python where its internal headers exist (python_offsets.c), and checks that
#                 `gpuscope record --sample cpu` samples there;
#   STAGE=launch  overhead rounds of the launch loop (tests/gpu/overhead.sh): bare, gpuscope with and
#                 without sampling, nsys with and without its default sampling;
#   STAGE=eager   the same rounds for the eager PyTorch loop;
#   STAGE=pyloop  bench/sampling_overhead.sh (a CPU-bound Python loop: bare, --sample none, --sample cpu),
#                 pinned to CPUs 2-7, on this quieter machine than CI;
#   STAGE=prep    numpy_prep.py (a PyTorch loop whose GPU waits on NumPy) recorded by gpuscope and by
#                 nsys with its default sampling: gpuscope's verdict, and both files' sampled functions.
# Writes to $OUT (default build-gpu/sampling); prints a short table last. REPEATS (default 8) rounds.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
OUT=${OUT:-$ROOT/build-gpu/sampling}
STAGE=${STAGE:-build}
PYTHON=${PYTHON:-python3}
NSYS=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
DEPS=$ROOT/.deps/usr
GPUSCOPE=$ROOT/build-gpu/app/gpuscope
mkdir -p "$OUT"
nsys_run() { LD_LIBRARY_PATH="$DEPS/lib/x86_64-linux-gnu:$(dirname "$NSYS"):${LD_LIBRARY_PATH:-}" "$NSYS" "$@"; }

build() { BUILD_ONLY=1 OUT=$OUT/run "$ROOT/tests/gpu/run.sh" || { tail -30 "$OUT/run/run.log"; exit 1; }; }
# Every stage builds first: about 80 s on a fresh machine (the lent ones are given back 30 s after a
# call), seconds on a warm one.
[ "$STAGE" != build ] && build  # incremental on a warm machine

case $STAGE in
  build)
    build
    include=$("$PYTHON" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
    "$PYTHON" --version
    echo "perf_event_paranoid: $(cat /proc/sys/kernel/perf_event_paranoid)"
    if [ -d "$include/internal" ]; then
      cc -I"$include" "$ROOT/tests/gpu/sampling/python_offsets.c" -o "$OUT/python_offsets" && "$OUT/python_offsets" |
        tee "$OUT/python_offsets.txt"
    else
      echo "no internal CPython headers under $include: no offsets"
    fi
    "$GPUSCOPE" record -f -o "$OUT/probe.sqlite" -- "$PYTHON" -c \
      "import time; t = time.time() + 0.5
while time.time() < t: pass" 2>&1 | tail -4
    "$GPUSCOPE" samples "$OUT/probe.sqlite" --limit 8
    ;;
  pyloop)
    GPUSCOPE=$GPUSCOPE PYTHON=$PYTHON taskset -c 2-7 "$ROOT/bench/sampling_overhead.sh" "${REPEATS:-12}" 20 \
      > "$OUT/pyloop.txt" 2>&1
    tail -6 "$OUT/pyloop.txt"
    ;;
  launch | eager)
    workload=launch_loop
    [ "$STAGE" = eager ] && workload=eager_loop
    OUT=$OUT/$STAGE MODES="bare gpuscope-nosample gpuscope nsys nsys-sampling" WORKLOADS=$workload \
      REPEATS=${REPEATS:-8} "$ROOT/tests/gpu/overhead.sh" > "$OUT/$STAGE.txt" 2>&1
    tail -12 "$OUT/$STAGE.txt"
    ;;
  prep)
    prog=$ROOT/tests/gpu/sampling/numpy_prep.py
    "$GPUSCOPE" record -f -o "$OUT/prep.sqlite" -- "$PYTHON" "$prog" 40 2>&1 | tail -6
    "$GPUSCOPE" analyze "$OUT/prep.sqlite" > "$OUT/prep_analyze.txt" 2>&1
    "$GPUSCOPE" analyze "$OUT/prep.sqlite" --format json > "$OUT/prep_analyze.json" 2>&1
    "$GPUSCOPE" samples "$OUT/prep.sqlite" --limit 20 > "$OUT/prep_samples.txt" 2>&1
    nsys_run profile -t cuda,nvtx,osrt --force-overwrite=true -o "$OUT/nsys_prep" "$PYTHON" "$prog" 40 \
      > "$OUT/nsys_prep.log" 2>&1
    nsys_run export --type sqlite --force-overwrite=true -o "$OUT/nsys_prep.sqlite" "$OUT/nsys_prep.nsys-rep" \
      >> "$OUT/nsys_prep.log" 2>&1
    "$GPUSCOPE" samples "$OUT/nsys_prep.sqlite" --limit 20 > "$OUT/nsys_prep_samples.txt" 2>&1
    "$GPUSCOPE" analyze "$OUT/nsys_prep.sqlite" > "$OUT/nsys_prep_analyze.txt" 2>&1
    gzip -kf "$OUT/prep.sqlite" "$OUT/nsys_prep.sqlite"
    echo "== gpuscope's verdict"
    head -30 "$OUT/prep_analyze.txt"
    echo "== gpuscope's samples (top)"
    head -16 "$OUT/prep_samples.txt" | cut -c1-160
    echo "== nsys's samples of the same program, read by gpuscope (top)"
    head -16 "$OUT/nsys_prep_samples.txt" | cut -c1-160
    ;;
esac
