#!/usr/bin/env bash
# Recordings for walking through the viewer as a user (screenshots), made on the GPU machine: programs the
# viewer was never tested on, NOT test fixtures. What it records (the programs are in this folder):
#   hostprep       hostprep.py, a PyTorch loop starved by two host functions (decode_batch ~80%, augment ~20%
#                  of its preparation; NumPy on OpenBLAS with 8 threads), by `gpuscope record` (its default:
#                  cuda,nvtx,osrt, CPU samples at 1 kHz with Python frames read from CPython 3.12's own
#                  structures, thread switches)  -> hostprep.gpuscope.sqlite
#   nsys           the same program by nsys 2025.3.1 (-t cuda,nvtx,osrt --sample=process-tree
#                  --cpuctxsw=process-tree --backtrace=dwarf --python-sampling=true
#                  --python-sampling-frequency=1000), exported with `nsys export --type sqlite`
#                                                 -> hostprep.nsys.sqlite
#                  (seen 2026-11-29: the export's SAMPLING_CALLCHAINS hold no Python frames; decode_batch and
#                  augment appear only as unreferenced StringIds, so nsys's file shows native frames alone)
#   pageable       pageable_copy.py, copies from pageable host memory, by gpuscope -> pageable_copy.gpuscope.sqlite
#   mlp            mlp_bf16.py --hidden 4096 and --hidden 8192 (bf16 autocast MLP), by gpuscope, for a compare
#                                                 -> mlp_h4096.gpuscope.sqlite, mlp_h8192.gpuscope.sqlite
#   kineto         mlp_bf16.py --hidden 4096 under torch.profiler (CPU + CUDA) -> mlp_h4096.kineto.json.gz
# then `gpuscope analyze` and `gpuscope samples --limit 20` of each file into text files.
# Run on the device, carrying .deps (tests/gpu/prepare-deps.sh fills it) and tests/gpu/viewer/deps: libdw.so.1,
# which nsys's QdstrmImporter needs and .deps lacks (without it nsys leaves only a .qdstrm: "Importer error
# status"), with the libelf it pairs with, from Debian bookworm; made once here (ignored by this folder's .gitignore):
#   cd /tmp && apt-get download libdw1 && dpkg -x libdw1_*.deb x && mkdir -p $ROOT/tests/gpu/viewer/deps &&
#   cp -a x/usr/lib/x86_64-linux-gnu/libdw* $ROOT/.deps/usr/lib/x86_64-linux-gnu/libelf* $ROOT/tests/gpu/viewer/deps/
# then, with the run tool's carry [".deps", "tests/gpu/viewer/deps"]:
#   OUT=$OUT bash tests/gpu/viewer/record_stories.sh             (all stages, about 5-6 minutes with the build)
#   STAGES="mlp kineto" OUT=$OUT bash tests/gpu/viewer/record_stories.sh   (some stages; a warm machine reuses
#                                                 the build in /tmp/bg)
# What comes back in $OUT (the device returns at most 8 files of 16 MiB): each trace gzip-compressed
# (NAME.sqlite.gz; xz when gzip leaves it over 15 MiB), the Kineto .json.gz, texts.tar.gz (every program's output,
# the analyze and samples texts, `gpuscope record --help`, the nsys log, table.txt) and log.txt (this script's
# output, the table last: file, size, kernels, CPU samples, the program's own line).
# Each stage writes its files to $OUT as soon as it ends, so a call cut short still returns what was done.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
HERE=$ROOT/tests/gpu/viewer
OUT=${OUT:-/tmp/viewer-stories-out}
O=/tmp/viewer-stories
T=$O/texts
STAGES=${STAGES:-hostprep nsys pageable mlp kineto}
PYTHON=${PYTHON:-python3}
NSYS=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
mkdir -p "$O" "$T" "$OUT"
exec > >(tee -a "$OUT/log.txt") 2>&1
T0=$(date +%s)
say() { echo "== [$(($(date +%s) - T0)) s] $*"; }
export PYTHONUNBUFFERED=1
lib=$ROOT/.deps/usr/lib/x86_64-linux-gnu
system=$(ldconfig -p | awk '/libsqlite3.so.0 .*x86-64/ {print $NF; exit}')
[ -e "$lib/libsqlite3.so" ] || [ -z "$system" ] || ln -sf "$system" "$lib/libsqlite3.so"

