#!/usr/bin/env bash
# Everything bounded on a slow disk (benchmarks/README.md, "run --quick,
# probe --quick and Ctrl-C on hdd"): on a --throttle class, RUNS times each
# of `probe --quick` and `run --quick` (wall time, the run's bytes written at
# the throttled device, the progress lines against the truth, what escaped the
# throttle), then SIGINT AFTER seconds into bench, probe, run and tune (exit
# code, seconds to exit, and what was left: loop devices, mounts, cgroups,
# files). Targets: probe within 5 minutes, run within 10 and at most 2 GiB,
# progress within 30%, Ctrl-C within 5 s leaving nothing.
# Root only (--throttle).
#
#   benchmarks/slow_disk_bounds.sh [--dir DIR] [--class hdd] [--runs 3]
#                                  [--after 25] [--skip-timed] [--skip-interrupt]
#   DISKTUNE=path/to/disktune (default build/disktune)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
bin=$(find_disktune "$0" . build)
need_tool jq
dir="disktune-bounds-$$"
class=hdd
runs=3
after=25
timed=1
interrupt=1
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --class) class="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --after) after="$2"; shift 2 ;;
    --skip-timed) timed=0; shift ;;
    --skip-interrupt) interrupt=0; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "$0: needs root (--throttle)" >&2; exit 2; }
made_dir=0
[ -d "$dir" ] || { mkdir "$dir"; made_dir=1; }
work=$(mktemp -d)
cleanup() { rm -rf "$work"; [ $made_dir = 1 ] && rm -rf "$dir" || true; }
trap cleanup EXIT
say_load before

# The run's bytes at the throttled device and the share that escaped it.
accounting() {
  jq -r '.environment.throttle.accounting as $a
    | "written at the device \($a.device_write_bytes / 1048576 | floor) MiB, escaped \(if $a.device_write_bytes + $a.device_read_bytes > 0 then ($a.escaped_bytes * 1000 / ($a.device_write_bytes + $a.device_read_bytes) | floor) / 10 else 0 end)%"' "$1"
}

if [ $timed = 1 ]; then
  for r in $(seq 1 "$runs"); do
    echo "probe --quick, run $r:"
    benchmarks/progress_truth.py "$work/probe$r" -- "$bin" probe --quick \
      --throttle "$class" --dir "$dir" --json "$work/probe$r.json" | sed 's/^/  /'
    echo "  $(accounting "$work/probe$r.json")"
    echo "run --quick, run $r:"
    rm -rf "$work/out$r"
    benchmarks/progress_truth.py "$work/run$r" -- "$bin" run --quick \
      --throttle "$class" --dir "$dir" --out "$work/out$r" | sed 's/^/  /'
    echo "  $(accounting "$work/out$r/result.json")"
    say_load "after run $r"
  done
fi

# interrupt TAG ARGS...: SIGINT `after` seconds into the command.
interrupt() {
  local tag=$1 pid rc t0 t1 left
  shift
  "$bin" "$@" --throttle "$class" --dir "$dir" >/dev/null 2>"$work/$tag.err" &
  pid=$!
  sleep "$after"
  if ! kill -0 $pid 2>/dev/null; then
    wait $pid || true
    echo "$tag: ended before SIGINT (shorten --after)"
    return
  fi
  t0=$(date +%s.%N)
  kill -INT $pid
  rc=0; wait $pid || rc=$?
  t1=$(date +%s.%N)
  left="$(losetup -a | grep -c "$dir" || true) loops, $(grep -c "$dir" /proc/mounts || true) mounts, $(find "$dir" -mindepth 1 | wc -l) files"
  printf '%s: exit %d in %.2f s; left: %s\n' "$tag" "$rc" "$(echo "$t1 - $t0" | bc)" "$left"
}

if [ $interrupt = 1 ]; then
  for r in $(seq 1 "$runs"); do
    interrupt "bench$r" bench --engine leveldb --scenario fillsync,fillrandom --num 2000000
    interrupt "probe$r" probe --quick
    rm -rf "$work/iout$r"
    interrupt "run$r" run --quick --out "$work/iout$r"
    echo "  run $r's out directory: $(ls "$work/iout$r" 2>/dev/null | tr '\n' ' ')"
    interrupt "tune$r" tune --engine leveldb --workload write-heavy --time-budget 60s
  done
  echo "disktune cgroups left: $(find /sys/fs/cgroup/blkio -maxdepth 1 -name 'disktune-throttle-*' | wc -l) (another disktune's count too)"
fi
say_load after
