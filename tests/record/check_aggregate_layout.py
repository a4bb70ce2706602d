"""Our aggregate-mode file against the Python package's aggregate layout
(make_aggregate.py writes one as that package does): every dataset and root
attribute of its file is in ours with the same type; ours adds only the
filled summary_statistics rows, /thread_table and /scope_profiler_c; the
per-call columns have no rows, the aggregate columns one per region.
Usage: check_aggregate_layout.py OURS.h5 make_aggregate.py PYTHON_OUT.h5"""
import subprocess
import sys

import h5py

ours_path, maker, theirs_path = sys.argv[1:4]
subprocess.run([sys.executable, maker, theirs_path], check=True)


def datasets(f):
    found = {}
    f.visititems(lambda name, obj: found.__setitem__(name, obj) if isinstance(obj, h5py.Dataset) else None)
    return found


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


with h5py.File(ours_path, "r") as ours, h5py.File(theirs_path, "r") as theirs:
    for key in ("scope_profiler_schema", "storage_layout"):
        if ours.attrs[key] != theirs.attrs[key]:
            fail(f"root attribute {key}: {ours.attrs[key]!r} != {theirs.attrs[key]!r}")
    a, b = datasets(ours), datasets(theirs)
    for name, ds in b.items():
        if name not in a:
            fail(f"{name} is missing")
        if a[name].dtype != ds.dtype:
            fail(f"{name}: dtype {a[name].dtype} != {ds.dtype}")
    for name in a:
        if name not in b and not name.startswith(("scope_profiler_c/", "thread_table/")):
            fail(f"{name} is not in the Python layout")
    rows = len(a["rank_region_index/region_ids"])
    for name in a:
        if not name.startswith("rank_region_index/"):
            continue
        column = name.split("/")[1]
        want = rows if column in ("region_ids", "ranks", "summary_statistics") or column.startswith("aggregate_") else 0
        if len(a[name]) != want:
            fail(f"{name} has {len(a[name])} rows, not {want}")
    if len(a["events/durations"]) or len(a["events/start_deltas"]):
        fail("/events has rows")
    names = [n.decode() if isinstance(n, bytes) else n for n in ours["region_table/names"][()]]
    counts = dict(zip((names[i] for i in ours["rank_region_index/region_ids"][()]),
                      ours["rank_region_index/aggregate_counts"][()]))
    if counts.get("solve") != 20000 or counts.get("io") != 6667 or counts.get("rec") != 150:
        fail(f"aggregate_counts {counts}")
    stats = ours["rank_region_index/summary_statistics"][()]
    totals = ours["rank_region_index/aggregate_totals"][()]
    if list(stats["total"]) != list(totals):
        fail("summary_statistics totals differ from aggregate_totals")
print("our aggregate file has the Python package's layout")
