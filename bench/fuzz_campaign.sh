#!/bin/sh
# Byte-mutation campaign over every command, and the journal-mutation
# campaign (issue 22, "Done when"). Mutates the fixtures with a fresh seed
# (flips, overwritten ranges, truncations, in python), runs each command on
# each mutant under a time limit, and counts:
#   crash   - the CLI killed by a signal (exit 128 + N)
#   contained - libhdf5 crashed in the CLI's reading child and the CLI said
#             so (one line, exit 2): not a crash of the CLI, counted apart
#   hang    - past the time limit
#   wrong   - accepted (exit 0) with impossible values: `stats` giving a
#             negative duration or count, or a call longer than the run
#   bad exit- any exit status other than 0, 1 (check: over budget) or 2, or
#             exit 2 without a "scope-profiler: " line
# Then journal_campaign on the synthetic seed and a killed run's journal.
#
#   bench/fuzz_campaign.sh BUILD_DIR [MUTANTS] [SEED]
set -u
b=$(cd "${1:-build}" && pwd)
mutants=${2:-120}
seed=${3:-$(date +%s)}
here=$(cd "$(dirname "$0")/.." && pwd)
cli=$b/scope-profiler
py=/usr/bin/python3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
"$py" - "$seed" "$mutants" "$here"/tests/fixtures/*.h5 <<'PY'
import random, sys
seed, n, files = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
rng = random.Random(seed)
data = [open(f, "rb").read() for f in files]
for i in range(n):
    b = bytearray(data[i % len(data)])
    kind = rng.randrange(3)
    if kind == 0:
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
    elif kind == 1:
        at = rng.randrange(len(b)); ln = rng.randint(1, 64)
        b[at:at + ln] = bytes([rng.randrange(256)]) * len(b[at:at + ln])
    else:
        b = b[:rng.randrange(len(b))]
    open("m%04d.h5" % i, "wb").write(b)
PY
contained=0 crash=0 hang=0 wrong=0 badexit=0 runs=0 accepted=0
run() { # NAME CMD...
    name=$1
    shift
    runs=$((runs + 1))
    SCOPE_PROFILER_CLI_TIMEOUT=20 timeout -s KILL 40 "$@" >out 2>err
    rc=$?
    if [ $rc -ge 128 ]; then
        crash=$((crash + 1)); echo "crash (exit $rc): $name: $*"
        mkdir -p "${SAVE:-$tmp}/kept" && cp "$name" "${SAVE:-$tmp}/kept/"
    elif grep -q "the HDF5 library crashed" err; then
        contained=$((contained + 1)); echo "contained: $name: $*"
    elif grep -q "did not finish within" err || [ $rc = 124 ]; then
        hang=$((hang + 1)); echo "hang: $name: $*"
    elif [ $rc = 0 ]; then
        accepted=$((accepted + 1))
    elif [ $rc != 1 ] && { [ $rc != 2 ] || ! grep -q "^scope-profiler: " err; }; then
        badexit=$((badexit + 1)); echo "bad exit $rc: $name: $* ($(head -c 200 err))"
    fi
}
for f in m*.h5; do
    run "$f" "$cli" inspect "$f"
    run "$f" "$cli" inspect "$f" --format json
    run "$f" "$cli" stats "$f" -o s.json
    if [ $rc = 0 ]; then
        "$py" - s.json <<'PY' || { wrong=$((wrong + 1)); echo "wrong: $f: stats"; }
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["files"]:
    total = f.get("total_time_seconds") or 0
    for name, s in f["region_statistics"].items():
        if s["count"] < 0:
            sys.exit(1)
        if s["count"] == 0:  # a region left without calls (e.g. dropped as damaged): nulls
            continue
        if s["min_duration_seconds"] < 0:
            sys.exit(1)
        if total > 0 and s["max_duration_seconds"] > total * 1.01 + 1e-3:
            sys.exit(1)
PY
    fi
    run "$f" "$cli" events "$f" --format csv
    run "$f" "$cli" metadata "$f" -o md.json
    run "$f" "$cli" diff "$f" "$here/tests/fixtures/c_schema2.h5"
    run "$f" "$cli" check "$here/tests/fixtures/c_schema2.h5" "$f"
    run "$f" "$cli" scaling "$here/tests/fixtures/c_schema2.h5" "$f"
    run "$f" "$cli" export folded "$f" -o x.folded
    run "$f" "$cli" export perfetto "$f" -o x.pftrace
    run "$f" "$cli" plot gantt "$f" -o plots
    run "$f" "$cli" report "$f" -o r.html
    run "$f" "$cli" merge "$f" -o merged.h5
    run "$f" "$cli" recover "$f" -o rec.h5
done
echo "byte campaign: seed $seed, $mutants mutants x 14 commands = $runs runs: $crash crash(es), $contained contained libhdf5 crash(es), $hang hang(s), $wrong wrong-but-accepted, $badexit bad exit(s), $accepted accepted"

# the journal campaign: the synthetic seed and a killed run's journal
SCOPE_PROFILER_JOURNAL=1 "$b/tests/robustness/oom_child" "$tmp/k.h5" 2000 hold >ready &
pid=$!
while ! grep -q recorded ready 2>/dev/null; do sleep 0.1; done
kill -KILL $pid
wait $pid 2>/dev/null
"$b/tests/fuzz/journal_campaign" "$seed" 20000 "$tmp"/k.h5.journal-*
