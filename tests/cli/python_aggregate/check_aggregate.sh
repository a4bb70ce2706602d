#!/bin/sh
# An aggregate-mode file as the Python package writes it (make_aggregate.py)
# opens in every command: the table, summary rows with calls, totals and
# exclusive times from the aggregate columns, region statistics, metadata;
# `events` says why there are none (exit 2).
set -eu
cli="$1"
python="$2"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/sp_agg_XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$work"
"$python" "$here/make_aggregate.py" agg.h5
fail() { echo "FAIL: $*"; exit 1; }

"$cli" inspect agg.h5 --regions-only > table.txt 2> err.txt || fail "inspect: $(cat err.txt)"
grep -q 'timestep (10x) *150 ms' table.txt || fail "table: $(cat table.txt)"

"$cli" inspect agg.h5 --format csv > rows.csv 2> err.txt || fail "inspect --format csv: $(cat err.txt)"
# name, num_ranks, num_calls, total, inclusive, exclusive (seconds)
cut -d, -f1-6 rows.csv > got.csv
cat > want.csv <<'ROWS'
name,num_ranks,num_calls,total_duration,inclusive_duration,exclusive_duration
setup,2,2,0.06,0.06,0.06
timestep,2,10,0.15000000000000002,0.15000000000000002,0.10500000000000001
solve,2,10,0.045,0.045,0.045
ROWS
diff want.csv got.csv || fail "summary rows differ"

"$cli" inspect agg.h5 --format csv --per-rank > per_rank.csv 2> err.txt || fail "--per-rank: $(cat err.txt)"
grep -q '^timestep,1,5,0\.1,' per_rank.csv || fail "per-rank rows: $(cat per_rank.csv)"

"$cli" stats agg.h5 -o stats.json 2> err.txt || fail "stats: $(cat err.txt)"
grep -q '"count": 10' stats.json || fail "stats.json: $(cat stats.json)"
"$cli" metadata agg.h5 -o meta.json 2> err.txt || fail "metadata: $(cat err.txt)"

set +e
"$cli" events agg.h5 > events.out 2> events.err
rc=$?
set -e
[ "$rc" = 2 ] || fail "events exited $rc"
grep -q 'aggregate' events.err || fail "events message: $(cat events.err)"
echo "aggregate file: every command works"
