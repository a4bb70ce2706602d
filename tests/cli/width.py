"""Every command's text at 40, 80 and 120 columns (docs/cli.md "Width").

    width.py BIN_DIR CLI_WORK COMPARE_WORK

Runs each command with stdout a pipe and COLUMNS set, and with COLUMNS unset
(the 80-column default), and fails on any line (stdout and stderr, measured
in code points) longer than the width, except a line whose overflow is one
word that cannot wrap: a token of at least width - 20 characters (a path,
a long region name). Help texts are written for 80 columns: they are checked
against max(width, 80). Machine outputs (JSON, CSV, events) are not text, and
an error ("scope-profiler: ...") stays one line for scripts to grep.
"""
import os
import subprocess
import sys
import tempfile

bin_dir, cli_work, compare_work = sys.argv[1:4]
cli = os.path.join(bin_dir, "scope-profiler")
out_dir = tempfile.mkdtemp()

INSPECT_FILES = ["py_tutorial2.h5", "multirank_schema3.h5", "c_schema2.h5", "legacy_schema1.h5",
                 "long.h5", "names.h5", "threads.h5", "mpi_calls.h5", "aggregate_hist.h5",
                 "meta.h5", "source.h5"]
ALL_COLUMNS = ["--columns", "region", "ranks", "calls", "total", "percent", "parent_percent",
               "avg", "min", "max", "first", "last", "std", "p50", "p95", "p99", "imbalance",
               "slowest", "load_balance", "threads", "thread_imbalance", "slowest_thread"]

cases = []  # (work dir, argv, is help)
for f in INSPECT_FILES:
    cases.append((cli_work, ["inspect", f], False))
    cases.append((cli_work, ["inspect", f, "--regions-only"] + ALL_COLUMNS, False))
    cases.append((cli_work, ["inspect", f, "--ascii", "--sort", "total", "--top", "3"], False))
for only in ["--balance-only", "--mpi-calls-only", "--metadata-only"]:
    cases.append((cli_work, ["inspect", "mpi_calls.h5", only], False))
    cases.append((cli_work, ["inspect", "multirank_schema3.h5", only], False))
cases += [
    (cli_work, ["inspect", "py_tutorial2.h5", "--source", "setup"], False),
    (compare_work, ["diff", "shift_a.h5", "shift_b.h5"], False),
    (compare_work, ["diff", "shift_a.h5", "shift_b.h5", "--by", "path"], False),
    (compare_work, ["diff", "base_*.h5", "cand_*.h5", "--significant"], False),
    (compare_work, ["diff", "base_1.h5", "cand_1.h5", "--per-call"], False),
    (compare_work, ["check", "base_*.h5", "cand_*.h5", "--max-regression", "2", "--significant"],
     False),
    (compare_work, ["check", "shift_a.h5", "shift_b.h5", "--fail-on-new"], False),
    (compare_work, ["check", "base_*.h5", "cand_*.h5", "--max-regression", "5", "--strict"], False),
    (compare_work, ["scaling", "np1.h5", "np2.h5", "np4.h5"], False),
    (compare_work, ["scaling", "np1.h5", "np2.h5", "np4.h5", "--weak"], False),
    (cli_work, ["stats", "py_tutorial2.h5", "-o", os.path.join(out_dir, "s.json")], False),
    (cli_work, ["export", "chrome-trace", "py_tutorial2.h5", "-o", os.path.join(out_dir, "t.json")],
     False),
    (cli_work, ["export", "folded", "multirank_schema3.h5", "-o", os.path.join(out_dir, "f.txt")],
     False),
    (cli_work, ["plot", "flame-graph", "py_tutorial2.h5", "-o", os.path.join(out_dir, "p.svg")],
     False),
    (cli_work, ["report", "py_tutorial2.h5", "-o", os.path.join(out_dir, "r.html")], False),
    (cli_work, ["merge", "run.rank0.h5", "run.rank1.h5", "run.rank2.h5", "-o",
                os.path.join(out_dir, "m.h5")], False),
    (cli_work, ["inspect", "nosuch.h5"], False),
    (cli_work, ["inspect", "py_tutorial2.h5", "--sort", "totl"], False),
]
commands = ["inspect", "stats", "events", "metadata", "merge", "diff", "check", "scaling",
            "export", "plot", "report", "recover", "calibrate", "run"]
cases.append((cli_work, ["--help"], True))
for c in commands:
    cases.append((cli_work, [c, "--help"], True))


def too_long(line, width):
    n = len(line)
    if n <= width:
        return False
    longest = max((len(t) for t in line.split()), default=0)
    return longest < width - 20  # an unbreakable word excuses the line


failures = 0
env_base = dict(os.environ, NO_COLOR="1", TERM="dumb")
env_base.pop("COLUMNS", None)
checked = 0
for work, argv, is_help in cases:
    for columns in (40, 80, 120, None):
        env = dict(env_base)
        if columns is not None:
            env["COLUMNS"] = str(columns)
        width = columns if columns is not None else 80
        if is_help:
            width = max(width, 80)
        p = subprocess.run([cli] + argv, cwd=work, env=env, capture_output=True)
        text = p.stdout.decode("utf-8", "replace") + p.stderr.decode("utf-8", "replace")
        if p.returncode not in (0, 1, 2):
            print("FAIL %s: exit %d" % (" ".join(argv), p.returncode))
            failures += 1
        for line in text.splitlines():
            checked += 1
            if line.startswith("scope-profiler: "):
                continue
            if too_long(line, width):
                print("FAIL COLUMNS=%s %s: %d > %d: %s" % (columns, " ".join(argv), len(line),
                                                            width, line))
                failures += 1
print("%d lines of %d commands checked at 40/80/120/unset columns, %d too long" %
      (checked, len(cases), failures))
sys.exit(1 if failures else 0)
