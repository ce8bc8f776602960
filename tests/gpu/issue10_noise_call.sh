#!/usr/bin/env bash
# One device call to find where the launch loop's round-to-round spread comes from (issue 10's cost
# targets): the machine's CPU and GPU clock facts, then a few round-robin rounds of overhead.sh's five
# modes with LOOP_REPS loops in each process (their loop and enqueue times go to each.txt), while
# nvidia-smi samples the GPU's clocks every 200 ms. Prints, per process, its loop times (ms); LIMIT seconds bound the call.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LIMIT=${LIMIT:-330}
O=/tmp/n
source "$ROOT/tests/gpu/device_call.sh"
build_in_call
{
  lscpu | grep -E 'Model name|^CPU\(s\)|MHz|Thread|NUMA node\(s\)|Hypervisor'
  echo "governor: $(cat /sys/devices/system/cpu/cpu2/cpufreq/scaling_governor 2> /dev/null || echo none)"
  echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2> /dev/null || echo unknown)"
  echo "clocksources available: $(cat /sys/devices/system/clocksource/clocksource0/available_clocksource 2> /dev/null)"
  echo "tsc flags: $(grep -o -w -E 'constant_tsc|nonstop_tsc|tsc_reliable|tsc_known_freq' /proc/cpuinfo | sort -u | xargs)"
  echo "perf: $(command -v perf || echo none)"
  nvidia-smi --query-gpu=name,pstate,clocks.sm,clocks.max.sm,clocks.mem,persistence_mode,compute_mode --format=csv
} > $O/facts.txt 2>&1
# PAIRS=1: which vCPUs slow each other (workloads/cpu_pairs.c: hidden host hyperthread siblings), twice to
# see that it holds; with PICK_CPUS=1 too, the rounds run on CORES (default 6) CPUs of the second probe's
# independent set, CPUs 0 and 1 left out, instead of overhead.sh's default.
if [ "${PAIRS:-0}" = 1 ]; then
  gcc -O2 -pthread "$ROOT/tests/gpu/workloads/cpu_pairs.c" -o $O/cpu_pairs
  { $O/cpu_pairs > $O/pairs1.txt; $O/cpu_pairs > $O/pairs2.txt; } 2>&1
  if [ "${PICK_CPUS:-0}" = 1 ]; then
    CPUS=$(awk '$1 == "independent" {print $2}' $O/pairs2.txt | tr , '\n' | awk '$1 > 1' | head -n "${CORES:-6}" | paste -sd,)
    export CPUS
  fi
fi
nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,power.draw,utilization.gpu --format=csv,noheader \
  -lms 200 > $O/clocks.txt 2>&1 &
SMI=$!
export LOOP_REPS=${LOOP_REPS:-6}
export MODES=${MODES:-"bare cupti-floor gpuscope-cuda gpuscope nsys"}
REPEATS=${REPEATS:-3} WORKLOADS=${WORKLOADS:-launch_loop} OUT=$O/ov \
  timeout "$(($(left) - ${COUNT_CALLS:-0} * 40 - ${PROBE:-0} * 20 - ${AFTER_S:-0} - 10))" "$ROOT/tests/gpu/overhead.sh" > $O/ov.txt 2>&1
kill $SMI 2> /dev/null
# COUNT_CALLS=1: then, how often launch_loop (50,000 launches) calls the interposed hot-path functions,
# bare, under the CUPTI floor and under gpuscope (workloads/count_calls.c, behind gpuscope's own wrappers).
if [ "${COUNT_CALLS:-0}" = 1 ]; then
  gcc -O2 -fPIC -shared "$ROOT/tests/gpu/workloads/count_calls.c" -o $O/libcount_calls.so -ldl
  L=$GPUSCOPE_GPU_BUILD/gpu/launch_loop
  for mode in bare floor gpuscope-cuda gpuscope; do
    case $mode in
      bare) LD_PRELOAD=$O/libcount_calls.so $L 50000 ;;
      floor) CUDA_INJECTION64_PATH=$GPUSCOPE_GPU_BUILD/gpu/libcupti_floor.so LD_PRELOAD=$O/libcount_calls.so $L 50000 ;;
      gpuscope-cuda) LD_PRELOAD=$O/libcount_calls.so $GPUSCOPE_GPU_BUILD/app/gpuscope record -f -t cuda -o $O/c.sqlite -- $L 50000 ;;
      gpuscope) LD_PRELOAD=$O/libcount_calls.so $GPUSCOPE_GPU_BUILD/app/gpuscope record -f -o $O/c.sqlite -- $L 50000 ;;
    esac 2>&1 | awk -v mode=$mode '$1 == "calls" && $2 == "launch_loop" {print mode, $3, $4}'
  done > $O/calls.txt
