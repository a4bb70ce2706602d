#!/bin/sh
# The fixture pair of tests/fixtures/compare/ (written by the Python package
# 0.7.3, with its CLI's outputs): every case's stdout byte for byte and its
# exit status. Runs in the fixture directory, as the outputs were made there
# (the titles print the relative path).
#
#   run_fixtures.sh FIXTURE_DIR BIN_DIR
set -u
dir=$1
bin=$2
cd "$dir" || exit 1
NO_COLOR=1
TERM=dumb
# The Python package does not fit its tables to a width (the diff table is
# 81 columns): COLUMNS=0 is our "no limit", the mode that reproduces it.
COLUMNS=0
export NO_COLOR TERM COLUMNS
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
cases=0
while read -r slug options; do
    cases=$((cases + 1))
    cmd=${slug%%_*}
    cmd=${cmd%%.*}
    # shellcheck disable=SC2086
    "$bin/scope-profiler" $cmd shift_a.h5 shift_b.h5 $options >"$tmp/out" 2>"$tmp/err"
    rc=$?
    want_rc=$(cat "shift.$slug.rc")
    if [ "$rc" != "$want_rc" ]; then
        echo "FAIL $slug: exit status $rc, expected $want_rc"
        fail=1
    fi
    if ! cmp -s "$tmp/out" "shift.$slug.stdout"; then
        echo "FAIL $slug: stdout differs from shift.$slug.stdout"
        diff "shift.$slug.stdout" "$tmp/out" | head -20
        fail=1
    fi
    if [ -s "$tmp/err" ]; then
        echo "FAIL $slug: unexpected stderr:"
        head -5 "$tmp/err"
        fail=1
    fi
    [ "$fail" = 0 ] && echo "ok: $slug"
done <<'CASES'
diff
diff_metric-avg --metric avg
diff_metric-p95 --metric p95
diff_metric-calls --metric calls
diff_sort-pct --sort pct
diff_threshold-5 --threshold 5
check_max-regression-5 --max-regression 5
check_max-regression-50 --max-regression 50
check_max-regression-50_fail-on-new --max-regression 50 --fail-on-new
check_fail-on-new --fail-on-new
CASES
# Every fixture output has its case above.
outputs=$(ls shift.*.stdout | wc -l)
if [ "$outputs" != "$cases" ]; then
    echo "FAIL: $outputs fixture outputs, $cases cases"
    fail=1
fi
exit "$fail"
