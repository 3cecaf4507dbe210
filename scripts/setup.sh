#!/usr/bin/env bash
# Installs what building disktune and `disktune run` need from Debian 12
# packages (only what is missing), then configures and builds it in build/.
# Test-only packages (gtest, the schema validator, Chromium, Ansible) are
# installed by scripts/test.sh. Idempotent: a second run installs nothing and
# rebuilds only what changed. To put disktune on servers without a
# toolchain, build the package once (README, "Install on servers").
#
#   scripts/setup.sh            # install + build
#   scripts/setup.sh --no-build # install only
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/packages.sh

install_missing \
  build-essential cmake pkg-config \
  liburing-dev libsnappy-dev libleveldb-dev librocksdb-dev libsqlite3-dev \
  libkyotocabinet-dev liblmdb-dev libdb5.3++-dev \
  libcli11-dev nlohmann-json3-dev \
  fio xfsprogs e2fsprogs util-linux rocksdb-tools jq

if [ "${1:-}" = "--no-build" ]; then
  exit 0
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs" >&2
echo "setup: built build/disktune" >&2
