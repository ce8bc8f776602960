#!/usr/bin/env bash
# What the backtraces of OS-runtime calls cost the recorded program, at their worst: a Python loop of
# 100 us sleeps, each just past --osrt-backtrace-threshold (80 us), recorded with --osrt-backtrace-depth 0
# (none) and 64 (the default), round-robin. Prints each round, then each mode's median loop time and the
# median over rounds of depth 64's time against the same round's depth 0.
#   bench/osrt_backtrace_cost.sh [ROUNDS=8] [CALLS=4000] [PYTHON=python3] [GPUSCOPE=build/app/gpuscope]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-8}
calls=${2:-4000}
python=${PYTHON:-python3}
gpuscope=${GPUSCOPE:-$here/../build/app/gpuscope}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
none="" full="" ratios=""
for round in $(seq 1 "$rounds"); do
  for depth in 0 64; do
    t=$("$gpuscope" record -f -t osrt --sample none --cpuctxsw none --osrt-backtrace-depth "$depth" \
          -o "$out/d$depth.sqlite" -- "$python" "$here/sleep_loop.py" "$calls" 2>&1 | grep -o 'loop [0-9.]*' | awk '{print $2}')
    if [ "$depth" = 0 ]; then none="$none $t"; base=$t; else full="$full $t"; ratios="$ratios $(awk -v a="$t" -v b="$base" 'BEGIN {print a / b}')"; fi
    echo "round $round depth $depth: $t s"
  done
done
chains=$(sqlite3 "$out/d64.sqlite" "SELECT COUNT(DISTINCT id) || ' backtraces, ' || ROUND(1.0 * COUNT(*) / COUNT(DISTINCT id), 1) || ' frames each' FROM OSRT_CALLCHAINS" 2>/dev/null || echo "?")
echo "depth 0 median: $(echo $none | tr ' ' '\n' | median) s"
echo "depth 64 median: $(echo $full | tr ' ' '\n' | median) s ($chains)"
echo "depth 64 / depth 0, median over rounds: $(echo $ratios | tr ' ' '\n' | median)"
