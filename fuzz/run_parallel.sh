#!/usr/bin/env bash
# The long fuzz run on a many-core machine: TARGET with WORKERS processes of RUNS inputs each (distinct
# seeds, one shared corpus), stopping at MAX_SECONDS, then the total of inputs run and any findings.
#   fuzz/run_parallel.sh BIN_DIR SEED_DIR TARGET:SEEDS WORKERS RUNS [MAX_SECONDS] [EXTRA_FLAGS...]
# e.g. fuzz/run_parallel.sh build-fuzz/fuzz build-fuzz/fuzz/seeds trace_load:trace 8 125000 540
set -uo pipefail
bin_dir=$1 seed_dir=$2 target=${3%%:*} seeds=${3##*:} workers=$4 runs=$5 max_seconds=${6:-0}
shift $(($# < 6 ? $# : 6))
work=${WORK:-/tmp/fuzz-$target}
mkdir -p "$work/corpus" "$work/findings"
for ((i = 1; i <= workers; i++)); do
  (cd "$work/findings" && "$bin_dir/fuzz_$target" -runs="$runs" -seed="$i" -timeout=10 -rss_limit_mb=2048 \
    -max_total_time="$max_seconds" -print_final_stats=1 "$@" "$work/corpus" "$seed_dir/$seeds" \
    > "$work/worker$i.log" 2>&1) &
done
wait
total=0
for ((i = 1; i <= workers; i++)); do
  done_runs=$(grep -o 'Done [0-9]*' "$work/worker$i.log" | awk '{print $2}')
  [ -n "$done_runs" ] || done_runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/worker$i.log" | awk '{print $2}')
  total=$((total + ${done_runs:-0}))
done
findings=$(ls "$work/findings" | grep -c -E '^(crash|leak|timeout|oom|slow-unit)-' || true)
echo "fuzz_$target: $total inputs run by $workers workers, corpus $(ls "$work/corpus" | wc -l) files, findings: $findings"
for f in "$work"/findings/*; do [ -e "$f" ] && echo "  finding: $(basename "$f")"; done
for ((i = 1; i <= workers; i++)); do grep -l -E 'ERROR: (AddressSanitizer|libFuzzer|UndefinedBehavior)|runtime error' "$work/worker$i.log"; done | head -3
