"""Checks a profile written by scope-profiler run: the regions, their call
counts summed over ranks and, per rank, the bytes the MPI wrappers counted.

usage: check_profile.py FILE [--exact] [--ranks N] EXPECT...
EXPECT is NAME=CALLS (calls over all ranks) or NAME=CALLS=B0,B1,... (and
the bytes of rank 0, 1, ...; "-": no row on that rank). --exact: no region beyond the expected ones
and scope_profiler.session. A NAME ending in * matches by prefix (one region).
"""
import sys

import h5py


def load(path):
    f = h5py.File(path, "r")
    names = [n.decode() if isinstance(n, bytes) else n for n in f["region_table/names"][:]]
    ix = f["rank_region_index"]
    rows = list(zip(ix["region_ids"][:], ix["ranks"][:], ix["event_counts"][:]))
    mb = f["scope_profiler_c/message_bytes/bytes"][:] if "scope_profiler_c/message_bytes" in f else None
    regions = {}
    for i, (region, rank, count) in enumerate(rows):
        entry = regions.setdefault(names[region], {"calls": 0, "bytes": {}})
        entry["calls"] += int(count)
        if mb is not None and mb[i] >= 0:
            entry["bytes"][int(rank)] = int(mb[i])
    ranks = sorted({int(r) for _, r, _ in rows})
    return regions, ranks


def main(argv):
    path, args = argv[1], argv[2:]
    exact = "--exact" in args
    args = [a for a in args if a != "--exact"]
    want_ranks = None
    if "--ranks" in args:
        i = args.index("--ranks")
        want_ranks = int(args[i + 1])
        del args[i : i + 2]
    regions, ranks = load(path)
    errors = []
    if want_ranks is not None and len(ranks) != want_ranks:
        errors.append(f"ranks: expected {want_ranks}, found {ranks}")
    seen = {"scope_profiler.session"}
    for expect in args:
        parts = expect.rsplit("=", 2)
        if len(parts) == 3 and not parts[1].isdigit():
            parts = [parts[0] + "=" + parts[1], parts[2]]
        name, calls = parts[0], int(parts[1])
        if name.endswith("*"):
            found = [n for n in regions if n.startswith(name[:-1])]
            name = found[0] if len(found) == 1 else name
        seen.add(name)
        if name not in regions:
            errors.append(f"{name}: missing (regions: {sorted(regions)})")
            continue
        got = regions[name]
        if got["calls"] != calls:
            errors.append(f"{name}: {got['calls']} calls, expected {calls}")
        if len(parts) == 3:
            want = {r: int(b) for r, b in enumerate(parts[2].split(",")) if b != "-"}
            if got["bytes"] != want:
                errors.append(f"{name}: bytes per rank {got['bytes']}, expected {want}")
    if exact:
        extra = sorted(set(regions) - seen)
        if extra:
            errors.append(f"unexpected regions: {extra}")
    for e in errors:
        print(f"{path}: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