fi
# PROBE=1: what a clock reading costs here (workloads/clock_cost.c), and how many CUPTI takes in one run of
# launch_loop 50000 with LOOP_REPS=1: 60,002 launches with its warm-up (the floor's counting timestamp callback).
if [ "${PROBE:-0}" = 1 ]; then
  gcc -O2 "$ROOT/tests/gpu/workloads/clock_cost.c" -o $O/clock_cost && $O/clock_cost
  LOOP_REPS=1 CUPTI_FLOOR_TSCB=1 CUPTI_FLOOR_PROBE=1 CUDA_INJECTION64_PATH=$GPUSCOPE_GPU_BUILD/gpu/libcupti_floor.so \
    $GPUSCOPE_GPU_BUILD/gpu/launch_loop 50000 2>&1 | grep -E '^timestamp_calls'
fi > $O/probe.txt 2>&1
# AFTER: commands run last (their output goes to after.txt and is printed), for one call's own probes.
[ -n "${AFTER:-}" ] && (cd "$ROOT" && eval "$AFTER") > $O/after.txt 2>&1
cd $O && tar czf "$OUT/n.tgz" pairs1.txt pairs2.txt calls.txt probe.txt after.txt facts.txt clocks.txt ov.txt ov/each.txt ov/loops.txt build.txt 2> /dev/null
cat $O/facts.txt
if [ -s $O/pairs2.txt ]; then
  echo "== vCPU pairs that slow each other by over 20% (two probes), and the rounds' CPUs: ${CPUS:-the default of overhead.sh}"
  for f in $O/pairs1.txt $O/pairs2.txt; do
    echo "$(basename $f): $(awk '$1 == "siblings" {printf "%s-%s ", $2, $3}' $f)| $(grep '^independent' $f)"
  done
  awk '$1 == "alone" {printf "%s:%s ", $2, $3} END {print ""}' $O/pairs2.txt
  awk '$1 == "pair" {s = ($4 + $5) / 2; n++; if (s > 0.1) hi++} END {printf "pairs: %d, over 10%% slowdown: %d\n", n, hi}' $O/pairs2.txt
fi
[ -s $O/after.txt ] && { echo "== AFTER"; cat $O/after.txt; }
[ -s $O/probe.txt ] && { echo "== clock readings (ns each) and CUPTI's timestamp calls in 60,002 launches (50,000 and the warm-up)"; cat $O/probe.txt; }
[ -s $O/calls.txt ] && { echo "== calls of launch_loop 50000 (mode function count)"; cat $O/calls.txt; }
echo "== GPU clocks while running (MHz sm: min/median/max):"
awk -F', ' '{gsub(/ MHz/,"",$3); print $3}' $O/clocks.txt | sort -n | awk '{a[NR]=$1} END {print a[1], a[int(NR/2)+1], a[NR]}'
echo "== per process: mode, loop ms each"
awk '$2 == "loop_ns_each" { line = sprintf("%-44s", $1)
  for (i = 3; i <= NF; ++i) line = line sprintf(" %5.0f", $i / 1e6)
  print line }' $O/ov/each.txt
${PYTHON:-python3} "$ROOT/tests/gpu/overhead_table.py" $O/ov/loops.txt $MODES
echo "== main thread per loop (tests/gpu/loop_usage.py)"
${PYTHON:-python3} "$ROOT/tests/gpu/loop_usage.py" $O/ov/each.txt
