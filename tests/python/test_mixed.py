"""Python regions and a C kernel called through ctypes record into one session, one file."""

import ctypes
import os
import sys
import tempfile

from scope_profiler import ProfileManager, read_h5

kernel = ctypes.CDLL(sys.argv[1])
kernel.sp_test_kernel.argtypes = [ctypes.c_int]

with tempfile.TemporaryDirectory() as work:
    path = os.path.join(work, "mixed.h5")
    ProfileManager.setup(file_path=path, label="mixed")
    for step in range(7):
        with ProfileManager.region("py_step"):
            kernel.sp_test_kernel(step + 1)  # 1 + 2 + ... + 7 = 28 calls
    kernel.sp_test_kernel(3)  # outside any Python region: 3 more, top level
    ProfileManager.finalize(verbose=False)
    assert sorted(os.listdir(work)) == ["mixed.h5"], os.listdir(work)
    r = read_h5(path)
    assert r.region_names == ["py_step", "c_kernel"] or sorted(r.region_names) == ["c_kernel", "py_step"], r.region_names
    assert len(r) == 2, r.region_names  # no session root under setup()
    assert r["py_step"].num_calls == 7
    assert r["c_kernel"].num_calls == 31
    rows = {row["name"]: row for row in r.summary()}
    # c_kernel's calls nest inside py_step: py_step's own time is its total minus the kernel's
    inner = sum(d for s, d in zip(r["c_kernel"][0].start_times, r["c_kernel"][0].durations)
                if s < r["py_step"][0].end_times[-1])
    assert abs(rows["py_step"]["exclusive_duration"] - (rows["py_step"]["total_duration"] - inner)) < 1e-9
    assert r.metadata["source_language"] == "python"
print("mixed: one file, py_step 7 calls, c_kernel 31 calls")
