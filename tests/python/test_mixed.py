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
    # keys of the program's own through the C API (sp_set_metadata_string)
    core = ctypes.CDLL("libscope_profiler.so.0")
    core.sp_set_metadata_string.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    assert core.sp_set_metadata_string(b"run_kind", b"first") == 0
    assert core.sp_set_metadata_string(b"run_kind", b"mixed") == 0  # replaces
    assert core.sp_set_metadata_string(b"dropped", b"x") == 0
    assert core.sp_set_metadata_string(b"dropped", None) == 0  # removes
    assert core.sp_set_metadata_string(b"mpi_size", b"99") == 0  # the library's key wins
    assert core.sp_set_metadata_string(b"", b"x") != 0 and core.sp_set_metadata_string(None, b"x") != 0
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
    assert r.metadata["run_kind"] == "mixed" and "dropped" not in r.metadata
    assert r.metadata["mpi_size"] == 1
# h5py (Debian's) and the module share one HDF5 library in the process
import h5py  # noqa: E402

with h5py.File(sys.argv[2], "r") as f:
    assert "region_table" in f
with open("/proc/self/maps") as f:
    hdf5 = {os.path.realpath(line.split()[-1]) for line in f if "libhdf5" in line and ".so" in line}
hdf5_core = {p for p in hdf5 if "hl" not in os.path.basename(p)}
assert len(hdf5_core) == 1, hdf5
print("mixed: one file, py_step 7 calls, c_kernel 31 calls")
