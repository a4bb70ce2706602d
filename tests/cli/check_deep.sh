#!/bin/sh
# The depth cap on deep call trees (issue 22 item 3; docs/robustness.md,
# "Deep call trees"): inspect, diff --by path, the report and the Gantt of a
# 4,000- and a 100,000-deep chain of distinct regions (make_deep.c) stay
# bounded by the cap, not by the depth.
#
#   check_deep.sh SCOPE_PROFILER WORK_DIR
set -u
sp=$1
work=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "check_deep: $*" >&2
    exit 1
}
export NO_COLOR=1

# inspect: 255 path rows (each with an "(own)" row but the last), then the
# fold row holding the other calls: 3,745 and 99,745 of them, 2 us own each.
check_inspect() { # FILE FOLDED TOTAL
    "$sp" inspect "$work/$1" --regions-only --suppress-notes --width 0 \
        --columns region calls total >"$tmp/out" 2>"$tmp/err" || fail "inspect $1 failed"
    test ! -s "$tmp/err" || fail "inspect $1 wrote to stderr: $(cat "$tmp/err")"
    bytes=$(wc -c <"$tmp/out")
    rows=$(($(grep -c '^  │' "$tmp/out") - 1)) # less the header
    own=$(grep -c '(own)' "$tmp/out")
    fold=$(grep '…(' "$tmp/out" | sed 's/^[^…]*//; s/ *│ *$//; s/  */ /g')
    echo "inspect $1: $bytes bytes, $rows rows ($own own), fold row: $fold"
    test "$rows" -eq 511 || fail "inspect $1: $rows rows, expected 511"
    test "$own" -eq 255 || fail "inspect $1: $own (own) rows, expected 255"
    test "$fold" = "…($2 levels) $2 $3" ||
        fail "inspect $1: fold row \"$fold\", expected \"…($2 levels) $2 $3\""
    # every row is as wide as the deepest (255 tree prefixes): the cap bounds it
    test "$bytes" -lt 800000 || fail "inspect $1: $bytes bytes"
}
check_inspect deep_chain.h5 3745 "14.0 s"
check_inspect deep_chain_100k.h5 99745 "9949 s"

# diff --by path keys its rows by the same capped paths.
for case in deep_chain.h5:3745 deep_chain_100k.h5:99745; do
    f=${case%:*}
    "$sp" diff "$work/$f" "$work/$f" --by path >"$tmp/diff" 2>"$tmp/err" ||
        fail "diff --by path $f failed"
    "$sp" diff "$work/$f" "$work/$f" --by path --format csv >"$tmp/csv" 2>>"$tmp/err" ||
        fail "diff --by path --format csv $f failed"
    bytes=$(wc -c <"$tmp/diff")
    keys=$(($(wc -l <"$tmp/csv") - 1))
    echo "diff --by path $f: $bytes bytes, $keys call paths"
    test "$keys" -eq 256 || fail "diff --by path $f: $keys call paths, expected 256"
    grep -q "^c0 > c1 > .* > c254 > …(${case#*:} levels)," "$tmp/csv" ||
        fail "diff --by path $f: no fold row of ${case#*:} levels"
    test "$bytes" -lt 200000 || fail "diff --by path $f: $bytes bytes"
done

"$sp" report "$work/deep_chain_100k.h5" -o "$tmp/report.html" >/dev/null 2>"$tmp/err" ||
    fail "report failed: $(cat "$tmp/err")"
mkdir "$tmp/gantt"
"$sp" plot gantt "$work/deep_chain_100k.h5" -o "$tmp/gantt" >/dev/null 2>"$tmp/err" ||
    fail "gantt failed: $(cat "$tmp/err")"
r=$(wc -c <"$tmp/report.html")
g=$(cat "$tmp"/gantt/*.svg | wc -c)
echo "report $r bytes, gantt $g bytes (100,000-deep chain)"
test "$r" -lt 3000000 || fail "report of the 100,000-deep chain: $r bytes"
test "$g" -lt 100000 || fail "gantt of the 100,000-deep chain: $g bytes"
exit 0
