#!/usr/bin/env bash
# What one call of the lent GPU machine runs: tests/gpu/run.sh on a snapshot of the committed tree
# (so edits in progress in the working copy cannot break the build there), then the files worth
# keeping copied into $DEVICE_OUT (the folder that comes back; at most 8 files).
#
# Here, first:  git archive -o .deps/snapshot.tar HEAD
# There:        DEVICE_OUT=$OUT tests/gpu/device.sh        (carry .deps)
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DEVICE_OUT=${DEVICE_OUT:?set DEVICE_OUT to the folder that comes back}
SNAP=/tmp/gpuscope-snapshot
rm -rf "$SNAP" && mkdir -p "$SNAP"
tar -xf "$ROOT/.deps/snapshot.tar" -C "$SNAP"
ln -s "$ROOT/.deps" "$SNAP/.deps"
export OUT=/tmp/gpuscope-out
mkdir -p "$OUT"
REPEATS=${REPEATS:-3} "$SNAP/tests/gpu/run.sh" 2>&1 | tee "$OUT/table.txt"
status=${PIPESTATUS[0]}
cp "$OUT/sample_transpose.sqlite" "$OUT/loader0.gpuscope.sqlite" "$OUT/pytorch.gpuscope.sqlite" "$DEVICE_OUT/" 2> /dev/null
cp "$OUT/table.txt" "$DEVICE_OUT/"
tar -czf "$DEVICE_OUT/details.tar.gz" -C "$OUT" --exclude='*.sqlite' . 2> /dev/null
exit "$status"
