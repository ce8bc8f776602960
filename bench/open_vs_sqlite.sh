#!/usr/bin/env bash
# open_vs_sqlite.sh: issue 30's figure for opening a big trace. Times, back to back and RUNS times each,
#   (1) the sqlite3 CLI running the issue's five column scans (the baseline), and
#   (2) `gpuscope-ui FILE --screenshot PNG --size 1920x1080` until the PNG exists (the window fully painted),
# then prints each run with its ratio, the medians and the best of each. This machine's single-thread speed
# moves by a quarter from minute to minute, so the paired ratios and their median say more than one pair. Peak RSS of the viewer comes from /usr/bin/time.
#
#   bench/open_vs_sqlite.sh FILE [RUNS] [UI_BINARY]
set -euo pipefail
file=${1:?usage: open_vs_sqlite.sh FILE [RUNS] [UI_BINARY]}
runs=${2:-3}
ui=${3:-build/app/gpuscope-ui}
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
best_scan=999999; best_open=999999; peak_kib=0; scans=(); opens=(); ratios=()
printf '%-5s %12s %14s %8s %10s\n' run "sqlite3 ms" "PNG at ms" ratio "peak MiB"
for run in $(seq "$runs"); do
  t0=$(now_ms); sqlite3 "$file" <"$scratch/scan.sql" >/dev/null; scan=$(( $(now_ms) - t0 ))
  png="$scratch/open$run.png"
  t0=$(now_ms)
  QT_QPA_PLATFORM=offscreen /usr/bin/time -f %M -o "$scratch/rss" "$ui" "$file" --screenshot "$png" --size 1920x1080 \
    >/dev/null 2>"$scratch/ui.err" &
  pid=$!
  while [ ! -s "$png" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.005; done
  open=$(( $(now_ms) - t0 ))
  wait "$pid" || { echo "gpuscope-ui failed:"; cat "$scratch/ui.err"; exit 1; }
  kib=$(tail -1 "$scratch/rss")
  ratio=$(awk -v s="$scan" -v o="$open" 'BEGIN {printf "%.2f", o / s}')
  ratios+=("$ratio")
  printf '%-5s %12d %14d %8s %10d\n' "$run" "$scan" "$open" "$ratio" $(( kib / 1024 ))
  scans+=("$scan"); opens+=("$open")
  (( scan < best_scan )) && best_scan=$scan
  (( open < best_open )) && best_open=$open
  (( kib > peak_kib )) && peak_kib=$kib
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
awk -v s="$(median "${scans[@]}")" -v o="$(median "${opens[@]}")" 'BEGIN {
  printf "median sqlite3 scan %d ms, median open to PNG %d ms: ratio %.2fx\n", s, o, o / s }'
echo "median of the runs' ratios: $(median "${ratios[@]}")x (each run pairs a scan with the open right after it)"
awk -v s="$best_scan" -v o="$best_open" -v k="$peak_kib" -v e="$events" 'BEGIN {
  printf "events %d; best sqlite3 scan %d ms, best open to PNG %d ms: ratio %.2fx (target <= 1.20)\n", e, s, o, o / s
  printf "peak RSS %.0f MiB = %.1f B/event (target <= 48)\n", k / 1024, k * 1024 / e }'
