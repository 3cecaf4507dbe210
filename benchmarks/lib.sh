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
