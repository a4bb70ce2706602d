"""Compares two profile files with h5py, value for value: the same groups,
datasets (dtype, shape, chunks, filters, values) and attributes (names in
order, values). Exits 1 on the first difference, naming it.
    compare_h5.py A B [--ignore PATH]...   (PATH: /metadata@timestamp, /events/x)
"""
import sys

import h5py
import numpy as np


def attrs(obj, path, ignore):
    names = [n for n in obj.attrs.keys() if f"{path}@{n}" not in ignore]
    return names, {n: obj.attrs[n] for n in names}


def same_value(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
    return type(a) is type(b) and a == b


def walk(a, b, path, ignore, problems):
    na, va = attrs(a, path, ignore)
    nb, vb = attrs(b, path, ignore)
    if na != nb:
        problems.append(f"{path}: attributes {na} != {nb}")
    for n in na:
        if n in vb and not same_value(va[n], vb[n]):
            problems.append(f"{path}@{n}: {va[n]!r} != {vb[n]!r}")
    if isinstance(a, h5py.Dataset):
        if a.dtype != b.dtype or a.shape != b.shape:
            problems.append(f"{path}: {a.dtype}{a.shape} != {b.dtype}{b.shape}")
        elif (a.chunks, a.compression, a.compression_opts, a.shuffle) != (
                b.chunks, b.compression, b.compression_opts, b.shuffle):
            problems.append(f"{path}: storage {a.chunks, a.compression, a.shuffle} != "
                            f"{b.chunks, b.compression, b.shuffle}")
        elif path not in ignore and not np.array_equal(a[()], b[()]):
            problems.append(f"{path}: values differ")
        return
    ka = sorted(k for k in a.keys() if f"{path.rstrip('/')}/{k}" not in ignore)
    kb = sorted(k for k in b.keys() if f"{path.rstrip('/')}/{k}" not in ignore)
    if ka != kb:
        problems.append(f"{path}: members {ka} != {kb}")
    for k in ka:
        if k in kb:
            walk(a[k], b[k], f"{path.rstrip('/')}/{k}", ignore, problems)


def main(argv):
    ignore = {argv[i + 1] for i, x in enumerate(argv) if x == "--ignore"}
    files = [x for i, x in enumerate(argv[1:], 1) if x != "--ignore" and argv[i - 1] != "--ignore"]
    problems = []
    with h5py.File(files[0], "r") as a, h5py.File(files[1], "r") as b:
        walk(a, b, "/", ignore, problems)
        n = len(a["events/durations"]) if "events/durations" in a else 0
    for p in problems:
        print("DIFFERENT", p)
    if not problems:
        print(f"h5py: equal ({n} calls; ignored: {sorted(ignore) or 'nothing'})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
