# Sourced by the GPU checks that record with gpuscope and nsys (classes.sh, rec_check.sh, loss_check.sh,
# overhead.sh, cond_callers.sh): the paths they share, the no-GPU exit, the build when it is missing, the
# CUPTI floor, and nsys with the libdw it needs. The caller sets ROOT and OUT first.
BUILD=${GPUSCOPE_GPU_BUILD:-$ROOT/build-gpu}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NSYS=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
DEPS=$ROOT/.deps/usr
PYTHON=${PYTHON:-python3}
GPUSCOPE=$BUILD/app/gpuscope
mkdir -p "$OUT" "$BUILD/gpu"

# Exits 0 with SKIPPED where no NVIDIA GPU is visible.
require_gpu() {
  if ! command -v nvidia-smi > /dev/null 2>&1 || ! nvidia-smi -L > /dev/null 2>&1; then
    echo "SKIPPED: no NVIDIA GPU visible (nvidia-smi -L failed)"
    exit 0
  fi
}

# Builds gpuscope as run.sh does (BUILD_ONLY=1), always with ALWAYS=1, else only when it is missing.
ensure_build() {
  [ "${ALWAYS:-0}" != 1 ] && [ -x "$GPUSCOPE" ] && return 0
  BUILD_ONLY=1 GPUSCOPE_GPU_BUILD=$BUILD OUT=$OUT/build "$ROOT/tests/gpu/run.sh" > /dev/null 2>&1 ||
    { echo "FAILED: the build (see $OUT/build/run.log)"; tail -30 "$OUT/build/run.log"; exit 1; }
}

nsys_run() { LD_LIBRARY_PATH="$DEPS/lib/x86_64-linux-gnu:$(dirname "$NSYS"):${LD_LIBRARY_PATH:-}" "$NSYS" "$@"; }

# Builds the CUPTI floor (workloads/cupti_floor.cpp) into $BUILD/gpu/libcupti_floor.so and sets FLOOR to it.
build_cupti_floor() {
  local cupti_dir
  cupti_dir=$(dirname "$(ls "$CUDA_HOME"/extras/CUPTI/lib64/libcupti.so "$CUDA_HOME"/lib64/libcupti.so 2> /dev/null | head -1)")
  FLOOR=$BUILD/gpu/libcupti_floor.so
  (cd "$ROOT" && ${CXX:-g++} -std=c++17 -O2 -fPIC -shared -I. -isystem "$CUDA_HOME/include" \
    -isystem "$CUDA_HOME/extras/CUPTI/include" tests/gpu/workloads/cupti_floor.cpp collector/cuda/query_api_filter.cpp \
    -L"$cupti_dir" -lcupti -Wl,-rpath,"$cupti_dir" -o "$FLOOR") || { echo "FAILED: building the CUPTI floor"; exit 1; }
}
