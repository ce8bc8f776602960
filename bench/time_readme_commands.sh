#!/usr/bin/env bash
# Times the README's two commands on a fresh clone of this checkout's HEAD, as a newcomer runs them:
#   run:  .ci/install-deps, configure, build gpuscope-ui, and the window up (its --screenshot PNG written);
#   test: .ci/install-deps, configure, build everything, ctest.
# Run it on a quiet machine (nothing else building); it prints one line per command with each phase's
# seconds. Usage: bench/time_readme_commands.sh [run|test|both] [SCRATCH_DIR]   (default: both /tmp)
set -uo pipefail
which=${1:-both}
scratch=${2:-/tmp}
repo=$(cd "$(dirname "$0")/.." && pwd)
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
now() { date +%s.%N; }
seconds() { echo "$2 - $1" | bc; }

fresh_clone() {
  rm -rf "$1" && git clone -q "$repo" "$1" && cd "$1"
}

time_run() {
  fresh_clone "$scratch/readme-run"
  local s i b e
  s=$(now); $SUDO .ci/install-deps >"$scratch/readme-run.install.log" 2>&1; i=$(now)
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >"$scratch/readme-run.build.log" 2>&1 &&
    cmake --build build -j"$(nproc)" --target gpuscope-ui >>"$scratch/readme-run.build.log" 2>&1
  b=$(now)
  QT_QPA_PLATFORM=offscreen ./build/app/gpuscope-ui resources/samples/transpose.sqlite \
    --screenshot "$scratch/readme-run.png"
  e=$(now)
  echo "run command: install $(seconds "$s" "$i") s, build $(seconds "$i" "$b") s, window $(seconds "$b" "$e") s," \
    "total $(seconds "$s" "$e") s"
}

time_test() {
  fresh_clone "$scratch/readme-test"
  local s i b e rc
  s=$(now); $SUDO .ci/install-deps >"$scratch/readme-test.install.log" 2>&1; i=$(now)
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >"$scratch/readme-test.build.log" 2>&1 &&
    cmake --build build -j"$(nproc)" >>"$scratch/readme-test.build.log" 2>&1
  b=$(now)
  ctest --test-dir build -j"$(nproc)" --output-on-failure >"$scratch/readme-test.ctest.log" 2>&1
  rc=$?
  e=$(now)
  echo "test command: install $(seconds "$s" "$i") s, build $(seconds "$i" "$b") s, ctest $(seconds "$b" "$e") s" \
    "(exit $rc), total $(seconds "$s" "$e") s; warnings in the build: $(grep -c 'warning:' "$scratch/readme-test.build.log")"
}

case "$which" in
  run) time_run ;;
  test) time_test ;;
  *) time_run; time_test ;;
esac
