#!/usr/bin/env bash
# Puts what tests/gpu/run.sh needs to build gpuscope on a GPU machine without network (the SQLite,
# nlohmann-json, CLI11 and libelf (the CPU sampler's symbols) development packages, and jemalloc for overhead.sh's allocator modes) under .deps/usr, next to the libdw that nsys needs.
# Run it on a Debian/Ubuntu machine with network, then carry .deps/ along with the checkout.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DEBS=$ROOT/.deps/debs
mkdir -p "$DEBS"
cd "$DEBS"
apt-get download libsqlite3-dev libsqlite3-0 nlohmann-json3-dev libcli11-dev libjemalloc2 libelf-dev libelf1 zlib1g-dev
for deb in *.deb; do dpkg -x "$deb" "$ROOT/.deps"; done
echo "extracted into $ROOT/.deps/usr: $(ls "$DEBS" | tr '\n' ' ')"
