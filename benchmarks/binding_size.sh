#!/usr/bin/env bash
# At which data size each engine's defaults become bound by the device, per
# device class: runs `disktune bench --scenario fillrandom` with the
# engine's defaults at each --num on the native disk and under each
# `--throttle CLASS`, interleaved (for each run and size: native, then each
# class), and prints per figure the measured ops/s, the predictor's figure
# and bound, and the share of the device's bytes that went around the
# throttle. Then, per engine, class and size, the median of class/native
# over the runs: the class binds the engine at that size when its median is
# at most 1/1.5 of native (benchmarks/README.md, "Device-binding sizes");
# within 1/1.15 it does not.
#
#   benchmarks/binding_size.sh [--classes hdd,cloud] [--sizes 2000000,8000000]
#       [--engines leveldb,rocksdb] [--runs 3] [--scenario fillrandom]
#       [--dir DIR]
#
# Every figure is printed, not the best. Needs jq and root (the throttle).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
need_tool jq
bin=$(find_disktune "$0" "$here/.." build build-release)

classes=hdd,cloud sizes=2000000,8000000 engines=leveldb,rocksdb runs=3
scenario=fillrandom dir=${TMPDIR:-/tmp}
while [ $# -gt 0 ]; do
  case "$1" in
    --classes) classes=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --engines) engines=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --scenario) scenario=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    *) echo "binding_size.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "binding_size.sh: the throttle needs root" >&2; exit 2; }

out=$(mktemp -d "$dir/binding-size.XXXXXX")
trap 'rm -rf "$out"' EXIT
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), dir $dir ($(df --output=fstype "$dir" | tail -1)), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "binary: $bin"
rows=$out/rows.tsv
: >"$rows"
for run in $(seq 1 "$runs"); do
  for num in ${sizes//,/ }; do
    for engine in ${engines//,/ }; do
      for class in native ${classes//,/ }; do
        throttle=()
        [ "$class" = native ] || throttle=(--throttle "$class")
        json=$out/$run-$num-$engine-$class.json
        t0=$(date +%s)
        if ! "$bin" bench --engine "$engine" --scenario "$scenario" \
              --num "$num" "${throttle[@]}" --dir "$dir" --json "$json" \
              --quiet >/dev/null 2>"$out/err"; then
          echo "run $run $engine $num $class: bench failed: $(tail -1 "$out/err")"
          continue
        fi
        secs=$(( $(date +%s) - t0 ))
        jq -r --arg class "$class" --arg run "$run" --arg secs "$secs" '
          .benches[] |
          [$class, $run, .engine, .scenario, (.params.num|tostring),
           .metrics.ops_per_sec,
           (.prediction.ops_per_sec // 0), (.prediction.bound // "-"),
           ([.notes[]? | capture("\\((?<p>[0-9.]+)% escaped\\)").p][0] // "-"),
           $secs] | @tsv' "$json" | tee -a "$rows" |
          awk -F'\t' '{printf "%-7s run %s %-8s %-11s num %-9s %10.0f ops/s  predicted %10.0f %-15s escaped %s%%  (%s s)\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10}'
      done
    done
  done
done
say_load after
echo
python3 - "$rows" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
native = {(r[1], r[2], r[3], r[4]): float(r[5]) for r in rows if r[0] == "native"}
groups = {}
for r in rows:
    if r[0] == "native":
        continue
    key = (r[2], r[3], int(r[4]), r[0])
    n = native.get((r[1], r[2], r[3], r[4]))
    if n:
        groups.setdefault(key, []).append((float(r[5]) / n, r[7]))
print("engine   scenario    num        class  class/native per run    median  predicted bounds   verdict")
for key in sorted(groups):
    vals = groups[key]
    ratios = [v for v, _ in vals]
    med = statistics.median(ratios)
    verdict = ("device-bound" if med <= 1 / 1.5 else
               "not bound" if med >= 1 / 1.15 else "partly bound")
    print(f"{key[0]:<8} {key[1]:<11} {key[2]:<10} {key[3]:<6} "
          f"{', '.join(f'{v:.2f}' for v in ratios):<23} {med:6.2f}  "
          f"{','.join(sorted({b for _, b in vals})):<18} {verdict}")
# The predictor's bound against the experiment (benchmarks/README.md,
# "Prediction accuracy"): a figure it calls bound by a resource the two
# classes hold at different levels (sync latency, read IOPS) moves >= 1.5x
# between them; one it calls CPU-bound moves < 1.15x.
by = {(r[0], r[1], r[2], r[3], r[4]): (float(r[5]), float(r[6]), r[7]) for r in rows}
pairs = {}
for (cls, run, eng, scen, num), (m, p, b) in by.items():
    if cls != "hdd" or ("cloud", run, eng, scen, num) not in by:
        continue
    cm, cp, cb = by[("cloud", run, eng, scen, num)]
    pairs.setdefault((eng, scen, int(num)), []).append((m / cm, p / cp if cp else 0, b, cb))
if pairs:
    print()
    print("engine   scenario    num        hdd/cloud measured  predicted  bounds hdd/cloud")
    for key in sorted(pairs):
        v = pairs[key]
        print(f"{key[0]:<8} {key[1]:<11} {key[2]:<10} "
              f"{statistics.median(x[0] for x in v):8.2f} "
              f"{statistics.median(x[1] for x in v):18.2f}  "
              f"{','.join(sorted({x[2] for x in v}))}/{','.join(sorted({x[3] for x in v}))}")
PY
