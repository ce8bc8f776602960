#!/usr/bin/env bash
# open_vs_sqlite.sh: issue 30's figure for opening a big trace. Times, back to back and RUNS times each,
#   (1) the sqlite3 CLI running the issue's five column scans (the baseline), and
#   (2) `gpuscope-ui FILE --screenshot PNG --size 1920x1080` until the PNG exists (the window fully painted),
# then prints each run with its ratio, the medians and the best of each. This machine's single-thread speed
# moves by a quarter from minute to minute, so the paired ratios and their median say more than one pair. Peak RSS of the viewer comes from /usr/bin/time.
# With BEFORE_UI, a second viewer binary (an older build) is timed in the same runs, the two taking turns
# to go first, so that a change is measured against its baseline on the same minute's machine.
#
#   bench/open_vs_sqlite.sh FILE [RUNS] [UI_BINARY] [BEFORE_UI]
set -euo pipefail
file=${1:?usage: open_vs_sqlite.sh FILE [RUNS] [UI_BINARY] [BEFORE_UI]}
runs=${2:-3}
ui=${3:-build/app/gpuscope-ui}
before_ui=${4:-}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cat >"$scratch/scan.sql" <<'SQL'
select total(start), total(end), total(streamId), total(correlationId), total(demangledName) from CUPTI_ACTIVITY_KIND_KERNEL;
select total(start), total(end), total(globalTid), total(correlationId), total(nameId) from CUPTI_ACTIVITY_KIND_RUNTIME;
select total(start), total(end), total(globalTid), total(nameId) from OSRT_API;
select total(start), total(end), count(text) from NVTX_EVENTS;
select total(start), total(end), total(bytes) from CUPTI_ACTIVITY_KIND_MEMCPY;
SQL

now_ms() { date +%s%3N; }

events=$(sqlite3 "$file" "select (select count(*) from CUPTI_ACTIVITY_KIND_KERNEL)+(select count(*) from CUPTI_ACTIVITY_KIND_RUNTIME)+(select count(*) from OSRT_API)+(select count(*) from NVTX_EVENTS)+(select count(*) from CUPTI_ACTIVITY_KIND_MEMCPY)+(select count(*) from CUPTI_ACTIVITY_KIND_MEMSET)")
cat "$file" >/dev/null  # both start from a warm page cache
best_scan=999999; best_open=999999; peak_kib=0; scans=(); opens=(); ratios=(); befores=(); before_ratios=()

# open_ms BINARY PNG: milliseconds until BINARY has written PNG; its peak RSS (KiB) is left in $scratch/rss.
open_ms() {
  local t0 pid
  t0=$(now_ms)
  QT_QPA_PLATFORM=offscreen /usr/bin/time -f %M -o "$scratch/rss" "$1" "$file" --screenshot "$2" --size 1920x1080 \
    >/dev/null 2>"$scratch/ui.err" &
  pid=$!
  while [ ! -s "$2" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.005; done
  echo $(( $(now_ms) - t0 ))
  wait "$pid" || { echo "$1 failed:" >&2; cat "$scratch/ui.err" >&2; exit 1; }
}

header=$(printf '%-5s %12s %14s %8s %10s' run "sqlite3 ms" "PNG at ms" ratio "peak MiB")
[ -n "$before_ui" ] && header+=$(printf ' %16s %8s' "before: PNG ms" ratio)
echo "$header"
for run in $(seq "$runs"); do
  t0=$(now_ms); sqlite3 "$file" <"$scratch/scan.sql" >/dev/null; scan=$(( $(now_ms) - t0 ))
  if [ -n "$before_ui" ] && (( run % 2 == 1 )); then before=$(open_ms "$before_ui" "$scratch/before$run.png"); fi
  open=$(open_ms "$ui" "$scratch/open$run.png")
  kib=$(tail -1 "$scratch/rss")
  if [ -n "$before_ui" ] && (( run % 2 == 0 )); then before=$(open_ms "$before_ui" "$scratch/before$run.png"); fi
  ratio=$(awk -v s="$scan" -v o="$open" 'BEGIN {printf "%.2f", o / s}')
  ratios+=("$ratio")
  line=$(printf '%-5s %12d %14d %8s %10d' "$run" "$scan" "$open" "$ratio" $(( kib / 1024 )))
  if [ -n "$before_ui" ]; then
    before_ratio=$(awk -v s="$scan" -v o="$before" 'BEGIN {printf "%.2f", o / s}')
    befores+=("$before"); before_ratios+=("$before_ratio")
    line+=$(printf ' %16d %8s' "$before" "$before_ratio")
  fi
  echo "$line"
  scans+=("$scan"); opens+=("$open")
  (( scan < best_scan )) && best_scan=$scan
  (( open < best_open )) && best_open=$open
  (( kib > peak_kib )) && peak_kib=$kib
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
awk -v s="$(median "${scans[@]}")" -v o="$(median "${opens[@]}")" 'BEGIN {
  printf "median sqlite3 scan %d ms, median open to PNG %d ms: ratio %.2fx\n", s, o, o / s }'
echo "median of the runs' ratios: $(median "${ratios[@]}")x (each run pairs a scan with the open right after it)"
if [ -n "$before_ui" ]; then
  echo "before ($before_ui): median open to PNG $(median "${befores[@]}") ms, median of the runs' ratios $(median "${before_ratios[@]}")x"
fi
awk -v s="$best_scan" -v o="$best_open" -v k="$peak_kib" -v e="$events" 'BEGIN {
  printf "events %d; best sqlite3 scan %d ms, best open to PNG %d ms: ratio %.2fx (target <= 1.20)\n", e, s, o, o / s
  printf "peak RSS %.0f MiB = %.1f B/event (target <= 48)\n", k / 1024, k * 1024 / e }'
