"""Copies a profile and adds our clock-offset extension
(/scope_profiler_c/clock_offsets) as an MPI run of ours stores it: rank r's
offset to rank 0 is r ms. Usage: add_offsets.py IN.h5 OUT.h5"""
import shutil
import sys

import h5py
import numpy as np

shutil.copyfile(sys.argv[1], sys.argv[2])
with h5py.File(sys.argv[2], "r+") as f:
    ranks = np.unique(f["rank_region_index/ranks"][()]).astype(np.uint32)
    group = f.create_group("scope_profiler_c/clock_offsets")
    group.attrs["extension_version"] = np.int64(1)
    group.create_dataset("ranks", data=ranks)
    group.create_dataset("offset_ns", data=ranks.astype(np.int64) * 1_000_000)
    group.create_dataset("uncertainty_ns", data=np.full(len(ranks), 100, dtype=np.int64))
