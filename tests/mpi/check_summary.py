"""The summary rank 0 prints when an MPI run ends (issue 28: inspect's
imbalance columns), from a real run of summary_program.c.

    check_summary.py NP PROGRAM MPIRUN [MPIRUN FLAGS...]

Counts and the tree are exact, so are the header, the session's 100.00 %
and the one-rank "report" row (imbalance 0.00, no slowest rank); durations
and percentages are checked by their format, the imbalance of "work" and
"step" against (r + 1) x 10 ms per call within generous bounds, and the
percentages add up along the tree.
"""
import os
import re
import subprocess
import sys
import tempfile

np_ranks = int(sys.argv[1])
program = sys.argv[2]
mpirun = sys.argv[3:]
steps = 5

work = tempfile.mkdtemp()
env = dict(os.environ, NO_COLOR="1", TERM="dumb")
for k in ("SCOPE_PROFILER_QUIET", "COLUMNS", "SCOPE_PROFILER_OUTPUT"):
    env.pop(k, None)
p = subprocess.run(mpirun + ["-np", str(np_ranks), program, os.path.join(work, "summary.h5")],
                   cwd=work, env=env, capture_output=True, timeout=110)
out = p.stdout.decode("utf-8")
failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


expect(p.returncode == 0, "mpirun exit %d: %s" % (p.returncode, p.stderr.decode()[-2000:]))
lines = out.splitlines()
expect(sum(1 for l in lines if "│ region " in l) == 1, "one summary (rank 0 only)")

DUR = r"[0-9.]+ (s|ms|µs|ns)"
PCT = r"[0-9]+\.[0-9]{2}%"
NUM = r"[0-9]+\.[0-9]{2}"
n = np_ranks
header = ["region", "% session", "total", "imbalance [%]", "slowest rank"]
# per row: the tree and name (text), then regexes of % session, total, imbalance [%], slowest rank
want = [
    ("scope_profiler.session (%dx)" % n, r"100\.00%", DUR, NUM, str(n - 1)),
    ("└─ (own)", PCT, DUR),
    ("└─ setup (%dx)" % n, PCT, DUR, NUM, "[0-9]+"),
    ("└─ step (%dx)" % (steps * n), PCT, DUR, NUM, str(n - 1)),
    ("│ └─ (own)", PCT, DUR),
    ("│ └─ work (%dx)" % (steps * n), PCT, DUR, NUM, str(n - 1)),
    ("└─ report", PCT, DUR, r"0\.00", "-"),
]
rows = [l for l in lines if l.startswith("  │ ")]
table = [l for l in lines if l[:3] in ("  ╭", "  │", "  ├", "  ╰")][:len(want) + 4]
expect(len({len(l) for l in table}) == 1, "the table's lines have one width: %r" % table)
cells = [re.split(r"\s{2,}", r[4:].rstrip(" │").strip()) for r in rows[:len(want) + 1]]
expect(len(cells) == len(want) + 1, "%d rows, want %d:\n%s" % (len(cells), len(want) + 1, out))
expect(cells[:1] == [header], "header %r" % cells[:1])
for got, pattern in zip(cells[1:], want):
    ok = len(got) == len(pattern) and got[0] == pattern[0] and all(
        re.fullmatch(x, g) for x, g in zip(pattern[1:], got[1:]))
    expect(ok, "row %r does not match %r" % (got, pattern))


def pct(row):
    return float(row[1].rstrip("%"))


if len(cells) == len(want) + 1 and not failures:
    session, own, setup, step, step_own, wk, report = cells[1:]
    top = pct(own) + pct(setup) + pct(step) + pct(report)
    expect(abs(top - 100.0) <= 0.05, "session's children add to %.2f %%" % top)
    expect(abs(pct(step_own) + pct(wk) - pct(step)) <= 0.03, "step = own + work")
    # rank r waits (r + 1) x 10 ms: imbalance max/mean - 1 = 2n / (n + 1) - 1
    ideal = 100.0 * (2.0 * n / (n + 1) - 1.0)
    for row in (wk, step):
        imb = float(row[3])
        expect(0.3 * ideal <= imb <= 1.5 * ideal,
               "%s imbalance %.2f %% outside [%.1f, %.1f]" % (row[0], imb, 0.3 * ideal,
                                                              1.5 * ideal))
expect("│ Summary: summary.h5 (%d ranks)" % n in out, "the Info box names the file and ranks")
expect(not any("FAIL" in l for l in lines), "no FAIL line")
for f in failures:
    print("FAIL:", f)
if failures:
    print(out)
    sys.exit(1)
print("run summary of mpirun -np %d: %d rows as expected" % (n, len(cells) - 1))
