#!/usr/bin/env bash
# tune_quality.sh: how good is `disktune tune`'s recommendation?
#
# Two workloads on LevelDB at a 128 MiB memory budget:
#   write-heavy  fillrandom + overwrite, 4,000,000 keys (~460 MiB of keys +
#                values, 3.6x the budget), both scored
#   read-heavy   readrandom (1,000,000 reads, scored) after a fillrandom of
#                256 MiB of keys + values (2,314,098 keys): larger than the
#                128 MiB budget, so the cache cannot hold it
# For each:
#   1. grid: every point of the tuner's knob space measured once at full
#      size: write buffer {4 (default), 8, 16, 32, 56} MiB x bloom {none, 10}
#      x compression {snappy, none} x block {4, 16} KiB = 40 points, the
#      block cache taking what the budget leaves (as the tuner does);
#      max_open_files and the table size stay at LevelDB's defaults, which
#      the tuner's rules also keep at these sizes. G = the grid's wall time.
#   2. tune: `disktune tune` with --time-budget 0.2 x G (at least 30s),
#      using one quick probe shared by both workloads, --tunes times (each
#      a separate tune). T = its wall time.
#   3. final: the engine's defaults, the baseline (defaults with the budget
#      in the cache), the grid's best point and each recommendation, each
#      --repeat times at full size in rotated order; paired ratios with a
#      Student-t 95% interval of the mean log-ratio.
# Targets: recommendation / defaults >= 1.3; recommendation / grid best
# >= 0.95; T <= 0.2 x G.
#
# Usage: benchmarks/tune_quality.sh [--dir DIR] [--repeat R]
#          [--workloads write-heavy,read-heavy] [--grid-fraction 0.2]
#          [--tunes N]   (separate tunes per workload, each judged; default 1)
#          [--scale F]   (multiplies keys and reads; < 1 only to smoke-test)
#          [--reuse-grid] (with --dir: take the grid, and its time G, from an
#                          earlier run's grid-<workload>.json of the same size)
#   DISKTUNE=path/to/disktune (default: build/disktune, then build-tune/disktune)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib.sh"
dir=""
repeat=3
workloads=write-heavy,read-heavy
fraction=0.2
scale=1
reuse=0
tunes=1
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --workloads) workloads=$2; shift 2 ;;
    --grid-fraction) fraction=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    --reuse-grid) reuse=1; shift ;;
    --tunes) tunes=$2; shift 2 ;;
    -h|--help) sed -n '2,33p' "$0"; exit 0 ;;
    *) echo "tune_quality.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

case "$tunes" in ''|*[!0-9]*|0) echo "tune_quality.sh: --tunes wants a count >= 1, e.g. 5" >&2; exit 2 ;; esac
case "$repeat" in ''|*[!0-9]*|0) echo "tune_quality.sh: --repeat wants a count >= 1, e.g. 5" >&2; exit 2 ;; esac

disktune=$(find_disktune tune_quality.sh "$root" build build-tune)

work=${dir:-$(mktemp -d "$root/tunequality.XXXXXX")}
mkdir -p "$work"
[ -z "$dir" ] && trap 'rm -rf "$work"' EXIT

python3 - "$disktune" "$work" "$repeat" "$workloads" "$fraction" "$scale" "$reuse" "$tunes" <<'PY'
import json, math, os, platform, subprocess, sys, time

disktune, work, repeat, workloads, fraction, scale, reuse, tunes = sys.argv[1:9]
repeat, fraction, scale, reuse = int(repeat), float(fraction), float(scale), reuse == "1"
tunes = int(tunes)
MiB = 1 << 20
BUDGET = 128 * MiB
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228]

