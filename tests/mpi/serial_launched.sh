#!/bin/sh
# A serial-library program under mpirun -np 2: one warning, one file per
# process with the rank in its name, and merge joins them into 2 ranks.
#
#   serial_launched.sh PROGRAM SCOPE_PROFILER MPIRUN [MPIRUN FLAGS...]
set -u
program=$1
cli=$2
shift 2
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
mkdir out || exit 1
SCOPE_PROFILER_QUIET=1 SCOPE_PROFILER_OUTPUT=out/run.h5 "$@" -np 2 "$program" >stdout.txt 2>stderr.txt || { cat stderr.txt; fail "mpirun failed"; }
[ -f out/run.rank0.h5 ] && [ -f out/run.rank1.h5 ] || { ls out; fail "no per-rank files"; }
[ ! -e out/run.h5 ] || fail "out/run.h5 was written by a serial process"
[ "$(grep -c 'serial library: each process writes its own file' stderr.txt)" = 1 ] ||
    { cat stderr.txt; fail "expected exactly one warning"; }
"$cli" merge 'out/run.rank*.h5' -o out/run.h5 >merge.txt 2>&1 || { cat merge.txt; fail "merge failed"; }
"$cli" inspect out/run.h5 --format csv --per-rank --include step >rows.csv 2>&1 || fail "inspect failed"
ranks=$(awk -F, 'NR > 1 && $1 == "step" { print $2 }' rows.csv | sort | tr '\n' ' ')
[ "$ranks" = "0 1 " ] || { cat rows.csv; fail "merged ranks are '$ranks', expected '0 1 '"; }
calls=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "num_calls") c = i } NR > 1 && $1 == "step" { s += $c } END { print s }' rows.csv)
[ "$calls" = 6 ] || { cat rows.csv; fail "merged calls $calls, expected 6"; }
echo "serial program under mpirun -np 2: passed"
