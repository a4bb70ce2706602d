#!/usr/bin/env python3
"""Runs a threaded reproducer (fork_tree_*) and checks that every view shows
the call tree of docs/parallel.md section 1: worker calls under the call
open on their forking thread when the region began (or the thread was
created), no invented recursion. The same paths and call counts in
`inspect`, the report's region tree, `export folded` and `export speedscope`
(per-thread stacks), and in aggregate mode.

  check_fork_tree.py CLI PROGRAM KIND WORKDIR

FORK_TREE_LAUNCH (e.g. "mpirun -np 2") runs PROGRAM under a launcher;
FORK_TREE_WRITER then names the MPI writer the per-call file must say it
was written by (/metadata mpi_writer).
"""
import html
import json
import os
import re
import subprocess
import sys

S = "scope_profiler.session"
EXPECTED = {
    "omp_c": {
        S: 1, S + ";step": 3, S + ";step;body": 9, S + ";step;body;compute": 6,
        S + ";step;wait": 6, S + ";late": 1, S + ";late;tail": 2, S + ";late;body": 1,
        S + ";outer": 1, S + ";outer;team": 2, S + ";outer;team;inner": 4,
        S + ";tasks": 1, S + ";tasks;task": 6,
    },
    "omp_fortran": {
        S: 1, S + ";omp_step": 3, S + ";omp_step;omp_body": 9,
        S + ";omp_step;omp_body;omp_compute": 6, S + ";omp_step;omp_wait": 6,
        S + ";outer": 1, S + ";outer;team": 2, S + ";outer;team;inner": 4,
    },
    "omp_plain": {S: 1, S + ";loop": 1, S + ";loop;work": 6},
    # 2 ranks of 2 threads (tests/mpi/fork_tree_mpi.c): the serial tree, twice
    "mpi_omp": {
        S: 2, S + ";step": 6, S + ";step;lead": 6, S + ";step;body": 6,
        S + ";step;body;compute": 6, S + ";step;wait": 6,
    },
    "thread": {
        S: 1, S + ";launch": 1, S + ";launch;spawn": 1, S + ";launch;own_work": 1,
        S + ";launch;job": 3, S + ";launch;job;helper": 1,
    },
}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(*args, env=None):
    p = subprocess.run(args, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        fail("%s exited %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return p.stdout


def record(program, path, env=None):
    """Runs the reproducer (under FORK_TREE_LAUNCH when set) to write path."""
    launch = os.environ.get("FORK_TREE_LAUNCH", "").split()
    run(*launch, program, path, env=env)


def check_writer(cli, path):
    writer = os.environ.get("FORK_TREE_WRITER")
    if not writer:
        return
    out = run(cli, "metadata", path)
    if not re.search(r"mpi_writer\W+%s\b" % writer, out):
        fail("%s was not written by the %s writer:\n%s" % (path, writer, out))


def inspect_tree(cli, path):
    """Paths and calls from the table (--ascii: '\\- ' marks a child, '| ' a level)."""
    out = run(cli, "inspect", path, "--columns", "region", "calls", "--ascii",
              "--suppress-notes")
    tree, stack = {}, []
    rows = [l for l in out.splitlines() if l.startswith("  | ") and not l.startswith("  | region")]
    for line in rows:
        cell = line[4:].rstrip(" |")
        depth = 0
        while cell.startswith("| ") or cell.startswith("\\- "):
            if cell.startswith("\\- "):
                depth += 1
                cell = cell[3:]
                break
            depth += 1
            cell = cell[2:]
        if "↻" in cell or " (r) " in cell:
            fail("inspect shows recursion: " + line)
        m = re.match(r"(\S+)\s+(\d+)?\s*$", cell)
        if not m or m.group(1) == "(own)":
            continue
        del stack[depth:]
        stack.append(m.group(1))
        tree[";".join(stack)] = int(m.group(2))
    return tree


def check_percentages(cli, path):
    """% session (path rows and (own) rows) is wall-clock coverage: within 100 %."""
    out = run(cli, "inspect", path, "--columns", "region", "percent", "--ascii",
              "--suppress-notes")
    for value in re.findall(r"(\d+\.\d+)%", out):
        if float(value) > 100.0:
            fail("inspect prints %s%% of the session" % value)


def folded_paths(cli, path):
    out = run(cli, "export", "folded", path, "-o", "-")
    return {l.rsplit(" ", 1)[0] for l in out.splitlines() if l.strip()}


def speedscope_paths(cli, path, workdir):
    out = os.path.join(workdir, "speedscope.json")
    run(cli, "export", "speedscope", path, "-o", out)
    doc = json.load(open(out))
    frames = [f["name"] for f in doc["shared"]["frames"]]
    paths = set()
    for prof in doc["profiles"]:
        stack = []
        for e in prof["events"]:
            if e["type"] == "O":
                stack.append(frames[e["frame"]])
                paths.add(";".join(stack))
            elif stack.pop() != frames[e["frame"]]:
                fail("speedscope closes a frame it did not open in " + prof["name"])
    return paths


def report_tree(cli, path, workdir):
    out = os.path.join(workdir, "report.html")
    run(cli, "report", path, "-o", out)
    text = open(out, encoding="utf-8").read()
    rows = re.findall(r'<tr data-id="(\d+)"( data-parent="(\d+)")? data-name="([^"]*)">'
                      r'<td class="name"[^>]*>(.*?)</td><td data-v="(\d+)"', text)
    names, tree = {}, {}
    for rid, _, parent, name, cell, calls in rows:
        if "\u21bb" in cell:
            fail("the report shows recursion at " + name)
        full = (names[parent] + ";" if parent else "") + html.unescape(name)
        names[rid] = full
        tree[full] = int(calls)
    return tree


def check_flame_graph(cli, path, workdir):
    """Each bar lies within the canvas and over a bar of the row below (its
    parent): widths are wall-clock coverage, never summed over threads."""
    out = os.path.join(workdir, "plots")
    run(cli, "plot", "flame-graph", path, "-o", out)
    svg = open(os.path.join(out, "flame-graph.svg"), encoding="utf-8").read()
    width = float(re.search(r'<svg[^>]* width="([\d.]+)"', svg).group(1))
    bars = [tuple(float(v) for v in m) for m in
            re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="16\.0"', svg)]
    if not bars:
        fail("no bars in the flame graph")
    rows = {}
    for x, y, w in bars:
        rows.setdefault(y, []).append((x, x + w))
    bottom = max(rows)
    for x, y, w in bars:
        if x < 0 or x + w > width:
            fail("flame-graph bar at x=%.1f, width %.1f leaves the %.0f px canvas" % (x, w, width))
        if y == bottom:
            continue
        below = [r for yy, rs in rows.items() if abs(yy - (y + 18)) < 0.01 for r in rs]
        if not any(a - 0.01 <= x and x + w <= b + 0.6 for a, b in below):
            fail("flame-graph bar at x=%.1f, width %.1f is wider than its parent" % (x, w))


def check_views(cli, path, kind, workdir):
    want = EXPECTED[kind]
    got = inspect_tree(cli, path)
    if got != want:
        fail("inspect tree of %s:\n  got  %s\n  want %s" % (path, sorted(got.items()),
                                                           sorted(want.items())))
    check_percentages(cli, path)
    report = report_tree(cli, path, workdir)
    if report != want:
        fail("report tree: got %s" % sorted(report.items()))
    for view, paths in (("folded", folded_paths(cli, path)),
                        ("speedscope", speedscope_paths(cli, path, workdir))):
        if paths != set(want):
            fail("%s paths: got %s, want %s" % (view, sorted(paths), sorted(want)))
    check_flame_graph(cli, path, workdir)


def folded_lines(cli, path, *extra):
    out = run(cli, "export", "folded", path, "-o", "-", *extra)
    return [l.rsplit(" ", 1) for l in out.splitlines() if l.strip()]


def check_aggregate(cli, program, kind, workdir, per_call):
    """The same program recorded in aggregate mode: the same tree (worker rows
    under their fork point, none above the session) in inspect and the
    report, the same folded stack strings as the per-call file's, and folded
    values that are the paths' exclusive times."""
    want = EXPECTED[kind]
    path = os.path.join(workdir, kind + "_aggregate.h5")
    env = dict(os.environ, SCOPE_PROFILER_AGGREGATE="1")
    record(program, path, env=env)
    os.makedirs(os.path.join(workdir, "aggregate"), exist_ok=True)
    got = inspect_tree(cli, path)
    if got != want:
        fail("aggregate inspect tree:\n  got  %s\n  want %s" % (sorted(got.items()),
                                                               sorted(want.items())))
    report = report_tree(cli, path, os.path.join(workdir, "aggregate"))
    if report != want:
        fail("aggregate report tree: got %s" % sorted(report.items()))
    stacks = {stack for stack, _ in folded_lines(cli, path)}
    if stacks != folded_paths(cli, per_call):
        fail("aggregate folded stacks %s differ from the per-call file's %s" %
             (sorted(stacks), sorted(folded_paths(cli, per_call))))
    per_rank = {stack for stack, _ in folded_lines(cli, path, "--per-rank")}
    ranks = 2 if kind == "mpi_omp" else 1
    if per_rank != {"rank %d;%s" % (r, p) for r in range(ranks) for p in stacks}:
        fail("aggregate folded --per-rank stacks: %s" % sorted(per_rank))
    check_percentages(cli, path)
    check_flame_graph(cli, path, os.path.join(workdir, "aggregate"))
    check_aggregate_hints(cli, path, workdir)


def check_aggregate_hints(cli, path, workdir):
    """Aggregate mode keeps no calls: the notes must not suggest `events`, and
    the commands they do suggest must work."""
    out = run(cli, "inspect", path, "--ascii")
    if "scope-profiler events" in out:
        fail("the notes of an aggregate file suggest `events`, which fails on it")
    for line in out.splitlines():
        m = re.search(r"(scope-profiler (inspect|stats|metadata) .*?)\s*\|?$", line)
        if m and path in m.group(1):
            args = m.group(1).split()[1:]
            if "-o" in args:
                args[args.index("-o") + 1] = os.path.join(workdir, "hint_output")
            run(cli, *args)


def main():
    cli, program, kind, workdir = sys.argv[1:5]
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, kind + ".h5")
    record(program, path)
    check_writer(cli, path)
    check_views(cli, path, kind, workdir)
    check_aggregate(cli, program, kind, workdir, path)
    print("%s: the same %d-path tree in inspect, report, folded and speedscope, and recorded in "
          "aggregate mode; flame-graph bars within their parents" %
          (kind, len(EXPECTED[kind])))


if __name__ == "__main__":
    main()
