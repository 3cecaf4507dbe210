#!/usr/bin/env bash
# The device-class lab (benchmarks/README.md, "Device classes"): on the native
# disk and on each --throttle class, disktune's probes and fio side by side
# (`probe --with-fio`: the native loop measures each point, then fio runs the
# same job in the same throttled filesystem and cgroup): 4 KiB random read at
# QD1 and QD32, 4 KiB random write, 1 MiB sequential write, and fdatasync of
# 2300 B appends (etcd's job as the fsync probe runs it). Prints, per class,
# each figure, fio's, native/fio, fio over the class's limit, the bytes
# that escaped the throttle, and on a class with a sync floor (hdd) the
# fdatasync p50 against it. Targets: fio within 10% of the class's limit
# (for rate-bound points: QD32 and bandwidth); disktune within 10% of fio;
# the floor <= fdatasync p50 < 3x the floor.
# Root only (loop device, mount, cgroup). With --huge-pages N (default 64) it
# reserves N more huge pages (vm.nr_hugepages) for the run and puts the count
# back at exit, so fio's buffers are huge pages as the native loop's are: a
# class charges every bio, and a 1 MiB write from 4 KiB pages is two bios on a
# loop device (README, "Device classes"). 0 leaves the setting alone.
#
#   benchmarks/device_classes.sh [--dir DIR] [--classes native,hdd,cloud]
#                                [--duration 4s] [--rounds 1] [--huge-pages 64]
#   DISKTUNE=path/to/disktune (default build/disktune)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/lib.sh
bin=$(find_disktune "$0" . build)
need_tool jq
need_tool fio
dir="disktune-classes-$$"
classes=native,hdd,cloud
duration=4s
rounds=1
huge_pages=64
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --classes) classes="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --huge-pages) huge_pages="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "$0: needs root (--throttle)" >&2; exit 2; }
made_dir=0
[ -d "$dir" ] || { mkdir "$dir"; made_dir=1; }
work=$(mktemp -d)
hugepages_before=$(cat /proc/sys/vm/nr_hugepages)
cleanup() {
  echo "$hugepages_before" > /proc/sys/vm/nr_hugepages
  rm -rf "$work"; [ $made_dir = 1 ] && rmdir "$dir" 2>/dev/null || true
}
trap cleanup EXIT
if [ "$huge_pages" -gt 0 ]; then
  echo $((hugepages_before + huge_pages)) > /proc/sys/vm/nr_hugepages
  echo "huge pages for fio: $(( $(cat /proc/sys/vm/nr_hugepages) - hugepages_before )) reserved for the run (vm.nr_hugepages $hugepages_before before, put back at exit)"
fi

echo "machine: $(nproc) CPU, kernel $(uname -r), load before $(cut -d' ' -f1-3 /proc/loadavg), fio $(fio --version)"
printf '%-7s %-24s %12s %12s %9s %10s\n' class figure disktune fio 'dt/fio' 'fio/limit'
for round in $(seq 1 "$rounds"); do
  for cls in ${classes//,/ }; do
    args=(probe --quick --with-fio --probes rand_read,rand_write,seq_write,fsync
          --fsync-methods fdatasync --fsync-sizes 2300 --fsync-modes append
          --duration "$duration" --dir "$dir" -q --json "$work/$cls.$round.json")
    [ "$cls" = native ] || args+=(--throttle "$cls")
    "$bin" "${args[@]}" 2>"$work/$cls.$round.err" || {
      echo "$cls: disktune failed: $(tail -1 "$work/$cls.$round.err")" >&2; continue; }
    jq -r --arg cls "$cls" '
      (.environment.throttle.limits // {}) as $lim
      | def row(name; field; scale; limit):
          (.probes[] | select(.name == name)) as $p
          | [$cls, name + " " + field,
             (($p[field] // 0) / scale), ((($p.fio // {})[field] // 0) / scale),
             (if ($p.fio[field] // 0) > 0 then ($p[field] / $p.fio[field]) else null end),
             (if limit != null and ($p.fio[field] // 0) > 0 then ($p.fio[field] / limit) else null end)];
      [ row("rand_read.4k.qd1"; "iops"; 1; $lim.read_iops),
        row("rand_read.4k.qd32"; "iops"; 1; $lim.read_iops),
        row("rand_write.4k.qd32"; "iops"; 1; $lim.write_iops),
        row("seq_write.1m.qd32"; "bytes_per_sec"; 1e6;
            (if $lim.write_bytes_per_sec then $lim.write_bytes_per_sec else null end)) ][]
      | "\(.[0])\t\(.[1])\t\(.[2])\t\(.[3])\t\(.[4] // "-")\t\(.[5] // "-")"' \
      "$work/$cls.$round.json" |
      awk -F'\t' '{ printf "%-7s %-24s %12.1f %12.1f %9s %10s\n", $1, $2, $3, $4,
                    ($5 == "-" ? "-" : sprintf("%.3f", $5)), ($6 == "-" ? "-" : sprintf("%.3f", $6)) }'
    jq -r --arg cls "$cls" '
      .probes[] | select(.probe == "fsync" and .status == "ok")
      | "\($cls)     \(.name) p50 \((.latency_ns.p50 // 0) / 1e3 | floor) us, p99 \((.latency_ns.p99 // 0) / 1e3 | floor) us, \(.samples // .sample_count // "?") samples"
        + (if .metrics.sync_floor_ns then
             (.metrics.sync_latency_ns.p50 // 0) as $s | .metrics.sync_floor_ns as $f
             | "; sync p50 \($s / 1e3 | floor) us against the class floor \($f / 1e3 | floor) us: "
               + (if $s >= $f and $s < 3 * $f then "met" else "NOT MET" end)
               + " (target: floor <= p50 < 3x floor)"
           else "" end)' \
      "$work/$cls.$round.json"
    jq -r --arg cls "$cls" '.environment.throttle.accounting // empty
      | "\($cls)     escaped: \(.escaped_bytes) of \(.device_read_bytes + .device_write_bytes) bytes (\((.escaped_share // 0) * 100 | . * 10 | floor / 10)%)"' \
      "$work/$cls.$round.json"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
