#!/usr/bin/env bash
# What CPU sampling costs the recorded program: round-robin rounds of a CPU-bound Python loop run bare,
# under `gpuscope record --sample none` and under `gpuscope record --sample cpu` (1 kHz by default), each
# timed by the program itself (bench/cpu_loop.py prints its loop time). Prints each round, then per mode
# the median loop time with its overhead against bare's median, and the median over rounds of the mode's
# time against the same round's bare time (which the machine's drift from minute to minute moves less).
#   bench/sampling_overhead.sh [ROUNDS=9] [MILLIONS=20] [PYTHON=python3] [GPUSCOPE=build/app/gpuscope]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-9}
millions=${2:-20}
python=${PYTHON:-python3}
gpuscope=${GPUSCOPE:-$here/../build/app/gpuscope}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

loop_time() { grep -o 'loop [0-9.]*' | awk '{print $2}'; }
declare -A times ratios
for mode in bare none cpu; do times[$mode]="" ratios[$mode]=""; done
for round in $(seq 1 "$rounds"); do
  line="round $round:"
  for mode in bare none cpu; do
    case $mode in
      bare) t=$("$python" "$here/cpu_loop.py" "$millions" | loop_time) ;;
      *) t=$("$gpuscope" record -f -o "$out/$mode.sqlite" --sample "$mode" -- "$python" "$here/cpu_loop.py" \
               "$millions" 2>/dev/null | loop_time) ;;
    esac
    times[$mode]+="$t "
    line+=" $mode $t"
  done
  echo "$line"
  bareTime=${line#* bare }
  bareTime=${bareTime%% *}
  for mode in none cpu; do
    t=${line#* $mode }
    t=${t%% *}
    ratios[$mode]+="$(awk -v t="$t" -v b="$bareTime" 'BEGIN {print 100 * (t - b) / b}') "
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
bare=$(echo "${times[bare]}" | median)
printf '%-10s %10s %18s %20s\n' mode "median s" "vs bare's median" "per-round median"
for mode in bare none cpu; do
  m=$(echo "${times[$mode]}" | median)
  paired=0
  [ "$mode" != bare ] && paired=$(echo "${ratios[$mode]}" | median)
  printf '%-10s %10.4f %17.2f%% %19.2f%%\n' "$mode" "$m" "$(awk -v m="$m" -v b="$bare" 'BEGIN {print 100 * (m - b) / b}')" "$paired"
done
samples=$("$gpuscope" samples "$out/cpu.sqlite" --view threads --format csv | awk -F, 'NR==2 {print $4}')
echo "samples in the last --sample cpu recording's main thread: $samples"
