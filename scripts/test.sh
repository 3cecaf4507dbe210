#!/usr/bin/env bash
# Installs the test-only packages (gtest/gmock, the valijson schema
# validator, Chromium for the HTML test, ansible-core for the playbook test),
# sets everything else up (scripts/setup.sh) and runs the whole test suite.
# Tests that need root or a loop device skip with the reason when they cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/packages.sh
install_missing libgtest-dev libgmock-dev libvalijson-dev \
  chromium chromium-driver ansible-core
scripts/setup.sh
ctest --test-dir build --output-on-failure -j2 --timeout 600
