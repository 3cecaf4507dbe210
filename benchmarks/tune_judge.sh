#!/usr/bin/env bash
# tune_judge.sh: does `disktune tune`'s recommendation win when another tool
# measures it?
#
# 1. tune: `disktune tune --engine E --workload W --memory-budget B
#    --time-budget T --data-size <--num x 116 B> --out DIR/tune-K.json`
#    (K = 1..--tunes; 16-byte keys, 100-byte values), which also
#    writes the engine's own form (tune-K.rocksdb.ini, tune-K.leveldb.json).
# 2. judge, at full size, --pairs interleaved pairs (the order alternates:
#    defaults first in odd pairs, the recommendation first in even ones):
#    rocksdb: RocksDB's own db_bench (Debian rocksdb-tools) with
#             --options_file tune-K.rocksdb.ini (and --cache_size, which
#             db_bench's cache needs: it replaces the file's block_cache)
#             against db_bench's defaults
#             at the same budget: --cache_size = the budget less the
#             default 2 x 64 MiB write buffers (when they do not fit, the
#             buffers shrink to an eighth of the budget each, as the
#             tuner's own baseline does).
#    leveldb: `disktune bench --profile tune-K.json` against
#             `disktune bench --engine leveldb --cache-size` (the budget less
#             the default 2 x 4 MiB write buffers).
#    Both run the workload's steps with the same keys, values and counts:
#      write-heavy  fillrandom + overwrite of --num keys (both scored)
#      read-heavy   fillrandom of --num keys, then --num readrandom (scored)
#    Every run starts settled: the run before it removed its database and
#    the pages it left dirty are written out (sync), untimed, so neither
#    side pays for the other's writeback.
# 3. the score of a run is the scored steps' ops over their summed time;
#    per pair the ratio recommendation / defaults; the median and a
#    Student-t 95% interval of the mean log-ratio over the pairs.
#
# 4. per device class (--class native,hdd,cloud; default native): the
#    tune and the judge's runs on that class. native is the scratch
#    directory's own disk; hdd and cloud are `disktune --throttle CLASS`'s
#    emulated classes, used by the tune and by `disktune bench` (LevelDB's
#    judge). RocksDB's judge, db_bench, runs inside the class through
#    `disktune exec --throttle CLASS -- db_bench ... --db=db`: a fresh
#    class per run, db_bench in its cgroup and scratch directory (the
#    relative --db is inside it), its syncs held to the class's floor.
#
# 5. --against FILE.json: the baseline side of every pair runs that profile
#    (leveldb: `bench --profile FILE.json`; rocksdb: db_bench with
#    FILE.rocksdb.ini and its cache) in place of the defaults, so a profile
#    tuned on one class meets the one tuned on another, interleaved on the
#    same class.
#
# Output: DIR/judge.tsv (one line per run, with its class) and a summary
# per class on stdout.
#
# Usage: benchmarks/tune_judge.sh --engine rocksdb|leveldb
#          [--workload write-heavy] [--memory-budget 256MiB]
#          [--time-budget 4m] [--pairs 5] [--tunes 1] [--num 1000000]
#          [--class native[,hdd,cloud]]
#          [--dir DIR] [--profile FILE.json (judge this profile, no tune)]
#          [--against FILE.json (the baseline side runs this profile in
#           place of the defaults: two profiles head to head)]
#   DISKTUNE=path/to/disktune (default: build/disktune)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
engine=""
workload=write-heavy
budget=256MiB
time_budget=4m
pairs=5
tunes=1
num=1000000
dir=""
given_profile=""
against=""
classes=native
while [ $# -gt 0 ]; do
  case "$1" in
    --engine) engine=$2; shift 2 ;;
    --workload) workload=$2; shift 2 ;;
    --memory-budget) budget=$2; shift 2 ;;
    --time-budget) time_budget=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --tunes) tunes=$2; shift 2 ;;
    --num) num=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --profile) given_profile=$2; shift 2 ;;
    --class) classes=$2; shift 2 ;;
    --against) against=$2; shift 2 ;;
    -h|--help) sed -n '2,57p' "$0"; exit 0 ;;
    *) echo "tune_judge.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
case "$engine" in
  rocksdb|leveldb) ;;
  *) echo "tune_judge.sh: --engine rocksdb or leveldb" >&2; exit 2 ;;
esac
case "$workload" in
  write-heavy|read-heavy) ;;
  *) echo "tune_judge.sh: --workload write-heavy or read-heavy" >&2; exit 2 ;;
esac
disktune=${DISKTUNE:-$root/build/disktune}
[ -x "$disktune" ] || { echo "tune_judge.sh: no $disktune" >&2; exit 2; }
if [ "$engine" = rocksdb ] && ! command -v db_bench >/dev/null; then
  echo "tune_judge.sh: db_bench not found (apt-get install rocksdb-tools)" >&2
  exit 2
