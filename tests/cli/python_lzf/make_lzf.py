"""Copies a profile, storing every /events column (and the index columns) with
h5py's LZF filter in small chunks, as the Python package does with
hdf5_compression="lzf". Usage: make_lzf.py IN.h5 OUT.h5"""
import sys

import h5py


def copy(src, dst):
    for key, value in src.attrs.items():
        dst.attrs[key] = value
    for name, item in src.items():
        if isinstance(item, h5py.Group):
            copy(item, dst.create_group(name))
        elif item.ndim == 1 and len(item) > 0:
            chunk = max(1, min(len(item), 7))
            new = dst.create_dataset(name, data=item[()], dtype=item.dtype, chunks=(chunk,),
                                     maxshape=(None,), compression="lzf")
            for key, value in item.attrs.items():
                new.attrs[key] = value
        else:
            src.copy(item, dst, name=name)


with h5py.File(sys.argv[1], "r") as src, h5py.File(sys.argv[2], "w") as dst:
    copy(src, dst)
    lzf = [n for n, d in dst["events"].items() if d.compression == "lzf"]
    assert lzf, "no LZF column written"
