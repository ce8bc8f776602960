#!/usr/bin/env bash
# `gpuscope peaks` on a machine with an NVIDIA GPU: measures the GPU's roofs, stores them into a copy of
# tests/fixtures/nsys/transpose.sqlite (with the fixture's ncu metrics attached, so it has a roofline), runs
# `gpuscope roofline` on that copy to show the measured roofs in use, and prints a short table last.
#
# Needs: the CUDA toolkit (CUDA_HOME, default /usr/local/cuda), a C++20 compiler, and gpuscope's build
# dependencies (SQLite, nlohmann-json, CLI11 headers) from the system or under .deps/usr (see run.sh).
# Builds gpuscope and gpuscope-peaks with CMake when CMake 3.25+ is there, else with the compilers directly
# (through run.sh BUILD_ONLY=1 NO_CMAKE=1, and nvcc for the helper); GPUSCOPE=path/to/gpuscope skips the
# build (the helper must then be in ../lib/gpuscope beside it, or in $GPUSCOPE_LIB_DIR). Without a GPU it
# says SKIPPED and exits 0. Files go to $OUT (default build-gpu/peaks).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-$ROOT/build-gpu/peaks}
BUILD=${GPUSCOPE_GPU_BUILD:-$ROOT/build-gpu}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
DEPS=${GPUSCOPE_DEPS:-$ROOT/.deps/usr}  # the build dependencies, as tests/gpu/prepare-deps.sh extracts them
FIXTURES=$ROOT/tests/fixtures/nsys
mkdir -p "$OUT"
LOG=$OUT/peaks.log
: > "$LOG"

say() { echo "== $*" | tee -a "$LOG"; }
fail() {
  echo "FAILED: $*" | tee -a "$LOG"
  exit 1
}
quiet() { "$@" >> "$LOG" 2>&1; }

if ! command -v nvidia-smi > /dev/null 2>&1 || ! nvidia-smi -L > /dev/null 2>&1; then
  echo "SKIPPED: no NVIDIA GPU visible (nvidia-smi -L failed); gpuscope peaks needs one."
  exit 0
fi
GPU_NAME=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
say "GPU: $GPU_NAME"
[ -d "$DEPS/lib/x86_64-linux-gnu" ] && export LD_LIBRARY_PATH="$DEPS/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"

have_cmake() {
  command -v cmake > /dev/null 2>&1 &&
    cmake --version | awk 'NR==1 {split($3, v, "."); exit !(v[1] > 3 || (v[1] == 3 && v[2] >= 25))}'
}

build_with_cmake() {
  local prefix=()
  [ -d "$DEPS" ] && prefix=(-DCMAKE_PREFIX_PATH="$DEPS")
  [ -x "$CUDA_HOME/bin/nvcc" ] && prefix+=(-DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc")
  quiet cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DGPUSCOPE_BUILD_UI=OFF -DGPUSCOPE_BUILD_TESTS=OFF \
    -DGPUSCOPE_BUILD_BENCH=OFF "${prefix[@]}" &&
    quiet cmake --build "$BUILD" -j"$(nproc)" --target gpuscope
}

# The helper alone, as collector/peaks/CMakeLists.txt builds it.
build_helper_with_nvcc() {
  local version
  version=$(sed -n 's/^project(gpuscope VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")
  mkdir -p "$BUILD/lib/gpuscope"
  (cd "$ROOT" && quiet "$CUDA_HOME/bin/nvcc" -O3 -std=c++17 -I"$ROOT" -DGPUSCOPE_VERSION="\"$version\"" \
    -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
    -o "$BUILD/lib/gpuscope/gpuscope-peaks" collector/peaks/*.cu)
}

if [ -n "${GPUSCOPE:-}" ]; then
  [ -x "$GPUSCOPE" ] || fail "GPUSCOPE=$GPUSCOPE is not an executable"
  say "using $GPUSCOPE"
else
  say "building gpuscope and gpuscope-peaks in $BUILD"
  if have_cmake; then
    build_with_cmake || fail "the CMake build failed (see $LOG)"
  else
    GPUSCOPE_GPU_BUILD=$BUILD BUILD_ONLY=1 NO_CMAKE=1 OUT=$OUT/run "$ROOT/tests/gpu/run.sh" >> "$LOG" 2>&1 ||
      fail "the build failed (see $LOG and $OUT/run/run.log)"
  fi
  [ -x "$BUILD/lib/gpuscope/gpuscope-peaks" ] || build_helper_with_nvcc || fail "nvcc could not build gpuscope-peaks"
  GPUSCOPE=$BUILD/app/gpuscope
fi

# ---- measure and store into a copy of the transpose trace with its ncu metrics ----
TRACE=$OUT/transpose_peaks.sqlite
rm -f "$TRACE"
quiet "$GPUSCOPE" import-ncu "$FIXTURES/transpose.sqlite" "$FIXTURES/transpose_ncu_metrics.csv" -o "$TRACE" ||
  fail "import-ncu failed (see $LOG)"
say "gpuscope peaks --format csv --store $TRACE"
SECONDS=0
"$GPUSCOPE" peaks --format csv --store "$TRACE" > "$OUT/peaks.csv" 2>> "$LOG"
status=$?
echo "peaks took ${SECONDS}s, exit $status" >> "$LOG"
cat "$OUT/peaks.csv" >> "$LOG"
if [ "$status" != 0 ]; then
  tail -3 "$LOG"
  # The fixture was recorded on an H100 80GB HBM3: another GPU model has no device in it to store for.
  [ -s "$OUT/peaks.csv" ] || fail "gpuscope peaks failed (see $LOG)"
  echo "note: the measurement was not stored (see above); the roofline below is the theoretical one" | tee -a "$LOG"
fi
"$GPUSCOPE" roofline "$TRACE" > "$OUT/roofline.txt" 2>> "$LOG" || fail "gpuscope roofline failed (see $LOG)"
"$GPUSCOPE" roofline "$TRACE" --format json > "$OUT/roofline.json" 2>> "$LOG"
sed -n '1,/^ \*\* Roofline:/p' "$OUT/roofline.txt" | head -n -1
sqlite3 "$TRACE" "SELECT deviceId, kind, value, measuredAt FROM GPUSCOPE_DEVICE_PEAKS" >> "$LOG" 2>&1 || true

# ---- the table ----
echo
echo "gpuscope peaks on $GPU_NAME (best of 7 CUDA-event-timed runs; theoretical from gpuscope's architecture table)"
awk -F, 'NR == 1 { printf "%-6s %14s %14s %8s  %s\n", "roof", "measured", "theoretical", "ratio", "unit"; next }
         { printf "%-6s %14s %14s %8s  %s\n", $1, $2, ($3 == "" ? "-" : $3), ($4 == "" ? "-" : $4 "%"), $5 }' \
  "$OUT/peaks.csv"
if command -v python3 > /dev/null 2>&1; then
  python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["roofs"]["rows"][0]; print("roofline roofs of the stored trace:", r["Source"])' \
    "$OUT/roofline.json" 2> /dev/null
fi
