#!/usr/bin/env bash
# Proves that a machine with only scripts/setup.sh's packages (no gtest, no
# valijson: the README's first command) configures and generates the build:
# DISKTUNE_BUILD_TESTS=OFF counts the test-only packages as missing, so a
# line that uses one of them outside its guard fails here as it would there.
#
# Usage: configure_without_tests_test.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
if ! cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DDISKTUNE_BUILD_TESTS=OFF >"$work/configure.log" 2>&1; then
  echo "FAIL: configuring without the test packages failed"
  cat "$work/configure.log"
  exit 1
fi
grep -q "tests are not built" "$work/configure.log" || {
  echo "FAIL: configure built the tests with DISKTUNE_BUILD_TESTS=OFF"
  cat "$work/configure.log"; exit 1; }
[ -f "$work/build/Makefile" ] || [ -f "$work/build/build.ninja" ] || {
  echo "FAIL: no build files generated"; exit 1; }
# The tool's own target is in the generated build; a test's is not in `all`.
cmake --build "$work/build" --target help >"$work/targets.log"
grep -q "disktune$" "$work/targets.log" || {
  echo "FAIL: no disktune target"; cat "$work/targets.log"; exit 1; }
rm -rf "$work"
echo "PASS: configured and generated without gtest or valijson"