fi
command -v jq >/dev/null || { echo "tune_judge.sh: needs jq" >&2; exit 2; }
if [ -n "$against" ] && [ ! -f "$against" ]; then
  echo "tune_judge.sh: --against $against: no such profile" >&2
  exit 2
fi
for class in ${classes//,/ }; do
  case "$class" in
    native) ;;
    hdd|cloud)
      if ! "$disktune" tune --help 2>&1 | grep -q -- '--throttle'; then
        echo "tune_judge.sh: --class $class needs disktune's --throttle," \
          "which this build ($disktune) does not have" >&2
        exit 2
      fi
      if [ "$engine" = rocksdb ] &&
        ! "$disktune" exec --help >/dev/null 2>&1; then
        echo "tune_judge.sh: --class $class with rocksdb runs db_bench" \
          "through disktune exec, which this build ($disktune) does not" \
          "have" >&2
        exit 2
      fi ;;
    *) echo "tune_judge.sh: --class native, hdd or cloud (got $class)" >&2
       exit 2 ;;
  esac
done
if [ -z "$dir" ]; then dir=$(mktemp -d /tmp/tune_judge.XXXXXX); fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

bytes() {  # 256MiB -> 268435456
  local v=$1 n u
  n=${v%%[KMGkmg]*}
  u=${v#"$n"}
  case "$u" in
    ""|B) echo "$n" ;;
    KiB|K|k) echo $((n * 1024)) ;;
    MiB|M|m) echo $((n * 1024 * 1024)) ;;
    GiB|G|g) echo $((n * 1024 * 1024 * 1024)) ;;
    *) echo "tune_judge.sh: size $v" >&2; exit 2 ;;
  esac
}
budget_bytes=$(bytes "$budget")
mib=$((1024 * 1024))

if [ "$workload" = write-heavy ]; then
  steps=fillrandom,overwrite
  scored="fillrandom overwrite"
else
  steps=fillrandom,readrandom
  scored="readrandom"
fi

# The defaults at the same budget.
if [ "$engine" = rocksdb ]; then
  wb=$((64 * mib))
  if [ $((2 * wb + 8 * mib)) -gt "$budget_bytes" ]; then
    wb=$((budget_bytes / 8))
  fi
  default_cache=$((budget_bytes - 2 * wb))
else
  wb=$((4 * mib))
  default_cache=$((budget_bytes - 2 * wb))
fi

# db_bench: "fillrandom   :   3.1 micros/op 321000 ops/sec; ..." per step;
# the score is the scored steps' ops over their summed time.
db_bench_score() {
  awk -v scored="$scored" -v num="$num" '
    BEGIN { n = split(scored, s, " "); for (i = 1; i <= n; i++) want[s[i]] = 1 }
    $2 == ":" && ($1 in want) && $4 == "micros/op" {
      ops += num; secs += num * $3 / 1e6
    }
    END { if (secs > 0) printf "%.0f\n", ops / secs; else print "NA" }'
}

# Untimed, before every run: no database and no dirty pages left behind.
settle() {
  rm -rf "$dir/db"
  sync
}

# db_bench on the native disk, or inside the class: `disktune exec` makes
# the class, runs db_bench in its scratch directory (the working directory,
# so --db=db is inside it) and removes it all when db_bench ends.
db_bench_in_class() {
  if [ "$class" = native ]; then
    db_bench --db="$dir/db" "$@"
  else
    mkdir -p "$dir/scratch"
    "$disktune" exec --throttle "$class" --dir "$dir/scratch" -- \
      db_bench --db=db "$@"
  fi
}

run_db_bench() {  # which(defaults|tuned) ini profile
  local which=$1 ini=$2 profile=$3
  settle
  local common=(--benchmarks="$steps" --num="$num" --reads="$num"
    --key_size=16 --value_size=100 --compression_ratio=0.5
    --threads=1 --seed=1 --histogram=0)
  local out
  if [ "$which" = defaults ] && [ -n "$against" ]; then
    ini=${against%.json}.rocksdb.ini profile=$against
  fi
  if [ "$which" = defaults ] && [ -z "$against" ]; then
    out=$(db_bench_in_class "${common[@]}" --cache_size="$default_cache" \
      --write_buffer_size="$wb" --max_write_buffer_number=2 2>&1)
  else
    # db_bench loads the OPTIONS file with its own block cache (the one
    # --cache_size makes, 8 MiB unless given), replacing the file's
    # block_cache; the profile's cache size goes in by the flag.
    local cache
    cache=$(jq -r '.engine_options.cache_bytes // empty' "$profile")
    out=$(db_bench_in_class "${common[@]}" --options_file="$ini" \
      ${cache:+--cache_size="$cache"} 2>&1)
  fi
  rm -rf "$dir/db"
  echo "$out" > "$dir/last-$which.log"
  echo "$out" | db_bench_score
}

