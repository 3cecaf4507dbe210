#!/usr/bin/env bash
# What `disktune fleet` costs per host: N synthetic copies of one real result
# (hostnames host-0001..., every latency and rate scaled by a random factor
# in [0.9, 1.1], one host in 100 made 5x slower), then `fleet` over the
# directory with every output, timed, REPEATS times.
#
#   benchmarks/fleet_scale.sh RESULT.json [N=1000] [REPEATS=3] [BIN=build/disktune]
set -euo pipefail
src=$1
n=${2:-1000}
repeats=${3:-3}
bin=${4:-build/disktune}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d /tmp/disktune-fleet-scale.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/results"
for i in $(seq 1 "$n"); do
  f=$(awk -v r=$RANDOM 'BEGIN { printf "%.4f", 0.9 + 0.2 * r / 32767 }')
  [ $((i % 100)) -eq 0 ] && f=5
  host=$(printf 'host-%04d' "$i")
  jq --arg h "$host" --argjson f "$f" '
    .environment.hostname = $h
    | .probes |= map(
        (if .latency_ns then .latency_ns |= with_entries(
           if .key != "samples" and (.value | type) == "number"
           then .value *= $f else . end) else . end)
        | (if .iops then .iops /= $f else . end)
        | (if .ops_per_sec then .ops_per_sec /= $f else . end)
        | (if .bytes_per_sec then .bytes_per_sec /= $f else . end))' \
    "$src" >"$tmp/results/$host.json"
done
echo "$n results, $(du -sk "$tmp/results" | cut -f1) KiB in all, $(stat -c %s "$src") bytes each"
for r in $(seq 1 "$repeats"); do
  /usr/bin/time -f "run $r: %e s elapsed, %U s user, %M KiB max RSS" \
    "$bin" fleet "$tmp/results" --json "$tmp/fleet.json" --html "$tmp/fleet.html" \
    --prometheus "$tmp/fleet.prom" >"$tmp/fleet.txt"
done
echo "outputs: json $(stat -c %s "$tmp/fleet.json") B, html $(stat -c %s "$tmp/fleet.html") B, prometheus $(stat -c %s "$tmp/fleet.prom") B"
echo "outliers: $(jq '.outliers | length' "$tmp/fleet.json") ($(jq -r '[.outliers[].host] | unique | length' "$tmp/fleet.json") hosts)"
