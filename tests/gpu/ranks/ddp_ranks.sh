#!/usr/bin/env bash
# Issue 29's rank fixtures, in one device call on a machine with 2 NVIDIA GPUs: tests/gpu/ranks/ddp_loop.py
# (DDP over NCCL, rank 1 made slower by SLOW_MS of host work before its backward) recorded
#   1. by torch.profiler (Kineto), one Chrome trace per rank with distributedInfo   -> kineto.tar.gz
#   2. by nsys, per rank (torchrun --no-python nsys profile -o rank%q{RANK} --export=sqlite), with
#      `nsys stats -r nvtx_sum,cuda_gpu_kern_sum --format csv` on each export       -> nsys.tar.gz
#   3. by gpuscope (built as tests/gpu/run.sh BUILD_ONLY=1 does, into /tmp/bg): per rank, each rank's
#      python under `gpuscope record`, and whole, `gpuscope record -- torchrun ...`  -> gpuscope.tar.gz
# then checks that every recording holds NCCL kernels and prints the per-rank table (tests/gpu/ranks/
# summary.py) last, also into $OUT/table.txt. The whole log is $OUT/log.txt.
#
# Carry .deps (tests/gpu/prepare-deps.sh: the build's headers, libelf's included) where the build needs libelf,
# else .nsysdeps (deps.tar.xz: .deps/usr with libdw/libelf for nsys and the SQLite, nlohmann-json and CLI11
# headers for the build, made from tests/gpu/prepare-deps.sh's .deps; see tests/fixtures/ranks/README.md).
# NO_GPUSCOPE=1 skips step 3, NO_KINETO=1 step 1, NO_NSYS=1 step 2 (the fixtures hold their files already).
# After step 3, step 4 runs `gpuscope analyze` on each pair of rank files and on the whole recording and
# prints the straggler finding and the per-rank verdicts, and `gpuscope diff --rank-a 0 --rank-b 1` on the merge;
# RECIPE_SCALING=1 then runs bench/recipe_scaling.sh (Dask from the wheels in .wheels when the machine has none).
# LIMIT (default 480) is the seconds the whole script may take.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
HERE=$ROOT/tests/gpu/ranks
LIMIT=${LIMIT:-480}
T0=$(date +%s)
left() { echo $((LIMIT - ($(date +%s) - T0))); }
OUT=${OUT:-/tmp/ranks-out}
O=/tmp/ranks
rm -rf "$O" && mkdir -p "$O"/{kineto,nsys,gpuscope} "$OUT"
exec > >(tee "$OUT/log.txt") 2>&1
say() { echo "== [$(($(date +%s) - T0)) s] $*"; }

# NVLink multicast stays off on the lent machines (KINDS.md).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
export SLOW_RANK=${SLOW_RANK:-1} SLOW_MS=${SLOW_MS:-15} WARMUP=${WARMUP:-5} STEPS=${STEPS:-30}
NSYS=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
PYTHON=${PYTHON:-python3}
TORCHRUN=("$PYTHON" -m torch.distributed.run --standalone --nproc_per_node=2)
if [ -f "$ROOT/.nsysdeps/deps.tar.xz" ] && [ ! -e "$ROOT/.deps/usr/lib/x86_64-linux-gnu/libdw.so.1" ]; then
  tar -C "$ROOT" -xJf "$ROOT/.nsysdeps/deps.tar.xz" || echo "FAILED: unpacking .nsysdeps/deps.tar.xz"
fi
# deps.tar.xz leaves out libsqlite3.so (the working tree's size limit): link the system's libsqlite3.so.0.
link_sqlite() {  # DIR holding .deps
  local lib=$1/.deps/usr/lib/x86_64-linux-gnu system
  system=$(ldconfig -p | awk '/libsqlite3.so.0 .*x86-64/ {print $NF; exit}')
  [ -e "$lib/libsqlite3.so" ] || [ -z "$system" ] || ln -sf "$system" "$lib/libsqlite3.so"
}
link_sqlite "$ROOT"
NSYS_LD=$ROOT/.deps/usr/lib/x86_64-linux-gnu:$(dirname "$NSYS")
nsys_run() { LD_LIBRARY_PATH="$NSYS_LD:${LD_LIBRARY_PATH:-}" "$NSYS" "$@"; }

