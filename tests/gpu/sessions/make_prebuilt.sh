#!/usr/bin/env bash
# Fills tests/gpu/sessions/prebuilt/ (git-ignored) with what run.sh needs from a build, stripped, flat:
# gpuscope, libgpuscope_inject.so, libgpuscope_inject_nolocks.so, libgpuscope_cuda.so, gpuscope-gpu-metrics.
#   bash tests/gpu/sessions/make_prebuilt.sh [BUILD_DIR]     (default /work/main/build: app/gpuscope, lib/gpuscope/*)
# Then give the run tool carry ["tests/gpu/sessions/prebuilt", ".deps"].
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD=${1:-${BUILD:-/work/main/build}}
DEST=$HERE/prebuilt
mkdir -p "$DEST"
cp -f "$BUILD/app/gpuscope" "$DEST/"
for f in libgpuscope_inject.so libgpuscope_inject_nolocks.so libgpuscope_cuda.so gpuscope-gpu-metrics; do
  cp -f "$BUILD/lib/gpuscope/$f" "$DEST/"
done
chmod u+w "$DEST"/*
strip --strip-unneeded "$DEST"/gpuscope "$DEST"/*.so "$DEST"/gpuscope-gpu-metrics
ls -l "$DEST"
du -sh "$DEST"
