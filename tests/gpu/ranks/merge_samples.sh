#!/usr/bin/env bash
# Issue 39 on a machine with 2 NVIDIA GPUs: tests/gpu/ranks/ddp_loop.py (DDP over NCCL; rank 1 spends SLOW_MS of
# each step in its Python function busy() before its backward) recorded per rank by gpuscope with its default CPU
# samples (torchrun --no-python gpuscope record -o rank%q{RANK}.sqlite), merged with `gpuscope merge`, then:
#   1. the merge keeps every sample: per rank, the merged file's CPU samples, callchain frames, thread-state
#      records and OS-runtime backtraces equal the rank file's;
#   2. `gpuscope samples job.sqlite --pid P` prints what `gpuscope samples rankR.sqlite --pid P` prints;
#   3. `gpuscope analyze job.sqlite`: the slow rank's verdict names busy (ddp_loop.py:N), the straggler finding
#      names rank 1; and `gpuscope merge` of a rank with itself shifted an hour is refused without --force.
# The log, the merge's and analyze's output and the table come back in $OUT (the rank files, about 18 MB gzipped
# each with their default samples, do not: tests/fixtures/ranks/gpuscope holds small host-only recordings).
# Builds gpuscope from the working tree (tests/gpu/run.sh BUILD_ONLY=1 into /tmp/bg); carry .deps/usr
# (tests/gpu/prepare-deps.sh, its share/doc, share/man and static libraries removed to fit the size limit).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
HERE=$ROOT/tests/gpu/ranks
OUT=${OUT:-/tmp/merge-samples-out}
O=/tmp/merge-samples
rm -rf "$O" && mkdir -p "$O" "$OUT"
exec > >(tee "$OUT/log.txt") 2>&1
T0=$(date +%s)
say() { echo "== [$(($(date +%s) - T0)) s] $*"; }
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
export SLOW_RANK=${SLOW_RANK:-1} SLOW_MS=${SLOW_MS:-15} WARMUP=${WARMUP:-5} STEPS=${STEPS:-20}
PYTHON=${PYTHON:-python3}
# One GPU: both ranks on it over gloo (no collective kernels, so no straggler finding; the samples still tell).
if [ "$(nvidia-smi -L | wc -l)" -lt 2 ]; then export BACKEND=gloo; fi
lib=$ROOT/.deps/usr/lib/x86_64-linux-gnu
system=$(ldconfig -p | awk '/libsqlite3.so.0 .*x86-64/ {print $NF; exit}')
[ -e "$lib/libsqlite3.so" ] || [ -z "$system" ] || ln -sf "$system" "$lib/libsqlite3.so"

say "machine: $(nvidia-smi --query-gpu=index,name --format=csv,noheader | tr '\n' ';') $(nproc) cores"
# The working tree as it came: the device's copy carries the .git of the session's start, not its commits.
say "building gpuscope from the working tree (tests/gpu/run.sh BUILD_ONLY=1 into /tmp/bg)"
GPUSCOPE_GPU_BUILD=/tmp/bg BUILD_ONLY=1 OUT=$O/build timeout 420 "$ROOT/tests/gpu/run.sh" > "$O/build.txt" 2>&1 ||
  { echo "FAILED: the build"; tail -30 "$O/build/run.log"; exit 1; }
G=/tmp/bg/app/gpuscope

say "recording per rank: torchrun --no-python gpuscope record -o rank%q{RANK}.sqlite -- python3 ddp_loop.py"
cd "$HERE" || exit 1
timeout 180 "$PYTHON" -m torch.distributed.run --standalone --nproc_per_node=2 --no-python "$G" record -f \
  -o "$O/rank%q{RANK}.sqlite" -- "$PYTHON" ddp_loop.py > "$O/ranks.txt" 2>&1 || echo "FAILED: the recording ($?)"
grep -E "DDP_LOOP|gpuscope" "$O/ranks.txt" | head -12

say "merging"
"$G" merge "$O/rank0.sqlite" "$O/rank1.sqlite" -o "$O/job.sqlite" 2>&1 | tee "$O/merge.txt" | head -20

say "1. every sample kept, per rank"
"$PYTHON" - "$O" <<'PY' | tee "$O/counts.txt"
import sqlite3, sys
o = sys.argv[1]
job = sqlite3.connect(f"{o}/job.sqlite")
ranks = job.execute("SELECT rank, hwFirst, hwLast FROM GPUSCOPE_RANKS ORDER BY rank").fetchall()
def count(db, sql):
    try:
        return db.execute(sql).fetchone()[0]
    except sqlite3.OperationalError as error:
        print(f"  FAILED: {error}: {sql}")
        return -1
