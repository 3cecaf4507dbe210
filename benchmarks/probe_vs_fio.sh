#!/usr/bin/env bash
# Native probes vs fio on the same file in one run: prints native/fio ratios for
# 4 KiB QD32 random-read IOPS, 1 MiB sequential-read bandwidth and 4 KiB QD1
# p50 latency. Targets: IOPS and bandwidth ratios >= 1.0 (never below 0.95);
# p50 latency within 10%.
#
#   benchmarks/probe_vs_fio.sh [--dir DIR] [--duration 10s] [--file-size 1GiB]
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/disktune ] || scripts/setup.sh
command -v jq >/dev/null || { echo "needs jq (apt-get install jq)" >&2; exit 1; }

dir="disktune-bench-$$"
duration=10s
file_size=1GiB
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --file-size) file_size="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

out=$(mktemp)
trap 'rm -f "$out"' EXIT
build/disktune probe --quiet --dir "$dir" --probes seq_read,rand_read --queue-depths 1,32 \
  --duration "$duration" --warmup 1s --file-size "$file_size" --with-fio --json - >"$out"

echo "machine: $(nproc) CPU, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r)"
jq -r '.environment | "disk: \(.device.disk // "?") \(.device.model // "") rotational=\(.device.rotational // "?") fs=\(.filesystem.type) file=\(.target_dir)"' "$out"
echo "duration per point: $duration, file: $file_size, fio: $(fio --version)"
printf '%-34s %14s %14s %8s\n' figure native fio ratio
jq -r '
  (.probes[] | select(.name == "rand_read.4k.qd32")) as $r
  | (.probes[] | select(.name == "seq_read.1m.qd1")) as $s
  | (.probes[] | select(.name == "rand_read.4k.qd1")) as $l
  | [
      ["4KiB QD32 rand-read IOPS", $r.iops, $r.fio.iops, $r.fio.native_over_fio.iops],
      ["1MiB QD1 seq-read MB/s", ($s.bytes_per_sec/1e6), ($s.fio.bytes_per_sec/1e6), $s.fio.native_over_fio.bytes_per_sec],
      ["4KiB QD1 rand-read p50 us", ($l.latency_ns.p50/1e3), ($l.fio.latency_ns.p50/1e3), $l.fio.native_over_fio.latency_p50]
    ][] | "\(.[0])\t\(.[1])\t\(.[2])\t\(.[3])"' "$out" |
  while IFS=$'\t' read -r name native fio ratio; do
    printf '%-34s %14.1f %14.1f %8.3f\n' "$name" "$native" "$fio" "$ratio"
  done
