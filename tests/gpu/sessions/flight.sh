#!/usr/bin/env bash
# The flight recorder on a GPU (issue 42), run with the run tool like run.sh (carry tests/gpu/sessions/prebuilt):
# 1. trigger: `launch --flight-recorder 20s --trigger slow:step:3x` over flight_loop.py for 40 s, whose one slow
#    step is chosen here at random ($RANDOM) and known to the program only; flight_check.py then reads the dump
#    and says whether the step it names is the loop's slow one.
# 2. memory and SIGKILL: `launch --flight-recorder 60s --flight-memory ${MEMORY:-128M}` over FLIGHT_SECONDS (default
#    240) of the loop; every 5 s the recorder's RSS and the segments' bytes on tmpfs; then SIGKILL to the program,
#    and the dump it leaves is read.
# Prints a short table last (also $OUT/flight_table.txt).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
HERE=$ROOT/tests/gpu/sessions
OUT=${OUT:-/tmp/gs-out}
W=${W:-/tmp/gf-work}
PYTHON=${PYTHON:-python3}
SECONDS_LONG=${FLIGHT_SECONDS:-240}
MEMORY=${MEMORY:-128M}
rm -rf "$W" && mkdir -p "$OUT" "$W"
PREBUILT=${PREBUILT:-$HERE/prebuilt}
CUDA_DIR=${CUDA_HOME:-/usr/local/cuda}
export GPUSCOPE_LIB_DIR=$PREBUILT
export LD_LIBRARY_PATH="$PREBUILT:$CUDA_DIR/extras/CUPTI/lib64:$CUDA_DIR/lib64:${LD_LIBRARY_PATH:-}"
G=$PREBUILT/gpuscope
export GPUSCOPE_CONTROL_DIR=$W/control
mkdir -m 700 "$GPUSCOPE_CONTROL_DIR"
T=$W/table.txt

slow=$((300 + RANDOM % 5000))
# SKIP_TRIGGER=1 runs part 2 only (a long memory run fits one 10-minute call then).
[ "${SKIP_TRIGGER:-0}" = 1 ] || timeout 120 "$G" launch --session trig -o "$W/trig" -t cuda,nvtx --flight-recorder 20s --trigger slow:step:3x \
  -- $PYTHON "$HERE/flight_loop.py" "$W/trig.times" 40 "$slow" > "$W/trig.log" 2>&1
echo "launch exit $?" >> "$W/trig.log"
[ "${SKIP_TRIGGER:-0}" = 1 ] || {
  echo "== 1. trigger slow:step:3x, flight recorder 20s, a 40 s loop"
  grep "gpuscope:" "$W/trig.log" | head -5
  for f in "$W"/trig.*.sqlite; do [ -f "$f" ] && $PYTHON "$HERE/flight_check.py" "$f" "$W/trig.times"; done
} >> "$T" 2>&1

timeout $((SECONDS_LONG + 120)) "$G" launch --session mem -o "$W/mem" -t cuda,nvtx --flight-recorder 60s \
  --flight-memory "$MEMORY" -- $PYTHON "$HERE/flight_loop.py" "$W/mem.times" "$SECONDS_LONG" -1 > "$W/mem.log" 2>&1 &
launcher=$!
sleep 3
recorder=$(pgrep -P "$launcher" -x gpuscope | head -1)  # timeout's child: gpuscope launch itself
pgid_program=""
maxrss=0
maxseg=0
for i in $(seq 1 $(((SECONDS_LONG - 20) / 5))); do
  sleep 5
  rss=$(ps -o rss= -p "$recorder" 2>/dev/null | tr -d ' ')
  seg=$(du -sk /dev/shm/gpuscope-*/flight 2>/dev/null | awk '{s+=$1} END {print s+0}')
  echo "t=$((i * 5))s recorder_rss_kib=${rss:-0} segments_kib=$seg" >> "$W/mem.samples"
  [ "${rss:-0}" -gt "$maxrss" ] && maxrss=$rss
  [ "$seg" -gt "$maxseg" ] && maxseg=$seg
done
# The program's pid as the session gives it (pgrep -f would also match gpuscope's own command line).
program=$("$G" sessions | awk '$1 == "mem" {print $3}')
steps_before=$(($(wc -l < "$W/mem.times") - 2))
kill -KILL "$program"
wait "$launcher"
echo "launch exit $?" >> "$W/mem.log"
{
  echo "== 2. flight recorder 60s, --flight-memory $MEMORY, ${SECONDS_LONG} s loop, then SIGKILL of the program"
  echo "recorder RSS max $((maxrss / 1024)) MiB, segments on tmpfs max $((maxseg / 1024)) MiB (budget $MEMORY), samples every 5 s: $(wc -l < "$W/mem.samples")"
  echo "last step logged before the kill: $steps_before (pid $program, recorder pid $recorder)"
  grep "gpuscope:" "$W/mem.log" | head -5
  for f in "$W"/mem.*.sqlite; do [ -f "$f" ] && $PYTHON "$HERE/flight_check.py" "$f" "$W/mem.times"; done
} >> "$T" 2>&1
cp "$T" "$OUT/flight_table.txt"
tar -czf "$OUT/flight_texts.tar.gz" -C "$W" --exclude='*.sqlite' . 2>/dev/null
for f in "$W"/trig.1.sqlite; do [ -f "$f" ] && gzip -c "$f" > "$OUT/flight_trigger.sqlite.gz"; done
cat "$T"
