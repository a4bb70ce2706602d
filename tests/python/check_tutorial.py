"""Runs tutorial.py against the module and checks every line it prints.

Usage: check_tutorial.py CLI TUTORIAL. Each expected line is the tutorial's
own print statement applied to what the scope-profiler command-line tool
reports for the same file (inspect --format json [--per-rank], events,
stats, metadata), so shape (keys, order, types, units) and values are
checked together.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd

cli, tutorial = sys.argv[1], os.path.abspath(sys.argv[2])


def run_cli(*args):
    return subprocess.run([cli, *args], capture_output=True, text=True, check=True).stdout


def cli_json(*args):
    return json.loads(run_cli(*args))


with tempfile.TemporaryDirectory() as work:
    done = subprocess.run(
        [sys.executable, tutorial], cwd=work, capture_output=True, text=True
    )
    if done.returncode != 0:
        sys.exit(f"tutorial.py failed:\n{done.stdout}\n{done.stderr}")
    printed = done.stdout.splitlines()
    path = os.path.join(work, "profiling_data.h5")
    rows = cli_json("inspect", path, "--format", "json")
    rank_rows = cli_json("inspect", path, "--format", "json", "--per-rank")
    events = cli_json("events", path, "--format", "json")
    stats = cli_json("stats", path, "-o", "-")
    meta = cli_json("metadata", path)["files"][0]["metadata"]
    full_meta = cli_json("metadata", os.path.join(work, "full.h5"))["files"][0]["metadata"]
    table_text = run_cli("inspect", path, "--regions-only", "--suppress-notes", "--width", "0", "--seconds")
    with open(os.path.join(work, "region_statistics.json")) as f:
        written_stats = json.load(f)
    with open(os.path.join(work, "metadata.json")) as f:
        written_meta = json.load(f)

by_name = {row["name"]: row for row in rows}
rank0 = {row["name"]: row for row in rank_rows if row["rank"] == 0}
file_order = ["assemble", "setup", "timestep", "solve"]  # the tutorial's region_names
assert sorted(file_order) == sorted(by_name), (file_order, list(by_name))
summary_keys = ["num_calls", "total_duration", "inclusive_duration", "exclusive_duration",
                "average_duration", "min_duration", "max_duration", "first_duration",
                "last_duration", "std_duration"]

expected = [f"<ProfilingResults 'profiling_data.h5': {len(rows)} region(s), 1 rank(s)>"]
expected += [f"regions: {file_order}", f"count: {len(rows)}", "'solve' recorded? True",
             "ranks in file: 1"]
expected += [f"  {name:<10} {by_name[name]['num_calls']:>3} calls" for name in file_order]
expected.append(f"\"No region named 'sovle' in profiling_data.h5. Available regions: {file_order}\"")
t = by_name["timestep"]
expected += ["aggregated over ranks", "  ranks       : [0]", f"  num_calls   : {t['num_calls']}",
             f"  total   [s] : {t['total_duration']}", f"  average [s] : {t['average_duration']}",
             f"  min/max [s] : {t['min_duration']} {t['max_duration']}",
             f"  std     [s] : {t['std_duration']}"]
calls = [e for e in events if e["name"] == "timestep" and e["rank"] == 0]
calls.sort(key=lambda e: e["call_index"])
# events reports end - start in float seconds; Region.durations is the stored int64 ns / 1e9
durations = np.round(np.array([e["duration"] for e in calls]) * 1e9) / 1e9
starts = np.array([e["start"] for e in calls])
r0 = rank0["timestep"]
expected += ["", "rank 0 only", f"  durations [s]: {durations}",
             f"  start times [s]: {starts.round(3)}",
             f"  summary: {({k: r0[k] for k in summary_keys})}"]
expected += [f"calls per rank : {({0: r0['num_calls']})}",
             f"total per rank : {({0: r0['total_duration']})}",
             f"avg per rank   : {({0: r0['average_duration']})}",
             f"max per rank   : {({0: r0['max_duration']})}"]

# print_summary(suppress_notes=True): the CLI prints the same table after its header.
first = next(i for i, line in enumerate(printed) if line.startswith("  ╭"))
last = next(i for i, line in enumerate(printed) if line.startswith("  ╰"))
table = printed[first : last + 1]
assert "\n".join(table) in table_text, ("table differs from the CLI's", table, table_text)
assert len(table) == len(rows) + 5, table  # header, rule, regions, one (own) row, borders
expected += table + [""]

fields = ("name", "num_calls", "total_duration", "exclusive_duration", "p95", "imbalance")
expected += [str({key: row[key] for key in fields}) for row in rows]
frame = pd.DataFrame(rows)
columns = ["name", "num_calls", "total_duration", "exclusive_duration", "p95_duration"]
expected += str(frame[columns].sort_values("total_duration", ascending=False)).splitlines()
per_rank = pd.DataFrame(rank_rows)
expected += str(per_rank[["name", "rank", "num_calls", "total_duration",
                          "average_duration"]]).splitlines()
frame = frame.assign(share=lambda df: df.total_duration / df.total_duration.sum())
expected += str(frame[["name", "num_calls", "total_duration", "share"]].sort_values(
    "share", ascending=False)).splitlines()
names = [row["name"] for row in rows]
expected.append(str([n for n in names if re.match("s", n)]))
expected.append(str([n for n in names if not re.match("setup", n) and not re.match("assemble", n)]))
expected.append(str([n for n in names if re.match("solve", n) or re.match("timestep", n)]))
expected += [f"{key:>24}: {value}" for key, value in sorted(meta.items())]
expected.append(f"extra fields: {sorted(set(full_meta) - set(meta))}")
expected.append(str(sorted(meta)[:8]))
expected += [str(stats["units"]), str(stats["files"][0]["region_statistics"]["solve"]),
             "wrote region_statistics.json"]

for i, (got, want) in enumerate(zip(printed, expected)):
    if got != want:
        sys.exit(f"line {i + 1} differs:\n  printed:  {got!r}\n  expected: {want!r}")
if len(printed) != len(expected):
    sys.exit(f"{len(printed)} lines printed, {len(expected)} expected:\n" + "\n".join(printed))

# The files the tutorial wrote are the CLI's documents for the same run.
assert written_stats == stats, "region_statistics.json differs from scope-profiler stats"
assert written_meta["files"][0]["metadata"] == meta, "metadata.json differs"
# Types the tutorial shows: ints for counts, floats in seconds, python_version as the package.
assert isinstance(by_name["solve"]["num_calls"], int)
assert re.fullmatch(r"\d+\.\d+\.\d+", meta["python_version"]), meta["python_version"]
assert meta["python_version"] == ".".join(map(str, sys.version_info[:3]))
print(f"tutorial: {len(printed)} lines checked")
