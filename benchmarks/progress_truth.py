#!/usr/bin/env python3
"""Runs a command and judges its progress lines against its real duration.

  progress_truth.py OUT -- COMMAND...

Writes the command's stdout to OUT.out and its stderr, each line stamped with
the seconds since the start, to OUT.err. Prints the wall time and exit code,
then each progress line's elapsed + "~Ns left" against the wall time: the
worst relative error over all lines and over the lines after the first 10% of
the run (benchmarks/README.md, "Progress estimates"). Exits with the
command's exit code.
"""
import re
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: progress_truth.py OUT -- COMMAND...")
    out, cmd = sys.argv[1], sys.argv[3:]
    start = time.monotonic()
    lines = []
    with open(out + ".out", "w") as stdout, open(out + ".err", "w") as err:
        proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True)
        for line in proc.stderr:
            t = time.monotonic() - start
            err.write("%8.1f %s" % (t, line))
            lines.append((t, line))
        rc = proc.wait()
    wall = time.monotonic() - start
    totals, worst, worst_late = [], 0.0, 0.0
    for t, line in lines:
        m = re.search(r"~([0-9.]+)s left", line)
        if not m:
            continue
        total = t + float(m.group(1))
        totals.append(round(total))
        error = abs(total - wall) / wall
        worst = max(worst, error)
        if t > 0.1 * wall:
            worst_late = max(worst_late, error)
    print("wall %.1f s, exit %d" % (wall, rc))
    print("progress: %d lines, elapsed + left %s" % (len(totals), totals))
    print("progress: worst %.1f%%, after the first 10%% %.1f%%" % (100 * worst, 100 * worst_late))
    sys.exit(rc)


if __name__ == "__main__":
    main()
