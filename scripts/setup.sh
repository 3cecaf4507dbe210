#!/usr/bin/env bash
# Installs what disktune needs from Debian 12 packages (only what is missing),
# then configures and builds it in build/. Idempotent: a second run installs
# nothing and rebuilds only what changed.
#
#   scripts/setup.sh            # install + build
#   scripts/setup.sh --no-build # install only
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake pkg-config
  liburing-dev libsnappy-dev libleveldb-dev librocksdb-dev libsqlite3-dev
  libkyotocabinet-dev liblmdb-dev libdb5.3++-dev
  libcli11-dev nlohmann-json3-dev libvalijson-dev libgtest-dev libgmock-dev
  fio xfsprogs e2fsprogs util-linux rocksdb-tools jq
  chromium chromium-driver
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing packages: ${missing[*]}" >&2
    echo "setup: run this as root, then run scripts/setup.sh again:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

if [ "${1:-}" = "--no-build" ]; then
  exit 0
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs" >&2
echo "setup: built build/disktune" >&2
