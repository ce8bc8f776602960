#!/usr/bin/env bash
# One device call to find which part of nsys's CUPTI set-up NSYS_CONTROL_CUPTI_FEATURES=1 acts with (issue 10:
# in the eighth session floor-nsys with that variable ran 7-19 ms under the CUPTI floor on the launch loop,
# where the set-up alone and the variable alone did not). Round-robin on launch_loop: bare, the floor, nsys,
# floor-nsys with the variable, floor-nsys with the variable less one part at a time (workloads/
# cupti_floor.cpp's CUPTI_FLOOR_NSYS_WITHOUT), and gpuscope -t cuda and default with the variable. A part
# whose removal puts the loop back at the floor is the one.
# PARTS (default all nine) and REPEATS (default 5) narrow it; LIMIT bounds the call (default 560 s).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VAR=NSYS_CONTROL_CUPTI_FEATURES=1
MODES="bare cupti-floor with:$VAR:floor-nsys"
for part in ${PARTS:-perthread raw flush0 dump extrakinds tscb sync zeroed systid}; do
  MODES+=" with:$VAR:floor-nsys-without:$part"
done
# gpuscope with the variable alone (record passes it on to the program): whether its own set-up already
# pairs with it, before any part is adopted.
MODES+=" with:$VAR:gpuscope-cuda with:$VAR:gpuscope nsys"
export MODES
LIMIT=${LIMIT:-560} LOOP_REPS=${LOOP_REPS:-5} REPEATS=${REPEATS:-5} exec bash "$ROOT/tests/gpu/issue10_noise_call.sh"
