#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the whole test suite.
# Tests that need root or a loop device skip with the reason when they cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure -j2 --timeout 600