say "machine: $(nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tr '\n' ';') $(nproc) cores"
nvidia-smi topo -m 2>&1 | head -4
"$PYTHON" -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'nccl', torch.cuda.nccl.version(), 'gpus', torch.cuda.device_count())"
nsys_run --version || echo "FAILED: nsys does not start"
cd "$HERE" || exit 1

# ---- 1. Kineto, per rank ----
[ "${NO_KINETO:-0}" = 1 ] || {
say "1. torch.profiler (Kineto) per rank: ${TORCHRUN[*]} ddp_loop.py, KINETO_DIR=$O/kineto"
KINETO_DIR=$O/kineto timeout 120 "${TORCHRUN[@]}" ddp_loop.py > "$O/kineto/run.txt" 2>&1 || echo "FAILED: kineto run ($?)"
grep DDP_LOOP "$O/kineto/run.txt"
for r in 0 1; do
  "$PYTHON" - "$O/kineto/rank$r.json" <<'PY' || echo "FAILED: kineto rank $r"
import json, sys
t = json.load(open(sys.argv[1]))
ev = t.get("traceEvents", [])
k = [e for e in ev if e.get("cat") == "kernel"]
print(f"   {sys.argv[1].split('/')[-1]}: distributedInfo {t.get('distributedInfo')}, baseTimeNanoseconds "
      f"{t.get('baseTimeNanoseconds')}, {len(ev)} events, {len(k)} kernels, "
      f"{sum('nccl' in e.get('name', '').lower() for e in k)} NCCL")
PY
  gzip -9 -f "$O/kineto/rank$r.json"
done
}

# ---- 2. nsys, per rank ----
[ "${NO_NSYS:-0}" = 1 ] || {
say "2. nsys per rank: ${TORCHRUN[*]} --no-python nsys profile ... -o rank%q{RANK} python3 ddp_loop.py"
LD_LIBRARY_PATH="$NSYS_LD:${LD_LIBRARY_PATH:-}" timeout 180 "${TORCHRUN[@]}" --no-python "$NSYS" profile \
  -t cuda,nvtx,osrt --cuda-memory-usage=false --sample=none --cpuctxsw=none --force-overwrite=true \
  --export=sqlite -o "$O/nsys/rank%q{RANK}" "$PYTHON" ddp_loop.py > "$O/nsys/run.txt" 2>&1 ||
  echo "FAILED: nsys run ($?)"
grep -E "DDP_LOOP|Generated|rror" "$O/nsys/run.txt" | head -20
for r in 0 1; do
  f=$O/nsys/rank$r.sqlite
  [ -f "$f" ] || { echo "FAILED: no $f"; continue; }
  n=$(sqlite3 "$f" "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id=k.shortName WHERE s.value LIKE '%nccl%'" 2> /dev/null ||
    "$PYTHON" -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id=k.shortName WHERE s.value LIKE '%nccl%'\").fetchone()[0])" "$f")
  echo "   rank$r.sqlite: $n NCCL kernels"
  nsys_run stats -r nvtx_sum,cuda_gpu_kern_sum --format csv --force-export=false -o "$O/nsys/rank${r}_stats" "$f" \
    > "$O/nsys/rank${r}_stats.txt" 2>&1 || echo "FAILED: nsys stats rank $r"
done
ls -la "$O/nsys"
}

