"""Checks test_mpi_aggregate's file: per rank and region the exact counts,
totals, minimums and maximums of the durations the ranks' workload gives,
and histograms (docs/format.md bucket layout) that equal, per rank and
merged over the ranks, the histograms of those durations and their union,
and per-path totals (one path per region here) equal to those sums.
Usage: check_mpi_aggregate.py FILE.h5 NUM_RANKS"""
import collections
import sys

import h5py

path, num_ranks = sys.argv[1], int(sys.argv[2])
MASK = (1 << 64) - 1


def durations(rank):
    state = 1000 + rank
    out = {"solve": [], "io": [], "step": []}

    def gen():
        nonlocal state
        state = (state * 6364136223846793005 + 1442695040888963407) & MASK
        x = (state >> 33) % 1000
        return 100 + x * x

    for i in range(2000 + 500 * rank):
        s = gen()
        out["solve"].append(s)
        step = 10 + s
        if i % 3 == 0:
            d = gen() // 4
            out["io"].append(d)
            step += d
        out["step"].append(step)
    return out


def bucket(v):
    if v < 128:
        return v
    s = v.bit_length() - 1 - 6
    return 64 * s + (v >> s)


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


with h5py.File(path, "r") as f:
    if f.attrs["storage_layout"] != "aggregate":
        fail("not an aggregate file")
    names = [n.decode() if isinstance(n, bytes) else n for n in f["region_table/names"][()]]
    idx = f["rank_region_index"]
    rows = {(int(r), names[g]): k for k, (r, g) in enumerate(zip(idx["ranks"][()], idx["region_ids"][()]))}
    h = f["scope_profiler_c/histograms"]
    got = collections.defaultdict(collections.Counter)
    path_totals = collections.Counter()
    if "totals" not in h:
        fail("the histograms have no per-path totals")
    for i in range(len(h["ranks"])):
        path_totals[(int(h["ranks"][i]), names[h["region_ids"][i]])] += int(h["totals"][i])
        o, n = int(h["entry_offsets"][i]), int(h["entry_counts"][i])
        key = (int(h["ranks"][i]), names[h["region_ids"][i]])
        for b, c in zip(h["buckets"][o:o + n], h["counts"][o:o + n]):
            got[key][int(b)] += int(c)
    union = collections.defaultdict(collections.Counter)
    for rank in range(num_ranks):
        for region, values in durations(rank).items():
            k = rows.get((rank, region))
            if k is None:
                fail(f"no row for rank {rank} region {region}")
            facts = (int(idx["aggregate_counts"][k]), int(idx["aggregate_totals"][k]),
                     int(idx["aggregate_minimums"][k]), int(idx["aggregate_maximums"][k]))
            if facts != (len(values), sum(values), min(values), max(values)):
                fail(f"rank {rank} {region}: {facts}")
            if path_totals[(rank, region)] != sum(values):
                fail(f"rank {rank} {region}: path totals {path_totals[(rank, region)]}")
            want = collections.Counter(bucket(v) for v in values)
            if got[(rank, region)] != want:
                fail(f"rank {rank} {region}: histogram differs")
            union[region].update(want)
    for region in ("solve", "io", "step"):
        merged = collections.Counter()
        for rank in range(num_ranks):
            merged.update(got[(rank, region)])
        if merged != union[region]:
            fail(f"{region}: merged histogram differs from the union's")
print(f"{num_ranks} ranks: exact facts and path totals, histograms merge to the union's")