ok = True
print(f"  {'rank':<5}{'table':<22}{'rank file':>12}{'merged':>12}")
for rank, first, last in ranks:
    own = sqlite3.connect(f"{o}/rank{rank}.sqlite")
    hw = lambda alias: f"({alias}.globalTid >> 56) BETWEEN {first} AND {last}"
    for table, mine, merged in [
        ("COMPOSITE_EVENTS", "SELECT count(*) FROM COMPOSITE_EVENTS", f"SELECT count(*) FROM COMPOSITE_EVENTS e WHERE {hw('e')}"),
        ("SAMPLING_CALLCHAINS", "SELECT count(*) FROM SAMPLING_CALLCHAINS",
         f"SELECT count(*) FROM SAMPLING_CALLCHAINS c JOIN COMPOSITE_EVENTS e ON e.id = c.id WHERE {hw('e')}"),
        ("SCHED_EVENTS", "SELECT count(*) FROM SCHED_EVENTS", f"SELECT count(*) FROM SCHED_EVENTS s WHERE {hw('s')}"),
        ("OSRT_CALLCHAINS", "SELECT count(*) FROM OSRT_API o JOIN OSRT_CALLCHAINS c ON c.id = o.callchainId",
         f"SELECT count(*) FROM OSRT_API o JOIN OSRT_CALLCHAINS c ON c.id = o.callchainId WHERE {hw('o')}")]:
        a, b = count(own, mine), count(job, merged)
        ok = ok and a == b
        print(f"  {rank:<5}{table:<22}{a:>12}{b:>12}{'' if a == b else '  DIFFERENT'}")
print("  every sample kept" if ok else "FAILED: counts differ")
PY

say "2. gpuscope samples --pid on the merge against the rank file"
for r in 0 1; do
  # The rank's most sampled process: its training loop.
  pid=$("$PYTHON" -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT (globalTid >> 24) & 16777215 AS p FROM COMPOSITE_EVENTS GROUP BY p ORDER BY count(*) DESC LIMIT 1').fetchone()[0])" "$O/rank$r.sqlite")
  "$G" samples "$O/rank$r.sqlite" --pid "$pid" --view flat -f csv > "$O/samples_rank$r.csv" 2>&1
  "$G" samples "$O/job.sqlite" --pid "$pid" --view flat -f csv > "$O/samples_job_rank$r.csv" 2>&1
  if cmp -s "$O/samples_rank$r.csv" "$O/samples_job_rank$r.csv"; then
    echo "  rank $r (pid $pid): the same $(($(wc -l < "$O/samples_rank$r.csv") - 1)) rows; top: $(sed -n 2p "$O/samples_rank$r.csv" | cut -c1-90)"
  else
    echo "FAILED: rank $r (pid $pid) differs"; diff "$O/samples_rank$r.csv" "$O/samples_job_rank$r.csv" | head -6
  fi
done | tee "$O/samples.txt"

say "3. gpuscope analyze job.sqlite"
"$G" analyze "$O/job.sqlite" > "$O/analyze.txt" 2>&1
"$G" analyze "$O/job.sqlite" --format json > "$O/analyze.json" 2> "$O/analyze.err"
grep -nE "busy|straggler|Straggler|^Rank|rank 1" "$O/analyze.txt" | head -20
"$PYTHON" - "$O/analyze.json" <<'PY' | tee "$O/verdicts.txt"
import json, sys
d = json.load(open(sys.argv[1]))
def walk(node, found):
    if isinstance(node, dict):
        if node.get("id") == "straggler" and node.get("found"):
            found.append(node)
        for value in node.values():
            walk(value, found)
    elif isinstance(node, list):
        for value in node:
            walk(value, found)
    return found
for rank in d.get("rank_verdicts", []):
    functions = []
    def collect(node):
        if isinstance(node, dict):
            for f in node.get("top_functions", []):
                functions.append(f"{f['name']} {100 * f['share']:.1f}%")
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)
    collect(rank)
    print(f"  {rank.get('label', rank.get('rank'))}: {rank.get('class')}; host functions: {', '.join(functions[:3]) or 'none'}")
for s in walk(d, [])[:1]:
    e = s.get("evidence", {})
    print(f"  straggler: {e.get('label')} (last in {e.get('started_last')} of {e.get('collectives')}, others waited "
          f"{e.get('others_waited_ns', 0) / 1e6:.1f} ms)")
PY

say "4. a rank merged with itself an hour later is refused"
cp "$O/rank1.sqlite" "$O/later.sqlite"
"$PYTHON" -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs = utcEpochNs + 3600000000000'); c.execute('UPDATE GPUSCOPE_RANKS SET sessionStartUtcNs = sessionStartUtcNs + 3600000000000'); c.commit()" "$O/later.sqlite"
"$G" merge "$O/rank0.sqlite" "$O/later.sqlite" -o "$O/apart.sqlite" > "$O/apart.txt" 2>&1
echo "  without --force: exit $?: $(tail -1 "$O/apart.txt")"
"$G" merge --force "$O/rank0.sqlite" "$O/later.sqlite" -o "$O/apart.sqlite" > "$O/apart_force.txt" 2>&1
echo "  with --force: exit $?: $(grep warning "$O/apart_force.txt" | head -1)"

say "table"
{
  echo "machine: $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs); ddp_loop.py BACKEND=${BACKEND:-nccl} SLOW_RANK=$SLOW_RANK SLOW_MS=$SLOW_MS WARMUP=$WARMUP STEPS=$STEPS"
  grep -h DDP_LOOP "$O/ranks.txt" | sed 's/^/  /' | cut -c1-160
  cat "$O/counts.txt" "$O/samples.txt" "$O/verdicts.txt"
} | tee "$OUT/table.txt"
cp "$O/analyze.txt" "$O/merge.txt" "$OUT/" 2> /dev/null
ls -la "$OUT"