say "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) $(nproc) cores; $($PYTHON --version);" \
  "torch $($PYTHON -c 'import torch; print(torch.__version__, torch.version.cuda)' 2>&1 | tail -1); stages: $STAGES"
say "building gpuscope from the working tree (tests/gpu/run.sh BUILD_ONLY=1 into /tmp/bg)"
GPUSCOPE_GPU_BUILD=/tmp/bg BUILD_ONLY=1 OUT=$O/build timeout 420 "$ROOT/tests/gpu/run.sh" > "$O/build.txt" 2>&1 ||
  { echo "FAILED: the build"; tail -30 "$O/build/run.log"; exit 1; }
G=/tmp/bg/app/gpuscope
"$G" record --help > "$T/gpuscope_record_help.txt" 2>&1

# Gzip a trace into $OUT (xz if gzip leaves it over 15 MiB), read it with analyze and samples, pack the texts.
keep() {
  local name=$1 file=$O/$1
  [ -s "$file" ] || { echo "FAILED: no $name"; return; }
  "$G" analyze "$file" > "$T/${name%.sqlite}.analyze.txt" 2>&1 || echo "  analyze $name: exit $?"
  "$G" samples "$file" --limit 20 > "$T/${name%.sqlite}.samples.txt" 2>&1 || echo "  samples $name: exit $?"
  rm -f "$OUT/$name".*
  gzip -c "$file" > "$OUT/$name.gz"
  if [ "$(stat -c %s "$OUT/$name.gz")" -gt $((15 * 1024 * 1024)) ]; then
    rm -f "$OUT/$name.gz"; xz -T0 -6 -c "$file" > "$OUT/$name.xz"
  fi
  ls -la "$OUT/$name".* | awk '{print "  " $5 " bytes " $NF}'
  grep -m3 -iE "verdict|bound|starved|idle|blocked" "$T/${name%.sqlite}.analyze.txt" | cut -c1-200 | sed 's/^/  /'
  tar -C "$O" -czf "$OUT/texts.tar.gz" texts
}
record() {  # record NAME TIMEOUT ARGS...: gpuscope record of the program in this folder
  local name=$1 limit=$2; shift 2
  say "gpuscope record -o $name -- $PYTHON $*"
  (cd "$HERE" && timeout "$limit" "$G" record -f -o "$O/$name" -- "$PYTHON" "$@") > "$T/${name%.sqlite}.out.txt" 2>&1 ||
    echo "FAILED: recording $name ($?)"
  grep -E "^(HOSTPREP|PAGEABLE|MLP)|gpuscope|rror" "$T/${name%.sqlite}.out.txt" | cut -c1-200 | head -12 | sed 's/^/  /'
  keep "$name"
}

