#!/usr/bin/env python3
"""The openmp_balance example's Gantt (issue 30): the slowest thread (4 units
of 10 ms per step) is busy for the whole of every step, so its lane looks
like one bar, but it is five calls, each inside its own step, drawn as five
bars. Checks the recording (events: every omp_body call lies inside one step
call, five per thread) and the chart (20 omp_body bars, five per lane, none
spanning two steps).

  check_openmp_balance.py CLI PROGRAM WORKDIR
"""
import csv
import io
import os
import re
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(*args):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        fail("%s exited %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return p.stdout


def main():
    cli, program, workdir = sys.argv[1:4]
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, "balance.h5")
    run(program, path)
    rows = list(csv.DictReader(io.StringIO(run(cli, "events", path))))
    steps = [(float(r["start"]), float(r["end"])) for r in rows if r["name"] == "step"]
    bodies = [r for r in rows if r["name"] == "omp_body"]
    if len(steps) != 5 or len(bodies) != 20:
        fail("%d steps and %d omp_body calls, expected 5 and 20" % (len(steps), len(bodies)))
    per_thread = {}
    for b in bodies:
        s, e = float(b["start"]), float(b["end"])
        inside = [k for k, (a, z) in enumerate(steps) if a <= s and e <= z]
        if len(inside) != 1:
            fail("omp_body on thread %s at %s..%s lies in no single step" % (b["thread"], s, e))
        per_thread.setdefault(b["thread"], set()).add(inside[0])
    if sorted(len(v) for v in per_thread.values()) != [5, 5, 5, 5]:
        fail("omp_body calls per thread and step: %s" % per_thread)
    out = os.path.join(workdir, "plots")
    run(cli, "plot", "gantt", path, "-o", out)
    svg = open(os.path.join(out, "gantt.svg"), encoding="utf-8").read()
    bars = re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"[^>]*><title>omp_body ', svg)
    lanes = {}
    for x, y, w in bars:
        lanes.setdefault(y, []).append((float(x), float(w)))
    if len(bars) != 20 or sorted(len(v) for v in lanes.values()) != [5, 5, 5, 5]:
        fail("the Gantt draws %d omp_body bars in lanes %s" %
             (len(bars), sorted(len(v) for v in lanes.values())))
    longest = max(max(w for _, w in v) for v in lanes.values())
    step_px = max(float(w) for w in re.findall(
        r'<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)"[^>]*><title>step ', svg))
    if longest > step_px + 0.5:
        fail("an omp_body bar is %.1f px wide, a step %.1f px: wider than one step" %
             (longest, step_px))
    print("openmp_balance: 20 omp_body calls, each inside its step; 5 bars per Gantt lane")


if __name__ == "__main__":
    main()
