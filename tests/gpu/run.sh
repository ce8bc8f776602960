#!/usr/bin/env bash
# GPU checks of `gpuscope record`, against Nsight Systems, on a machine with an NVIDIA GPU.
#
# Needs: the CUDA toolkit with CUPTI (CUDA_HOME, default /usr/local/cuda), python3 with PyTorch
# (PYTHON), nsys (NSYS, default the Nsight 2025.3.1 path below; it finds libdw in .deps/), a C++20
# compiler, and the build dependencies of gpuscope (SQLite, nlohmann-json and CLI11 headers), from
# the system or extracted under .deps/usr (tests/gpu/prepare-deps.sh puts them there). Builds with
# CMake when it is there, else with the compiler directly. Without a GPU it says SKIPPED and exits 0.
#
# What it does, writing every file to $OUT (default build-gpu/out):
#   1. records tests/fixtures/workloads/transpose.cu (CUDA C++) and loader.py (PyTorch, DataLoader
#      with 2 worker processes, torch.cuda.nvtx ranges) with gpuscope and with nsys, and compares
#      kernel and memory-operation counts, per-kernel median durations, NVTX ranges, GPU facts;
#   2. checks the PyTorch trace holds every process (the interpreter and both workers);
#   3. measures overhead, bare vs gpuscope vs nsys, on 50,000 launches of a tiny kernel and on a
#      loop of 50,000 small eager PyTorch ops (median of 3 runs each, the programs' own loop time);
#   4. keeps the gpuscope recording of transpose as sample_transpose.sqlite (for resources/samples),
#      and records loader.py with num_workers=0 (loader0.gpuscope.sqlite, compared with the 2-worker run);
#   5. runs bench/daemon_bench (daemon throughput and memory) when CMake built it;
# and prints a short table last.
#
# BUILD_ONLY=1 only builds (no GPU needed); NO_CMAKE=1 builds without CMake even when it is there.
# Where one command may run 10 minutes at most, run it twice: BUILD_ONLY=1 first, then without (the
# second run reuses the build). REPEATS (default 3) sets the overhead runs per mode.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-$ROOT/build-gpu/out}
BUILD=${GPUSCOPE_GPU_BUILD:-$ROOT/build-gpu}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NSYS=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
PYTHON=${PYTHON:-python3}
REPEATS=${REPEATS:-3}
DEPS=$ROOT/.deps/usr
mkdir -p "$OUT" "$BUILD/gpu"
LOG=$OUT/run.log
: > "$LOG"

say() { echo "== $*" | tee -a "$LOG"; }
fail() {
  echo "FAILED: $*" | tee -a "$LOG"
  exit 1
}
# Runs a command, its output in the log only.
quiet() { "$@" >> "$LOG" 2>&1; }

# ---- 0. is there a GPU? ----
BUILD_ONLY=${BUILD_ONLY:-0}
if [ "$BUILD_ONLY" = 1 ]; then
  :
elif ! command -v nvidia-smi > /dev/null 2>&1 || ! nvidia-smi -L > /dev/null 2>&1; then
  echo "SKIPPED: no NVIDIA GPU visible (nvidia-smi -L failed); the GPU checks need one."
  exit 0
fi
[ -x "$CUDA_HOME/bin/nvcc" ] || fail "no nvcc in $CUDA_HOME/bin (set CUDA_HOME)"
nsys_run() { LD_LIBRARY_PATH="$DEPS/lib/x86_64-linux-gnu:$(dirname "$NSYS"):${LD_LIBRARY_PATH:-}" "$NSYS" "$@"; }
if [ "$BUILD_ONLY" != 1 ]; then
  GPU_NAME=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
  say "GPU: $GPU_NAME"
  "$PYTHON" -c "import torch; assert torch.cuda.is_available()" >> "$LOG" 2>&1 ||
    fail "$PYTHON cannot import torch or sees no GPU (set PYTHON)"
  [ -x "$NSYS" ] || fail "no nsys at $NSYS (set NSYS)"
  quiet nsys_run --version || fail "nsys does not start (libdw missing? see $LOG)"
fi

# ---- 1. build gpuscope and the workloads ----
JOBS=$(nproc)
build_with_cmake() {
  local prefix=()
  [ -d "$DEPS" ] && prefix=(-DCMAKE_PREFIX_PATH="$DEPS")
  quiet cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DGPUSCOPE_BUILD_UI=OFF -DGPUSCOPE_BUILD_TESTS=OFF \
    -DGPUSCOPE_BUILD_BENCH=ON "${prefix[@]}" && quiet cmake --build "$BUILD" -j"$JOBS" --target gpuscope daemon_bench
}

