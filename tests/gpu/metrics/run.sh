#!/usr/bin/env bash
# GPU metrics and device memory usage, `gpuscope record --gpu-metrics --cuda-memory-usage` beside
# `nsys profile --gpu-metrics-devices=all --cuda-memory-usage=true`, on a machine with an NVIDIA GPU (issue 41).
#
# Records three programs with both tools at FREQ (default 5 kHz): tests/fixtures/workloads/transpose.cu (memory-bound),
# gemm_loop.py bf16 (tensor cores) and gemm_loop.py fp32 with TF32 off (no tensor cores); then compares, with
# one independent script (kernel_means.py, plain sqlite3) applied to both files, the per-kernel means of SMs
# Active, Tensor Active and DRAM Read Bandwidth and the memory usage events; then times the bf16 loop bare,
# under gpuscope --gpu-metrics and under nsys --gpu-metrics-devices=all (default 10 kHz each) in paired rounds
# (ROUNDS, default 3; the modes alternate) and reports the fastest loop of each mode. The table comes last.
#
# Source: tests/gpu/metrics/src.tar.gz when present (git archive of a branch, so the device builds that branch
# while the run tool copies another checkout), else this checkout. Built with tests/gpu/run.sh BUILD_ONLY=1 into
# GPUSCOPE_GPU_BUILD (/tmp/bg), reused when already there. Run with the run tool's carry
# ["tests/gpu/metrics/src.tar.gz", ".deps", "tests/gpu/viewer/deps"] (nsys needs libdw: see
# tests/gpu/viewer/record_stories.sh). Returns in $OUT: the transpose, bf16 and fp32 recordings of both tools
# (gzip), texts.tar.gz (every log) and table.txt.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
HERE=$ROOT/tests/gpu/metrics
OUT=${OUT:-/tmp/gm-out}
W=/tmp/gm-work
T=$W/texts
ROUNDS=${ROUNDS:-3}
# The comparison's sampling rate: 5 kHz puts whole samples inside the bf16 and fp32 GEMMs (1 and 20 ms) and,
# summed over its ten instances, transposeNaive's (0.55 ms).
FREQ=${FREQ:-5000}
PYTHON=${PYTHON:-python3}
NSYS=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
export GPUSCOPE_GPU_BUILD=${GPUSCOPE_GPU_BUILD:-/tmp/bg}
mkdir -p "$OUT" "$W" "$T"
say() { echo "== $*" | tee -a "$T/run.log"; }

# ---- build ----
SRC=$ROOT
if [ -f "$HERE/src.tar.gz" ]; then
  SRC=/tmp/gm-src
  rm -rf "$SRC" && mkdir -p "$SRC" && tar -xzf "$HERE/src.tar.gz" -C "$SRC"
  ln -sfn "$ROOT/.deps" "$SRC/.deps"
fi
G=$GPUSCOPE_GPU_BUILD/app/gpuscope
# PREBUILT=DIR: gpuscope and its libraries (gpuscope-gpu-metrics, libgpuscope_*.so) built elsewhere, flat in DIR,
# carried in (the device's 30 minutes can go to recording instead of building); no build here then.
if [ -n "${PREBUILT:-}" ]; then
  G=$PREBUILT/gpuscope
  export GPUSCOPE_LIB_DIR=$PREBUILT
  export LD_LIBRARY_PATH="$PREBUILT:${CUDA_HOME:-/usr/local/cuda}/extras/CUPTI/lib64:${CUDA_HOME:-/usr/local/cuda}/lib64:${LD_LIBRARY_PATH:-}"
elif [ "${REBUILD:-1}" = 1 ] || [ ! -x "$G" ]; then
  say "building gpuscope from $SRC"
  BUILD_ONLY=1 OUT=$T/build bash "$SRC/tests/gpu/run.sh" > "$T/build.log" 2>&1 || { tail -40 "$T/build.log"; cat "$T/build/run.log" 2>/dev/null | grep -m5 -B2 -A8 'error'; exit 1; }
fi
[ -x "$G" ] || G=$(ls "$GPUSCOPE_GPU_BUILD"/gpuscope "$GPUSCOPE_GPU_BUILD"/app/gpuscope 2>/dev/null | head -1)
[ "${BUILD_ONLY:-0}" = 1 ] && { say "built $G"; exit 0; }
nvidia-smi -L > /dev/null 2>&1 || { echo "SKIPPED: no NVIDIA GPU"; exit 0; }
export LD_LIBRARY_PATH="$ROOT/tests/gpu/viewer/deps:$ROOT/.deps/usr/lib/x86_64-linux-gnu:$(dirname "$NSYS"):${LD_LIBRARY_PATH:-}"
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
"$nvcc" -O2 -o "$W/transpose" "$ROOT/tests/fixtures/workloads/transpose.cu" || exit 1

