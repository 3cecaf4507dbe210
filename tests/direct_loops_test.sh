#!/usr/bin/env bash
# The reference loops bench_fidelity.sh measures disktune against: each
# benchmarks/<engine>_direct_loop.cc builds against the Debian library, runs
# its five scenarios as a separate executable, and runs the same five inside
# disktune's executable image (--in-image: the loop as a shared object,
# preloaded into `disktune --version`, which must not get to print its
# version). Both ways read back the same number of keys, as the loop's
# random keys are seeded.
#
# Usage: direct_loops_test.sh SOURCE_DIR WORK_DIR DISKTUNE
set -euo pipefail
src=$1
work=$2
disktune=$3
rm -rf "$work"
mkdir -p "$work"
# shellcheck source=../benchmarks/lib.sh
. "$src/benchmarks/lib.sh"

header() {
  case "$1" in
    leveldb) echo /usr/include/leveldb/db.h ;;
    lmdb) echo /usr/include/lmdb.h ;;
    kyotocabinet) echo /usr/include/kcpolydb.h ;;
    sqlite3) echo /usr/include/sqlite3.h ;;
    bdb) echo /usr/include/db.h ;;
  esac
}

# Prints "name found" per scenario after checking the lines' shape.
scenarios_of() {  # output-file
  awk '
    NF < 4 || $2 !~ /^[0-9]+$/ || $4 + 0 <= 0 { print "bad line: " $0; bad = 1 }
    { names = names $1 " " }
    $1 == "readrandom" { found = $5; gsub(/[()]/, "", found) }
    END {
      if (names != "fillseq fillrandom overwrite readrandom readseq ") {
        print "scenarios: " names; bad = 1
      }
      print "found " found
      exit bad
    }' "$1"
}

ran=0
for engine in leveldb lmdb kyotocabinet sqlite3 bdb; do
  if [ ! -f "$(header "$engine")" ]; then
    echo "$engine: no headers; skipped"
    continue
  fi
  build_direct_loop "$src/benchmarks" "$engine" "$work"
  "$work/${engine}_direct_loop" "$work/db_$engine" 2000 1 >"$work/$engine.out"
  rm -rf "$work/db_$engine"
  DIRECT_LOOP_ARGS="$work/db_$engine 2000 1" \
    LD_PRELOAD="$work/${engine}_direct_loop.so" "$disktune" --version \
    >"$work/$engine.in_image.out"
  rm -rf "$work/db_$engine"
  alone=$(scenarios_of "$work/$engine.out") || {
    echo "FAIL: $engine alone: $alone"; exit 1; }
  in_image=$(scenarios_of "$work/$engine.in_image.out") || {
    echo "FAIL: $engine in disktune's image: $in_image"
    cat "$work/$engine.in_image.out"; exit 1; }
  if [ "$alone" != "$in_image" ]; then
    echo "FAIL: $engine read back $alone alone, $in_image in disktune's image"
    exit 1
  fi
  echo "$engine: five scenarios alone and in disktune's image, $alone"
  ran=$((ran + 1))
done
if [ "$ran" -eq 0 ]; then
  echo "SKIP: no engine headers installed"
  exit 0
fi