# disktune bench: the scored steps' ops over their summed time.
bench_score() {
  jq -r --arg scored "$scored" '
    [.benches[]? | select(.status == "ok") |
     select(.scenario as $n | ($scored | split(" ") | index($n)))
     | {ops: (.metrics.ops // 0), secs: ((.metrics.elapsed_ns // 0) / 1e9)}]
    | if length == 0 or (map(.secs) | add) == 0 then "NA"
      else ((map(.ops) | add) / (map(.secs) | add) | floor | tostring) end' \
    "$1" 2>/dev/null || echo NA
}

# The class's flag for disktune (none on the native disk).
throttle_args() {
  if [ "$class" != native ]; then echo "--throttle $class"; fi
}

run_bench() {  # which(defaults|tuned) profile
  local which=$1 profile=$2
  local out="$dir/bench-$which.json"
  rm -f "$out"
  settle
  # shellcheck disable=SC2207
  local common=(--num "$num" --reads "$num" --key-size 16 --value-size 100
    --compression-ratio 0.5 --dir "$dir" --json "$out" $(throttle_args))
  local scen=(--scenario "$steps")
  if [ "$which" = defaults ] && [ -n "$against" ]; then
    profile=$against
  fi
  if [ "$which" = defaults ] && [ -z "$against" ]; then
    "$disktune" bench --engine leveldb "${scen[@]}" "${common[@]}" \
      --cache-size "$((default_cache / 1024))KiB" > "$dir/last-$which.log" 2>&1 ||
      true
  else
    "$disktune" bench --profile "$profile" "${scen[@]}" "${common[@]}" \
      > "$dir/last-$which.log" 2>&1 || true
  fi
  bench_score "$out"
}

summary() {  # ratios...
  python3 - "$@" <<'EOF'
import math, statistics, sys
r = [float(x) for x in sys.argv[1:]]
logs = [math.log(x) for x in r]
n = len(r)
med = statistics.median(r)
if n < 2:
    print(f"median {med:.3f}x (1 pair)"); sys.exit()
t = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365,
     8: 2.306, 9: 2.262}.get(n - 1, 2.0)
m = statistics.mean(logs); h = t * statistics.stdev(logs) / math.sqrt(n)
print(f"median {med:.3f}x, 95% interval [{math.exp(m-h):.3f}x, "
      f"{math.exp(m+h):.3f}x], min {min(r):.3f}x, {n} pairs")
EOF
}

tsv="$dir/judge.tsv"
echo -e "class\ttune\tpair\torder\tdefaults_ops\ttuned_ops\tratio" > "$tsv"
echo "tune_judge: $engine $workload, budget $budget, $num keys, $pairs pairs;" \
  "classes $classes; dir $dir; baseline ${against:-the defaults};" \
  "$(uptime)"
declare -A class_summary=()
for class in ${classes//,/ }; do
 for k in $(seq 1 "$tunes"); do
  profile=$given_profile
  if [ -z "$profile" ]; then
    profile="$dir/tune-$class-$k.json"
    mkdir -p "$dir/scratch"
    start=$(date +%s)
    # shellcheck disable=SC2046
    "$disktune" tune --engine "$engine" --workload "$workload" \
      --memory-budget "$budget" --time-budget "$time_budget" \
      --data-size "$((num * 116))B" $(throttle_args) \
      --dir "$dir/scratch" --out "$profile" > "$dir/tune-$class-$k.log" 2>&1
    echo "[$class] tune $k: $(( $(date +%s) - start )) s; $(grep -m1 'Verdict' \
      "$dir/tune-$class-$k.log" || true)"
  fi
  ini="${profile%.json}.rocksdb.ini"
  ratios=()
  for p in $(seq 1 "$pairs"); do
    if [ $((p % 2)) = 1 ]; then order="defaults tuned"; else order="tuned defaults"; fi
    declare -A score=()
    for which in $order; do
      if [ "$engine" = rocksdb ]; then
        score[$which]=$(run_db_bench "$which" "$ini" "$profile")
      else
        score[$which]=$(run_bench "$which" "$profile")
      fi
    done
    ratio=$(awk -v a="${score[tuned]}" -v b="${score[defaults]}" \
      'BEGIN { if (a == "NA" || b == "NA" || b == 0) print "NA"; else printf "%.4f", a / b }')
    echo -e "$class\t$k\t$p\t${order// /,}\t${score[defaults]}\t${score[tuned]}\t$ratio" >> "$tsv"
    echo "  [$class] pair $p ($order): defaults ${score[defaults]} ops/s, tuned ${score[tuned]} ops/s, ${ratio}x"
    [ "$ratio" = NA ] || ratios+=("$ratio")
    unset score
  done
  if [ ${#ratios[@]} -gt 0 ]; then
    line="tune $k: $(summary "${ratios[@]}")"
    echo "[$class] $line"
    class_summary[$class]+="  $line"$'\n'
  fi
 done
done
echo "per class:"
for class in ${classes//,/ }; do
  echo "$class:"
  printf '%s' "${class_summary[$class]:-  no ratios}"
done
echo "done; $(uptime)"