# A recording that hangs must not take the whole call: 120 s each.
gp() { timeout 120 "$G" record --force-overwrite -t cuda,nvtx --sample none --cpuctxsw none "$@"; }
ns() { timeout 120 "$NSYS" profile -t cuda,nvtx --sample=none --cpuctxsw=none --force-overwrite=true "$@"; }
ns_export() { "$NSYS" export --type sqlite --force-overwrite=true -o "$2" "$1" >> "$T/nsys.log" 2>&1; }

declare -A PROGRAM=([transpose]="$W/transpose" [bf16]="$PYTHON $HERE/gemm_loop.py bf16" [fp32]="$PYTHON $HERE/gemm_loop.py fp32")
# PROGRAMS and TOOLS narrow the recordings (default: all three programs, both tools); ROUNDS=0 skips the cost.
PROGRAMS=${PROGRAMS:-transpose bf16 fp32}
TOOLS=${TOOLS:-gpuscope nsys}
for name in $PROGRAMS; do
  say "recording $name"
  GPUSCOPE_PM_TRACE=1 gp --gpu-metrics --gpu-metrics-frequency "$FREQ" --cuda-memory-usage -o "$W/$name.gpuscope.sqlite" -- ${PROGRAM[$name]} > "$T/$name.gpuscope.txt" 2>&1
  echo "gpuscope exit $?" >> "$T/$name.gpuscope.txt"; tail -3 "$T/$name.gpuscope.txt"
  case " $TOOLS " in *" nsys "*)
    ns --gpu-metrics-devices=all --gpu-metrics-frequency="$FREQ" --cuda-memory-usage=true -o "$W/$name.nsys" ${PROGRAM[$name]} > "$T/$name.nsys.txt" 2>&1
    ns_export "$W/$name.nsys.nsys-rep" "$W/$name.nsys.sqlite" ;;
  esac
  for tool in gpuscope nsys; do
    [ -f "$W/$name.$tool.sqlite" ] && gzip -c "$W/$name.$tool.sqlite" > "$OUT/$name.$tool.sqlite.gz"
  done
done

say "recording cost: bf16 loop, $ROUNDS paired rounds, bare / gpuscope --gpu-metrics / nsys --gpu-metrics-devices=all"
loop() { grep -o 'loop_seconds [0-9.]*' "$1" | awk '{print $2}'; }
for round in $(seq "$ROUNDS"); do
  $PYTHON "$HERE/gemm_loop.py" bf16 > "$T/cost.bare.$round.txt" 2>&1
  gp --gpu-metrics -o "$W/cost.gpuscope.sqlite" -- $PYTHON "$HERE/gemm_loop.py" bf16 > "$T/cost.gpuscope.$round.txt" 2>&1
  ns --gpu-metrics-devices=all -o "$W/cost.nsys" $PYTHON "$HERE/gemm_loop.py" bf16 > "$T/cost.nsys.$round.txt" 2>&1
  echo "round $round: bare $(loop "$T/cost.bare.$round.txt") gpuscope $(loop "$T/cost.gpuscope.$round.txt") nsys $(loop "$T/cost.nsys.$round.txt")" | tee -a "$T/run.log"
done

{
  echo "== per-kernel means (kernel_means.py: samples inside each kernel, all instances), gpuscope vs nsys"
  printf 'program\ttool\tkernel\tinstances\tsamples\tSMs Active\tTensor Active\tDRAM Read\n'
  for name in $PROGRAMS; do
    for tool in gpuscope nsys; do
      [ -f "$W/$name.$tool.sqlite" ] || { echo "$name $tool: no file"; continue; }
      $PYTHON "$HERE/kernel_means.py" "$W/$name.$tool.sqlite" 3 2>&1 | sed "s/^/$name\t$tool\t/"
    done
  done
  echo "== memory usage events (count, total bytes)"
  for name in $PROGRAMS; do
    for tool in gpuscope nsys; do
      echo "$name $tool: $($PYTHON "$HERE/kernel_means.py" "$W/$name.$tool.sqlite" memory 2>&1)"
    done
  done
  echo "== GPU metrics meta of the gpuscope files"
  for name in $PROGRAMS; do
    echo "$name: $($PYTHON -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT group_concat(name || '=' || value, ' ') FROM GPUSCOPE_META WHERE name LIKE 'gpu_metrics%' OR name LIKE 'cuda_memory%'\").fetchone()[0])" "$W/$name.gpuscope.sqlite" 2>&1)"
  done
  echo "== recording cost, bf16 loop seconds, min over $ROUNDS paired rounds"
  for mode in bare gpuscope nsys; do
    echo "$mode $(for r in $(seq "$ROUNDS"); do loop "$T/cost.$mode.$r.txt"; done | sort -n | head -1)"
  done
} > "$T/table.txt" 2>&1
cp "$T/table.txt" "$OUT/table.txt"
tar -czf "$OUT/texts.tar.gz" -C "$W" texts
cat "$T/table.txt"
