#!/usr/bin/env bash
# How well src/predict's model predicts LevelDB and RocksDB on this machine:
# runs `disktune bench` (which measures the model's probe points and
# calibrates each engine's CPU cost in memory, then predicts every figure)
# and prints measured, predicted, measured/predicted and the bound per
# figure, and whether the targets hold (benchmarks/README.md, "Prediction
# accuracy"): median |m/p - 1| <= 15% per class and engine, every figure
# within 35%, fillsync within 10%; and, when both hdd and cloud ran, whether
# each figure's bound agrees with how it moves between them (>= 1.5x for a
# device bound, < 1.15x for the CPU).
#
#   benchmarks/predict_accuracy.sh [--classes native,hdd,cloud] [--runs N]
#       [--num N] [--cold-reads N] [--engines leveldb,rocksdb] [--dir DIR]
#       [--keep DIR]
#
# --keep DIR copies each bench's JSON report (inputs, ceilings, engine
# stats) into DIR, which must not exist yet.
#
# A class other than native needs `bench --throttle CLASS`; a binary without
# the flag skips that class and says so. Every figure is printed, not the
# best. Needs jq.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
need_tool jq
bin=$(find_disktune "$0" "$here/.." build build-release)

classes=native runs=1 num=1000000 cold_reads=20000 engines=leveldb,rocksdb
dir=${TMPDIR:-/tmp} keep=
while [ $# -gt 0 ]; do
  case "$1" in
    --classes) classes=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --num) num=$2; shift 2 ;;
    --cold-reads) cold_reads=$2; shift 2 ;;
    --engines) engines=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "predict_accuracy.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

if [ -n "$keep" ] && [ -e "$keep" ]; then
  echo "predict_accuracy.sh: --keep $keep exists; name a new directory" >&2
  exit 2
fi
out=$(mktemp -d "$dir/predict-accuracy.XXXXXX")
trap 'rm -rf "$out"' EXIT
has_throttle=no
"$bin" bench --help 2>/dev/null | grep -q -- '--throttle' && has_throttle=yes

echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
rows=$out/rows.tsv
: >"$rows"
for class in ${classes//,/ }; do
  throttle=()
  if [ "$class" != native ]; then
    if [ "$has_throttle" = no ]; then
      echo "class $class: skipped ($bin has no bench --throttle)"
      continue
    fi
    throttle=(--throttle "$class")
  fi
  for run in $(seq 1 "$runs"); do
    for engine in ${engines//,/ }; do
      # The db_bench figures, then cold random reads few enough that most
      # of them miss the page cache (the read-latency-bound case).
      for pass in main coldreads; do
        if [ $pass = main ]; then
          args=(--scenario fillseq,fillsync,fillrandom,overwrite,readrandom,readrandom-cold,readseq,readseq-cold --num "$num")
        else
          args=(--scenario fillrandom,readrandom-cold --num "$num" --reads "$cold_reads")
        fi
        json=$out/$class-$run-$engine-$pass.json
        if ! "$bin" bench --engine "$engine" "${args[@]}" "${throttle[@]}" \
              --dir "$dir" --json "$json" --quiet >/dev/null 2>"$out/err"; then
          echo "class $class run $run $engine $pass: bench failed: $(tail -1 "$out/err")"
          continue
        fi
        jq -r --arg class "$class" --arg run "$run" --arg pass "$pass" '
          .benches[] | select(.prediction) |
          select($pass == "main" or .scenario == "readrandom-cold") |
          [$class, $run, .engine,
           (if $pass == "main" then .scenario else .scenario + "(" + (.params.ops|tostring) + ")" end),
           .metrics.ops_per_sec, .prediction.ops_per_sec,
           .prediction.measured_over_predicted, .prediction.bound,
           (.prediction.miss_cause // "")] | @tsv' "$json" >>"$rows"
      done
    done
  done
done
say_load after
if [ -n "$keep" ]; then
  mkdir -p "$keep" && cp "$out"/*.json "$keep"/ 2>/dev/null || true
  echo "reports kept in $keep"
fi
echo
printf '%-7s %-4s %-8s %-22s %12s %12s %6s  %-15s %s\n' class run engine scenario measured/s predicted/s m/p bound "cause of a miss"
while IFS=$'\t' read -r class run engine scen m p r bound cause; do
  printf '%-7s %-4s %-8s %-22s %12.0f %12.0f %6.2f  %-15s %s\n' "$class" "$run" "$engine" "$scen" "$m" "$p" "$r" "$bound" "$cause"
done <"$rows"
echo
# Targets per class and engine.
python3 - "$rows" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
fail = 0
for key in sorted({(r[0], r[2]) for r in rows}):
    sel = [r for r in rows if (r[0], r[2]) == key]
    dev = [(abs(float(r[6]) - 1), r[3]) for r in sel]
    med = statistics.median(d for d, _ in dev)
    worst, wname = max(dev)
    fs = max([d for d, n in dev if n == "fillsync"] or [0])
    ok = med <= 0.15 and worst <= 0.35 and fs <= 0.10
    fail |= not ok
    print(f"{key[0]} {key[1]}: {len(sel)} figures, median |m/p-1| {med:.1%} "
          f"(target 15%), worst {worst:.1%} {wname} (target 35%), fillsync "
          f"{fs:.1%} (target 10%): {'MET' if ok else 'MISSED'}")
# The bound against an experiment: a figure the model names device-bound
# (on either class) moves by >= 1.5x between hdd and cloud, one it names
# CPU-bound on both by < 1.15x.
by = {(r[0], r[1], r[2], r[3]): r for r in rows}
pairs = sorted({k[1:] for k in by if k[0] == "hdd" and ("cloud",) + k[1:] in by})
if pairs:
    agree = 0
    print("\nbound vs experiment (hdd against cloud, same run):")
    for run, engine, scen in pairs:
        h, c = by[("hdd", run, engine, scen)], by[("cloud", run, engine, scen)]
        mh, mc, ph, pc = float(h[4]), float(c[4]), float(h[5]), float(c[5])
        move = max(mh, mc) / max(min(mh, mc), 1e-9)
        pmove = max(ph, pc) / max(min(ph, pc), 1e-9)
        cpu = h[7] == "cpu" and c[7] == "cpu"
        ok = move < 1.15 if cpu else move >= 1.5
        agree += ok
        print(f"  run {run} {engine} {scen}: named {h[7]} on hdd, {c[7]} on "
              f"cloud; measured moves {move:.2f}x (predicted {pmove:.2f}x), "
              f"target {'< 1.15x' if cpu else '>= 1.5x'}: "
              f"{'agrees' if ok else 'DISAGREES'}")
    print(f"bound vs experiment: {agree} of {len(pairs)} agree")
    fail |= agree != len(pairs)
sys.exit(fail)
PY
