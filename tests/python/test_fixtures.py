"""read_h5 on the reference profiles: every value the Python package's reader
reports (X.expected.json) and its print_summary table (X.table.txt)."""

import io
import json
import math
import os
import sys
from contextlib import redirect_stdout

import numpy as np

from scope_profiler import collect_region_statistics, read_h5

fixtures = sys.argv[1]


def same(got, want, where):
    if isinstance(want, dict):
        assert isinstance(got, dict) and list(map(str, got)) == list(map(str, want)), (where, got, want)
        for (gk, gv), wv in zip(got.items(), want.values()):
            same(gv, wv, f"{where}.{gk}")
    elif isinstance(want, list):
        got = list(got)
        assert len(got) == len(want), (where, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            same(g, w, f"{where}[{i}]")
    elif isinstance(want, float):
        assert isinstance(got, float), (where, got, want)
        assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-15), (where, got, want)
    else:
        assert type(got) is type(want) and got == want, (where, got, want)


checked = 0
for name in sorted(os.listdir(fixtures)):
    if not name.endswith(".expected.json"):
        continue
    stem = name[: -len(".expected.json")]
    path = os.path.join(fixtures, stem + ".h5")
    with open(os.path.join(fixtures, name)) as f:
        want = json.load(f)
    r = read_h5(path)
    same(r.region_names, want["region_names"], f"{stem} region_names")
    same(r.num_ranks, want["num_ranks"], f"{stem} num_ranks")
    same(r.summary(), want["summary"], f"{stem} summary")
    for region, per in want["per_rank"].items():
        mr = r[region]
        same(mr.ranks, per["ranks"], f"{stem} {region} ranks")
        for key in ("num_calls_per_rank", "total_durations", "average_durations", "max_durations"):
            same(getattr(mr, key)(), per[key], f"{stem} {region} {key}")
        first = mr[per["ranks"][0]]
        assert isinstance(first.durations, np.ndarray) and first.durations.dtype == np.float64
        same(first.durations.tolist(), per["rank0_durations"], f"{stem} {region} durations")
        same(first.get_summary(), per["rank0_summary"], f"{stem} {region} get_summary")
        assert np.array_equal(first.end_times, first.start_times + first.durations) or np.allclose(
            first.end_times - first.start_times, first.durations, rtol=0, atol=1e-9)
    stats = collect_region_statistics(r)["files"][0]["region_statistics"]
    same(stats, want["region_statistics"], f"{stem} region_statistics")
    same({k: v for k, v in r.metadata.items() if k in want["metadata"]}, want["metadata"],
         f"{stem} metadata")
    out = io.StringIO()
    with redirect_stdout(out):
        r.print_summary(suppress_notes=True)
    with open(os.path.join(fixtures, stem + ".table.txt")) as f:
        table = f.read()
    assert out.getvalue().rstrip("\n") == table.rstrip("\n"), (stem, out.getvalue(), table)
    checked += 1
assert checked == 4, checked
print(f"{checked} fixtures checked")
