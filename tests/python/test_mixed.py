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
    assert core.sp_set_metadata_string(b"mpi_size", b"99") == 1  # a built-in key: refused
    # the module's set_metadata (typed) and add_tag
    ProfileManager.set_metadata("problem_size", 256)
    ProfileManager.set_metadata("dt", 0.125)
    ProfileManager.set_metadata("mesh", "ring")
    for bad, error in (((True,), TypeError), (([1],), TypeError), ((2**70,), OverflowError),
                       ((float("nan"),), ValueError)):
        try:
            ProfileManager.set_metadata("k", *bad)
        except error:
            pass
        else:
            raise AssertionError(f"set_metadata('k', {bad[0]!r}) did not raise {error.__name__}")
    for key in ("mpi_size", "a b", ""):
        try:
            ProfileManager.set_metadata(key, 1)
        except ValueError as e:
            assert "built-in field" in str(e), e
        else:
            raise AssertionError(f"set_metadata({key!r}) did not raise ValueError")
    ProfileManager.add_tag("py_step", "outer")
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
    assert r.metadata["problem_size"] == 256 and r.metadata["dt"] == 0.125
    assert r.metadata["mesh"] == "ring" and "k" not in r.metadata
    tags = {row["name"]: row["tags"] for row in r.summary()}
    assert tags["py_step"] in (["outer"], '["outer"]'), tags
# h5py (Debian's) and the module share one HDF5 library in the process
import h5py  # noqa: E402

with h5py.File(sys.argv[2], "r") as f:
    assert "region_table" in f
with open("/proc/self/maps") as f:
    hdf5 = {os.path.realpath(line.split()[-1]) for line in f if "libhdf5" in line and ".so" in line}
hdf5_core = {p for p in hdf5 if "hl" not in os.path.basename(p)}
assert len(hdf5_core) == 1, hdf5
print("mixed: one file, py_step 7 calls, c_kernel 31 calls")
