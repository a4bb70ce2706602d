#!/usr/bin/python3
"""Checks of the exports into other tools: hatchet (json-split), pstats, otf2.

    check_doors.py CHECK BIN_DIR WORK_DIR SOURCE_DIR [MPI_PROGRAM MPIEXEC FLAGS...]

WORK_DIR holds the profiles make_export_profiles wrote (nested.h5, mpi.h5,
threads.h5, names.h5); SOURCE_DIR is tests/export; ../fixtures beside it
holds the Python package's reference profiles. Every check asserts exact
values; a failure raises and exits non-zero.
"""
import glob
import json
import marshal
import os
import pstats
import re
import shutil
import subprocess
import sys
import tempfile

CHECK, BIN, WORK, SRC = sys.argv[1:5]
EXTRA = sys.argv[5:]
TOOL = os.path.join(BIN, "scope-profiler")
FIXTURES = os.path.join(SRC, "..", "fixtures")
OUT = tempfile.mkdtemp(prefix="sp_doors_")
sys.path.insert(0, SRC)
import hatchet_reader  # noqa: E402  (tests/export/hatchet_reader.py)


def tool(*args, rc=0, cwd=WORK, env=None):
    p = subprocess.run([TOOL, *args], cwd=cwd, capture_output=True, env=env)
    if p.returncode != rc:
        raise AssertionError(f"{' '.join(args)}: exit {p.returncode}, expected {rc}\n"
                             f"stderr: {p.stderr.decode(errors='replace')}")
    return p


def expect(got, want, what):
    if got != want:
        raise AssertionError(f"{what}:\n  got  {got!r}\n  want {want!r}")


def close(a, b, what):
    if abs(a - b) > 1e-9 * max(1.0, abs(a), abs(b)):
        raise AssertionError(f"{what}: {a!r} != {b!r}")


def one_line_error(p, *words):
    err = p.stderr.decode()
    expect(err.count("\n"), 1, f"one error line, got {err!r}")
    for w in words:
        if w not in err:
            raise AssertionError(f"error {err!r} does not name {w!r}")
    return err


def hatchet(profile, *opts):
    out = os.path.join(OUT, "h.json")
    tool("export", "hatchet", profile, "-o", out, *opts)
    with open(out) as f:
        return json.load(f), out


def per_rank_rows(profile):
    return json.loads(tool("inspect", profile, "--per-rank", "--format", "json").stdout)


def fixture(name):
    return os.path.join(FIXTURES, name)


PROFILES = ["nested.h5", "mpi.h5", "threads.h5", "names.h5"]
FIXTURE_PROFILES = ["py_tutorial2.h5", "multirank_schema3.h5", "c_schema2.h5"]


# --- hatchet: the exact document ---------------------------------------------------

