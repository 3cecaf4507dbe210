#!/usr/bin/env bash
# Proves DISKTUNE_<ENGINE>_PREFIX links the engine build the operator names:
# copies the system's LevelDB (headers and shared library) into a prefix of
# its own, configures disktune with DISKTUNE_LEVELDB_PREFIX pointing there,
# builds the engine layer and a test linked to it, and checks that the
# loader resolves libleveldb from the prefix, not from the system.
#
# Usage: engine_prefix_build_test.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work/prefix/include" "$work/prefix/lib"

lib=$(ls /usr/lib/*/libleveldb.so.* 2>/dev/null | head -1 || true)
if [ -z "$lib" ] || [ ! -d /usr/include/leveldb ]; then
  echo "SKIP: no system LevelDB to copy (libleveldb-dev)"
  exit 0
fi
cp -r /usr/include/leveldb "$work/prefix/include/"
real=$(readlink -f "$lib")
cp "$real" "$work/prefix/lib/"
soname=$(objdump -p "$real" | awk '$1 == "SONAME" {print $2}')
ln -s "$(basename "$real")" "$work/prefix/lib/$soname"
ln -s "$soname" "$work/prefix/lib/libleveldb.so"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# Only the layers the engines need: the rest is irrelevant to the option.
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "${launcher[@]}" -DDISKTUNE_LEVELDB_PREFIX="$work/prefix" \
  "-DDISKTUNE_SKIP_DIRS=probes;reports;src/bench;src/predict;src/tune;src/cli;tests" \
  >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
grep -q "disktune: LEVELDB from $work/prefix/lib/" "$work/configure.log" || {
  echo "FAIL: configure did not take LevelDB from the prefix"
  cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" -j2 --target engine_registry_test \
  >"$work/build.log" 2>&1 || { tail -50 "$work/build.log"; exit 1; }

bin="$work/build/engines/engine_registry_test"
resolved=$(ldd "$bin" | awk '$1 ~ /^libleveldb/ {print $3}')
echo "libleveldb resolves to: $resolved"
case "$resolved" in
  "$work/prefix/lib/"*) ;;
  *) echo "FAIL: expected a library under $work/prefix/lib"; exit 1 ;;
esac
# The binary works against the copy: the registry lists leveldb.
"$bin" --gtest_brief=1 >"$work/run.log" 2>&1 || { cat "$work/run.log"; exit 1; }
echo "PASS"
rm -rf "$work"
