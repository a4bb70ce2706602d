"""Writes an aggregate-mode profile the way the Python package's writer does
(aggregation_mode=True): resizable chunked columns, the per-call ones
(event_offsets, event_counts, source_*, tags, exclusive_totals,
summary_statistics, /events/*) left at zero rows, and the statistics in the
aggregate_* columns. Usage: make_aggregate.py OUT.h5"""
import sys

import h5py
import numpy as np

MS = 1_000_000
REGIONS = ["setup", "timestep", "solve"]
# rank -> region -> (count, total, minimum, maximum, exclusive), in ns
STATS = {
    0: {"setup": (1, 20 * MS, 20 * MS, 20 * MS, 20 * MS),
        "timestep": (5, 50 * MS, 8 * MS, 12 * MS, 35 * MS),
        "solve": (5, 15 * MS, 3 * MS, 3 * MS, 15 * MS)},
    1: {"setup": (1, 40 * MS, 40 * MS, 40 * MS, 40 * MS),
        "timestep": (5, 100 * MS, 16 * MS, 24 * MS, 70 * MS),
        "solve": (5, 30 * MS, 6 * MS, 6 * MS, 30 * MS)},
}
STRING = h5py.string_dtype()
SUMMARY = np.dtype([("total", "<i8"), ("minimum", "<i8"), ("maximum", "<i8"),
                    ("first", "<i8"), ("last", "<i8"), ("start_minimum", "<i8"),
                    ("end_maximum", "<i8"), ("gpu_count", "<u8"), ("gpu_total", "<i8"),
                    ("mean", "<f8"), ("m2", "<f8")])


def empty(group, name, dtype):
    return group.create_dataset(name, shape=(0,), maxshape=(None,), dtype=dtype, chunks=(64,))


def append(ds, values):
    values = np.asarray(values, dtype=ds.dtype) if ds.dtype != STRING else values
    ds.resize((ds.shape[0] + len(values),))
    ds[-len(values):] = values


with h5py.File(sys.argv[1], "w") as f:
    f.attrs["scope_profiler_schema"] = np.int64(3)
    f.attrs["storage_layout"] = "aggregate"
    meta = f.create_group("metadata")
    meta.attrs["timestamp"] = "2026-12-01T10:00:00+00:00"
    meta.attrs["python_version"] = "3.11.2"
    meta.attrs["scope_profiler_version"] = "0.7.3"
    meta.attrs["mpi_size"] = np.int64(2)
    meta.attrs["start_time_ns"] = np.int64(1_000_000_000)
    meta.attrs["finalize_time_ns"] = np.int64(1_200_000_000)
    names = empty(f.create_group("region_table"), "names", STRING)
    append(names, REGIONS)
    index = f.create_group("rank_region_index")
    for name, dtype in (("region_ids", np.uint32), ("ranks", np.uint32),
                        ("event_offsets", np.uint64), ("event_counts", np.uint64),
                        ("source_lines", np.int64), ("exclusive_totals", np.int64)):
        empty(index, name, dtype)
    empty(index, "summary_statistics", SUMMARY)
    for name in ("source_files", "source_texts", "tags"):
        empty(index, name, STRING)
    events = f.create_group("events")
    for name in ("start_deltas", "durations"):
        empty(events, name, np.int64)
    columns = (("aggregate_counts", np.uint64), ("aggregate_totals", np.int64),
               ("aggregate_minimums", np.int64), ("aggregate_maximums", np.int64),
               ("aggregate_exclusives", np.int64))
    for name, dtype in columns:
        empty(index, name, dtype)
    for rank, stats in STATS.items():
        append(index["region_ids"], [REGIONS.index(r) for r in stats])
        append(index["ranks"], [rank] * len(stats))
        for k, (name, _) in enumerate(columns):
            append(index[name], [stats[r][k] for r in stats])
