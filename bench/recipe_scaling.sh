#!/usr/bin/env bash
# recipe_scaling.sh: issue 29's scaling figure for `gpuscope recipe`. Makes FILES rank files (copies of the
# real rank export tests/fixtures/ranks/nsys/rank0.sqlite.gz, 1,546 kernels and 11,778 CUDA API calls each),
# then times each recipe over them in one process (--mode serial) and on a Dask LocalCluster of 1, 2, 4, 8
# and 16 workers, and prints the wall times as a table, with each run's stats.csv checked equal to the
# serial one. Needs only a gpuscope build and a python3 with Dask (Debian: python3-distributed).
#
#   bench/recipe_scaling.sh BUILD_DIR
#   PYTHON=/opt/conda/bin/python3 WORKERS="1 2 4" FILES=64 RECIPES=nvtx_sum bench/recipe_scaling.sh build
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: recipe_scaling.sh BUILD_DIR   (env: PYTHON, WORKERS, FILES, RECIPES)}
gpuscope=$(realpath "$build/app/gpuscope" 2>/dev/null || true)
[ -x "$gpuscope" ] || { echo "recipe_scaling: there is no gpuscope at $build/app/gpuscope: build it first." >&2; exit 1; }
files=${FILES:-256}
workers=${WORKERS:-"1 2 4 8 16"}
recipes=${RECIPES:-"cuda_gpu_kern_sum nvtx_gpu_proj_sum"}
python=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}
if ! "$python" -c 'import distributed' 2>/dev/null; then
  echo "recipe_scaling: $python cannot import distributed (Dask): install python3-distributed, or set PYTHON" \
    "to a python3 that has it." >&2
  exit 1
fi
export GPUSCOPE_PYTHON=$python

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/ranks"
gzip -dc "$here/tests/fixtures/ranks/nsys/rank0.sqlite.gz" >"$scratch/source.sqlite"
for i in $(seq -w 0 $((files - 1))); do cp "$scratch/source.sqlite" "$scratch/ranks/rank$i.sqlite"; done

now_ms() { date +%s%3N; }
# Runs one recipe; prints its wall time in ms, or fails with gpuscope's sentence.
timed() {
  local start end
  start=$(now_ms)
  "$gpuscope" recipe "$@" --input "$scratch/ranks" >"$scratch/log" 2>&1 || { cat "$scratch/log" >&2; exit 1; }
  end=$(now_ms)
  echo $((end - start))
}

# One line of the table: recipe, mode, wall ms, and the 1-worker ms to compare with (empty: none).
row() {
  awk -v r="$1" -v m="$2" -v ms="$3" -v one="$4" -v n="$files" 'BEGIN {
    printf "%-20s %-12s %10.2f %10.1f %12s\n", r, m, ms / 1000, n * 1000 / ms, one == "" ? "-" : sprintf("%.2fx", one / ms) }'
}

echo "gpuscope recipe over $files rank files of $(du -sh "$scratch/ranks" | cut -f1) on $(nproc) cores" \
  "($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), Dask $("$python" -c \
  'import distributed; print(distributed.__version__)') under $python"
printf '%-20s %-12s %10s %10s %12s\n' recipe mode "wall s" "files/s" "vs 1 worker"
for recipe in $recipes; do
  ms=$(timed "$recipe" --output "$scratch/serial" --mode serial)
  row "$recipe" serial "$ms" ""
  one=""
  for n in $workers; do
    ms=$(timed "$recipe" --output "$scratch/local$n" --mode local --workers "$n")
    one=${one:-$ms}
    cmp -s "$scratch/serial/stats.csv" "$scratch/local$n/stats.csv" ||
      { echo "recipe_scaling: $recipe on $n workers differs from the serial run." >&2; exit 1; }
    row "$recipe" "$n workers" "$ms" "$one"
  done
done