# The same targets without CMake: the two injection libraries, libgpuscope_cuda.so and the gpuscope CLI.
build_with_compiler() {
  local cxx=${CXX:-g++}
  local version
  version=$(sed -n 's/^project(gpuscope VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")
  local libdir=$BUILD/lib/gpuscope
  local cupti_dir
  cupti_dir=$(dirname "$(ls "$CUDA_HOME"/extras/CUPTI/lib64/libcupti.so "$CUDA_HOME"/lib64/libcupti.so \
    "$CUDA_HOME"/lib/libcupti.so 2> /dev/null | head -1)")
  local include=(-I"$ROOT" -isystem "$CUDA_HOME/include" -isystem "$CUDA_HOME/extras/CUPTI/include")
  [ -d "$DEPS/include" ] && include+=(-isystem "$DEPS/include")
  local flags=(-std=c++20 -O2 -fPIC "${include[@]}")
  mkdir -p "$libdir" "$BUILD/app" "$BUILD/obj"
  # Both injection libraries, with and without the lock wrappers, under the one soname (collector/CMakeLists.txt).
  local variant
  for variant in "libgpuscope_inject.so 1" "libgpuscope_inject_nolocks.so 0"; do
    set -- $variant
    (cd "$ROOT" && quiet "$cxx" "${flags[@]}" -fvisibility=hidden -shared -Wl,-soname,libgpuscope_inject.so \
      -U_FORTIFY_SOURCE -DGPUSCOPE_LOCK_WRAPPERS="$2" -o "$libdir/$1" collector/transport/*.cpp collector/inject/*.cpp \
      -ldl -pthread) || return 1
  done
  (cd "$ROOT" && quiet "$cxx" "${flags[@]}" -fvisibility=hidden -shared -o "$libdir/libgpuscope_cuda.so" \
    $(cd "$ROOT" && ls collector/cuda/*.cpp | grep -v '_main\.cpp$') collector/gpu_metrics/*.cpp -L"$libdir" \
    -lgpuscope_inject -L"$cupti_dir" -lcupti -Wl,-rpath,"$cupti_dir":'$ORIGIN' -ldl -pthread) || return 1
  # record --gpu-metrics's sampling process, beside the library (collector/CMakeLists.txt).
  (cd "$ROOT" && quiet "$cxx" -std=c++20 -O2 -o "$libdir/gpuscope-gpu-metrics" collector/cuda/gpu_metrics_host_main.cpp \
    -ldl -pthread) || return 1
  local defines=(-DGPUSCOPE_VERSION="\"$version\"" -DGPUSCOPE_RECORDER_VERSION="\"gpuscope $version\""
    -DGPUSCOPE_BUILD_LIB_DIR="\"$libdir\"" -DGPUSCOPE_INJECT_HAS_NVTX)
  local sources
  sources=$(cd "$ROOT" && find core app/cli collector/daemon collector/gpu_metrics collector/launch collector/sampling collector/transport \
    -name '*.cpp' &&
    echo app/gpuscope_main.cpp)
  local failed=0
  for source in $sources; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || failed=1; done
    (cd "$ROOT" && "$cxx" "${flags[@]}" "${defines[@]}" -c "$source" -o "$BUILD/obj/${source//\//_}.o" >> "$LOG" 2>&1) &
  done
  while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
  [ "$failed" = 0 ] || return 1
  local sqlite=(-lsqlite3)
  if [ -e "$DEPS/lib/x86_64-linux-gnu/libsqlite3.so" ]; then
    sqlite=(-L"$DEPS/lib/x86_64-linux-gnu" -lsqlite3 -Wl,-rpath,"$DEPS/lib/x86_64-linux-gnu")
  elif ! ls /usr/lib/x86_64-linux-gnu/libsqlite3.so /usr/lib64/libsqlite3.so > /dev/null 2>&1; then
    sqlite=("$(ldconfig -p | awk '/libsqlite3.so.0 .*x86-64/ {print $NF; exit}')")
  fi
  local elf=(-lelf)
  [ -e "$DEPS/lib/x86_64-linux-gnu/libelf.so" ] &&
    elf=(-L"$DEPS/lib/x86_64-linux-gnu" -lelf -Wl,-rpath,"$DEPS/lib/x86_64-linux-gnu")
  quiet "$cxx" -o "$BUILD/app/gpuscope" "$BUILD"/obj/*.o "${sqlite[@]}" "${elf[@]}" -ldl -pthread
}

say "building gpuscope in $BUILD"
if [ "${NO_CMAKE:-0}" != 1 ] && command -v cmake > /dev/null 2>&1 && cmake --version | awk 'NR==1 {split($3, v, "."); exit !(v[1] > 3 || (v[1] == 3 && v[2] >= 25))}'; then
  build_with_cmake || fail "the CMake build failed (see $LOG)"
else
  say "no CMake 3.25: building with ${CXX:-g++} directly"
  build_with_compiler || fail "the build failed (see $LOG)"
fi
GPUSCOPE=$BUILD/app/gpuscope
[ -x "$GPUSCOPE" ] || fail "no gpuscope executable in $BUILD/app"
[ -f "$BUILD/lib/gpuscope/libgpuscope_cuda.so" ] || fail "gpuscope was built without CUPTI (CUDA_HOME=$CUDA_HOME)"

ARCH=(-arch=native)
"$CUDA_HOME/bin/nvcc" -arch=native -o "$BUILD/gpu/probe" "$ROOT/tests/gpu/workloads/launch_loop.cu" >> "$LOG" 2>&1 || ARCH=()
for workload in "$ROOT/tests/fixtures/workloads/transpose.cu" "$ROOT/tests/gpu/workloads/launch_loop.cu"; do
  name=$(basename "$workload" .cu)
  quiet "$CUDA_HOME/bin/nvcc" -O2 "${ARCH[@]}" -o "$BUILD/gpu/$name" "$workload" -ldl || fail "nvcc $workload failed"
done
if [ "$BUILD_ONLY" = 1 ]; then
  say "built $GPUSCOPE, its collector libraries and the workloads"
  exit 0
fi

# ---- 2. gpuscope vs nsys on the same workloads ----
record_both() {
  local name=$1
  shift
  say "recording $name with gpuscope and with nsys"
  "$GPUSCOPE" record -f -o "$OUT/$name.gpuscope.sqlite" -- "$@" > "$OUT/$name.gpuscope.log" 2>&1 ||
    echo "gpuscope record exited with $? (see $OUT/$name.gpuscope.log)" | tee -a "$LOG"
  nsys_run profile -t cuda,nvtx,osrt --sample=none --cpuctxsw=none --force-overwrite=true -o "$OUT/$name.nsys" \
    "$@" > "$OUT/$name.nsys.log" 2>&1 || echo "nsys profile exited with $?" | tee -a "$LOG"
  quiet nsys_run export --type sqlite --force-overwrite=true -o "$OUT/$name.nsys.sqlite" "$OUT/$name.nsys.nsys-rep"
  # A second gpuscope run: how far two runs of the same program differ with the same tool (the noise floor).
  "$GPUSCOPE" record -f -o "$OUT/$name.gpuscope2.sqlite" -- "$@" > /dev/null 2>&1
  "$PYTHON" "$ROOT/tests/gpu/compare.py" compare "$OUT/$name.gpuscope.sqlite" "$OUT/$name.nsys.sqlite" "$name" \
    "$OUT/$name.gpuscope2.sqlite" \
    > "$OUT/$name.compare.json" 2>> "$LOG" || echo "comparing $name failed" | tee -a "$LOG"
  rm -f "$OUT/$name.nsys.nsys-rep"
}
(cd "$BUILD/gpu" && record_both transpose "$BUILD/gpu/transpose")
(cd "$BUILD/gpu" && record_both pytorch "$PYTHON" "$ROOT/tests/fixtures/workloads/loader.py" 2)
cp "$OUT/transpose.gpuscope.sqlite" "$OUT/sample_transpose.sqlite" 2> /dev/null
# The other half of the compare pair (issue 6): the same training with the DataLoader in the main process.
say "recording loader.py with num_workers=0 with gpuscope"
(cd "$BUILD/gpu" && "$GPUSCOPE" record -f -o "$OUT/loader0.gpuscope.sqlite" -- "$PYTHON" \
  "$ROOT/tests/fixtures/workloads/loader.py" 0 > "$OUT/loader0.gpuscope.log" 2>&1) ||
  echo "gpuscope record of loader.py 0 exited with $?" | tee -a "$LOG"

# ---- 3. overhead: bare vs gpuscope vs nsys ----
# Prints the program's loop_ns for one run in MODE.
run_once() {
  local mode=$1
  shift
  local scratch=$BUILD/gpu/overhead
  mkdir -p "$scratch"
  case $mode in
    bare) "$@" ;;
    gpuscope) "$GPUSCOPE" record -f -o "$scratch/run.sqlite" -- "$@" 2>> "$LOG" ;;
    nsys) nsys_run profile -t cuda,nvtx,osrt --sample=none --cpuctxsw=none --force-overwrite=true \
      -o "$scratch/run" "$@" 2>> "$LOG" ;;
  esac | awk '$1 == "loop_ns" {print $2}'
}
overhead() {
  local name=$1
  shift
  say "overhead: $name ($REPEATS runs per mode)"
  local file=$OUT/overhead_$name.txt
  : > "$file"
  for ((i = 0; i < REPEATS; ++i)); do
    for mode in bare gpuscope nsys; do
      local wall0 wall1 loop
      wall0=$(date +%s%N)
      loop=$(run_once "$mode" "$@")
      wall1=$(date +%s%N)
      echo "$name $mode ${loop:-0} $((wall1 - wall0))" >> "$file"
    done
  done
}
overhead launch_loop "$BUILD/gpu/launch_loop" 50000
overhead eager_loop "$PYTHON" "$ROOT/tests/gpu/workloads/eager_loop.py" 50000

# ---- 4. daemon throughput ----
if [ -x "$BUILD/bench/daemon_bench" ]; then
  for mix in mixed osrt cuda; do
    say "daemon_bench 4000000 events, $mix"
    "$BUILD/bench/daemon_bench" 4000000 2 "$mix" > "$OUT/daemon_bench_$mix.txt" 2>> "$LOG"
  done
fi

# ---- 5. the table ----
"$PYTHON" "$ROOT/tests/gpu/compare.py" report "$OUT" "$GPU_NAME"
