#!/usr/bin/env python3
"""Per kind of probe figure, how far apart consecutive results land.

Usage: noise_pairs.py run1.json run2.json [run3.json ...]
       noise_pairs.py --disjoint a1.json b1.json [a2.json b2.json ...]
Pairs each result with the next one (with --disjoint: a1 with b1, a2 with
b2, ...) and prints, per kind (the kinds of
reports/noise_floor.cc), the larger/smaller ratio's median, p90, p95 and max.
"""
import json
import sys


def family_of(name):
    """sync, block_read or block_write, as NoiseFloorFor in
    reports/noise_floor.cc tells them."""
    if name.startswith("fsync."):
        return "sync"
    return "block_write" if "write" in name.split(".")[0] else "block_read"


def figures(path):
    out = {}
    for p in json.load(open(path))["probes"]:
        if p["status"] != "ok":
            continue
        family = family_of(p["name"])
        for m in ("iops", "ops_per_sec", "bytes_per_sec"):
            if p.get(m) is not None:
                out[(p["name"], "rate")] = (family + "_rate", p[m])
                break
        lat = p.get("latency_ns")
        if lat and lat.get("samples"):
            for q in ("p50", "p99"):
                out[(p["name"], q)] = (family + "_latency_" + q, lat[q])
    return out


def main(paths, disjoint):
    kinds = {}
    pairs = zip(paths[::2], paths[1::2]) if disjoint else zip(paths, paths[1:])
    for a, b in pairs:
        fa, fb = figures(a), figures(b)
        for key, (kind, va) in fa.items():
            if key not in fb or va <= 0 or fb[key][1] <= 0:
                continue
            vb = fb[key][1]
            kinds.setdefault(kind, []).append((max(va, vb) / min(va, vb), key[0]))
    for kind, values in sorted(kinds.items()):
        values.sort()
        r = [v for v, _ in values]
        q = lambda f: r[min(len(r) - 1, int(f * len(r)))]
        print(f"{kind:18s} n={len(r):4d} median={q(0.5):.2f} p90={q(0.9):.2f} "
              f"p95={q(0.95):.2f} max={r[-1]:.2f} ({values[-1][1]})")


if __name__ == "__main__":
    args = sys.argv[1:]
    disjoint = bool(args) and args[0] == "--disjoint"
    if disjoint:
        args = args[1:]
    if len(args) < 2 or (disjoint and len(args) % 2):
        sys.exit(__doc__)
    main(args, disjoint)