def check_hatchet():
    doc, _ = hatchet("nested.h5")
    expect(doc["columns"], ["Node order", "path", "mpi.rank", "time (inc)", "time", "count"],
           "columns")
    expect([m["is_value"] for m in doc["column_metadata"]],
           [True, False, True, True, True, True], "is_value per column")
    expect(doc["nodes"], [
        {"label": "main", "column": "path"},
        {"label": "init", "column": "path", "parent": 0},
        {"label": "loop", "column": "path", "parent": 0},
        {"label": "step", "column": "path", "parent": 2},
        {"label": "kernel", "column": "path", "parent": 3},
        {"label": "io", "column": "path", "parent": 3},
        {"label": "rec", "column": "path", "parent": 0},
        {"label": "rec", "column": "path", "parent": 6}], "nested nodes")
    expect(doc["data"], [
        [0, 0, 0, 0.1, 0.012, 1], [1, 1, 0, 0.01, 0.01, 1], [2, 2, 0, 0.07, 0, 1],
        [3, 3, 0, 0.07, 0.025, 2], [4, 4, 0, 0.03, 0.03, 2], [5, 5, 0, 0.015, 0.015, 1],
        [6, 6, 0, 0.008, 0.003, 1], [7, 7, 0, 0.005, 0.005, 1]], "nested rows")
    expect({k: doc[k] for k in ("label", "start_time_ns", "finalize_time_ns")},
           {"label": "nested", "start_time_ns": 1000000000000,
            "finalize_time_ns": 1000200000000}, "globals: the file's metadata")
    # two ranks: rank after rank, every node on every rank
    doc, _ = hatchet("mpi.h5")
    expect(doc["data"], [[0, 0, 0, 0.003, 0.002, 1], [1, 1, 0, 0.001, 0.001, 1],
                         [0, 0, 1, 0.005, 0.002, 1], [1, 1, 1, 0.003, 0.003, 1]], "mpi rows")
    expect(doc["mpi_size"], 2, "mpi_size global")
    doc, _ = hatchet("mpi.h5", "--aggregate-ranks")
    expect(doc["columns"], ["Node order", "path", "time (inc)", "time", "count",
                            "max time (inc)", "min time (inc)"], "aggregate columns")
    expect(doc["data"], [[0, 0, 0.004, 0.002, 2, 0.005, 0.003],
                         [1, 1, 0.002, 0.002, 2, 0.003, 0.001]], "aggregate rows: mean, max, min")
    # a path rank 1 never took has 0 there (min 0), and the ranks filter applies
    doc, _ = hatchet("mpi.h5", "--ranks", "1", "--include", "sub")
    expect(doc["data"], [[0, 0, 1, 0.005, 0.002, 1], [1, 1, 1, 0.003, 0.003, 1]],
           "--ranks 1 --include sub: the path with its ancestor")
    # hostile names survive as labels
    doc, _ = hatchet("names.h5")
    expect([n["label"] for n in doc["nodes"]],
           ["say \"hi\"", "back\\slash", "line\nbreak", "</script><b>x</b>", "a;b", "100% sure",
            "ünï/cödé 名前 🚀", "tab\there"], "labels")


# --- hatchet: read back as Hatchet reads it, compared with inspect --per-rank ------

def compare_with_inspect(profile):
    _, out = hatchet(profile)
    frame, metadata, exc, inc = hatchet_reader.read(out)
    expect((sorted(exc), inc), (["count", "time"], ["time (inc)"]), f"{profile}: metrics")
    sums = {}
    for (path, rank), row in frame.iterrows():
        s = sums.setdefault((path[-1], int(rank)), [0.0, 0.0, 0])
        s[0] += row["time (inc)"]
        s[1] += row["time"]
        s[2] += int(row["count"])
    want = {(r["name"], r["rank"]): r for r in per_rank_rows(profile)}
    sums = {k: v for k, v in sums.items() if v[2]}  # zero rows of absent ranks
    expect(sorted(sums), sorted(want), f"{profile}: (region, rank) pairs")
    for key, (inc_s, exc_s, count) in sums.items():
        close(inc_s, want[key]["total_duration"], f"{profile} {key} time (inc)")
        close(exc_s, want[key]["exclusive_duration"], f"{profile} {key} time")
        expect(count, want[key]["num_calls"], f"{profile} {key} count")
    meta = json.loads(tool("metadata", profile).stdout)["files"][0]["metadata"]
    expect(metadata, {k: v for k, v in meta.items()
                      if k not in ("data", "columns", "column_metadata", "nodes")},
           f"{profile}: globals = the metadata command's fields")


def check_hatchet_reader():
    for p in PROFILES:
        compare_with_inspect(p)
    for p in FIXTURE_PROFILES:
        compare_with_inspect(fixture(p))
    # the rank-aggregated rows are the means of the per-rank rows
    _, out = hatchet(fixture("multirank_schema3.h5"))
    ranks, _, _, _ = hatchet_reader.read(out)
    _, out = hatchet(fixture("multirank_schema3.h5"), "--aggregate-ranks")
    mean, _, exc, inc = hatchet_reader.read(out)
    expect(sorted(exc + inc), ["count", "max time (inc)", "min time (inc)", "time", "time (inc)"],
           "aggregate metrics")
    by_path = ranks.groupby(level=0)
    for path, row in mean.iterrows():
        group = by_path.get_group(path)
        close(row["time (inc)"], group["time (inc)"].mean(), f"{path} mean time (inc)")
        close(row["time"], group["time"].mean(), f"{path} mean time")
        close(row["max time (inc)"], group["time (inc)"].max(), f"{path} max")
        close(row["min time (inc)"], group["time (inc)"].min(), f"{path} min")
        expect(int(row["count"]), int(group["count"].sum()), f"{path} count")