for stage in $STAGES; do
  case $stage in
    hostprep) record hostprep.gpuscope.sqlite 150 hostprep.py 40 3 ;;
    nsys)
      say "nsys profile (sampling, python sampling) -- $PYTHON hostprep.py 40 3"
      nsys_env=(env LD_LIBRARY_PATH="$HERE/deps:$lib:$(dirname "$NSYS"):${LD_LIBRARY_PATH:-}" "$NSYS")
      (cd "$HERE" && timeout 200 "${nsys_env[@]}" profile -t cuda,nvtx,osrt --sample=process-tree \
        --cpuctxsw=process-tree --backtrace=dwarf --python-sampling=true --python-sampling-frequency=1000 \
        --force-overwrite=true -o "$O/hostprep.nsys" "$PYTHON" hostprep.py 40 3 &&
        timeout 150 "${nsys_env[@]}" export --type sqlite --force-overwrite=true -o "$O/hostprep.nsys.sqlite" \
        "$O/hostprep.nsys.nsys-rep") > "$T/hostprep.nsys.out.txt" 2>&1 || echo "FAILED: nsys ($?)"
      # Where nsys could not run its importer (seen: "Unable to retrieve the importer version") it leaves the
      # .qdstrm: import it with QdstrmImporter from nsys's host folder.
      if [ ! -s "$O/hostprep.nsys.sqlite" ] && [ -s "$O/hostprep.nsys.qdstrm" ]; then
        ls "$(dirname "$(dirname "$NSYS")")" | tr '\n' ' ' | sed 's/^/  nsys host folder: /'; echo
        imp=$(find "$(dirname "$(dirname "$NSYS")")" /opt /usr/local -maxdepth 7 -name QdstrmImporter -type f 2>/dev/null |
          head -1)
        say "importing hostprep.nsys.qdstrm with ${imp:-no QdstrmImporter found}"
        if [ -n "$imp" ]; then
          { ldd "$imp" | grep "not found"
            LD_LIBRARY_PATH="$HERE/deps:$(dirname "$imp")" timeout 150 "$imp" -i "$O/hostprep.nsys.qdstrm"
            timeout 150 "${nsys_env[@]}" export --type sqlite --force-overwrite=true -o "$O/hostprep.nsys.sqlite" \
              "$O/hostprep.nsys.nsys-rep"; } >> "$T/hostprep.nsys.out.txt" 2>&1 || echo "FAILED: the import ($?)"
          tail -5 "$T/hostprep.nsys.out.txt" | cut -c1-200 | sed 's/^/  /'
        fi
      fi
      grep -E "^HOSTPREP|rror|arning" "$T/hostprep.nsys.out.txt" | cut -c1-200 | head -12 | sed 's/^/  /'
      keep hostprep.nsys.sqlite
      ;;
    pageable) record pageable_copy.gpuscope.sqlite 120 pageable_copy.py 300 ;;
    mlp)
      record mlp_h4096.gpuscope.sqlite 120 mlp_bf16.py --hidden 4096
      record mlp_h8192.gpuscope.sqlite 120 mlp_bf16.py --hidden 8192
      ;;
    kineto)
      say "torch.profiler: $PYTHON mlp_bf16.py --hidden 4096 --kineto mlp_h4096.kineto.json.gz"
      (cd "$HERE" && timeout 120 "$PYTHON" mlp_bf16.py --hidden 4096 --kineto "$OUT/mlp_h4096.kineto.json.gz") \
        > "$T/mlp_h4096.kineto.out.txt" 2>&1 || echo "FAILED: kineto ($?)"
      grep -E "^MLP|rror" "$T/mlp_h4096.kineto.out.txt" | head -4 | sed 's/^/  /'
      "$G" analyze "$OUT/mlp_h4096.kineto.json.gz" > "$T/mlp_h4096.kineto.analyze.txt" 2>&1 || echo "  analyze kineto: exit $?"
      ls -la "$OUT/mlp_h4096.kineto.json.gz" | awk '{print "  " $5 " bytes " $NF}'
      tar -C "$O" -czf "$OUT/texts.tar.gz" texts
      ;;
    *) echo "unknown stage $stage" ;;
  esac
done

say "table"
"$PYTHON" - "$O" "$OUT" <<'PY' | tee "$T/table.txt"
import glob, os, re, sqlite3, sys
o, out = sys.argv[1], sys.argv[2]
def one(db, sql):
    try:
        return db.execute(sql).fetchone()[0]
    except sqlite3.Error:
        return "-"
print(f"{'file':<34}{'packed':>10}{'sqlite':>10}{'kernels':>9}{'samples':>9}{'py smp':>8}  program's own line")
for path in sorted(glob.glob(f"{o}/*.sqlite")):
    name = os.path.basename(path)
    packed = [p for p in glob.glob(f"{out}/{name}.*")]
    db = sqlite3.connect(path)
    kernels = one(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")
    samples = one(db, "SELECT count(*) FROM COMPOSITE_EVENTS")
    python = one(db, "SELECT value FROM GPUSCOPE_META WHERE name = 'python_samples'")
    if python == "-":
        python = one(db, "SELECT count(*) FROM PYTHON_SAMPLING_EVENTS")  # nsys's own Python samples, if any
    text = open(f"{o}/texts/{name[:-7]}.out.txt", errors="replace").read() if os.path.exists(f"{o}/texts/{name[:-7]}.out.txt") else ""
    lines = [l for l in text.splitlines() if re.match(r"(HOSTPREP (decode|\d)|PAGEABLE|MLP)", l)]
    size = f"{os.path.getsize(packed[0]) / 2**20:.1f}M" if packed else "-"
    print(f"{name:<34}{size:>10}{os.path.getsize(path) / 2**20:>9.1f}M{kernels:>9}{samples:>9}{python:>8}  "
          f"{(lines[0] if lines else '')[:110]}")
    for l in lines[1:]:
        print(f"{'':<80}  {l[:110]}")
k = f"{out}/mlp_h4096.kineto.json.gz"
if os.path.exists(k):
    print(f"{'mlp_h4096.kineto.json.gz':<34}{os.path.getsize(k) / 2**20:>9.1f}M")
PY
tar -C "$O" -czf "$OUT/texts.tar.gz" texts
ls -la "$OUT"
