"""A run with 5,000 regions (a chunked, compressed index with fixed-length string
columns, docs/format.md "Index storage"): h5py reads the index as it reads a
small file's, and the module reads the run back."""

import json
import os
import tempfile

import h5py
from scope_profiler import ProfileManager, read_h5

REGIONS, CALLS = 5000, 4

with tempfile.TemporaryDirectory() as work:
    path = os.path.join(work, "wide.h5")
    ProfileManager.setup(file_path=path)
    for call in range(CALLS):
        for i in range(REGIONS):
            with ProfileManager.region(f"region_{i:04d}"):
                pass
    ProfileManager.finalize(verbose=False)
    with h5py.File(path, "r") as f:
        index = f["rank_region_index"]
        assert len(index["tags"]) == REGIONS, len(index["tags"])
        tags = index["tags"]
        assert tags.dtype.kind == "S", tags.dtype  # fixed-length, NUL-padded
        assert h5py.check_string_dtype(tags.dtype).encoding == "utf-8"
        assert list(tags.asstr()[:3]) == ["[]", "[]", "[]"]
        assert json.loads(tags[0]) == [] and json.loads(index["event_metadata"][REGIONS - 1]) == []
        assert all(s == "" or s.endswith(".py") for s in index["source_files"].asstr()[:])
        assert "gzip" == index["summary_statistics"].compression, index["summary_statistics"].compression
        assert list(index["event_counts"][:5]) == [CALLS] * 5
        names = [n.decode() if isinstance(n, bytes) else n for n in f["region_table/names"][:]]
    r = read_h5(path)
    assert sorted(r.region_names) == sorted(names) and len(names) == REGIONS
    assert r["region_2718"].num_calls == CALLS
print(f"large index: {REGIONS} rows, fixed-length tags read by h5py and by the module")