# --- hatchet: the schema --------------------------------------------------------------

def check_hatchet_schema():
    import jsonschema
    with open(os.path.join(SRC, "json_split.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    docs = [hatchet(p, *o)[0] for p in PROFILES + [fixture(f) for f in FIXTURE_PROFILES]
            for o in ((), ("--aggregate-ranks",))]
    for doc in docs:
        errors = list(validator.iter_errors(doc))
        if errors:
            raise AssertionError(f"schema: {errors[0].message} at {list(errors[0].path)}")
    # the schema is not vacuous: each of these breaks one rule
    good = docs[0]
    broken = {
        "no nodes": {k: v for k, v in good.items() if k != "nodes"},
        "a node of another column": {**good, "nodes": [{"label": "x", "column": "function"}]},
        "a null time": {**good, "data": [[0, 0, 0, None, 0, 1]]},
        "path not second": {**good, "columns": ["Node order", "mpi.rank", "path", "time (inc)",
                                                "time", "count"]},
        "a negative parent": {**good, "nodes": [{"label": "x", "column": "path", "parent": -1}]},
        "a metadata object": {**good, "label": {"nested": 1}},
    }
    for what, doc in broken.items():
        if validator.is_valid(doc):
            raise AssertionError(f"schema accepts a document with {what}")
    # and the reader refuses what Hatchet could not build
    bad = dict(good)
    bad["nodes"] = [{"label": "a", "column": "path", "parent": 1},
                    {"label": "b", "column": "path"}]
    path = os.path.join(OUT, "bad.json")
    with open(path, "w") as f:
        json.dump(bad, f)
    try:
        hatchet_reader.read(path)
    except ValueError as e:
        expect("not listed before it" in str(e), True, "reader: child before parent")
    else:
        raise AssertionError("reader accepted a child listed before its parent")


def check_hatchet_many():
    out = os.path.join(OUT, "many")
    tool("export", "hatchet", "nested.h5", "mpi.h5", "-o", out)
    expect(sorted(os.listdir(out)), ["mpi.json", "nested.json"], "one STEM.json per file")
    with open(os.path.join(out, "mpi.json")) as f:
        expect(json.load(f)["label"], "two ranks", "mpi.json is mpi.h5's")
    p = tool("export", "hatchet", "nested.h5", "mpi.h5", "-o", "x.json", rc=2)
    one_line_error(p, "-o DIR")
    os.makedirs(os.path.join(OUT, "twin"), exist_ok=True)
    shutil.copy(os.path.join(WORK, "mpi.h5"), os.path.join(OUT, "twin", "mpi.h5"))
    p = tool("export", "hatchet", "mpi.h5", os.path.join(OUT, "twin", "mpi.h5"), "-o",
             os.path.join(OUT, "twins"), rc=2)
    one_line_error(p, "both be written to")
    p = tool("export", "folded", "nested.h5", "mpi.h5", "-o", "-", rc=2)
    one_line_error(p, "exactly one FILE")
    p = tool("export", "folded", "nested.h5", "-o", "-", "--aggregate-ranks", rc=2)
    one_line_error(p, "--aggregate-ranks applies to the hatchet format only")


# --- pstats -----------------------------------------------------------------------

def load_pstats(profile, *opts):
    out = os.path.join(OUT, "p.prof")
    tool("export", "pstats", profile, "-o", out, *opts)
    with open(out, "rb") as f:
        raw = marshal.load(f)
    return raw, pstats.Stats(out), out


def check_pstats():
    raw, stats, out = load_pstats("nested.h5")
    k = lambda name: ("~", 0, name)  # noqa: E731
    root = k("<nested rank 0>")
    expect(raw, {
        k("main"): (1, 1, 0.012, 0.1, {root: (1, 1, 0.012, 0.1)}),
        k("init"): (1, 1, 0.01, 0.01, {k("main"): (1, 1, 0.01, 0.01)}),
        k("loop"): (1, 1, 0.0, 0.07, {k("main"): (1, 1, 0.0, 0.07)}),
        k("step"): (2, 2, 0.025, 0.07, {k("loop"): (2, 2, 0.025, 0.07)}),
        k("kernel"): (2, 2, 0.03, 0.03, {k("step"): (2, 2, 0.03, 0.03)}),
        k("io"): (1, 1, 0.015, 0.015, {k("step"): (1, 1, 0.015, 0.015)}),
        k("rec"): (1, 2, 0.008, 0.008, {k("main"): (1, 1, 0.003, 0.008),
                                        k("rec"): (0, 1, 0.005, 0.0)}),
        root: (1, 1, 0.0, 0.1, {}),
    }, "nested.h5 pstats dict")
    expect((stats.total_calls, stats.prim_calls), (11, 10), "pstats call totals")
    close(stats.total_tt, 0.1, "pstats total time")
    # `python3 -m pstats FILE` prints the same table
    p = subprocess.run([sys.executable, "-c",
                        "import pstats,sys; pstats.Stats(sys.argv[1]).sort_stats('tottime')"
                        ".print_stats(3)", out], capture_output=True, text=True, check=True)
    table = p.stdout.split("filename:lineno(function)", 1)[1]
    lines = [ln.split() for ln in table.splitlines() if ln.strip()]
    expect([ln[-1] for ln in lines[:3]], ["kernel", "step", "io"], "sorted by tottime")
    # several ranks: summed; the root names the label only
    raw, stats, _ = load_pstats("mpi.h5")
    expect(raw[k("work")], (2, 2, 0.004, 0.008, {k("<two ranks>"): (2, 2, 0.004, 0.008)}),
           "work over two ranks")
    raw, _, _ = load_pstats("mpi.h5", "--ranks", "1")
    expect(raw[k("<two ranks rank 1>")], (1, 1, 0.0, 0.005, {}), "the root of one rank")
    # non-ASCII names stay text; invalid bytes never make an unreadable file
    raw, _, _ = load_pstats("names.h5")
    expect(k("ünï/cödé 名前 🚀") in raw, True, "UTF-8 name")
    # totals equal inspect's on the reference profiles
    for profile in PROFILES + [fixture(f) for f in FIXTURE_PROFILES]:
        raw, stats, _ = load_pstats(profile)
        rows = json.loads(tool("inspect", profile, "--format", "json").stdout)
        total_exclusive = 0.0
        for r in rows:
            cc, nc, tt, ct, callers = raw[k(r["name"])]
            expect(nc, r["num_calls"], f"{profile} {r['name']} nc")
            close(tt, r["exclusive_duration"], f"{profile} {r['name']} tottime")
            if cc == nc:
                close(ct, r["total_duration"], f"{profile} {r['name']} cumtime")
            expect(sum(c[1] for c in callers.values()), nc, f"{profile} {r['name']} callers")
            total_exclusive += r["exclusive_duration"]
        close(stats.total_tt, total_exclusive, f"{profile}: total tottime")
    p = tool("export", "pstats", "nested.h5", "-o", "x.prof.gz", rc=2)
    one_line_error(p, "drop the .gz")


# --- otf2 --------------------------------------------------------------------------

def otf2_events(archive):
    """(location -> [(kind, ts, region)]), location -> rank, from otf2-print."""
    p = subprocess.run(["otf2-print", "-G", os.path.join(archive, "traces.otf2")],
                       capture_output=True, text=True, check=True)
    group_of = {}
    for ln in p.stdout.splitlines():
        m = re.match(r'LOCATION\s+(\d+)\s+Name: ".*" <\d+>, Type: CPU_THREAD, '
                     r'# Events: \d+, Group: "rank (\d+)" <\d+>', ln)
        if m:
            group_of[int(m.group(1))] = int(m.group(2))
    p = subprocess.run(["otf2-print", os.path.join(archive, "traces.otf2")],
                       capture_output=True, text=True, check=True)
    seq = {}
    for ln in p.stdout.splitlines():
        m = re.match(r'(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "(.*)" <\d+>', ln)
        if m:
            seq.setdefault(int(m.group(2)), []).append((m.group(1), int(m.group(3)), m.group(4)))
    return seq, group_of


def expected_sequence(calls):
    """ENTER/LEAVE in call-tree order: start ascending, longer first; a call that
    ends when the next begins leaves first."""
    out, stack = [], []
    for start, end, name in sorted(calls, key=lambda c: (c[0], -c[1])):
        while stack and stack[-1][0] <= start:
            e = stack.pop()
            out.append(("LEAVE", e[0], e[1]))
        out.append(("ENTER", start, name))
        stack.append((end, name))
    while stack:
        e = stack.pop()
        out.append(("LEAVE", e[0], e[1]))
    return out


def compare_otf2(profile, archive):
    seq, group_of = otf2_events(archive)
    rows = json.loads(tool("events", profile, "--format", "json").stdout)
    calls = {}
    for r in rows:
        calls.setdefault(r["rank"], []).append(
            (round(r["start"] * 1e9), round(r["end"] * 1e9), r["name"]))
    expect(sorted(group_of.values()), sorted(calls), f"{profile}: one location per rank")
    total = 0
    for loc, rank in group_of.items():
        got = seq.get(loc, [])
        want = expected_sequence(calls[rank])
        origin = got[0][1] - want[0][1]  # the archive's clock offset
        shifted = [(k, t - origin, n) for k, t, n in got]
        expect([(k, n) for k, _, n in shifted], [(k, n) for k, _, n in want],
               f"{profile} rank {rank}: enter/leave order")
        for (_, t, n), (_, w, _) in zip(shifted, want):
            if abs(t - w) > 2:  # the events command prints seconds as floats
                raise AssertionError(f"{profile} rank {rank} {n}: ts {t} != {w}")
        total += len(got)
    expect(total, 2 * len(rows), f"{profile}: an enter and a leave per call")
    # the clock properties span the events: offset the first timestamp, length to the last
    p = subprocess.run(["otf2-print", "-G", os.path.join(archive, "traces.otf2")],
                       capture_output=True, text=True, check=True)
    m = re.search(r"Global Offset: (\d+), Length: (\d+)", p.stdout)
    stamps = [t for events in seq.values() for _, t, _ in events]
    expect((int(m.group(1)), int(m.group(2))), (min(stamps), max(stamps) - min(stamps) + 1),
           f"{profile}: clock properties")


def check_otf2():
    # a small MPI run, recorded here
    program, mpiexec, *flags = EXTRA
    run_h5 = os.path.join(OUT, "mpi_run.h5")
    env = dict(os.environ, SCOPE_PROFILER_OUTPUT=run_h5, SCOPE_PROFILER_QUIET="1")
    subprocess.run([mpiexec, *flags, "-np", "2", program], env=env, check=True,
                   capture_output=True, cwd=OUT)
    archive = os.path.join(OUT, "mpi_run_otf2")
    tool("export", "otf2", run_h5, "-o", archive, "--raw-clock")
    compare_otf2(run_h5, archive)
    p = subprocess.run(["otf2-print", "-G", os.path.join(archive, "traces.otf2")],
                       capture_output=True, text=True, check=True)
    if not re.search(r'COMM\s+0\s+Name: "MPI_COMM_WORLD"', p.stdout):
        raise AssertionError("no MPI_COMM_WORLD definition:\n" + p.stdout)
    archive2 = os.path.join(OUT, "multirank_otf2")
    tool("export", "otf2", fixture("multirank_schema3.h5"), "-o", archive2, "--raw-clock")
    compare_otf2(fixture("multirank_schema3.h5"), archive2)
    # threads: one location per (rank, thread), named after the thread
    archive3 = os.path.join(OUT, "threads_otf2")
    tool("export", "otf2", "threads.h5", "-o", archive3)
    p = subprocess.run(["otf2-print", "-G", os.path.join(archive3, "traces.otf2")],
                       capture_output=True, text=True, check=True)
    names = re.findall(r'LOCATION\s+\d+\s+Name: "(.*?)" <\d+>', p.stdout)
    expect(names, ["main", 'worker "1"'], "thread locations")
    # bad input: an existing target is refused and left as it was
    before = sorted(os.listdir(archive))
    p = tool("export", "otf2", run_h5, "-o", archive, rc=2)
    one_line_error(p, archive, "exists", "remove it or choose another -o")
    expect(sorted(os.listdir(archive)), before, "the existing archive is untouched")
    p = tool("export", "otf2", run_h5, "-o", "-", rc=2)
    one_line_error(p, "-o DIR")
    expect(glob.glob(os.path.join(OUT, "*.tmp-*")), [], "no temporary archive left")


# --- export data -----------------------------------------------------------------

def read_csv(path):
    import csv
    with open(path, newline="") as f:
        raw = f.read()
    if "\r\n" not in raw or raw.replace("\r\n", "").count("\n") != raw.count("\n") - raw.count("\r\n"):
        raise AssertionError(f"{path}: records end in CRLF, as Python's csv writes them")
    with open(path, newline="") as f:
        return list(csv.reader(f))


def check_data():
    out = os.path.join(OUT, "data")
    profile = fixture("multirank_schema3.h5")
    tool("export", "data", fixture("py_tutorial2.h5"), profile, "-o", out,
         "--duration-metrics", "total", "avg", "min", "max", "std")
    expect(sorted(os.listdir(out)), ["duration_timeseries_data.csv", "durations_data.csv",
                                     "flame_data.csv", "gantt_data.csv", "speedup_data.csv"],
           "data files")
    gantt = read_csv(os.path.join(out, "gantt_data.csv"))
    expect(gantt[0], ["file", "rank", "region", "start_seconds", "end_seconds"], "gantt header")
    # every call of each file, from its first call, as the events command gives them
    for label, path in (("tutorial 2", fixture("py_tutorial2.h5")),
                        ("synthetic", profile)):  # its label
        rows = [r for r in gantt[1:] if r[0] == label]
        events = json.loads(tool("events", path, "--format", "json").stdout)
        first = min(e["start"] for e in events)
        want = sorted((e["rank"], e["name"], e["start"] - first, e["end"] - first)
                      for e in events)
        got = sorted((int(r[1]), r[2], float(r[3]), float(r[4])) for r in rows)
        expect(len(got), len(want), f"{label}: one gantt row per call")
        for g, w in zip(got, want):
            expect(g[:2], w[:2], f"{label}: gantt row")
            close(g[2], w[2], f"{label} {g[1]} start")
            close(g[3], w[3], f"{label} {g[1]} end")
        expect(rows[0][3], "0.0", f"{label}: x = 0 is the first call")
    durations = read_csv(os.path.join(out, "durations_data.csv"))
    expect(durations[0], ["file", "region", "metric", "value_seconds"], "durations header")
    keys = {"total": "total_duration", "avg": "average_duration", "min": "min_duration",
            "max": "max_duration", "std": "std_duration"}
    summary = {r["name"]: r for r in json.loads(tool("inspect", profile, "--format",
                                                     "json").stdout)}
    rows = [r for r in durations[1:] if r[0] == "synthetic"]
    expect(len(rows), 5 * len(summary), "a row per region and metric")
    for _, region, metric, value in rows:
        expect(value, repr(float(value)), "shortest float text")
        close(float(value), summary[region][keys[metric]], f"{region} {metric}")
    # JSON: the same rows in the plot-data envelope, with the charts' colours
    twin = os.path.join(OUT, "twin.h5")  # another file with the same label
    shutil.copy(fixture("py_tutorial2.h5"), twin)
    tool("export", "data", fixture("py_tutorial2.h5"), twin, "-o", out,
         "--data-format", "json", "--include", "solve", "--ranks", "0")
    with open(os.path.join(out, "gantt_data.json")) as f:
        doc = json.load(f)
    expect((doc["format"], doc["format_version"], doc["plot"]),
           ("scope-profiler-plot-data", 1, "gantt"), "envelope")
    expect(sorted({(i["file"], i["region"]) for i in doc["intervals"]}),
           [("tutorial 2", "solve"), ("tutorial 2 (2)", "solve")], "labels told apart, --include")
    expect(len(doc["intervals"]), 10, "5 solve calls per file")
    for name, colour in doc["colors"].items():
        if not re.fullmatch(r"#[0-9a-f]{6}", colour):
            raise AssertionError(f"colour {colour!r} of {name}")
    with open(os.path.join(out, "durations_data.json")) as f:
        doc = json.load(f)
    expect((doc["plot"], doc["metrics"], [b["region"] for b in doc["bars"]]),
           ("durations", ["total"], ["solve", "solve"]), "durations json")
    close(doc["bars"][0]["value_seconds"], 0.015782513, "solve total")
    # bad input: one line, nothing written
    p = tool("export", "data", "mpi.h5", "-o", os.path.join(OUT, "d2"), "--duration-metrics",
             "median", rc=2)
    one_line_error(p, "median", "total, avg, min, max, std")
    expect(os.path.exists(os.path.join(OUT, "d2")), False, "nothing written, no directory made")
    one_line_error(tool("export", "data", "mpi.h5", "-o", "-", rc=2), "-o DIR")
    # an aggregate-layout file (no calls): every door says so in one line, writes nothing
    agg = os.path.join(OUT, "agg.h5")
    subprocess.run([sys.executable, os.path.join(SRC, "..", "cli", "python_aggregate",
                                                  "make_aggregate.py"), agg], check=True)
    for fmt in ("hatchet", "pstats", "otf2", "data"):
        target = os.path.join(OUT, "agg_" + fmt)
        one_line_error(tool("export", fmt, agg, "-o", target, rc=2), "aggregate")
        expect(os.path.exists(target), False, f"{fmt}: nothing written for an aggregate file")
    one_line_error(tool("export", "data", "mpi.h5", "-o", "x", "--data-format", "xml", rc=2),
                   "csv or json")
    one_line_error(tool("export", "folded", "mpi.h5", "-o", "-", "--data-format", "json", rc=2),
                   "export data only")


def expected_data(name):
    with open(os.path.join(SRC, "expected_data", name), newline="") as f:
        return f.read()


def produced(directory, name):
    with open(os.path.join(directory, name), newline="") as f:
        return f.read()


def check_data_kinds():
    """flame_data, duration_timeseries_data and speedup_data: exact documents for the
    hand-built profiles (their numbers follow from make_export_profiles.c's times), and
    on the fixtures the flame rows against the events command and inspect."""
    out = os.path.join(OUT, "kinds")
    tool("export", "data", "nested.h5", "-o", out)
    for kind in ("flame_data", "duration_timeseries_data"):
        expect(produced(out, kind + ".csv"), expected_data(f"nested_{kind}.csv"), f"nested {kind}")
    expect(os.path.exists(os.path.join(out, "speedup_data.csv")), False, "one run: no speedup")
    tool("export", "data", "threads.h5", "-o", out, "--data-format", "json")
    expect(produced(out, "flame_data.json"), expected_data("threads_flame_data.json"),
           "threads flame_data.json")
    tool("export", "data", "mpi1.h5", "mpi.h5", "-o", out)
    expect(produced(out, "speedup_data.csv"), expected_data("speedup_data.csv"), "speedup csv")
    expect(produced(out, "duration_timeseries_data.csv"),
           expected_data("mpi_duration_timeseries_data.csv"), "timeseries over two ranks")
    tool("export", "data", "mpi1.h5", "mpi.h5", "-o", out, "--data-format", "json")
    expect(produced(out, "speedup_data.json"), expected_data("speedup_data.json"), "speedup json")
    # the fixtures: one flame row per call, its times the events command's, exclusive
    # times summing to inspect's per region
    for name in FIXTURE_PROFILES:
        fix = os.path.join(OUT, "fix_" + name)
        tool("export", "data", fixture(name), "-o", fix)
        flame = read_csv(os.path.join(fix, "flame_data.csv"))
        head, rows = flame[0], flame[1:]
        col = {k: i for i, k in enumerate(head)}
        events = json.loads(tool("events", fixture(name), "--format", "json").stdout)
        first = min(e["start"] for e in events)
        want = sorted((e["rank"], e["name"], round(e["start"] - first, 9)) for e in events)
        got = sorted((int(r[col["rank"]]), r[col["region"]], round(float(r[col["start_seconds"]]), 9))
                     for r in rows)
        expect(got, want, f"{name}: one flame row per call")
        ids = {(r[col["rank"]], r[col["call_id"]]): r for r in rows}
        for r in rows:
            parent = r[col["parent_call_id"]]
            if parent:
                up = ids[(r[col["rank"]], parent)]
                expect(r[col["call_path"]], up[col["call_path"]] + " > " + r[col["region"]],
                       f"{name}: call path under its parent")
                expect(int(r[col["depth"]]), int(up[col["depth"]]) + 1, f"{name}: depth")
        exclusive = {}
        for r in rows:
            exclusive[r[col["region"]]] = (exclusive.get(r[col["region"]], 0.0)
                                           + float(r[col["exclusive_duration_seconds"]]))
        summary = json.loads(tool("inspect", fixture(name), "--format", "json").stdout)
        for row in summary:
            if row.get("exclusive_duration") is not None and row["name"] in exclusive:
                if abs(exclusive[row["name"]] - row["exclusive_duration"]) > 1e-9:
                    raise AssertionError(f"{name} {row['name']}: exclusive "
                                         f"{exclusive[row['name']]} != {row['exclusive_duration']}")
    # bad input: one line each, nothing written
    target = os.path.join(OUT, "kinds_bad")
    one_line_error(tool("export", "data", "mpi.h5", "-o", target, "--x", "mpi_size", rc=2),
                   "--x mpi_size", "several runs")
    one_line_error(tool("export", "data", "mpi1.h5", "mpi.h5", "-o", target, "--x", "mesh", rc=2),
                   "mesh")
    expect(os.path.exists(target), False, "nothing written")
    one_line_error(tool("export", "folded", "mpi.h5", "-o", "-", "--x", "mpi_size", rc=2),
                   "export data only")
    # runs that are no scaling study: the other files, and one note
    p = tool("export", "data", "nested.h5", "mpi.h5", "-o", target)
    expect(p.stderr.decode(), "scope-profiler: export data: speedup_data not written: no "
           "selected region has calls in every run\n", "the note")
    expect(sorted(os.listdir(target)), ["duration_timeseries_data.csv", "durations_data.csv",
                                        "flame_data.csv", "gantt_data.csv"], "four files")


def check_otf2_unavailable():
    target = os.path.join(OUT, "archive")
    p = tool("export", "otf2", "mpi.h5", "-o", target, rc=2)
    one_line_error(p, "built without OTF2", "libopen-trace-format2-dev")
    expect(os.path.exists(target), False, "nothing written")


CHECKS = {name[6:]: fn for name, fn in globals().items() if name.startswith("check_")}

if __name__ == "__main__":
    try:
        CHECKS[CHECK]()
    finally:
        shutil.rmtree(OUT, ignore_errors=True)
    print(f"{CHECK}: ok")
