# shellcheck shell=bash
# Shell functions the benchmark scripts share. Source it from a script:
#   . "$(dirname "$0")/lib.sh"

# need_tool NAME: exits 1 saying so unless NAME is on PATH.
need_tool() {
  command -v "$1" >/dev/null || { echo "needs $1 (apt-get install $1)" >&2; exit 1; }
}

# need_disktune BIN: exits 1 unless BIN is an executable disktune.
need_disktune() {
  [ -x "$1" ] || { echo "no disktune binary at $1 (build it, or pass --bin)" >&2; exit 1; }
}

# find_disktune SCRIPT ROOT BUILD_DIR...: prints the disktune binary to use:
# $DISKTUNE, else the first ROOT/BUILD_DIR/disktune that is there; exits 2
# naming SCRIPT when there is none.
find_disktune() {
  local script=$1 root=$2 found=${DISKTUNE:-} b
  shift 2
  if [ -z "$found" ]; then
    for b in "$@"; do
      [ -x "$root/$b/disktune" ] && { found=$root/$b/disktune; break; }
    done
  fi
  [ -x "${found:-}" ] || { echo "$script: build disktune first (or set DISKTUNE)" >&2; exit 2; }
  echo "$found"
}

# build_direct_loop HERE ENGINE OUT_DIR: builds HERE/ENGINE_direct_loop.cc
# against the Debian library disktune links, as OUT_DIR/ENGINE_direct_loop,
# and as OUT_DIR/ENGINE_direct_loop.so to run inside another executable's
# image (with HERE/run_in_image.cc; bench_fidelity.sh --in-image).
build_direct_loop() {
  local here=$1 engine=$2 out=$3 libs
  case "$engine" in
    leveldb) libs="-lleveldb -lsnappy -lpthread" ;;
    lmdb) libs="-llmdb" ;;
    kyotocabinet) libs="$(pkg-config --cflags --libs kyotocabinet)" ;;
    sqlite3) libs="-lsqlite3" ;;
    bdb) libs="-ldb" ;;
    *) echo "build_direct_loop: no direct loop for $engine" >&2; return 2 ;;
  esac
  # $libs is a list of flags.
  # shellcheck disable=SC2086
  g++ -O2 -std=c++17 "$here/${engine}_direct_loop.cc" \
    -o "$out/${engine}_direct_loop" $libs || return
  # shellcheck disable=SC2086
  g++ -O2 -std=c++17 -shared -fPIC -Dmain=direct_loop_main \
    "$here/${engine}_direct_loop.cc" "$here/run_in_image.cc" \
    -o "$out/${engine}_direct_loop.so" $libs
}

# say_load WHEN: "load WHEN: the 1-, 5- and 15-minute load averages".
say_load() {
  echo "load $1: $(cut -d' ' -f1-3 /proc/loadavg)"
}
