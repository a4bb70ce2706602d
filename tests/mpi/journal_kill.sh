#!/bin/sh
# mpirun -np 3 where rank 1 is killed: every rank's journal is left, and
# recover joins them into one profile with each rank's calls.
#
#   journal_kill.sh PROGRAM SCOPE_PROFILER MPIRUN [MPIRUN FLAGS...]
set -u
program=$1
cli=$2
shift 2
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
mkdir out journals || exit 1
SCOPE_PROFILER_JOURNAL_DIR="$dir/journals" SCOPE_PROFILER_QUIET=1 \
    timeout 100 "$@" -np 3 "$program" out/run.h5 >stdout.txt 2>stderr.txt &&
    fail "mpirun succeeded although rank 1 was killed"
[ ! -e out/run.h5 ] || fail "a profile was written"
n=$(ls journals | grep -c 'run.h5.journal-')
[ "$n" = 3 ] || { ls -la journals; cat stderr.txt; fail "$n journals, expected 3"; }
"$cli" recover journals/run.h5.journal-* -o out/recovered.h5 >recover.txt 2>&1 ||
    { cat recover.txt; fail "recover failed"; }
"$cli" inspect out/recovered.h5 --format csv --per-rank --include work >rows.csv 2>&1 ||
    { cat rows.csv; fail "inspect failed"; }
col=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "num_calls") print i }' rows.csv)
got=$(awk -F, -v c="$col" 'NR > 1 && $1 == "work" { print $2 ":" $c }' rows.csv | sort | tr '\n' ' ')
want="0:$(cat counts.0) 1:$(cat counts.1) 2:$(cat counts.2) "
[ "$got" = "$want" ] || { cat rows.csv recover.txt; fail "recovered '$got', expected '$want'"; }
grep -q "rank 1: .*SIGKILL" recover.txt || "$cli" metadata out/recovered.h5 | grep -q 'SIGKILL' ||
    { cat recover.txt; fail "the killed rank's ending is not reported"; }
echo "mpirun -np 3 with rank 1 killed: every rank recovered"
