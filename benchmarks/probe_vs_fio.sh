#!/usr/bin/env bash
# The native io_uring loop vs fio on the same file (`--measure-with native
# --with-fio`; needs fio): prints native/fio ratios for 4 KiB QD32 random-read
# IOPS, 1 MiB sequential-read bandwidth and 4 KiB QD1 p50 latency. Targets:
# IOPS and bandwidth ratios >= 1.0 (never below 0.95); p50 latency within 10%.
#
# Whichever of the two runs second may find the device's own cache warm (a
# VM's disk is a file in the host's page cache), so by default the probe runs
# twice: native point then fio ("native first"), and fio then native point
# (`--fio-first`). The verdict uses the geometric mean of the two ratios,
# which cancels an order effect that helps the second run by the same factor.
#
#   benchmarks/probe_vs_fio.sh [--dir DIR] [--duration 10s] [--file-size 1GiB]
#                              [--order both|native-first|fio-first]
#   DISKTUNE=path/to/disktune (default build/disktune)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
bin=${DISKTUNE:-build/disktune}
[ -x "$bin" ] || scripts/setup.sh
need_tool jq
need_tool fio

dir="disktune-bench-$$"
duration=10s
file_size=1GiB
order=both
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --file-size) file_size="$2"; shift 2 ;;
    --order) order="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
case "$order" in
  both) orders="native-first fio-first" ;;
  native-first|fio-first) orders=$order ;;
  *) echo "--order: '$order' is not both, native-first or fio-first" >&2; exit 2 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for o in $orders; do
  extra=()
  [ "$o" = fio-first ] && extra=(--fio-first)
  "$bin" probe --quiet --dir "$dir" --probes seq_read,rand_read --queue-depths 1,32 \
    --duration "$duration" --warmup 1s --file-size "$file_size" \
    --measure-with native --with-fio "${extra[@]}" \
    --json - >"$work/$o.json"
done

first=$(echo "$orders" | cut -d' ' -f1)
echo "machine: $(nproc) CPU, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
jq -r '.environment | "disk: \(.device.disk // "?") \(.device.model // "") rotational=\(.device.rotational // "?") fs=\(.filesystem.type) file=\(.target_dir)"' "$work/$first.json"
echo "duration per point: $duration, file: $file_size, fio: $(fio --version)"
# One line per figure and order: name, order, native, fio, ratio.
figures() {
  jq -r --arg order "$2" '
    (.probes[] | select(.name == "rand_read.4k.qd32")) as $r
    | (.probes[] | select(.name == "seq_read.1m.qd1")) as $s
    | (.probes[] | select(.name == "rand_read.4k.qd1")) as $l
    | [
        ["4KiB QD32 rand-read IOPS", $r.iops, $r.fio.iops, $r.fio.native_over_fio.iops],
        ["1MiB QD1 seq-read MB/s", ($s.bytes_per_sec/1e6), ($s.fio.bytes_per_sec/1e6), $s.fio.native_over_fio.bytes_per_sec],
        ["4KiB QD1 rand-read p50 us", ($l.latency_ns.p50/1e3), ($l.fio.latency_ns.p50/1e3), $l.fio.native_over_fio.latency_p50]
      ][] | "\(.[0])\t\($order)\t\(.[1])\t\(.[2])\t\(.[3])"' "$1"
}
for o in $orders; do figures "$work/$o.json" "$o"; done >"$work/rows"
printf '%-28s %-13s %12s %12s %8s\n' figure order native fio ratio
sort -s -t$'\t' -k1,1 "$work/rows" | awk -F'\t' '
  function verdict(name, g) {
    if (name ~ /p50/) return (g >= 0.9 && g <= 1.1) ? "meets (within 10%)" : "MISSES (within 10%)"
    return g >= 1.0 ? "meets (>= 1.0)" : (g >= 0.95 ? "meets the floor 0.95, not 1.0" : "MISSES (>= 0.95)")
  }
  {
    printf "%-28s %-13s %12.1f %12.1f %8.3f\n", $1, $2, $3, $4, $5
    n[$1]++; logsum[$1] += log($5); if (n[$1] == 1) order[++k] = $1
  }
  END {
    for (i = 1; i <= k; i++) {
      g = exp(logsum[order[i]] / n[order[i]])
      printf "%-28s %-13s %12s %12s %8.3f  %s\n", order[i], "geo. mean", "", "", g, verdict(order[i], g)
    }
  }'
