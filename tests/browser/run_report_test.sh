#!/bin/sh
# Draws a report or charts with the built scope-profiler, then opens them in
# headless Chromium (check_report.js).
#
#   run_report_test.sh BIN_DIR OUT_DIR report FILE EXPECTED_ROWS_JSON
#   run_report_test.sh BIN_DIR OUT_DIR hostile FILE
#   run_report_test.sh BIN_DIR OUT_DIR svg FILE...
set -eu
bin=$1
out=$2
mode=$3
shift 3
here=$(dirname "$0")
mkdir -p "$out"
case $mode in
report | hostile)
    "$bin/scope-profiler" report "$1" -o "$out/$mode.html" >/dev/null
    if [ "$mode" = report ]; then
        exec node "$here/check_report.js" report "$out/$mode.html" "$2" --screenshot "$out/report.png"
    fi
    exec node "$here/check_report.js" hostile "$out/$mode.html"
    ;;
svg)
    for f in "$@"; do
        stem=$(basename "$f" .h5)
        "$bin/scope-profiler" plot all "$f" -o "$out/$stem" >/dev/null
    done
    exec node "$here/check_report.js" svg "$out"/*/*.svg
    ;;
esac
echo "run_report_test.sh: unknown mode $mode" >&2
exit 2
