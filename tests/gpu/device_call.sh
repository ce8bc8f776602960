# Sourced by the one-call device scripts (issue10_*_call.sh): the time budget and the build they share.
# The caller sets ROOT, LIMIT (seconds for the whole call) and O (its results folder) first; then
# `left` prints the seconds still left, and build_in_call builds gpuscope as run.sh does (BUILD_ONLY=1)
# into GPUSCOPE_GPU_BUILD (default /tmp/bg, outside the tree), logging to $O/build.txt.
T0=$(date +%s)
left() { echo $((LIMIT - ($(date +%s) - T0))); }
export GPUSCOPE_GPU_BUILD=${GPUSCOPE_GPU_BUILD:-/tmp/bg}
rm -rf "$O" && mkdir -p "$O"  # a warm machine keeps the last call's files: each.txt is appended to
build_in_call() {
  BUILD_ONLY=1 OUT=$O/build "$ROOT/tests/gpu/run.sh" > "$O/build.txt" 2>&1
  echo "== build: $(($(date +%s) - T0)) s"
}
