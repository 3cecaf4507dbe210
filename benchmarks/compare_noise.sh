#!/usr/bin/env bash
# Does `compare --fail-on-regression 10` tell noise from a slower disk?
#
# On a loop device (backed by a file under --work, --direct-io=on so it
# reaches the real disk) holding the probes' --dir, each pair is
#   A, B: two back-to-back identical `probe --quick` runs -> compare A B
#   C:    the same probe with the loop device throttled to half of A's peak
#         IOPS and bandwidth (cgroup v1 blkio) -> compare B C
# Target: every A/B pair has 0 regressions; every B/C pair is flagged
# (compare exits 1). Prints one line per pair, the noise seen between the
# identical runs per kind of figure, and MET / NOT MET.
# Needs root, losetup, mkfs.ext4, jq and /sys/fs/cgroup/blkio. Every loop
# device, mount, throttle and cgroup it makes is undone on every exit path.
#
#   benchmarks/compare_noise.sh [--pairs N] [--repeat R] [--bin PATH]
#                               [--work DIR] [--keep DIR]
#   benchmarks/compare_noise.sh --rejudge DIR [--bin PATH]
# --repeat R passes `--repeat R` to every probe (judged by the spreads of its
# rounds and the noise floors); --keep DIR keeps the results there;
# --rejudge DIR compares kept results again (after a change to compare)
# without measuring.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
bin=build/disktune
pairs=10
repeat=1
work_parent=/var/tmp
keep=""
rejudge=""
while [ $# -gt 0 ]; do
  case "$1" in
    --pairs) pairs="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --work) work_parent="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --rejudge) rejudge="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
need_disktune "$bin"
bin=$(realpath "$bin")

# compare A B: prints "regressions exit_code".
compare() {
  local rc=0
  # The comparison's own outputs, from an earlier judgement of these results
  # (--rejudge): compare never replaces a file, so they go first.
  rm -f "$2.cmp.json" "$2.cmp.txt"
  "$bin" compare "$1" "$2" --fail-on-regression 10 --json "$2.cmp.json" \
    >"$2.cmp.txt" 2>&1 || rc=$?
  echo "$(jq .regressions "$2.cmp.json") $rc"
}
quiet=0
flagged=0
judge_pair() {  # judge_pair N RESULT_PREFIX LIMIT_TEXT LOAD_TEXT
  local ab_reg ab_rc bc_reg bc_rc
  read -r ab_reg ab_rc < <(compare "$2.a.json" "$2.b.json")
  read -r bc_reg bc_rc < <(compare "$2.b.json" "$2.c.json")
  [ "$ab_reg" = 0 ] && [ "$ab_rc" = 0 ] && quiet=$((quiet + 1))
  [ "$bc_rc" = 1 ] && flagged=$((flagged + 1))
  printf 'pair %2d: identical A/B %2s regressions (exit %s); slowed B/C (%s) %2s regressions (exit %s); %s\n' \
    "$1" "$ab_reg" "$ab_rc" "$3" "$bc_reg" "$bc_rc" "$4"
}
summary() {  # summary RESULTS_DIR
  echo "noise between identical runs (larger/smaller, per kind; pairs A/B only):"
  python3 benchmarks/noise_pairs.py --disjoint $(for i in $(seq 1 "$pairs"); do echo "$1/p$i.a.json $1/p$i.b.json"; done)
  echo "identical pairs with 0 regressions: $quiet of $pairs ($([ "$quiet" = "$pairs" ] && echo MET || echo "NOT MET"))"
  echo "slowed pairs flagged: $flagged of $pairs ($([ "$flagged" = "$pairs" ] && echo MET || echo "NOT MET"))"
}

if [ -n "$rejudge" ]; then
  pairs=$(ls "$rejudge"/p*.c.json | wc -l)
  echo "compare_noise: judging the $pairs kept pairs in $rejudge with $bin"
  for i in $(seq 1 "$pairs"); do
    judge_pair "$i" "$rejudge/p$i" "$(cat "$rejudge/p$i.limit")" "measured earlier"
  done
  summary "$rejudge"
  exit 0
fi

[ "$(id -u)" = 0 ] || { echo "needs root (loop device, mount, blkio cgroup)" >&2; exit 1; }
blkio=/sys/fs/cgroup/blkio
[ -w "$blkio/cgroup.procs" ] || { echo "needs the cgroup v1 blkio controller at $blkio" >&2; exit 1; }

work=$(mktemp -d "$work_parent/compare-noise.XXXXXX")
results=${keep:-$work/results}
mkdir -p "$results"
loop=""
mounted=0
cg="$blkio/disktune-compare-noise-$$"
majmin=""

unthrottle() {
  [ -n "$majmin" ] && [ -d "$cg" ] || return 0
  for f in read_bps_device write_bps_device read_iops_device write_iops_device; do
    echo "$majmin 0" >"$cg/blkio.throttle.$f" 2>/dev/null || true
  done
}
cleanup() {
  set +e
  unthrottle
  if [ -d "$cg" ]; then
    # Our probe processes have exited; anything left goes back to the root.
    while read -r pid; do echo "$pid" >"$blkio/cgroup.procs"; done <"$cg/cgroup.procs"
    rmdir "$cg"
  fi
  [ "$mounted" = 1 ] && umount "$work/mnt"
  [ -n "$loop" ] && losetup -d "$loop"
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

truncate -s 4G "$work/disk.img"
loop=$(losetup --find --show --direct-io=on "$work/disk.img")
majmin=$(lsblk -dno MAJ:MIN "$loop" | tr -d ' ')
mkfs.ext4 -q -F "$loop"
mkdir "$work/mnt"
mount "$loop" "$work/mnt"
mounted=1
mkdir "$cg"

repeat_flag=()
[ "$repeat" != 1 ] && repeat_flag=(--repeat "$repeat")
# probe OUT: one `probe --quick` in the cgroup, JSON to OUT.
probe() {
  bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$cg" \
    "$bin" probe --quick "${repeat_flag[@]}" --dir "$work/mnt" --json "$1" \
    >"$1.txt" 2>"$1.err" || { echo "probe failed:" >&2; cat "$1.err" >&2; exit 1; }
}
throttle_from() {  # half of A's peak IOPS and bandwidth
  local iops bps
  iops=$(jq '[.probes[] | select(.iops) | .iops] | max / 2 | floor' "$1")
  bps=$(jq '[.probes[] | select(.bytes_per_sec) | .bytes_per_sec] | max / 2 | floor' "$1")
  echo "$majmin $iops" >"$cg/blkio.throttle.read_iops_device"
  echo "$majmin $iops" >"$cg/blkio.throttle.write_iops_device"
  echo "$majmin $bps" >"$cg/blkio.throttle.read_bps_device"
  echo "$majmin $bps" >"$cg/blkio.throttle.write_bps_device"
  echo "$iops IOPS, $bps B/s"
}

echo "compare_noise: $pairs pairs, probe --quick --repeat $repeat on $loop (a file on $(df --output=source "$work" | tail -1)), $(nproc) CPUs, kernel $(uname -r), $(date -u +%FT%TZ)"
for i in $(seq 1 "$pairs"); do
  r="$results/p$i"
  probe "$r.a.json"
  probe "$r.b.json"
  throttle_from "$r.a.json" >"$r.limit"
  probe "$r.c.json"
  unthrottle
  judge_pair "$i" "$r" "$(cat "$r.limit")" "load $(cut -d' ' -f1-3 /proc/loadavg)"
done
summary "$results"