# ---- 3. gpuscope, per rank and whole ----
if [ "${NO_GPUSCOPE:-0}" != 1 ]; then
  # The committed tree (git archive HEAD) where the copy has its .git, so that work in progress in the
  # checkout cannot break the build; else the working tree as it came.
  SRC=$ROOT
  # FROM_TREE=1: the working tree as it came (the device's copy may carry an older .git than its files).
  if [ "${FROM_TREE:-0}" != 1 ] && commit=$(git -c safe.directory='*' -C "$ROOT" rev-parse HEAD 2> /dev/null); then
    rm -rf /tmp/src && mkdir -p /tmp/src &&
      git -c safe.directory='*' -C "$ROOT" archive HEAD | tar -x -C /tmp/src &&
      { if [ -d "$ROOT/.deps/usr/include" ]; then cp -a "$ROOT/.deps" /tmp/src/; else tar -C /tmp/src -xJf "$ROOT/.nsysdeps/deps.tar.xz"; fi; } &&
      link_sqlite /tmp/src && SRC=/tmp/src
  fi
  say "3. building gpuscope from $SRC (commit ${commit:-unknown}; tests/gpu/run.sh BUILD_ONLY=1 into /tmp/bg)"
  export GPUSCOPE_GPU_BUILD=/tmp/bg
  timeout $(($(left) - 150)) env BUILD_ONLY=1 OUT=$O/gpuscope/build "$SRC/tests/gpu/run.sh" > "$O/gpuscope/build.txt" 2>&1 ||
    { echo "FAILED: the gpuscope build"; tail -20 "$O/gpuscope/build/run.log"; }
  GPUSCOPE=/tmp/bg/app/gpuscope
  say "built: $(ls -la $GPUSCOPE 2>&1)"
  if [ -x "$GPUSCOPE" ] && [ "$(left)" -gt 120 ]; then
    say "3a. gpuscope per rank: ${TORCHRUN[*]} --no-python gpuscope record -o 'rank%q{RANK}.sqlite' -- python3 ddp_loop.py"
    timeout 120 "${TORCHRUN[@]}" --no-python "$GPUSCOPE" record -f -o "$O/gpuscope/rank%q{RANK}.sqlite" -- \
      "$PYTHON" ddp_loop.py > "$O/gpuscope/ranks.txt" 2>&1 || echo "FAILED: gpuscope per-rank run ($?)"
    grep -E "DDP_LOOP|gpuscope" "$O/gpuscope/ranks.txt" | head -12
  fi
  if [ -x "$GPUSCOPE" ] && [ "$(left)" -gt 90 ]; then
    say "3b. gpuscope whole: gpuscope record -o whole.sqlite -- ${TORCHRUN[*]} ddp_loop.py"
    timeout 120 "$GPUSCOPE" record -f -o "$O/gpuscope/whole.sqlite" -- "${TORCHRUN[@]}" ddp_loop.py \
      > "$O/gpuscope/whole.txt" 2>&1 || echo "FAILED: gpuscope whole run ($?)"
    grep -E "DDP_LOOP|gpuscope" "$O/gpuscope/whole.txt" | head -12
  fi
fi

# ---- 4. what gpuscope says about the ranks ----
if [ -x "${GPUSCOPE:-}" ]; then
  say "4. gpuscope analyze (straggler, per-rank verdicts) and diff --rank-a 0 --rank-b 1"
  verdicts() {  # LABEL FILE...
    local label=$1
    shift
    "$GPUSCOPE" analyze "$@" -r straggler --format json > "$O/analyze.json" 2> "$O/analyze.err" ||
      { echo "FAILED: analyze $label: $(cat "$O/analyze.err")"; return; }
    "$PYTHON" - "$label" "$O/analyze.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[2]))
s = next((f for f in d["findings"] if f["id"] == "straggler"), None)
e = s["evidence"] if s and s.get("found") else {}
ranks = ", ".join(f"{r['label']}: {r['class']}" for r in d.get("rank_verdicts", []))
print(f"  {sys.argv[1]:<28} straggler {e.get('label', 'none')} (last in {e.get('started_last', '-')} of "
      f"{e.get('collectives', '-')}, others waited {e.get('others_waited_ns', 0) / 1e6:.1f} ms); per rank: {ranks}")
PY
  }
  [ -f "$O/nsys/rank0.sqlite" ] && verdicts "nsys per rank" "$O/nsys/rank0.sqlite" "$O/nsys/rank1.sqlite"
  [ -f "$O/gpuscope/rank0.sqlite" ] && verdicts "gpuscope per rank (%q{RANK})" "$O/gpuscope/rank0.sqlite" "$O/gpuscope/rank1.sqlite"
  [ -f "$O/gpuscope/whole.sqlite" ] && verdicts "gpuscope whole" "$O/gpuscope/whole.sqlite"
  if [ -f "$O/gpuscope/rank0.sqlite" ]; then
    "$GPUSCOPE" merge "$O/gpuscope/rank0.sqlite" "$O/gpuscope/rank1.sqlite" -o "$O/gpuscope/merged.sqlite" 2>&1 | grep -iE "residual|collective|rank " | head -6
    "$GPUSCOPE" diff "$O/gpuscope/merged.sqlite" --rank-a 0 --rank-b 1 --width 140 2>&1 | grep -E "^ (Metric|GPU busy|Kernel time)|AllReduce" | head -6
  fi
