"""Read + summary of a 10-million-call profile: the module (read_h5 + summary()),
the CLI (inspect --format json) and a NumPy/h5py script reading the same
file (per-region count, total, mean, min, max, std, p50/p95/p99; no call tree,
so no exclusive time: less work than the other two). Best of 3 each.

    PYTHONPATH=build/bindings/python /usr/bin/python3 bench/bench_python_read.py CLI [calls]
"""

import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from scope_profiler import ProfileManager, read_h5

cli = sys.argv[1]
CALLS = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000


def write_profile(path, calls):
    """timestep > (assemble, solve > io), recorded from Python: calls in all."""
    region = ProfileManager.region
    ProfileManager.setup(file_path=path, journal=False)
    for _ in range(calls // 4):
        with region("timestep"):
            with region("assemble"):
                pass
            with region("solve"):
                with region("io"):
                    pass
    ProfileManager.finalize(verbose=False)


def with_module(path):
    return read_h5(path).summary()


def with_cli(path):
    subprocess.run([cli, "inspect", path, "--format", "json"], check=True,
                   stdout=subprocess.DEVNULL)


def with_h5py(path):
    import h5py

    out = {}
    with h5py.File(path, "r") as f:
        names = [n.decode() if isinstance(n, bytes) else n for n in f["region_table/names"][()]]
        index = f["rank_region_index"]
        region_ids = index["region_ids"][()]
        offsets = index["event_offsets"][()]
        counts = index["event_counts"][()]
        durations = f["events/durations"][()]
        for row in range(len(region_ids)):
            d = durations[offsets[row]: offsets[row] + counts[row]] / 1e9
            p50, p95, p99 = np.percentile(d, [50, 95, 99])
            out[names[region_ids[row]]] = dict(count=len(d), total=d.sum(), mean=d.mean(),
                                               min=d.min(), max=d.max(), std=d.std(), p50=p50,
                                               p95=p95, p99=p99)
    return out


def best_of(fn, path, rounds=3):
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn(path)
        best = min(best, time.perf_counter() - t0)
    return best


with tempfile.TemporaryDirectory() as work:
    path = os.path.join(work, "big.h5")
    t0 = time.perf_counter()
    write_profile(path, CALLS)
    t_write = time.perf_counter() - t0
    size = os.path.getsize(path)
    rows = with_module(path)
    assert sum(r["num_calls"] for r in rows) == CALLS, rows
    t_module = best_of(with_module, path)
    t_cli = best_of(with_cli, path)
    t_h5py = best_of(with_h5py, path)

print(f"== read + summary of {CALLS} calls ({size / 1e6:.1f} MB, recorded from Python in "
      f"{t_write:.2f} s)")
print(f"scope_profiler module read_h5 + summary()   {t_module:6.3f} s")
print(f"scope-profiler inspect --format json (CLI)  {t_cli:6.3f} s")
print(f"NumPy/h5py script (no exclusive time)       {t_h5py:6.3f} s")
print(f"h5py script / module: {t_h5py / t_module:.2f}x; CLI / module: {t_cli / t_module:.2f}x")