WORKLOADS = {
    "write-heavy": {"scenarios": ["fillrandom", "overwrite"], "num": 4000000},
    "read-heavy": {"scenarios": ["fillrandom", "readrandom"],
                   "measured": ["readrandom"],
                   "num": 256 * MiB // 116, "reads": 1000000},
}

def run(args, quiet=True):
    t0 = time.monotonic()
    p = subprocess.run([disktune] + args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("failed: disktune %s\n%s" % (" ".join(args), p.stderr))
    return time.monotonic() - t0

def score(report, measured):
    ops = ns = 0
    for b in json.load(open(report))["benches"]:
        if measured and b["scenario"] not in measured:
            continue
        ops += b["metrics"]["ops"]
        ns += b["metrics"]["elapsed_ns"]
    return ops / (ns / 1e9)

def bench(profile, flags, measured, tag):
    out = os.path.join(work, "bench-%s.json" % tag)
    wall = run(["bench", "--profile", profile, "--dir", os.path.join(work, "db"),
                "--json", out, "-q"] + flags)
    return score(out, measured), wall

def table_memory(live, bits, compressed, block):
    value = 100 * (0.5 if compressed else 1.0)
    db = 1.1 * (16 + 8 + 3 + value) * live
    return 1.1 * live * bits / 8 + db / block * (16 + 12)

def grid_points(live):
    # MiB of write buffer: LevelDB's default, then the tuner's shares of
    # the budget (1/16, 1/8, 1/4, 7/16).
    for wb in (4, 8, 16, 32, 56):
        for bloom in (0, 10):
            for comp in ("snappy", "none"):
                for block in (4096, 16384):
                    cache = BUDGET - 2 * wb * MiB - table_memory(
                        live, bloom, comp == "snappy", block)
                    cache = max(256 * 1024, int(cache))
                    flags = ["--write-buffer-size", "%dMiB" % wb,
                             "--cache-size", "%dB" % cache,
                             "--bloom-bits", str(bloom),
                             "--compression", comp,
                             "--block-size", "%dB" % block]
                    name = "wb %d MiB, bloom %s, %s, block %d KiB" % (
                        wb, bloom or "none", comp, block // 1024)
                    yield name, flags

def gain(a, b):
    logs = [math.log(x / y) for x, y in zip(a, b)]
    ratios = sorted(x / y for x, y in zip(a, b))
    n = len(logs)
    med = ratios[n // 2] if n % 2 else (ratios[n // 2 - 1] + ratios[n // 2]) / 2
    if n < 2:
        return med, med, med
    mean = sum(logs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / (n - 1))
    half = T95[min(n - 2, len(T95) - 1)] * sd / math.sqrt(n)
    return med, math.exp(mean - half), math.exp(mean + half)

load = os.getloadavg()
print("machine: %d CPUs, %s, load average %.1f %.1f %.1f at start" % (
    os.cpu_count(), platform.release(), *load))
print("disktune: %s; budget 128 MiB; final runs: %d each, rotated" % (disktune, repeat))
probe = os.path.join(work, "probe.json")
wall = run(["probe", "--quick", "--probes", "rand_read,seq_write,fsync",
            "--queue-depths", "1", "--fsync-methods", "fdatasync",
            "--fsync-sizes", "4096", "--fsync-modes", "append",
            "--dir", os.path.join(work, "probe"), "--json", probe, "-q"])
print("probe: %.1f s (shared by both workloads)" % wall)

summary = []
for name in workloads.split(","):
    spec = dict(WORKLOADS[name])
    for k in ("num", "reads"):
        if k in spec:
            spec[k] = max(1000, int(spec[k] * scale))
    prof = os.path.join(work, name + ".json")
    json.dump({"profile_version": 1, "name": name, "workload": spec},
              open(prof, "w"), indent=2)
    measured = spec.get("measured", [])
    num = spec["num"]
    live = num * (1 - math.exp(-(2 if name == "write-heavy" else 1)))
    print("\n== %s: %s, num %d%s" % (name, " + ".join(spec["scenarios"]), num,
          ", reads %d" % spec["reads"] if "reads" in spec else ""))

    # 1. Grid.
    grid_file = os.path.join(work, "grid-%s.json" % name)
    saved = json.load(open(grid_file)) if reuse and os.path.exists(grid_file) else None
    if isinstance(saved, dict) and saved.get("num") == num:
        grid = [(g["ops_per_sec"], g["point"], g["flags"]) for g in saved["points"]]
        g_wall = saved["wall_s"]
        print("grid: reused from %s (measured %s)" % (grid_file, saved["measured_at"]))
    else:
        grid, g_wall = [], 0.0
        for i, (pname, flags) in enumerate(grid_points(live)):
            ops, w = bench(prof, flags, measured, "grid")
            g_wall += w
            grid.append((ops, pname, flags))
        grid.sort(reverse=True)
        json.dump({"num": num, "wall_s": g_wall,
                   "measured_at": time.strftime("%Y-%m-%d %H:%M:%S"),
                   "points": [{"ops_per_sec": g[0], "point": g[1], "flags": g[2]}
                              for g in grid]},
                  open(grid_file, "w"), indent=1)
    print("grid: %d points, one run each, %.0f s; worst %.0f ops/s; best five:" % (
        len(grid), g_wall, grid[-1][0]))
    for g in grid[:5]:
        print("  %9.0f ops/s  %s" % (g[0], g[1]))

    # 2. Tune within a fraction of the grid's time, --tunes times.
    budget_s = max(30, int(fraction * g_wall))
    recs = []  # (label, profile, tuner wall time)
    for k in range(1, tunes + 1):
        tuned = os.path.join(work, "%s-tuned-%d.json" % (name, k))
        t_wall = run(["tune", "--engine", "leveldb", "--workload", prof,
                      "--memory-budget", "128MiB", "--time-budget", "%ds" % budget_s,
                      "--probe-result", probe, "--out", tuned,
                      "--dir", os.path.join(work, "tune"), "-q"])
        t = json.load(open(tuned))
        tj = t["tune"]
        print("tune %d: --time-budget %ds, took %.0f s = %.2f of the grid's time" % (
            k, budget_s, t_wall, t_wall / g_wall))
        print("  recommendation: %s" % json.dumps(t.get("engine_options", {})))
        v = tj["evidence"].get("verification")
        if v:
            print("  its A/B: scale %.3f (%d keys), %d pairs" % (
                v["scale"], v["num"], v["repeats"]))
        print("  its verdict: %s" % tj["verdict"])
        # The baseline (the defaults, the budget in the cache) is the same
        # for every tune of one workload: take the first's.
        if k == 1:
            base_cache = tj["evidence"]["baseline"]["engine_options"]["cache_bytes"]
        recs.append(("recommended %d" % k if tunes > 1 else "recommended",
                     tuned, t_wall))

    # 3. Final comparison at full size, rotated order.
    configs = [
        ("defaults", prof, []),
        ("baseline", prof, ["--cache-size", "%dB" % base_cache]),
        ("grid best", prof, grid[0][2]),
    ] + [(label, p, []) for label, p, _ in recs]
    scores = {c[0]: [] for c in configs}
    for r in range(repeat):
        for k in range(len(configs)):
            label, p, flags = configs[(k + r) % len(configs)]
            ops, _ = bench(p, flags, measured, "final")
            scores[label].append(ops)
    for label in scores:
        xs = sorted(scores[label])
        print("  %-14s median %9.0f ops/s  runs %s" % (
            label, xs[len(xs) // 2], " ".join("%.0f" % x for x in scores[label])))
    for label, _, t_wall in recs:
        rec = scores[label]
        for other, target in (("defaults", 1.3), ("baseline", None), ("grid best", 0.95)):
            m, lo, hi = gain(rec, scores[other])
            verdict = ""
            if target:
                verdict = "meets" if m >= target else "MISSES"
                verdict = "  %s the target of %.2f" % (verdict, target)
            print("  %s / %-10s %.3f [%.3f, %.3f]%s" % (label, other, m, lo, hi, verdict))
        summary.append((name, label, t_wall / g_wall))
    m, lo, hi = gain(scores["grid best"], scores["defaults"])
    print("  (context) grid best / defaults  %.3f [%.3f, %.3f]" % (m, lo, hi))

print("\nload average at the end: %.1f %.1f %.1f" % os.getloadavg())
for name, label, share in summary:
    print("%s, %s: tuner time / grid time = %.2f (%s the 0.20 target)" % (
        name, label, share, "meets" if share <= 0.2 else "MISSES"))
PY