fi 2>&1 | tee "$O/verdicts.txt"

# ---- 5. the recipe's scaling figure ----
if [ "${RECIPE_SCALING:-0}" = 1 ] && [ -x "${GPUSCOPE:-}" ] && [ "$(left)" -gt 60 ]; then
  say "5. bench/recipe_scaling.sh over ${FILES:-256} rank files ($(left) s left)"
  RPY=$PYTHON
  if ! "$PYTHON" -c 'import distributed' 2> /dev/null && ls "$ROOT"/.wheels/*.whl > /dev/null 2>&1; then
    "$PYTHON" -m pip install -q --no-index --find-links "$ROOT/.wheels" --target /tmp/pydask dask distributed \
      > "$O/pip.txt" 2>&1 || { echo "FAILED: pip install of the Dask wheels"; tail -5 "$O/pip.txt"; }
    export PYTHONPATH=/tmp/pydask${PYTHONPATH:+:$PYTHONPATH}
  fi
  timeout $(($(left) - 20)) env PYTHON="$RPY" RECIPES="${RECIPES:-cuda_gpu_kern_sum}" \
    "$ROOT/bench/recipe_scaling.sh" /tmp/bg 2>&1 | tee "$OUT/recipe_scaling.txt" || echo "FAILED: recipe_scaling ($?)"
fi

# ---- the table ----
say "table"
{
  echo "machine: $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs), driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
  echo "ddp_loop.py: SLOW_RANK=$SLOW_RANK SLOW_MS=$SLOW_MS WARMUP=$WARMUP STEPS=$STEPS"
  echo "program's own step times (median of the $STEPS steps after the warm-up):"
  "$PYTHON" - "$O"/kineto/run.txt "$O"/nsys/run.txt "$O"/gpuscope/ranks.txt "$O"/gpuscope/whole.txt <<'PY'
import json, os, sys
for path in sys.argv[1:]:
    if not os.path.exists(path):
        continue
    for line in open(path, errors="replace"):
        if "DDP_LOOP " in line:
            d = json.loads(line.split("DDP_LOOP ", 1)[1])
            print(f"  {path.split('/')[-2]}/{path.split('/')[-1]}: rank {d['rank']} step median {d['step_ms_median']} ms"
                  f" (min {d['step_ms_min']}, max {d['step_ms_max']})")
PY
  [ "${NO_NSYS:-0}" = 1 ] ||
    "$PYTHON" "$HERE/summary.py" --align --require-nccl "nsys per rank (every NVTX step, warm-up included)" "$O"/nsys/rank0.sqlite "$O"/nsys/rank1.sqlite
  ls "$O"/gpuscope/rank0.sqlite > /dev/null 2>&1 &&
    "$PYTHON" "$HERE/summary.py" --align "gpuscope per rank" "$O"/gpuscope/rank0.sqlite "$O"/gpuscope/rank1.sqlite
  ls "$O"/gpuscope/whole.sqlite > /dev/null 2>&1 &&
    "$PYTHON" "$HERE/summary.py" --align "gpuscope whole (torchrun under gpuscope record)" "$O"/gpuscope/whole.sqlite
  cat "$O/verdicts.txt" 2> /dev/null
  cat "$OUT/recipe_scaling.txt" 2> /dev/null
} 2>&1 | tee "$OUT/table.txt"

# ---- pack ----
say "packing"
for f in "$O"/nsys/*.sqlite "$O"/gpuscope/*.sqlite; do gzip -9 -f "$f"; done
rm -f "$O"/nsys/*.nsys-rep
cp "$O"/gpuscope/build/run.log "$O"/gpuscope/build_run.log 2> /dev/null; rm -rf "$O"/gpuscope/build
(cd "$O" && tar czf "$OUT/kineto.tar.gz" kineto; tar czf "$OUT/nsys.tar.gz" nsys; tar czf "$OUT/gpuscope.tar.gz" gpuscope)
ls -la "$OUT" "$O"/*/
say "done in $(($(date +%s) - T0)) s"
